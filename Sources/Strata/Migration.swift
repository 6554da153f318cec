import Foundation
import StrataCore

/// What a migration block receives: the objects of the old schema and their migrated
/// counterparts, with RealmSwift's methods.
///
/// ```swift
/// config.migrationBlock = { migration, oldSchemaVersion in
///     if oldSchemaVersion < 2 {
///         migration.enumerateObjects(ofType: "Person") { old, new in
///             new!["fullName"] = "\(old!["firstName"] as! String) \(old!["lastName"] as! String)"
///         }
///     }
/// }
/// ```
///
/// ## Concurrency
/// Not `Sendable`; valid only inside the migration block.
public final class Migration {
    let realm: Realm
    let txn: StoreTransaction
    /// Old rows by class name: key -> values by property name (old schema).
    var oldRows: [String: [(Int64, [String: CoreValue])]]
    let oldTables: [String: CoreTable]

    init(realm: Realm, txn: StoreTransaction, oldRows: [String: [(Int64, [String: CoreValue])]], oldTables: [String: CoreTable]) {
        self.realm = realm
        self.txn = txn
        self.oldRows = oldRows
        self.oldTables = oldTables
    }

    /// Calls `block` for each object of the class named `typeName`, with its values in the old
    /// schema (read-only) and the migrated object (writable; nil if the object was deleted).
    public func enumerateObjects(ofType typeName: String, _ block: (_ oldObject: MigrationObject?, _ newObject: MigrationObject?) -> Void) {
        let binding = realm.binding(named: typeName)
        let rows: [(Int64, [String: CoreValue])]
        if let r = oldRows[typeName] {
            rows = r
        } else if let b = binding {
            var all: [(Int64, [String: CoreValue])] = []
            try? txn.forEachRow(b.table) { row in
                var values: [String: CoreValue] = [:]
                for (i, c) in b.table.columns.enumerated() { values[c.name] = row.value(i) }
                all.append((row.key, values))
                return true
            }
            rows = all
        } else {
            return
        }
        for (key, values) in rows {
            let old = MigrationObject(className: typeName, values: values, realm: realm, table: oldTables[typeName], binding: nil, key: key)
            var new: MigrationObject?
            if let b = binding, (try? txn.row(b.table, key: key)) ?? nil != nil {
                new = MigrationObject(className: typeName, values: [:], realm: realm, table: b.table, binding: b, key: key)
            }
            block(old, new)
        }
    }

    /// Creates an object of the class named `typeName` from a dictionary or array value, as
    /// `Realm.create` does, and returns it.
    @discardableResult
    public func create(_ typeName: String, value: Any = [:]) -> MigrationObject {
        guard let b = realm.binding(named: typeName) else {
            realm.fail(Realm.Error(.schemaMismatch, "Migration.create: there is no class named '\(typeName)' in the new schema."))
            return MigrationObject(className: typeName, values: [:], realm: realm, table: nil, binding: nil, key: -1)
        }
        let o = realm.createObject(b, value: value, update: .error)
        let key = o?._strataManaged?.key ?? -1
        return MigrationObject(className: typeName, values: [:], realm: realm, table: b.table, binding: b, key: key)
    }

    /// Deletes a migrated object.
    public func delete(_ object: MigrationObject) {
        guard let b = object.binding else { return }
        do { _ = try txn.delete(b.table, key: object.key) } catch { realm.fail(realm.translate(error, className: b.className)) }
    }

    /// Deletes every object of the class named `typeName` (and, when the new schema no longer has
    /// the class, its table). Returns whether there was anything to delete.
    @discardableResult
    public func deleteData(forType typeName: String) -> Bool {
        do {
            if let b = realm.binding(named: typeName) {
                let had = try txn.count(b.table) > 0
                try txn.deleteAll(b.table)
                oldRows[typeName] = []
                return had
            }
            if oldTables[typeName] != nil {
                try txn.dropTable(typeName)
                oldRows[typeName] = nil
                return true
            }
        } catch {
            realm.fail(realm.translate(error, className: typeName))
        }
        return false
    }

    /// Moves the values of property `oldName` to `newName` for every object of `typeName`.
    public func renameProperty(onType typeName: String, from oldName: String, to newName: String) {
        guard let b = realm.binding(named: typeName), let i = b.propertyIndexByName[newName] else {
            realm.fail(Realm.Error(.schemaMismatch, "Cannot rename '\(typeName).\(oldName)' to '\(newName)': the new schema has no property '\(newName)' on '\(typeName)'."))
            return
        }
        guard let rows = oldRows[typeName] else { return }
        let c = b.columns[i]
        for (key, values) in rows {
            guard let v = values[oldName] else { continue }
            do { try txn.set(b.table, key: key, column: c, to: v) } catch { realm.fail(realm.translate(error, className: typeName)) }
        }
    }
}

/// One object inside a migration: read and write its properties by name.
///
/// ## Concurrency
/// Not `Sendable`; valid only inside the migration block.
public final class MigrationObject {
    /// The object's class name.
    public let className: String
    let values: [String: CoreValue]
    let realm: Realm
    let table: CoreTable?
    let binding: TableBinding?
    let key: Int64

    init(className: String, values: [String: CoreValue], realm: Realm, table: CoreTable?, binding: TableBinding?, key: Int64) {
        self.className = className
        self.values = values
        self.realm = realm
        self.table = table
        self.binding = binding
        self.key = key
    }

    /// The value of the property named `name` (Int, String, Double, Bool, Date, Data, ObjectId,
    /// UUID, Decimal128, nil, or an array/dictionary for collections); writing it (new objects
    /// only) stores the value.
    public subscript(name: String) -> Any? {
        get {
            let core: CoreValue
            if let binding, let i = binding.propertyIndexByName[name] {
                guard let row = (try? realm.current().row(binding.table, key: key)) ?? nil else { return nil }
                core = row.value(binding.columns[i])
            } else if let v = values[name] {
                core = v
            } else {
                return nil
            }
            return Self.plain(core)
        }
        set {
            guard let binding, let i = binding.propertyIndexByName[name] else {
                realm.fail(Realm.Error(.schemaMismatch, "'\(className)' has no property '\(name)' in the new schema; only the new object of enumerateObjects can be written."))
                return
            }
            do {
                let p = binding.schema.properties[i]
                let value = try realm.propertyValue(fromAny: newValue, property: p)
                let core = try realm.coreValue(value, property: p, update: .all)
                try realm.current().set(binding.table, key: key, column: binding.columns[i], to: core)
            } catch {
                realm.fail(realm.translate(error, className: className))
            }
        }
    }

    static func plain(_ v: CoreValue) -> Any? {
        switch v {
        case .null: return nil
        case .int(let i): return Int(i)
        case .bool(let b): return b
        case .float(let f): return f
        case .double(let d): return d
        case .string(let s): return s
        case .data(let d): return Data(d)
        case .list(let l): return l.map(plain)
        case .map(let m): return m.mapValues(plain)
        case .link(let k), .typedLink(_, let k): return k
        default:
            switch propertyScalar(v) {
            case .date(let d): return d
            case .objectId(let o): return o
            case .uuid(let u): return u
            case .decimal128(let d): return d
            default: return nil
            }
        }
    }
}

extension Realm {
    /// Migrates the rows of `migrating` classes to their new tables (values of unchanged
    /// properties carried by name), runs the migration block, then rebuilds the indexes and
    /// backlinks of what changed.
    func runMigration(_ txn: StoreTransaction, stored: [String: CoreTable], migrating: [(any ObjectSchemaProviding.Type, CoreTable)],
                      oldVersion: UInt64, block: MigrationBlock? = nil) throws {
        var oldRows: [String: [(Int64, [String: CoreValue])]] = [:]
        for (t, desired) in migrating {
            guard let old = stored[desired.name] else { continue }
            var rows: [(Int64, [String: CoreValue])] = []
            try txn.forEachRow(old) { row in
                var values: [String: CoreValue] = [:]
                for (i, c) in old.columns.enumerated() { values[c.name] = row.value(i) }
                rows.append((row.key, values))
                return true
            }
            oldRows[desired.name] = rows
            // The clusters were encoded for the old columns: write every object again.
            try txn.dropTree(desired.objectTree)
            try txn.storeTable(desired)
            txn.tables[desired.name] = desired
            install(t, table: desired)
            for (key, values) in rows {
                let newValues = desired.columns.map { c -> CoreValue in
                    guard let v = values[c.name], let oc = old.columns.first(where: { $0.name == c.name }),
                          oc.type == c.type, oc.collection == c.collection else { return c.defaultValue }
                    if v.isNull && !c.isNullable && c.collection == .none && c.type != .mixed { return c.defaultValue }
                    return v
                }
                try txn.replaceRow(desired, key: key, values: newValues)
            }
        }
        // Index and primary-key trees of migrated classes are rebuilt from their rows first, so
        // the migration block can look objects up; then once more after it.
        for (_, desired) in migrating {
            try txn.rebuildIndexes(desired, columns: desired.columns.indices.filter { desired.columns[$0].hasIndexTree }, primaryKey: true)
        }
        if let block = block ?? configuration.migrationBlock {
            let migration = Migration(realm: self, txn: txn, oldRows: oldRows, oldTables: stored)
            block(migration, oldVersion)
            if let e = pendingError { pendingError = nil; throw e }
        }
        for (_, desired) in migrating {
            do {
                try txn.rebuildIndexes(desired, columns: desired.columns.indices.filter { desired.columns[$0].hasIndexTree }, primaryKey: true)
            } catch let e as CoreError {
                throw Realm.Error(.primaryKeyExists, "After the migration, \(e.description) Give each object a unique primary key in the migration block.")
            }
        }
        if !migrating.isEmpty { try txn.rebuildBacklinks(Array(txn.tables.values)) }
    }
}
