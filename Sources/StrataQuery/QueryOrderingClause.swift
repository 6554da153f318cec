/// A clause after a query's filter that orders or limits its results, as Realm's query language
/// writes them: `age > 3 SORT(name ASC, age DESC) DISTINCT(name) LIMIT(10)`.
public enum QueryOrderingClause: Sendable, Equatable, Hashable {
    /// `SORT(keyPath ASC|DESC, ...)`: the first key decides first.
    case sort([QuerySortKey])
    /// `DISTINCT(keyPath, ...)`: the first result of each combination of values is kept.
    case distinct([String])
    /// `LIMIT(n)`: at most `n` results, the first in result order.
    case limit(Int)
}
