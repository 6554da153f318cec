import Foundation
import StrataCore

// Binding model classes to the file's tables: creating tables, additive schema changes, and
// detecting changes that need a migration (Migration.swift runs those).

extension Realm {
    /// The key of the stored schema version in the counter tree.
    static let schemaVersionKey = Array("@schemaVersion".utf8)

    /// Every model class `types` reach through links, plus the classes of their modules.
    static func closure(of types: [any ObjectSchemaProviding.Type], includeModules: Bool) -> [any ObjectSchemaProviding.Type] {
        var seen: Set<ObjectIdentifier> = []
        var result: [any ObjectSchemaProviding.Type] = []
        var byName: [String: any ObjectSchemaProviding.Type] = [:]
        var queue = types
        for t in types {
            for m in t.strataModuleSchema.objectTypes { byName[m.strataObjectSchema.className] = m }
        }
        if includeModules { queue += types.flatMap { $0.strataModuleSchema.objectTypes } }
        while let t = queue.popLast() {
            guard seen.insert(ObjectIdentifier(t)).inserted else { continue }
            result.append(t)
            for p in t.strataObjectSchema.properties {
                if let target = p.objectClassName, let tt = byName[target] { queue.append(tt) }
            }
        }
        return result
    }

    /// Binds `types` (and what they link to) to tables, creating or extending tables and running
    /// migrations as needed. Called when the realm opens and when a class is first used.
    func prepareSchema(_ requested: [any ObjectSchemaProviding.Type]) throws {
        let types = Self.closure(of: requested, includeModules: configuration.objectTypes == nil && !requested.isEmpty)
        let unbound = types.filter { file.binding(for: $0) == nil }
        // Stored version check, even with nothing to bind.
        let (stored, storedVersion, legacy) = try readStoredSchema()
        if !legacy.isEmpty { try upgradeLegacyRows(legacy) }
        if let storedVersion, storedVersion > configuration.schemaVersion, !requested.isEmpty || configuration.objectTypes != nil {
            throw Realm.Error(.schemaMismatch, "Provided schema version \(configuration.schemaVersion) is less than last set version \(storedVersion) of '\(file.path)'. Set Realm.Configuration.schemaVersion to \(storedVersion) or higher.", path: file.path)
        }
        // A raised schema version runs the migration block once, when the classes are known.
        let versionBump = !types.isEmpty && storedVersion.map { configuration.schemaVersion > $0 } ?? false
        guard !unbound.isEmpty || versionBump else { return }
        var plans: [(any ObjectSchemaProviding.Type, CoreTable, SchemaChange)] = []
        var mismatches: [String] = []
        for t in unbound {
            let desired = Self.desiredTable(t)
            let change = Self.compare(stored: stored[desired.name], desired: desired)
            if case .incompatible(let reasons) = change { mismatches += reasons }
            plans.append((t, desired, change))
        }
        if !versionBump, plans.allSatisfy({ if case .same = $0.2 { true } else { false } }) {
            for (t, _, _) in plans { install(t, table: stored[t.strataObjectSchema.className]!) }
            return
        }
        guard !configuration.readOnly else {
            throw Realm.Error(.readOnly, "The schema of '\(file.path)' differs from the models (\(plans.map { $0.1.name }.joined(separator: ", "))) and the realm is read-only, so it cannot be changed. Open it writable once to update the file.", path: file.path)
        }
        let needsMigration = !mismatches.isEmpty
        if needsMigration {
            let storedV = storedVersion ?? 0
            if configuration.deleteRealmIfMigrationNeeded {
                try deleteAllForMigration(stored: stored)
                return try prepareSchema(requested)
            }
            guard configuration.schemaVersion > storedV else {
                throw Realm.Error(.schemaMismatch, "Migration is required due to the following errors:\n" + mismatches.map { "- " + $0 }.joined(separator: "\n") + "\nIncrease Realm.Configuration.schemaVersion (now \(configuration.schemaVersion)) and give a migrationBlock, or set deleteRealmIfMigrationNeeded.", path: file.path)
            }
        }
        try withSchemaTransaction { txn in
            for (t, desired, change) in plans {
                switch change {
                case .same:
                    install(t, table: stored[desired.name]!)
                case .create:
                    try txn.storeTable(desired)
                    install(t, table: desired)
                case .additive(let merged, let newIndexes, let droppedIndexes):
                    try txn.storeTable(merged)
                    for c in droppedIndexes { try txn.dropTree(merged.indexTree(c)) }
                    if !newIndexes.isEmpty { try txn.rebuildIndexes(merged, columns: newIndexes) }
                    install(t, table: merged)
                case .incompatible:
                    break
                }
            }
            if needsMigration {
                let migrating = plans.filter { if case .incompatible = $0.2 { true } else { false } }
                try runMigration(txn, stored: stored, migrating: migrating.map { ($0.0, $0.1) }, oldVersion: storedVersion ?? 0)
            } else if versionBump, configuration.migrationBlock != nil {
                try runMigration(txn, stored: stored, migrating: [], oldVersion: storedVersion ?? 0)
            }
            try txn.setSchemaVersion(configuration.schemaVersion)
        }
    }

    /// The table the generated schema of `t` asks for.
    static func desiredTable(_ t: any ObjectSchemaProviding.Type) -> CoreTable {
        let schema = t.strataObjectSchema
        return CoreTable(name: schema.className, isEmbedded: schema.isEmbedded, columns: schema.properties.map(coreColumn))
    }

    enum SchemaChange {
        case same
        case create
        /// The stored columns (indexes updated) plus new columns at the end.
        case additive(CoreTable, newIndexes: [Int], droppedIndexes: [Int])
        case incompatible([String])
    }

    static func compare(stored: CoreTable?, desired: CoreTable) -> SchemaChange {
        guard let stored else { return .create }
        if stored.sameShape(as: desired) { return .same }
        var reasons: [String] = []
        var merged: [CoreColumn] = []
        var newIndexes: [Int] = []
        var dropped: [Int] = []
        for (i, old) in stored.columns.enumerated() {
            guard let j = desired.columnIndex[old.name] else {
                reasons.append("Property '\(desired.name).\(old.name)' has been removed.")
                continue
            }
            let new = desired.columns[j]
            if new.type != old.type || new.collection != old.collection || new.targetTable != old.targetTable {
                reasons.append("Property '\(desired.name).\(old.name)' has been changed from '\(old.type)' to '\(new.type)'.")
            } else if new.isNullable != old.isNullable {
                reasons.append("Property '\(desired.name).\(old.name)' has been made \(new.isNullable ? "optional" : "required").")
            } else if new.isPrimaryKey != old.isPrimaryKey {
                reasons.append("Primary Key for class '\(desired.name)' has been \(new.isPrimaryKey ? "added" : "removed") ('\(old.name)').")
            }
            var c = old
            c.isIndexed = new.isIndexed
            c.originProperty = new.originProperty
            if c.hasIndexTree && !old.hasIndexTree { newIndexes.append(i) }
            if !c.hasIndexTree && old.hasIndexTree { dropped.append(i) }
            merged.append(c)
        }
        if stored.isEmbedded != desired.isEmbedded {
            reasons.append("Class '\(desired.name)' has been changed \(desired.isEmbedded ? "to" : "from") an embedded object.")
        }
        if !reasons.isEmpty { return .incompatible(reasons) }
        for c in desired.columns where stored.columnIndex[c.name] == nil {
            if c.isPrimaryKey { return .incompatible(["Primary Key for class '\(desired.name)' has been added ('\(c.name)')."]) }
            if c.hasIndexTree { newIndexes.append(merged.count) }
            merged.append(c)
        }
        return .additive(CoreTable(name: desired.name, isEmbedded: desired.isEmbedded, columns: merged),
                         newIndexes: newIndexes, droppedIndexes: dropped)
    }

    func install(_ t: any ObjectSchemaProviding.Type, table: CoreTable) {
        func make<T: ObjectSchemaProviding>(_ type: T.Type) -> TableBinding { TableBinding(type, table: table) }
        file.install(make(t))
        bindingCache.removeAll()
    }

    /// The stored tables and schema version, read from the newest version, and the tables that
    /// still keep one row per object (written before clusters).
    func readStoredSchema() throws -> ([String: CoreTable], UInt64?, [CoreTable]) {
        do {
            let r = try file.db.beginRead()
            defer { r.end() }
            let txn = StoreTransaction(read: r)
            let tables = try txn.storedTables()
            let legacy = try tables.values.filter { try txn.hasLegacyRows($0) }.sorted { $0.name < $1.name }
            return (tables, try txn.schemaVersion(), legacy)
        } catch let e as Realm.Error {
            throw e
        } catch {
            throw Realm.Error(storage: error, path: file.path)
        }
    }

    /// Converts tables written before clusters (one row per object) to clusters, once, in one
    /// write transaction.
    /// - Throws: `Realm.Error` (`.readOnly`) when the realm is read-only.
    func upgradeLegacyRows(_ tables: [CoreTable]) throws {
        guard !configuration.readOnly else {
            throw Realm.Error(.readOnly, "'\(file.path)' was written by an earlier Strata that stored one row per object (\(tables.map(\.name).joined(separator: ", "))). Open it writable once to convert it to clusters.", path: file.path)
        }
        try withSchemaTransaction { txn in
            for t in tables { try txn.upgradeLegacyRows(t) }
        }
    }

    /// Runs `body` in the current write transaction, or in a write of its own committed at once.
    func withSchemaTransaction(_ body: (StoreTransaction) throws -> Void) throws {
        if let txn = writeTxn {
            try body(txn)
            stamp &+= 1
            return
        }
        endRead()
        do {
            let txn = StoreTransaction(write: try file.db.beginWrite())
            txn.tables = file.tablesSnapshot()
            // Reads during the change (migration objects) go through this transaction.
            writeTxn = txn
            defer { writeTxn = nil }
            do {
                try body(txn)
                try txn.commit()
            } catch {
                txn.write?.abort()
                throw error
            }
        } catch let e as Realm.Error {
            throw e
        } catch {
            throw Realm.Error(storage: error, path: file.path)
        }
        stamp &+= 1
    }

    /// Deletes every table (deleteRealmIfMigrationNeeded).
    func deleteAllForMigration(stored: [String: CoreTable]) throws {
        try withSchemaTransaction { txn in
            for name in stored.keys { try txn.dropTable(name) }
            try txn.setSchemaVersion(configuration.schemaVersion)
        }
    }

    /// The binding of `type`, binding it first if this file has not seen it. Misuse (a class
    /// without generated schema, a schema change that needs a migration) goes to `violation`.
    func binding(for type: ObjectBase.Type) -> TableBinding? {
        let id = ObjectIdentifier(type)
        if let last = core.lastBinding, last.type == id { return last.binding }
        if let b = bindingCache[id] {
            // A frozen realm is read from several threads: it writes no cache.
            if !isFrozen { core.lastBinding = (id, b) }
            return b
        }
        if isFrozen {
            // Read from several threads: no cache writes, no schema changes.
            if let b = file.binding(for: type) { return b }
            return Realm.violation("\(type) has no table in this frozen version of '\(file.path)'; open a live realm to use it.", fallback: nil)
        }
        if let b = file.binding(for: type) {
            bindingCache[id] = b
            return b
        }
        guard let t = type as? any ObjectSchemaProviding.Type else {
            return Realm.violation("\(type) has no generated schema: add the StrataPlugin build plugin to the target that declares it (see README).", fallback: nil)
        }
        do {
            try prepareSchema([t])
        } catch {
            if isInWriteTransaction, let e = error as? Realm.Error { fail(e) ; return nil }
            return readFailed(error, "\(error)", fallback: nil)
        }
        return file.binding(for: type)
    }

    /// The binding of the class named `name`.
    func binding(named name: String) -> TableBinding? {
        file.binding(named: name)
    }
}

extension StoreTransaction {
    /// The stored schema version, nil for a new file.
    func schemaVersion() throws -> UInt64? {
        try Realm.schemaVersionKey.withUnsafeBytes { k in
            try get(k, tree: StoreTransaction.counterTree).map { UInt64(littleEndian: $0.loadUnaligned(as: UInt64.self)) }
        }
    }

    func setSchemaVersion(_ v: UInt64) throws {
        try putRaw(Realm.schemaVersionKey, withUnsafeBytes(of: v.littleEndian) { Array($0) }, tree: StoreTransaction.counterTree)
    }
}
