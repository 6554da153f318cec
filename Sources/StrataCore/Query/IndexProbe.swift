import StrataQuery

/// Lookups of one indexed (or primary-key) column: the rows whose value equals one of `values`.
struct IndexProbe {
    let column: Int
    /// The values in the column's own type (an `Int` column is looked up with `.int`).
    let values: [StoreValue]
    let isPrimaryKey: Bool
}
