internal import StrataQuery

/// Subqueries in `where { }`: the number of elements of a collection that match a predicate of
/// their own, compared like any number.
///
/// ```swift
/// // People with more than one dog older than 3 whose name starts with R:
/// realm.objects(Person.self).where { ($0.dogs.age > 3 && $0.dogs.name.starts(with: "R")).count > 1 }
/// realm.objects(Person.self).where { $0.dogs.where { $0.age > 3 && $0.name.starts(with: "R") }.count > 1 }
/// ```
///
/// Both forms run `SUBQUERY(dogs, $d, $d.age > 3 AND $d.name BEGINSWITH 'R').@count > 1` in the
/// engine. Unlike `$0.dogs.age > 3 && $0.dogs.name.starts(with: "R")` (some dog is older than 3
/// and some, perhaps another, dog's name starts with R), every comparison of a subquery applies
/// to the same element.
extension Query where T == Bool {
    /// The number of elements of the collection the comparisons went through for which they all
    /// hold: `($0.dogs.age > 3).count > 1`. Every comparison must go through the same collection
    /// property.
    public var count: Query<Int> {
        guard let prefix = collectionPrefix else {
            context.error =
                "(...).count counts the elements of one collection that match, e.g. ($0.dogs.age > 3).count > 1; each comparison in the parentheses must go through the same list, set or LinkingObjects property"
            return Query<Int>(path: ["?"], node: nil, context: context)
        }
        let variable = context.newVariable()
        let inner = predicate.replacingPrefix(prefix, with: variable).rewritingCounts()
        var count = Query<Int>(path: [], node: nil, context: context)
        count.operand = .subqueryCount(QuerySubquery(collection: prefix, variable: variable, predicate: inner))
        return count
    }

    /// The collection shared by the comparisons of `self` and `other`, nil if they differ.
    func sharedCollection(with other: Query<Bool>) -> [String]? {
        guard let a = collectionPrefix, let b = other.collectionPrefix, a == b else { return nil }
        return a
    }
}

extension Query where T: _QueryCollectionMarker {
    func subquery<O: ObjectBase>(_ isIncluded: (Query<O>) -> Query<Bool>) -> Query<T> {
        let variable = context.newVariable()
        let inner = isIncluded(Query<O>(path: [variable], node: nil, context: context))
        var result = Query<T>(path: path, node: nil, context: context, throughCollection: throughCollection)
        result.subquery = QuerySubquery(
            collection: path, variable: variable, predicate: inner.predicate.rewritingCounts())
        return result
    }
}

extension Query {
    /// The objects of the list for which `isIncluded` holds; compare their `count`:
    /// `$0.dogs.where { $0.age > 3 }.count > 1`.
    public func `where`<O: ObjectBase>(_ isIncluded: (Query<O>) -> Query<Bool>) -> Query<T> where T == List<O> {
        subquery(isIncluded)
    }

    /// The objects of the set for which `isIncluded` holds; compare their `count`.
    public func `where`<O: ObjectBase>(_ isIncluded: (Query<O>) -> Query<Bool>) -> Query<T>
    where T == MutableSet<O> {
        subquery(isIncluded)
    }

    /// The objects linking here for which `isIncluded` holds; compare their `count`.
    public func `where`<O: ObjectBase>(_ isIncluded: (Query<O>) -> Query<Bool>) -> Query<T>
    where T == LinkingObjects<O> {
        subquery(isIncluded)
    }
}

extension QueryContext {
    /// A variable name for the next subquery: `$e0`, `$e1`, ...
    func newVariable() -> String {
        variableCount += 1
        return "$e\(variableCount - 1)"
    }
}

extension QueryPredicate {
    /// The predicate with key paths that start with `prefix` starting with `variable` instead,
    /// and without the `ANY` the path through the collection implied.
    func replacingPrefix(_ prefix: [String], with variable: String) -> QueryPredicate {
        func replace(_ operand: QueryOperand) -> QueryOperand {
            guard case .keyPath(let components, let aggregate) = operand, components.starts(with: prefix) else {
                return operand
            }
            return .keyPath([variable] + components.dropFirst(prefix.count), aggregate: aggregate)
        }
        switch self {
        case .and(let ps): return .and(ps.map { $0.replacingPrefix(prefix, with: variable) })
        case .or(let ps): return .or(ps.map { $0.replacingPrefix(prefix, with: variable) })
        case .not(let p): return .not(p.replacingPrefix(prefix, with: variable))
        case .comparison(var c):
            c.left = replace(c.left)
            c.right = replace(c.right)
            c.quantifier = nil
            return .comparison(c)
        case .truePredicate, .falsePredicate: return self
        }
    }
}
