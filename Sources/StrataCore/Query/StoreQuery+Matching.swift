import StrataQuery

extension StoreQuery {
    /// Whether results come out in object-key order: no sort descriptors and no distinct key
    /// paths. Such results can be updated object by object when a few objects change.
    package var isInKeyOrder: Bool {
        source == .table && sortDescriptors.isEmpty && distinctKeyPaths.isEmpty && limit == nil
    }

    /// Of `keys` (objects of `table`), those that exist in `txn` and match the predicate, in the
    /// order given (the query's source is not consulted). Reads only those objects' rows (and what their key paths link to), so the
    /// cost follows the number of keys, not the size of the table.
    /// - Throws: as ``evaluate(in:table:)``.
    package func matchingKeys<S: Sequence>(_ keys: S, in txn: StoreTransaction, table: StoreTable) throws -> [Int64]
    where S.Element == Int64 {
        let prepared = try prepare(txn, table)
        var out: [Int64] = []
        switch prepared.predicate {
        case .constant(false):
            return []
        case .constant(true):
            for k in keys where try txn.row(table, key: k) != nil { out.append(k) }
        case .test(let test):
            for k in keys {
                if let row = try txn.row(table, key: k), try test(row) { out.append(k) }
            }
        }
        return out
    }

    /// Whether the query reads nothing but its own table's columns: every key path of the
    /// predicate, the sort descriptors and the distinct key paths is one property, with no
    /// collection operator and no `%K`, and its candidates are the whole table. Changes to other
    /// tables then cannot change its results.
    package var readsOnlyItsTable: Bool {
        guard source == .table else { return false }
        let paths = sortDescriptors.map(\.keyPath) + distinctKeyPaths
        if paths.contains(where: { $0.contains(".") }) { return false }
        guard let predicate else { return true }
        return Self.isLocal(predicate)
    }

    private static func isLocal(_ p: QueryPredicate) -> Bool {
        switch p {
        case .truePredicate, .falsePredicate: return true
        case .not(let q): return isLocal(q)
        case .and(let qs), .or(let qs): return qs.allSatisfy(isLocal)
        case .comparison(let c): return c.quantifier == nil && isLocal(c.left) && isLocal(c.right)
        }
    }

    private static func isLocal(_ o: QueryOperand) -> Bool {
        switch o {
        case .keyPath(let parts, let aggregate): return parts.count == 1 && aggregate == nil
        case .keyPathArgument, .subqueryCount: return false
        case .literal, .argument: return true
        case .list(let items): return items.allSatisfy(isLocal)
        }
    }
}
