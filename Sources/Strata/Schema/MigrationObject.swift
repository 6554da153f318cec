import Foundation
internal import StrataCore
internal import StrataStorage

/// One object inside a migration: read and write its properties by name.
///
/// An old object reads the values the file had before the migration (its links and lists give
/// old objects); a new object reads and writes the migrated values (links and lists give new
/// objects, and accept new objects, unmanaged objects, arrays and dictionaries of them).
///
/// ## Concurrency
/// Not `Sendable`; valid only inside the migration block.
@dynamicMemberLookup
public final class MigrationObject {
    /// The object's class name (its old name for an old object).
    public let className: String
    unowned let migration: Migration
    let table: StoreTable?
    let binding: TableBinding?
    let key: Int64
    let isOld: Bool

    init(migration: Migration, className: String, table: StoreTable?, binding: TableBinding?, key: Int64, isOld: Bool) {
        self.migration = migration
        self.className = className
        self.table = table
        self.binding = binding
        self.key = key
        self.isOld = isOld
    }

    var realm: Realm { migration.realm }

    /// The value of the property named `name`: Int, String, Double, Float, Bool, Date, Data,
    /// ObjectId, UUID, Decimal128 or nil; a `MigrationObject` for a link; an array (List,
    /// MutableSet) or dictionary (Map) of those. Writing it (new objects only) stores the value.
    ///
    /// A new object names properties as the model does (Swift names); an old object as the file
    /// stores them (the stored names of `propertiesMapping()`, which the file's schema records,
    /// as RealmSwift's old objects do).
    public subscript(name: String) -> Any? {
        get {
            guard let table, let c = column(named: name, in: table) else { return nil }
            let txn = isOld ? migration.old : migration.txn
            guard let row = (try? txn.row(table, key: key)) ?? nil else { return nil }
            let column = table.columns[c]
            if column.collection != .none { return collection(column, c, row.value(c)) }
            return plain(row.value(c), column: column)
        }
        set {
            guard !isOld, let binding, let i = binding.propertyIndexByName[name] else {
                realm.fail(
                    Realm.Error(
                        .schemaMismatch,
                        "'\(className)' has no property '\(name)' in the new schema; only the new object of enumerateObjects can be written."
                    ))
                return
            }
            do {
                let p = binding.schema.properties[i]
                let value = try realm.propertyValue(fromAny: migration.migrationValue(newValue), property: p)
                var realmState = try realm.coreValue(value, property: p, update: .all)
                let column = binding.table.columns[binding.columns[i]]
                if realmState.isNull, !column.isNullable, column.collection == .none, column.type != .mixed {
                    realmState = column.defaultValue
                }
                try migration.txn.set(binding.table, key: key, column: binding.columns[i], to: realmState)
            } catch {
                realm.fail(realm.translate(error, className: className))
            }
        }
    }

    /// The property named `member` (`old?.firstName`): the same as `self[member]`.
    public subscript(dynamicMember member: String) -> Any? {
        get { self[member] }
        set { self[member] = newValue }
    }

    /// The column of property `name`: by Swift name for a new object of a model, by stored name
    /// otherwise.
    func column(named name: String, in table: StoreTable) -> Int? {
        if !isOld, let binding {
            return binding.propertyIndexByName[name].map { binding.columns[$0] }
        }
        return table.columnIndex[name]
    }

    func plain(_ v: StoreValue, column: StoreColumn) -> Any? {
        switch v {
        case .link(let k):
            guard let target = column.targetTable else { return nil }
            return linked(target, key: k)
        case .typedLink(let t, let k):
            return linked(t, key: k)
        case .list(let l): return l.map { plain($0, column: column) as Any }
        case .map(let m): return m.mapValues { plain($0, column: column) as Any }
        default: return MigrationObject.scalar(v)
        }
    }

    func linked(_ target: String, key: Int64) -> MigrationObject? {
        if isOld {
            guard let t = migration.oldTables[target] else { return nil }
            return MigrationObject(
                migration: migration, className: target, table: t, binding: nil, key: key, isOld: true)
        }
        let b = realm.binding(named: target) ?? realm.dynamicBinding(named: target)
        guard let t = b?.table ?? migration.others[target] else { return nil }
        return MigrationObject(migration: migration, className: target, table: t, binding: b, key: key, isOld: false)
    }

    static func scalar(_ v: StoreValue) -> Any? {
        switch v {
        case .null: return nil
        case .int(let i): return Int(i)
        case .bool(let b): return b
        case .float(let f): return f
        case .double(let d): return d
        case .string(let s): return s
        case .data(let d): return Data(d)
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
