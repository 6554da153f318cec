internal import StrataQuery

/// Aggregates in `where { }`, as RealmSwift has them: through a list of objects
/// (`$0.dogs.age.avg > 3`, `.min`, `.max`, `.sum`) and over a collection of numbers
/// (`$0.scores.max < 10`). They run as the string form's `dogs.@avg.age` and `scores.@max`:
/// `@min`, `@max` and `@avg` of an empty collection are nil and match no comparison with a number;
/// `@sum` of an empty collection is 0.
extension Query where T: _QueryNumeric {
    /// The smallest value of the property among the objects of the collection the key path goes
    /// through (`$0.dogs.age.min >= 2`).
    public var min: Query { aggregate(QueryAggregate.min, "min") }
    /// The largest value among the objects of the collection (`$0.dogs.age.max < 10`).
    public var max: Query { aggregate(QueryAggregate.max, "max") }
    /// The mean value among the objects of the collection (`$0.dogs.age.avg > 3`).
    public var avg: Query { aggregate(QueryAggregate.avg, "avg") }
    /// The sum of the values among the objects of the collection (`$0.dogs.age.sum == 12`).
    public var sum: Query { aggregate(QueryAggregate.sum, "sum") }

    private func aggregate(_ make: (String?) -> QueryAggregate, _ name: String) -> Query {
        guard operand == nil, let prefix = collectionPrefix, path.count == prefix.count + 1 else {
            context.error =
                ".\(name) aggregates a property of the objects of a collection, e.g. $0.dogs.age.\(name); the key path must be a list, set or LinkingObjects property followed by one numeric property"
            return Query(path: path + ["?"], node: nil, context: context)
        }
        var result = Query(path: path, node: nil, context: context)
        result.operand = .keyPath(prefix, aggregate: make(path[path.count - 1]))
        return result
    }
}

extension Query {
    /// `path.@min` and friends over a collection of values.
    func collectionAggregate<E>(_ aggregate: QueryAggregate) -> Query<E> {
        var result = Query<E>(path: path, node: nil, context: context)
        result.operand = .keyPath(path, aggregate: aggregate)
        return result
    }
}

extension Query where T: _QueryCollectionValues, T._StrataQueryElement: _QueryNumeric {
    /// The smallest value of the collection (`$0.scores.min >= 2`; nil when it is empty).
    public var min: Query<T._StrataQueryElement> { collectionAggregate(.min(nil)) }
    /// The largest value of the collection (nil when it is empty).
    public var max: Query<T._StrataQueryElement> { collectionAggregate(.max(nil)) }
    /// The mean of the collection's values (nil when it is empty).
    public var avg: Query<T._StrataQueryElement> { collectionAggregate(.avg(nil)) }
    /// The sum of the collection's values (0 when it is empty).
    public var sum: Query<T._StrataQueryElement> { collectionAggregate(.sum(nil)) }
}
