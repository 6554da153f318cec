internal import StrataCore

extension Realm {
    /// Logs what a schema change at open does: tables created, changed or rewritten, and the
    /// migration between schema versions.
    static func logSchemaChange(_ plan: SchemaPlan, path: String, from old: UInt64?, to new: UInt64, isMigration: Bool)
    {
        if isMigration {
            Logger.log(.info, Category.sdk, "Migrating '\(path)' from schema version \(old ?? 0) to \(new)")
        }
        guard Logger.isEnabled(.detail, Category.sdk.rawValue) else { return }
        for item in plan.items {
            let name = item.table.name
            switch item.action {
            case .same: continue
            case .create: Logger.log(.detail, Category.sdk, "Schema of '\(path)': creating \(name)")
            case .additive:
                Logger.log(.detail, Category.sdk, "Schema of '\(path)': adding properties or indexes to \(name)")
            case .rewrite: Logger.log(.detail, Category.sdk, "Schema of '\(path)': rewriting the objects of \(name)")
            }
        }
    }
}
