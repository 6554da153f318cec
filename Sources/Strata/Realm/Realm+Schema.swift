import Foundation
internal import StrataCore
internal import StrataStorage

// Binding model classes to the file's tables: comparing the stored schema with the models when a
// realm opens, creating tables, additive changes, and planning the migrations that
// Migration.swift runs. Docs/SchemaCompiler.md, "Schema history and migrations", describes the
// rules; Docs/Errors.md the errors.

extension Realm {
    /// The key of the stored schema version in the counter tree.
    static let schemaVersionKey = Array("@schemaVersion".utf8)

    /// Every model class `types` reach through links, plus the classes of their modules.
    static func closure(
        of types: [any ObjectSchemaProviding.Type], includeModules: Bool
    ) -> [any ObjectSchemaProviding.Type] {
        // A plain array: a `Set<ObjectIdentifier>` cost a process's first open a scan of the
        // conformance records (see TypeTable); a schema has few classes.
        var seen: [ObjectIdentifier] = []
        var result: [any ObjectSchemaProviding.Type] = []
        var byName: [String: any ObjectSchemaProviding.Type] = [:]
        var queue = types
        for t in types {
            for m in t.strataModuleSchema.objectTypes { byName[m.strataObjectSchema.className] = m }
        }
        if includeModules { queue += types.flatMap { $0.strataModuleSchema.objectTypes } }
        while let t = queue.popLast() {
            guard !seen.contains(ObjectIdentifier(t)) else { continue }
            seen.append(ObjectIdentifier(t))
            result.append(t)
            for p in t.strataObjectSchema.properties {
                if let target = p.objectClassName, let tt = byName[target] { queue.append(tt) }
            }
        }
        return result
    }

    /// The model classes an open checks: `objectTypes` when given, else every model of the module
    /// that made the configuration (StrataPlugin's generated `Realm.Configuration` initializer
    /// records it), else none (classes are then bound when first used).
    ///
    /// A class of `objectTypes` is found in that module's schema when it lists it, by identity:
    /// the cast to `ObjectSchemaProviding` makes the Swift runtime scan every protocol
    /// conformance record of the process the first time it asks about a class (about 0.35M
    /// instructions, a fifth of an open; Docs/Performance.md, "Open + first read"). Classes of
    /// other modules are cast.
    var typesCheckedAtOpen: [any ObjectSchemaProviding.Type] {
        guard let types = configuration.objectTypes else { return configuration._strataModuleSchema?.objectTypes ?? [] }
        let known = (configuration._strataModuleSchema?.objectTypes ?? []).sorted {
            ObjectIdentifier($0) < ObjectIdentifier($1)
        }
        return types.compactMap { t -> (any ObjectSchemaProviding.Type)? in
            KnownModels.find(t, in: known) ?? (t as? any ObjectSchemaProviding.Type)
        }
    }

    /// Checks the file's schema against the models at open (`Realm(configuration:)`), migrating
    /// or throwing as `prepareSchema` does.
    func prepareSchemaAtOpen() throws {
        try prepareSchema(typesCheckedAtOpen)
    }

    /// The module schemas of `types`, one per module (by their lists of types).
    static func moduleSchemas(of types: [any ObjectSchemaProviding.Type]) -> [Schema] {
        // A module is known by its first class (a class belongs to one module). A plain array:
        // a `Set` of type lists had its generic metadata built at run time on every process's
        // first open (about 0.4M instructions, callgrind).
        var seen: [ObjectIdentifier] = []
        var result: [Schema] = []
        for t in types {
            let m = t.strataModuleSchema
            guard let first = m.objectTypes.first.map({ ObjectIdentifier($0) }), !seen.contains(first) else { continue }
            seen.append(first)
            result.append(m)
        }
        return result
    }

    /// Binds `types` (and what they link to) to tables, creating or extending tables and running
    /// migrations as needed. Called when the realm opens and when a class is first used.
    /// - Throws: `Realm.Error` `.schemaMismatch` naming each difference when the file cannot be
    ///   brought to the models (a change that needs a migration without a higher schema version,
    ///   a file with a higher version, a failing migration, a read-only file with another schema).
    func prepareSchema(_ requested: [any ObjectSchemaProviding.Type]) throws {
        let explicit = configuration.objectTypes != nil
        let types = Self.closure(of: requested, includeModules: !explicit && !requested.isEmpty)
        let unbound = types.filter { file.binding(for: $0) == nil }
        let (stored, storedVersion, legacy) = try readStoredSchema()
        if !legacy.isEmpty { try upgradeLegacyRows(legacy) }
        file.noteStoredTables(stored)
        let modules = Self.moduleSchemas(of: types)
        let recorded = modules.map(\.schemaVersion).max() ?? 0
        // One number: a configuration that leaves schemaVersion at 0 uses the version the schema
        // history recorded (0 without one).
        let target = configuration.schemaVersion != 0 ? configuration.schemaVersion : recorded
        if configuration.schemaVersion != 0, configuration.schemaVersion < recorded {
            throw Realm.Error(
                .schemaMismatch,
                "Realm.Configuration.schemaVersion is \(configuration.schemaVersion), but the schema history of the models (strata-schema.json) records version \(recorded). Set schemaVersion to \(recorded) (or leave it at 0, which means the recorded version).",
                path: file.path)
        }
        if let storedVersion, storedVersion > target, !types.isEmpty || configuration.schemaVersion != 0 {
            throw Realm.Error(
                .schemaMismatch,
                "Provided schema version \(target) is less than last set version \(storedVersion) of '\(file.path)'. Set Realm.Configuration.schemaVersion to \(storedVersion) or higher; a file written by a newer version of the app cannot be opened by an older one.",
                path: file.path)
        }
        // A raised schema version runs the migration (and its block) once, when the classes are known.
        let versionBump = !types.isEmpty && storedVersion.map { target > $0 } ?? false
        guard !unbound.isEmpty || versionBump else { return }

        let planned = versionBump ? types : unbound
        let renames = versionBump ? Self.recordedRenames(modules, from: storedVersion ?? 0) : []
        let plan = SchemaPlan(stored: stored, desired: planned.map { ($0, Self.desiredTable($0)) }, renames: renames)
        if !plan.needsWrite && !versionBump {
            for item in plan.items { install(item.type, table: item.currentTable) }
            return
        }
        let lossy = plan.lossyReasons
        if configuration.readOnly {
            // Nothing can be written: missing tables read as empty and added columns as their
            // defaults (RealmSwift's read-only mode allows extra tables and columns in the file).
            let problems = lossy + plan.renameReasons + plan.readOnlyProblems
            guard problems.isEmpty else {
                throw Realm.Error(
                    .schemaMismatch,
                    "The schema of read-only realm '\(file.path)' differs from the models and cannot be changed:\n"
                        + problems.map { "- " + $0 }.joined(separator: "\n")
                        + "\nOpen it writable once (with the models' schemaVersion) to migrate it.", path: file.path)
            }
            for item in plan.items { install(item.type, table: item.readOnlyTable) }
            return
        }
        if !lossy.isEmpty, !versionBump, storedVersion != nil {
            if configuration.deleteRealmIfMigrationNeeded {
                try deleteAllForMigration(stored: stored)
                return try prepareSchema(requested)
            }
            var message =
                "Migration is required due to the following errors:\n" + lossy.map { "- " + $0 }.joined(separator: "\n")
            let pending = modules.flatMap(\.pendingChanges)
            if let command = modules.compactMap(\.recordCommand).first, !pending.isEmpty {
                message +=
                    "\nThe models changed since schema version \(recorded) was recorded in strata-schema.json (\(pending.joined(separator: "; "))). Run `\(command)` to record version \(recorded + 1), rebuild, and give a migrationBlock if the data needs converting."
            } else {
                message +=
                    "\nIncrease Realm.Configuration.schemaVersion (now \(target), the file's is \(storedVersion ?? 0)) and give a migrationBlock if the data needs converting, or set deleteRealmIfMigrationNeeded."
            }
            throw Realm.Error(.schemaMismatch, message, path: file.path)
        }
        let saved = file.bindingState()
        Realm.logSchemaChange(
            plan, path: file.path, from: storedVersion, to: max(target, storedVersion ?? 0), isMigration: versionBump)
        do {
            try withSchemaTransaction { txn in
                try runMigration(txn, plan: plan, oldVersion: storedVersion ?? 0, isMigration: versionBump)
                try txn.setSchemaVersion(max(target, storedVersion ?? 0))
            }
        } catch {
            // Nothing was written: the bindings the migration installed go too.
            file.restore(saved)
            bindingCache.removeAll()
            throw error
        }
    }

    /// The renames recorded in the schema history after `version`, in order.
    static func recordedRenames(_ modules: [Schema], from version: UInt64) -> [MigrationStep] {
        var steps: [MigrationStep] = []
        for m in modules {
            for step in m.migrationSteps(from: version) {
                switch step {
                case .renameType, .renameProperty: steps.append(step)
                default: break
                }
            }
        }
        return steps
    }

    /// The table the generated schema of `t` asks for. Columns have the stored names
    /// (`propertiesMapping()`); a `LinkingObjects` column names its origin by the origin
    /// property's stored name, as the link column is called in the file.
    static func desiredTable(_ t: any ObjectSchemaProviding.Type) -> StoreTable {
        let schema = t.strataObjectSchema
        var columns = schema.properties.map(coreColumn)
        for (i, p) in schema.properties.enumerated() where p.type == .linkingObjects {
            guard let origin = p.objectClassName, let name = p.linkOriginPropertyName,
                let originSchema = t.strataModuleSchema[origin]
                    ?? (t.strataObjectSchema.className == origin ? schema : nil),
                let stored = originSchema[name]?.columnName
            else { continue }
            columns[i].originProperty = stored
        }
        return StoreTable(name: schema.className, isEmbedded: schema.isEmbedded, columns: columns)
    }

    func install(_ t: any ObjectSchemaProviding.Type, table: StoreTable) {
        func make<T: ObjectSchemaProviding>(_ type: T.Type) -> TableBinding { TableBinding(type, table: table) }
        file.install(make(t))
        bindingCache.removeAll()
    }

    /// The stored tables and schema version, read from the newest version, and the tables that
    /// still keep one row per object (written before clusters).
    func readStoredSchema() throws -> ([String: StoreTable], UInt64?, [StoreTable]) {
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
    func upgradeLegacyRows(_ tables: [StoreTable]) throws {
        guard !configuration.readOnly else {
            throw Realm.Error(
                .readOnly,
                "'\(file.path)' was written by an earlier Strata that stored one row per object (\(tables.map(\.name).joined(separator: ", "))). Open it writable once to convert it to clusters.",
                path: file.path)
        }
        try withSchemaTransaction { txn in
            for t in tables { try txn.upgradeLegacyRows(t) }
        }
    }

    /// Runs `body` in the current write transaction, or in a write of its own committed at once.
    /// The transaction knows every stored table (also those of classes no model declares, whose
    /// links a delete must clean up).
    func withSchemaTransaction(_ body: (StoreTransaction) throws -> Void) throws {
        if let txn = writeTxn {
            try body(txn)
            file.replaceTables(txn.tables)
            stamp &+= 1
            return
        }
        endRead()
        do {
            let txn = StoreTransaction(write: try file.db.beginWrite())
            file.prepare(txn)
            txn.tables = try txn.storedTables()
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
            file.replaceTables(txn.tables)
        } catch let e as Realm.Error {
            throw e
        } catch {
            throw Realm.Error(storage: error, path: file.path)
        }
        stamp &+= 1
    }

    /// Deletes every table (deleteRealmIfMigrationNeeded).
    func deleteAllForMigration(stored: [String: StoreTable]) throws {
        try withSchemaTransaction { txn in
            for name in stored.keys { try txn.dropTable(name) }
            try txn.setSchemaVersion(configuration.schemaVersion)
        }
    }

    /// The binding of `type`, binding it first if this file has not seen it. Misuse (a class
    /// without generated schema, a schema change that needs a migration) goes to `violation`.
    func binding(for type: ObjectBase.Type) -> TableBinding? {
        let id = ObjectIdentifier(type)
        if let last = realmState.lastBinding, last.type == id { return last.binding }
        if let b = bindingCache[id] {
            // A frozen realm is read from several threads: it writes no cache.
            if !isFrozen { realmState.lastBinding = (id, b) }
            return b
        }
        if isFrozen {
            // Read from several threads: no cache writes, no schema changes.
            if let b = file.binding(for: type) { return b }
            return Realm.violation(
                "\(type) has no table in this frozen version of '\(file.path)'; open a live realm to use it.",
                fallback: nil)
        }
        if let b = file.binding(for: type) {
            bindingCache[id] = b
            return b
        }
        guard let t = type as? any ObjectSchemaProviding.Type else {
            if type == DynamicObject.self {
                return Realm.violation(
                    "DynamicObject is not a model class: its objects are made managed by realm.dynamicCreate(_:value:update:) and found by dynamicObjects(_:); add, create and objects(_:) take model classes.",
                    fallback: nil)
            }
            return Realm.violation(
                "\(type) has no generated schema: add the StrataPlugin build plugin to the target that declares it (see README).",
                fallback: nil)
        }
        do {
            try prepareSchema([t])
        } catch {
            if isInWriteTransaction, let e = error as? Realm.Error { fail(e); return nil }
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
            try get(k, tree: StoreTransaction.counterTree).map {
                UInt64(littleEndian: $0.loadUnaligned(as: UInt64.self))
            }
        }
    }

    func setSchemaVersion(_ v: UInt64) throws {
        try putRaw(
            Realm.schemaVersionKey, withUnsafeBytes(of: v.littleEndian) { Array($0) },
            tree: StoreTransaction.counterTree)
    }
}
