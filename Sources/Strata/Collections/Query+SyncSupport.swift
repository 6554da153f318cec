package import StrataCore
package import StrataQuery

/// What the sync product (`StrataSync`) reaches of queries: the predicate a `where` closure or a
/// filter string builds, with its arguments in the store's form. Not API: package-level.
extension Query where T: Object {
    /// The predicate `body` builds over `T` and its arguments.
    /// - Throws: `Realm.Error` (`.invalidQuery`) naming what is wrong with the query.
    package static func _predicate(_ body: (Query<T>) -> Query<Bool>) throws -> (QueryPredicate, [StoreValue]) {
        let context = QueryContext()
        let q = body(Query<T>(path: [], node: nil, context: context))
        if let error = context.error { throw Realm.Error(.invalidQuery, "Invalid query on \(T.self): \(error)") }
        let args = try context.arguments.map { try Realm._queryArgument($0 as Any) }
        return (q.predicate.rewritingCounts(), args)
    }
}

extension Realm {
    /// A query argument (`%@`) in the store's form, as `filter(_:_:)` converts it.
    package static func _queryArgument(_ arg: Any) throws -> StoreValue {
        try Realm.queryArgumentValue(arg)
    }
}

extension Results {
    /// What a subscription to these results needs: the class, the predicate and its arguments;
    /// nil for results of values or of a collection, which name no class's query.
    package var _syncQuery: (className: String, predicate: QueryPredicate, arguments: [StoreValue])? {
        guard values == nil, let objectType, case .table = query.source else { return nil }
        return (objectType.className(), query.predicate ?? .truePredicate, query.arguments)
    }
}
