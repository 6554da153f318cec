import Foundation
internal import StrataCore
internal import StrataStorage

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
/// Old objects are read from the version of the file before the migration began (its old schema
/// and names); new objects are the migrated ones, in the new schema. Renames recorded in the
/// schema history are already applied when the block runs.
///
/// ## Concurrency
/// Not `Sendable`; valid only inside the migration block.
public final class Migration {
    let realm: Realm
    let txn: StoreTransaction
    /// The file as it was before the migration (old schema).
    let old: StoreTransaction
    /// Stored (old) tables by their old names.
    let oldTables: [String: StoreTable]
    /// The old name of each class that has one in the file, by new name (renames applied).
    let oldNames: [String: String]
    /// Stored tables no model declares, by name (deleteData may drop them).
    var others: [String: StoreTable]

    init(
        realm: Realm, txn: StoreTransaction, old: StoreTransaction, oldTables: [String: StoreTable],
        oldNames: [String: String], others: [String: StoreTable]
    ) {
        self.realm = realm
        self.txn = txn
        self.old = old
        self.oldTables = oldTables
        self.oldNames = oldNames
        self.others = others
    }

    /// The schema of the file before the migration: its classes as stored then (old names,
    /// old properties), with the old schema version.
    public var oldSchema: Schema {
        let version: UInt64? = try? old.schemaVersion()
        return Schema(
            schemaVersion: version ?? 0, storedObjectSchemas: oldTables.values.map(ObjectSchema.init(stored:)))
    }

    /// The schema the migration leads to: the classes of the configuration, as the file stores
    /// them once migrated, with the new schema version.
    public var newSchema: Schema {
        (try? Schema(txn, schemaVersion: realm.configuration.schemaVersion))
            ?? Schema(schemaVersion: realm.configuration.schemaVersion, storedObjectSchemas: [])
    }

    /// Calls `block` for each object the class named `typeName` had before the migration, with its
    /// values in the old schema (read-only) and the migrated object (writable). Objects deleted
    /// during the migration are skipped, objects created during it are not enumerated (as in
    /// RealmSwift). A class the old file does not have enumerates nothing.
    public func enumerateObjects(
        ofType typeName: String, _ block: (_ oldObject: MigrationObject?, _ newObject: MigrationObject?) -> Void
    ) {
        let oldName = oldNames[typeName] ?? typeName
        guard let oldTable = oldTables[oldName] else { return }
        var keys: [Int64] = []
        do {
            try old.forEachRow(oldTable) { row in
                keys.append(row.key); return true
            }
        } catch {
            realm.fail(realm.translate(error, className: typeName))
            return
        }
        let binding = realm.binding(named: typeName)
        let otherTable = binding == nil ? others[typeName] : nil
        for key in keys {
            let oldObject = MigrationObject(
                migration: self, className: oldName, table: oldTable, binding: nil, key: key, isOld: true)
            var newObject: MigrationObject?
            if let b = binding {
                guard (try? txn.exists(b.table, key: key)) == true else { continue }
                newObject = MigrationObject(
                    migration: self, className: typeName, table: b.table, binding: b, key: key, isOld: false)
            } else if let t = otherTable {
                guard (try? txn.exists(t, key: key)) == true else { continue }
            }
            block(oldObject, newObject)
        }
    }

    /// Creates an object of the class named `typeName` from a dictionary or array value, as
    /// `Realm.create` does, and returns it.
    @discardableResult
    public func create(_ typeName: String, value: Any = [:]) -> MigrationObject {
        guard let b = realm.binding(named: typeName) else {
            realm.fail(
                Realm.Error(
                    .schemaMismatch, "Migration.create: there is no class named '\(typeName)' in the new schema."))
            return MigrationObject(
                migration: self, className: typeName, table: nil, binding: nil, key: -1, isOld: false)
        }
        let o = realm.createObject(b, value: migrationValue(value) ?? [:], update: .error)
        let key = o?._strataManaged?.key ?? -1
        return MigrationObject(migration: self, className: typeName, table: b.table, binding: b, key: key, isOld: false)
    }

    /// Deletes a migrated object (links to it are removed, as `Realm.delete` does).
    public func delete(_ object: MigrationObject) {
        guard !object.isOld, let table = object.binding?.table ?? others[object.className] else {
            realm.fail(
                Realm.Error(
                    .invalidValue,
                    "Migration.delete: only a new object can be deleted, not an old object of '\(object.className)'."))
            return
        }
        do { _ = try txn.delete(table, key: object.key) } catch {
            realm.fail(realm.translate(error, className: object.className))
        }
    }

    /// Deletes every object of the class named `typeName` (removing the links to them) and, when
    /// the new schema no longer has the class, its table. Returns whether the file had the class.
    @discardableResult
    public func deleteData(forType typeName: String) -> Bool {
        do {
            if let b = realm.binding(named: typeName) {
                try txn.deleteAll(b.table)
                return oldTables[oldNames[typeName] ?? typeName] != nil
            }
            if let t = others[typeName] {
                try txn.deleteAll(t)
                try txn.dropTable(typeName)
                others[typeName] = nil
                return true
            }
        } catch {
            realm.fail(realm.translate(error, className: typeName))
        }
        return false
    }

    /// Moves the values that property `oldName` had before the migration to property `newName`,
    /// for every object of `typeName` (RealmSwift's rename; a rename recorded in the schema
    /// history needs no call). `oldName` is the name the file stores (the stored name, for a
    /// property the old model mapped with `propertiesMapping()`); `newName` is the model's Swift
    /// name (its stored name is accepted too).
    public func renameProperty(onType typeName: String, from oldName: String, to newName: String) {
        guard let b = realm.binding(named: typeName),
            let i = b.propertyIndexByName[newName]
                ?? b.schema.properties.firstIndex(where: { $0.columnName == newName })
        else {
            realm.fail(
                Realm.Error(
                    .schemaMismatch,
                    "Cannot rename '\(typeName).\(oldName)' to '\(newName)': the new schema has no property '\(newName)' on '\(typeName)'."
                ))
            return
        }
        guard let oldTable = oldTables[oldNames[typeName] ?? typeName], let oc = oldTable.columnIndex[oldName] else {
            return
        }
        let c = b.columns[i]
        let (o, n) = (oldTable.columns[oc], b.table.columns[c])
        guard o.type == n.type, o.collection == n.collection, o.targetTable == n.targetTable || o.type != .link else {
            realm.fail(
                Realm.Error(
                    .schemaMismatch,
                    "Cannot rename '\(typeName).\(oldName)' to '\(newName)': the old property is '\(SchemaPlan.describe(o))' and the new one '\(SchemaPlan.describe(n))'."
                ))
            return
        }
        do {
            var pairs: [(Int64, StoreValue)] = []
            try old.forEachRow(oldTable) { row in
                pairs.append((row.key, row.value(oc))); return true
            }
            for (key, v) in pairs where try txn.exists(b.table, key: key) {
                var value = v
                if value.isNull, !n.isNullable, n.collection == .none, n.type != .mixed { value = n.defaultValue }
                try txn.set(b.table, key: key, column: c, to: value)
            }
        } catch {
            realm.fail(realm.translate(error, className: typeName))
        }
    }

    /// `value` with migration objects replaced by the managed objects they stand for.
    func migrationValue(_ value: Any?) -> Any? {
        switch value {
        case let m as MigrationObject:
            guard !m.isOld, let b = m.binding else { return value }
            return realm.object(b, key: m.key)
        case let array as [Any]:
            return array.map { migrationValue($0) as Any }
        case let list as List<MigrationObject>:
            return list.map { migrationValue($0) as Any }
        case let set as MutableSet<MigrationObject>:
            return set.map { migrationValue($0) as Any }
        case let dict as [String: Any]:
            return dict.mapValues { migrationValue($0) as Any }
        default:
            return value
        }
    }
}

extension Realm {
    /// Brings the stored tables to `plan`'s (inside the schema transaction `txn`), runs the
    /// migration block when `isMigration` (the schema version was raised), and leaves every link,
    /// list, set, map, embedded object, backlink and index consistent:
    ///
    /// 1. Tables renamed away or rewritten lose their old trees; created and additive ones get
    ///    their new catalog records and index trees.
    /// 2. Rewritten tables are filled from the file as it was before the migration (read through
    ///    a snapshot, so nothing is held in memory), each object under its old key. While the
    ///    block runs they have no primary key, so the block may set or repair primary key values.
    /// 3. Backlinks of every stored table and the indexes of rewritten tables are rebuilt, so the
    ///    block's deletes and link edits find them.
    /// 4. After the block: primary keys are checked for uniqueness; a table whose `Int` primary
    ///    key is the object key is keyed by it again, and every link to its objects (in any table,
    ///    to-one, list, set, map or `AnyRealmValue`) follows. Object key counters move past the
    ///    largest key. Embedded objects without an owner are deleted; one with several owners is
    ///    an error. Backlinks and indexes are rebuilt once more.
    func runMigration(_ txn: StoreTransaction, plan: SchemaPlan, oldVersion: UInt64, isMigration: Bool) throws {
        guard txn.write != nil else { return }
        let oldRead: StoreTransaction
        let oldTables: [String: StoreTable]
        do {
            let read = try file.db.beginRead()
            oldRead = StoreTransaction(read: read)
            oldTables = try oldRead.storedTables()
        } catch {
            throw Realm.Error(storage: error, path: file.path)
        }
        defer { oldRead.read?.end() }
        var counters: [String: Int64] = [:]
        for (name, _) in oldTables {
            let k = Array(name.utf8)
            if let v = try k.withUnsafeBytes({ try oldRead.get($0, tree: StoreTransaction.counterTree) }), v.count == 8
            {
                counters[name] = Int64(bitPattern: UInt64(littleEndian: v.loadUnaligned(as: UInt64.self)))
            }
        }

        // 1. Old trees of renamed and rewritten tables go first (their rows are read from the snapshot).
        var dropped = Set(plan.renamedAway)
        for item in plan.items { if case .rewrite(let old, _) = item.action { dropped.insert(old.name) } }
        for name in dropped.sorted() { try txn.dropTable(name) }
        // Stored tables no model declares: new catalog records when a link target was renamed,
        // and their rows under the new name when they were renamed themselves.
        for name in plan.catalogChanged.sorted() {
            guard let table = plan.others[name] else { continue }
            try txn.storeTable(table)
            if let origin = plan.otherOrigins[name], origin != name, let old = oldTables[origin] {
                let maxKey = try copyRows(
                    from: old, in: oldRead, to: table, sources: table.columns.indices.map { Optional($0) }, txn: txn)
                try setKeyCounter(txn, table: name, next: max(counters[origin] ?? 0, maxKey &+ 1))
            }
        }

        var staging: [String: StoreTable] = [:]
        var oldNames: [String: String] = [:]
        for item in plan.items {
            let table = item.table
            switch item.action {
            case .same:
                install(item.type, table: item.stored ?? table)
                txn.tables[table.name] = item.stored ?? table
                oldNames[table.name] = table.name
            case .create:
                try txn.storeTable(table)
                install(item.type, table: table)
            case .additive(let newIndexes, let droppedIndexTrees):
                try txn.storeTable(table)
                for tree in droppedIndexTrees { try txn.dropTree(tree) }
                if !newIndexes.isEmpty { try txn.rebuildIndexes(table, columns: newIndexes) }
                install(item.type, table: table)
                oldNames[table.name] = table.name
            case .rewrite(let old, let sources):
                // 2. While the block runs: the new columns without primary key.
                let columns = table.columns.map { c -> StoreColumn in
                    var c = c
                    if c.isPrimaryKey { c.isIndexed = false }
                    c.isPrimaryKey = false
                    return c
                }
                let s = StoreTable(name: table.name, isEmbedded: table.isEmbedded, columns: columns)
                try txn.storeTable(s)
                let maxKey = try copyRows(from: old, in: oldRead, to: s, sources: sources, txn: txn)
                // Objects the block creates get keys past every copied one.
                try setKeyCounter(txn, table: s.name, next: max(counters[old.name] ?? 0, maxKey &+ 1))
                staging[table.name] = s
                install(item.type, table: s)
                oldNames[table.name] = old.name
            }
        }
        // 3. Backlinks of everything, indexes of the rewritten tables.
        let rewritten = Array(staging.values)
        if !rewritten.isEmpty || !dropped.isEmpty {
            try txn.rebuildBacklinks(Array(txn.tables.values))
            for s in rewritten { try txn.rebuildIndexes(s, columns: s.indexedColumnsList) }
        }

        if isMigration, let block = configuration.migrationBlock {
            let migration = Migration(
                realm: self, txn: txn, old: oldRead, oldTables: oldTables, oldNames: oldNames, others: plan.others)
            migration.whileActive { block(migration, oldVersion) }
            if let e = pendingError {
                pendingError = nil
                throw Realm.Error(
                    .schemaMismatch, "The migration block failed, so '\(file.path)' was left unchanged: \(e.message)",
                    path: file.path)
            }
            for name in plan.others.keys where migration.others[name] == nil { txn.tables[name] = nil }
        }

        // 4. Final tables: primary keys back, keys by Int primary key, links following.
        var keyMaps: [String: [Int64: Int64]] = [:]
        var finalRows: [String: [(Int64, [StoreValue])]] = [:]
        for item in plan.items {
            guard case .rewrite = item.action, let s = staging[item.table.name] else { continue }
            let final = item.table
            guard let pk = final.primaryKeyColumn else { continue }
            var rows: [(Int64, [StoreValue])] = []
            try txn.forEachRow(s) { row in
                rows.append((row.key, row.values())); return true
            }
            var seen: [[UInt8]: Int64] = [:]
            var map: [Int64: Int64] = [:]
            for (key, values) in rows {
                let v = values[pk]
                if seen.updateValue(key, forKey: IndexKey.encode(v)) != nil {
                    throw Realm.Error(
                        .primaryKeyExists,
                        "After the migration, two objects of '\(final.name)' have the primary key \(MigrationObject.scalar(v).map { "\($0)" } ?? "nil") ('\(final.columns[pk].name)'). Give each object a unique primary key in the migration block (or delete the duplicates).",
                        path: file.path)
                }
                if final.primaryKeyIsObjectKey {
                    if case .int(let k) = v, k == final.layout.nullKey {
                        throw Realm.Error(
                            .invalidValue,
                            "After the migration, an object of '\(final.name)' has the primary key \(k) ('\(final.columns[pk].name)'), which an optional Int primary key keeps for nil. Give it another key (or nil) in the migration block.",
                            path: file.path)
                    }
                    guard let newKey = StoreTransaction.objectKey(final, forKeyValue: v) else {
                        throw Realm.Error(
                            .invalidValue,
                            "After the migration, an object of '\(final.name)' has no Int primary key ('\(final.columns[pk].name)').",
                            path: file.path)
                    }
                    if newKey != key { map[key] = newKey }
                }
            }
            if !map.isEmpty { keyMaps[final.name] = map }
            finalRows[final.name] = rows
        }
        // Rewritten tables with a primary key: written again with the final layout and keys.
        for item in plan.items {
            guard let rows = finalRows[item.table.name], let s = staging[item.table.name] else { continue }
            let final = item.table
            try txn.dropTree(s.objectTree)
            try txn.storeTable(final)
            let map = keyMaps[final.name] ?? [:]
            for (key, values) in rows {
                try txn.replaceRow(
                    final, key: map[key] ?? key,
                    values: keyMaps.isEmpty ? values : remap(values, columns: final.columns, keyMaps))
            }
            staging[final.name] = final
            install(item.type, table: final)
        }
        // Links to re-keyed objects from every other table.
        if !keyMaps.isEmpty {
            for (name, table) in txn.tables where finalRows[name] == nil {
                let affected = table.columns.indices.filter { c in
                    let col = table.columns[c]
                    return col.type == .mixed || (col.type == .link && keyMaps[col.targetTable ?? ""] != nil)
                }
                guard !affected.isEmpty else { continue }
                var changes: [(Int64, [StoreValue])] = []
                try txn.forEachRow(table) { row in
                    let values = row.values()
                    let updated = remap(values, columns: table.columns, keyMaps)
                    if updated != values { changes.append((row.key, updated)) }
                    return true
                }
                for (key, values) in changes { try txn.replaceRow(table, key: key, values: values) }
                if !changes.isEmpty { try txn.rebuildIndexes(table, columns: table.indexedColumnsList) }
            }
        }
        if !rewritten.isEmpty || !dropped.isEmpty || isMigration {
            try txn.rebuildBacklinks(Array(txn.tables.values))
            try removeOrphanedEmbeddedObjects(txn)
        }
        for item in plan.items {
            guard case .rewrite = item.action else { continue }
            do {
                try txn.rebuildIndexes(item.table, columns: item.table.indexedColumnsList, primaryKey: true)
            } catch let e as StoreError {
                throw Realm.Error(
                    .primaryKeyExists,
                    "After the migration, \(e.description) Give each object a unique primary key in the migration block.",
                    path: file.path)
            }
        }
    }

    /// Writes every object of `old` (read from `snapshot`) into `table` under its key, column `i`
    /// taking old column `sources[i]` (nil: the column's default; a null where the new column is
    /// required: the default).
    /// - Returns: the largest key copied (-1 for none).
    @discardableResult
    func copyRows(
        from old: StoreTable, in snapshot: StoreTransaction, to table: StoreTable, sources: [Int?],
        txn: StoreTransaction
    ) throws -> Int64 {
        var maxKey: Int64 = -1
        var batch: [(Int64, [StoreValue])] = []
        func flush() throws {
            for (key, values) in batch { try txn.replaceRow(table, key: key, values: values) }
            batch.removeAll(keepingCapacity: true)
        }
        try snapshot.forEachRow(old) { row in
            let values = table.columns.indices.map { i -> StoreValue in
                let c = table.columns[i]
                guard let j = sources[i] else { return c.defaultValue }
                let v = row.value(j)
                if v.isNull, !c.isNullable, c.collection == .none, c.type != .mixed { return c.defaultValue }
                if c.collection != .none, !c.isNullable, case .list(let elements) = v,
                    elements.contains(where: \.isNull), c.type != .mixed
                {
                    return .list(elements.map { $0.isNull ? StoreColumn(name: "", type: c.type).defaultValue : $0 })
                }
                return v
            }
            batch.append((row.key, values))
            maxKey = max(maxKey, row.key)
            if batch.count == 4096 { try flush() }
            return true
        }
        try flush()
        return maxKey
    }

    /// Sets the next object key of `table` (FORMAT.md, the `k:` tree).
    func setKeyCounter(_ txn: StoreTransaction, table: String, next: Int64) throws {
        try txn.putRaw(
            Array(table.utf8), withUnsafeBytes(of: UInt64(bitPattern: next).littleEndian) { Array($0) },
            tree: StoreTransaction.counterTree)
    }

    /// `values` with links to re-keyed objects following their objects.
    func remap(_ values: [StoreValue], columns: [StoreColumn], _ maps: [String: [Int64: Int64]]) -> [StoreValue] {
        values.indices.map { i in
            let c = columns[i]
            if c.type == .link, let map = maps[c.targetTable ?? ""] {
                return Self.remap(values[i], map: map, typed: nil)
            }
            if c.type == .mixed { return Self.remap(values[i], map: [:], typed: maps) }
            return values[i]
        }
    }

    static func remap(_ v: StoreValue, map: [Int64: Int64], typed: [String: [Int64: Int64]]?) -> StoreValue {
        switch v {
        case .link(let k): return .link(map[k] ?? k)
        case .typedLink(let t, let k): return .typedLink(table: t, key: typed?[t]?[k] ?? k)
        case .list(let l): return .list(l.map { remap($0, map: map, typed: typed) })
        case .map(let m): return .map(m.mapValues { remap($0, map: map, typed: typed) })
        default: return v
        }
    }

    /// Deletes embedded objects no object links to (their owner's link was removed by the
    /// migration); an embedded object with several owners is an error.
    func removeOrphanedEmbeddedObjects(_ txn: StoreTransaction) throws {
        for table in txn.tables.values.sorted(by: { $0.name < $1.name }) where table.isEmbedded {
            var orphans: [Int64] = []
            var keys: [Int64] = []
            try txn.forEachRow(table) { row in
                keys.append(row.key); return true
            }
            for key in keys {
                let owners = try txn.allBacklinks(to: table, key: key).filter { txn.tables[$0.table] != nil }
                if owners.isEmpty { orphans.append(key) }
                if owners.count > 1 {
                    throw Realm.Error(
                        .schemaMismatch,
                        "After the migration, an embedded object of '\(table.name)' has \(owners.count) owners (\(owners.map { "\($0.table).\($0.column)" }.joined(separator: ", "))); an embedded object belongs to exactly one. Copy it for each owner in the migration block.",
                        path: file.path)
                }
            }
            for key in orphans where try txn.exists(table, key: key) { try txn.delete(table, key: key) }
        }
    }
}

extension StoreTable {
    /// The columns with a secondary index tree.
    var indexedColumnsList: [Int] { columns.indices.filter { columns[$0].hasIndexTree } }
}
