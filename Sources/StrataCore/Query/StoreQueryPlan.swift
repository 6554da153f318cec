import StrataQuery

/// How ``StoreQuery/evaluate(in:table:)`` finds the matching objects: what ``StoreQuery/explain(in:table:)``
/// returns.
///
/// ```swift
/// let plan = try StoreQuery("name == 'Rex' AND age > 3").explain(in: txn, table: dogs)
/// plan.access            // .index(columns: ["name"], lookups: 1)
/// plan.fastComparisons   // 2: both comparisons read the row's bytes directly
/// ```
///
/// ## Concurrency
/// A value type; `Sendable`.
package struct StoreQueryPlan: Sendable, Equatable, CustomStringConvertible {
    /// Which rows are read.
    ///
    /// ## Concurrency
    /// A value type; `Sendable`.
    package enum Access: Sendable, Equatable {
        /// None: the filter can never match (`FALSEPREDICATE`, or an empty `IN {}` in an AND).
        case none
        /// Every row of the table, in key order.
        case scan
        /// Only the rows an index (or the primary key) returns for `lookups` values of `columns`
        /// (several columns for an OR of equalities); the whole filter is then checked on each.
        case index(columns: [String], lookups: Int)
    }

    /// The queried table.
    package let table: String
    /// Which rows are read.
    package let access: Access
    /// Comparisons that read a fixed-width (or string) column in place, without building a value.
    package let fastComparisons: Int
    /// Comparisons on the general path: links, collections, aggregates, `[c]`/`[d]`, mixed values.
    package let generalComparisons: Int
    /// The number of sort descriptors applied after filtering.
    package let sortKeys: Int
    /// The number of distinct key paths applied after sorting.
    package let distinctKeys: Int

    /// The plan in one line, e.g. `scan of Dog, 1 fast and 0 general comparisons per row`.
    package var description: String {
        var text: String
        let perRow: String
        switch access {
        case .none:
            return "no rows read from \(table): the filter never matches"
        case .scan:
            text = "scan of \(table)"
            perRow = "per row"
        case .index(let columns, let lookups):
            let names = columns.map { "\(table).\($0)" }
            var unique: [String] = []
            for n in names where !unique.contains(n) { unique.append(n) }
            text = "index lookup on \(unique.joined(separator: ", ")) (\(lookups) value\(lookups == 1 ? "" : "s"))"
            perRow = "per candidate"
        }
        if fastComparisons + generalComparisons > 0 {
            text +=
                ", then \(fastComparisons) fast and \(generalComparisons) general comparison\(fastComparisons + generalComparisons == 1 ? "" : "s") \(perRow)"
        }
        if sortKeys > 0 { text += "; sorted by \(sortKeys) key\(sortKeys == 1 ? "" : "s")" }
        if distinctKeys > 0 { text += "; distinct on \(distinctKeys) key path\(distinctKeys == 1 ? "" : "s")" }
        return text
    }
}
