import StrataQuery

// TEMPORARY until the query engine lands (branch query-engine): predicates are recorded but
// only TRUEPREDICATE is evaluated. Deleted at that merge.
public struct CoreQuery: Sendable {
    var predicates: [QueryPredicate] = []
    public init() {}
    public var isUnfiltered: Bool { predicates.isEmpty }
    public func filtered(by p: QueryPredicate, arguments: [CoreValue]) -> CoreQuery { var q = self; q.predicates.append(p); return q }
    public func sorted(by: [(String, Bool)]) -> CoreQuery { self }
    public func distinct(by: [String]) -> CoreQuery { self }
    public func evaluate(in txn: StoreTransaction, table: CoreTable) throws -> [Int64] {
        var keys: [Int64] = []
        try txn.forEachRow(table) { keys.append($0.key); return true }
        return keys
    }
}
