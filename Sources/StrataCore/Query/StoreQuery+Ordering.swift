import StrataQuery

extension StoreQuery {
    /// This query with at most `count` results (the first in result order).
    package func limited(to count: Int) -> StoreQuery {
        var result = self
        result.limit = Swift.min(count, limit ?? count)
        return result
    }

    /// This query with the `SORT`, `DISTINCT` and `LIMIT` clauses of a parsed filter applied in
    /// the order written: a `SORT` sorts the results so far (the existing order breaks ties).
    package func ordered(by clauses: [QueryOrderingClause]) -> StoreQuery {
        var result = self
        for clause in clauses {
            switch clause {
            case .sort(let keys): result = result.sorted(by: keys.map { ($0.keyPath, $0.ascending) })
            case .distinct(let keyPaths): result = result.distinct(by: keyPaths)
            case .limit(let count): result = result.limited(to: count)
            }
        }
        return result
    }
}
