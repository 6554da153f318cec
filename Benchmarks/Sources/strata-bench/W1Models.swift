import Strata

// The object model of W1 (shared/WORKLOAD.md `Person`) for the `strata` engine. StrataPlugin
// (applied to the strata-bench target in Package.swift) generates its schema and accessors into
// strata-bench+Strata.swift at build time. Model classes must be final.

/// W1's `Person` as a Strata object: `id` is the primary key (Int64, as the workload states).
final class W1Person: Object {
    @Persisted(primaryKey: true) var id: Int64 = 0
    @Persisted var name = ""
    @Persisted var age: Int64 = 0
    @Persisted var score = 0.0
}
