import Foundation
internal import StrataCore
internal import StrataQuery

// Results of values: the elements of a managed `List` or `MutableSet` of values, filtered,
// sorted or made distinct. The collection is read from the owner's current version (once per
// realm version while live; on every read when frozen, since frozen results may be read from
// several threads), and the filters, order and distinct are applied to its values.

extension Results {
    /// Results of the values of `source`.
    init(values source: _ValueResults) {
        self.init(realm: source.owner.realm, query: StoreQuery(), objectType: nil, values: source)
    }

    /// Results with no element and no realm (what a refused query gives).
    static var empty: Results<Element> {
        Results(
            realm: nil, query: StoreQuery().filtered(by: .falsePredicate),
            objectType: Element.self as? ObjectBase.Type, values: nil)
    }

    /// The current elements of results of values.
    func valueElements(_ source: _ValueResults) -> [Element] {
        guard let realm else { return [] }
        if realm.isFrozen { return source.evaluate(Element.self) }
        guard realm.checkThread() else { return [] }
        if cache.stamp == realm.stamp, let elements = cache.elements as? [Element] { return elements }
        let elements = source.evaluate(Element.self)
        cache.elements = elements
        cache.stamp = realm.stamp
        return elements
    }

    func valueElement(_ source: _ValueResults, _ position: Int) -> Element {
        let elements = valueElements(source)
        precondition(
            position >= 0 && position < elements.count,
            "Index \(position) is out of bounds (must be less than \(elements.count)).")
        return elements[position]
    }

    /// `filter(_:arguments:)` of results of values: the query names the value `self`.
    func filterValues(_ source: _ValueResults, _ predicateFormat: String, _ args: [Any]) -> Results<Element> {
        do {
            let parsed = try ParsedQuery.parse(predicateFormat)
            try parsed.validateArgumentCount(args.count)
            guard parsed.ordering.isEmpty else {
                throw Realm.Error(
                    .invalidQuery,
                    "SORT, DISTINCT and LIMIT apply to objects; sort values with sorted(ascending:) and distinct()")
            }
            return try filterValues(source, parsed.predicate, args)
        } catch {
            return Realm.violation(
                "Invalid predicate '\(predicateFormat)': \(error)",
                fallback: Results(values: source.filtered(by: StoreValuePredicate.matchingNothing)))
        }
    }

    /// Results of values with `predicate` (its `%@` bound to `args`) added to the filters.
    func filterValues(_ source: _ValueResults, _ predicate: QueryPredicate, _ args: [Any]) throws -> Results<Element> {
        guard let realm else { return self }
        let arguments = try args.map { try realm.queryArgument($0) }
        return Results(values: source.filtered(by: try StoreValuePredicate(predicate, arguments: arguments)))
    }

    /// `sorted(by:)` of results of values: one descriptor, named `self`.
    func sortValues(_ source: _ValueResults, _ descriptors: [SortDescriptor]) -> Results<Element> {
        guard descriptors.count == 1, descriptors[0].keyPath == "self" else {
            let names = descriptors.map(\.keyPath).joined(separator: ", ")
            return Realm.violation(
                "Cannot sort a collection of \(Element.self) values by '\(names)': sort by 'self' (sorted(ascending:)).",
                fallback: self)
        }
        return Results(values: source.sorted(ascending: descriptors[0].ascending))
    }

    /// `distinct(by:)` of results of values: the one key path `self`.
    func distinctValues(_ source: _ValueResults, _ keyPaths: [String]) -> Results<Element> {
        guard keyPaths == ["self"] else {
            return Realm.violation(
                "Cannot make a collection of \(Element.self) values distinct by '\(keyPaths.joined(separator: ", "))': use 'self' (distinct()).",
                fallback: self)
        }
        return Results(values: source.distinct())
    }

    /// The smallest or largest value of results of values.
    func _valueExtreme<T: _PropertyValueConvertible>(larger: Bool) -> T? {
        guard let values else { return nil }
        return _ValueAggregate.extreme(valueElements(values), larger: larger)
    }

    /// The sum of results of values.
    func _valueSum<T: _PropertyValueConvertible & AdditiveArithmetic>() -> T {
        guard let values else { return .zero }
        return _ValueAggregate.sum(valueElements(values))
    }

    /// The average of results of values.
    func _valueAverage<T: BinaryFloatingPoint>() -> T? {
        guard let values else { return nil }
        return _ValueAggregate.average(valueElements(values))
    }

    /// The average of results of `Decimal128` values.
    func _valueAverage() -> Decimal128? {
        guard let values else { return nil }
        return _ValueAggregate.decimalAverage(valueElements(values))
    }
}
