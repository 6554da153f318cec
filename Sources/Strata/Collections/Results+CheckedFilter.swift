internal import StrataCore
internal import StrataQuery

extension Results {
    /// `filter(_:_:)` for a query that comes from outside the program (a search field, a
    /// configuration file): the query is parsed and checked against `Element`'s schema and the
    /// arguments now, and a problem is thrown instead of being reported through
    /// `Realm.violationHandler` (which stops the process by default).
    ///
    /// ```swift
    /// do {
    ///     let matches = try realm.objects(Dog.self).checkedFilter(userTypedQuery)
    ///     show(matches)
    /// } catch let error as Realm.Error {
    ///     print(error.localizedDescription)  // names the problem and its column in the query
    /// }
    /// ```
    ///
    /// - Throws: `Realm.Error` with code `.invalidQuery`: text that does not parse (with its
    ///   line and column), a clause Strata does not support, an unknown property, a comparison
    ///   the property's type does not allow, or arguments that do not fit the placeholders.
    public func checkedFilter(_ predicateFormat: String, _ args: Any...) throws -> Results<Element> {
        try checkedFilter(predicateFormat, arguments: args)
    }

    /// `checkedFilter(_:_:)` with the arguments in an array.
    public func checkedFilter(_ predicateFormat: String, arguments args: [Any]) throws -> Results<Element> {
        guard let realm else { return self }
        guard realm.checkThread() else { return self }
        if let values {
            do {
                let parsed = try ParsedQuery.parse(predicateFormat)
                try parsed.validateArgumentCount(args.count)
                guard parsed.ordering.isEmpty else {
                    throw Realm.Error(
                        .invalidQuery,
                        "SORT, DISTINCT and LIMIT apply to objects; sort values with sorted(ascending:) and distinct()")
                }
                return try filterValues(values, parsed.predicate, args)
            } catch {
                throw Realm.Error(.invalidQuery, "Invalid predicate '\(predicateFormat)': \(error)")
            }
        }
        let checked: StoreQuery
        do {
            let parsed = try ParsedQuery.parse(predicateFormat)
            try parsed.validateArgumentCount(args.count)
            let arguments = try args.map { try realm.queryArgument($0) }
            checked = query.filtered(by: parsed.predicate, arguments: arguments).ordered(by: parsed.ordering)
            if let binding { _ = try checked.explain(in: realm.current(), table: binding.table) }
        } catch {
            throw Realm.Error(.invalidQuery, "Invalid predicate '\(predicateFormat)': \(error)")
        }
        return with(realm: realm, query: checked)
    }
}
