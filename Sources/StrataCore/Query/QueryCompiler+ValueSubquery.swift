import StrataQuery

// SUBQUERY over a list, set or map of values: `SUBQUERY(scores, $s, $s > 10 AND $s < 20).@count`.
// The variable alone names the element; the predicate is compiled as the filter of a
// collection of values (``StoreValuePredicate``, where the element is `self`), and each row's
// count is the number of its collection's values that match.

extension QueryCompiler {
    /// A function counting, in one row, the values of `collection` that match the subquery's
    /// predicate.
    /// - Throws: ``StoreQueryError/invalidAggregate(keyPath:aggregate:reason:)`` for a property
    ///   of the variable (values have none); ``StoreQueryError/unsupported(_:)`` for another key
    ///   path, `%K` or a nested subquery.
    func valueSubqueryCounter(
        _ subquery: QuerySubquery, _ collection: QueryPath
    ) throws(StoreQueryError) -> (RowReader) throws -> Int {
        let predicate = try Self.namingElementSelf(subquery.predicate, subquery.variable, collection.text)
        let test = try StoreValuePredicate(predicate, arguments: arguments)
        let values = multiValues(collection)
        return { row in
            var n = 0
            for value in try values(row) where test.matches(value) { n += 1 }
            return n
        }
    }

    /// `predicate` with `variable` renamed `self`, as ``StoreValuePredicate`` names the element.
    private static func namingElementSelf(
        _ predicate: QueryPredicate, _ variable: String, _ collection: String
    ) throws(StoreQueryError) -> QueryPredicate {
        switch predicate {
        case .truePredicate, .falsePredicate: return predicate
        case .not(let p): return .not(try namingElementSelf(p, variable, collection))
        case .and(let ps):
            var renamed: [QueryPredicate] = []
            for p in ps { renamed.append(try namingElementSelf(p, variable, collection)) }
            return .and(renamed)
        case .or(let ps):
            var renamed: [QueryPredicate] = []
            for p in ps { renamed.append(try namingElementSelf(p, variable, collection)) }
            return .or(renamed)
        case .comparison(var c):
            c.left = try namingElementSelf(c.left, variable, collection)
            c.right = try namingElementSelf(c.right, variable, collection)
            return .comparison(c)
        }
    }

    private static func namingElementSelf(
        _ operand: QueryOperand, _ variable: String, _ collection: String
    ) throws(StoreQueryError) -> QueryOperand {
        switch operand {
        case .keyPath(let components, let aggregate):
            guard components.first == variable else {
                let text = components.joined(separator: ".")
                throw .unsupported(
                    "'\(text)' inside SUBQUERY(\(collection), \(variable), ...) must be \(variable): the elements of '\(collection)' are values, compared as \(variable) > 1."
                )
            }
            guard components.count == 1, aggregate == nil else {
                throw .invalidAggregate(
                    keyPath: components.joined(separator: "."), aggregate: "SUBQUERY",
                    reason:
                        "the elements of '\(collection)' are values without properties; compare \(variable) itself (\(variable) > 1)"
                )
            }
            return .keyPath(["self"])
        case .subqueryCount:
            throw .unsupported(
                "A SUBQUERY over the values of '\(collection)' cannot hold another SUBQUERY; values have no collections."
            )
        case .keyPathArgument:
            throw .unsupported("%K cannot be used inside a SUBQUERY.")
        case .literal, .argument, .list:
            return operand
        }
    }
}
