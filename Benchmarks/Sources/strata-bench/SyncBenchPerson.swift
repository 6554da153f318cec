import Strata

// The object model of `strata-bench sync` (Sync.swift), in a file of its own: StrataPlugin
// (applied to the strata-bench target in Package.swift) generates its schema and accessors. A
// synced type needs a primary key and only scalar properties (Docs/Sync.md); the server's table
// is "SyncBenchPerson".

/// A small synced object: W1's person row (an Int primary key, a short name, an age, a score).
final class SyncBenchPerson: Object {
    @Persisted(primaryKey: true) var id: Int
    @Persisted var name: String
    @Persisted var age: Int
    @Persisted var score: Double
}
