internal import StrataCore

extension Realm {
    /// The schema of the realm's file at the version the realm reads: every class it stores
    /// (also classes the app no longer declares), with its properties as stored, and the stored
    /// schema version.
    ///
    /// ```swift
    /// for objectSchema in realm.schema.objectSchema {
    ///     print(objectSchema.className, objectSchema.properties.map(\.name))
    /// }
    /// ```
    ///
    /// A read that fails (a damaged page) is reported through `Realm.violationHandler` and gives
    /// an empty schema.
    public var schema: Schema {
        guard checkThread() else { return Schema(schemaVersion: 0, storedObjectSchemas: []) }
        let txn = current()
        do {
            return try Schema(txn, schemaVersion: txn.schemaVersion() ?? 0)
        } catch {
            return readFailed(
                error, "Cannot read the schema of '\(file.path)': \(error)",
                fallback: Schema(schemaVersion: 0, storedObjectSchemas: []))
        }
    }
}

extension Schema {
    /// The schema `txn`'s version of a file stores (its tables, with `schemaVersion`).
    init(_ txn: StoreTransaction, schemaVersion: UInt64) throws {
        self.init(
            schemaVersion: schemaVersion,
            storedObjectSchemas: try txn.storedTables().values.map(ObjectSchema.init(stored:)))
    }
}
