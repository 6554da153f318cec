import Foundation

/// The collections whose queries, sorting, distinct and aggregates are those of their elements
/// as live `Results` (`List`, `MutableSet`, `LinkingObjects`): each of those operations is
/// written once, here, and runs on `_strataResults`. Not API.
///
/// For a managed collection of objects the store runs the query over the objects the collection
/// links to (an index or a scan of those objects; no object is created per element); for a
/// collection of values over its values. The results keep the collection's order until sorted
/// and follow it as it changes. Querying an unmanaged `List` or `MutableSet` is reported through
/// `Realm.violationHandler` (as RealmSwift raises its exception) and gives empty results; an
/// unmanaged object's `LinkingObjects` gives empty results.
public protocol _RealmCollectionQueries: RealmCollectionBase {
    /// The elements as live results (empty, after any report, when they cannot be queried).
    var _strataResults: Results<Element> { get }
}

extension _RealmCollectionQueries {
    /// The elements for which `isIncluded` holds, as a type-safe query, in the collection's
    /// order: `person.dogs.where { $0.age > 3 }`, `player.scores.where { $0 > 10 }`.
    public func `where`(_ isIncluded: (Query<Element>) -> Query<Bool>) -> Results<Element> {
        _strataResults.where(isIncluded)
    }

    /// The elements matching `predicateFormat` (Realm's query language), in the collection's
    /// order: `person.dogs.filter("age > %@", 3)`, `player.scores.filter("self > 10")`.
    public func filter(_ predicateFormat: String, _ args: Any...) -> Results<Element> {
        _strataResults.filter(predicateFormat, arguments: args)
    }

    /// `filter(_:_:)` with the arguments in an array.
    public func filter(_ predicateFormat: String, arguments args: [Any]) -> Results<Element> {
        _strataResults.filter(predicateFormat, arguments: args)
    }

    /// The elements sorted by the property `keyPath` names (`"name"`, `"owner.name"`; `"self"`
    /// for values).
    public func sorted(byKeyPath keyPath: String, ascending: Bool = true) -> Results<Element> {
        _strataResults.sorted(byKeyPath: keyPath, ascending: ascending)
    }

    /// The elements sorted by several properties, the first deciding first.
    public func sorted<S: Sequence>(by descriptors: S) -> Results<Element> where S.Element == SortDescriptor {
        _strataResults.sorted(by: descriptors)
    }

    /// The elements keeping only the first of each distinct combination of values of `keyPaths`.
    public func distinct<S: Sequence>(by keyPaths: S) -> Results<Element> where S.Element == String {
        _strataResults.distinct(by: keyPaths)
    }

    /// The smallest value of `property` among the elements, nil when there is none.
    public func min<T: _PropertyValueConvertible & Comparable>(ofProperty property: String) -> T? {
        _strataResults.min(ofProperty: property)
    }

    /// The largest value of `property` among the elements, nil when there is none.
    public func max<T: _PropertyValueConvertible & Comparable>(ofProperty property: String) -> T? {
        _strataResults.max(ofProperty: property)
    }

    /// The sum of `property` (an Int, Float, Double or Decimal128 property) over the elements; an
    /// object a list holds twice counts twice.
    public func sum<T: _PropertyValueConvertible & AdditiveArithmetic>(ofProperty property: String) -> T {
        _strataResults.sum(ofProperty: property)
    }

    /// The average of `property` over the elements, nil when there are none.
    public func average<T: BinaryFloatingPoint>(ofProperty property: String) -> T? {
        _strataResults.average(ofProperty: property)
    }

    /// The position of the first element matching `predicateFormat`, or nil.
    public func index(matching predicateFormat: String, _ args: Any...) -> Int? {
        _strataResults.index(matching: predicateFormat, arguments: args)
    }

    /// The position of the first element for which `isIncluded` holds, or nil.
    public func index(matching isIncluded: (Query<Element>) -> Query<Bool>) -> Int? {
        _strataResults.index(matching: isIncluded)
    }

    /// The position of the first element equal to `object` (for objects: the same stored object,
    /// any instance of it, in a managed collection), or nil.
    public func index(of object: Element) -> Int? {
        let wanted = _CollectionElementIdentity(object)
        return firstIndex { _CollectionElementIdentity($0) == wanted }
    }

    /// The elements at `indexes`, in index order. An index outside the collection is reported
    /// through `Realm.violationHandler` and gives an empty array.
    public func objects(at indexes: IndexSet) -> [Element] {
        _CollectionKeyValueCoding.objects(Array(self), at: indexes, kind: _CollectionKeyValueCoding.kind(of: Self.self))
    }

    /// The value of the property named `key` of each element, in order (`NSNull()` for nil);
    /// `"self"` gives the values of a collection of values.
    public func value(forKey key: String) -> Any? {
        _CollectionKeyValueCoding.values(of: self, keyPath: key)
    }

    /// The value of `keyPath` (names joined by dots, through to-one links) of each element, in
    /// order (`NSNull()` for nil).
    public func value(forKeyPath keyPath: String) -> Any? {
        _CollectionKeyValueCoding.values(of: self, keyPath: keyPath)
    }

    /// Sets the property named `key` of every object to `value` (the bulk-update idiom, inside a
    /// write transaction when managed).
    public func setValue(_ value: Any?, forKey key: String) {
        _CollectionKeyValueCoding.setValue(value, forKey: key, of: self)
    }
}

/// The key-path forms of sorting, distinct and aggregates on collections of objects, as
/// RealmSwift has them: `person.dogs.sorted(by: \.age)`, `person.dogs.sum(of: \.age)`.
extension _RealmCollectionQueries where Element: Object {
    /// The objects sorted by the property `keyPath` names.
    public func sorted<T: Comparable>(by keyPath: KeyPath<Element, T>, ascending: Bool = true) -> Results<Element> {
        _strataResults.sorted(by: keyPath, ascending: ascending)
    }

    /// The objects keeping only the first of each distinct combination of the values of `keyPaths`.
    public func distinct<S: Sequence>(by keyPaths: S) -> Results<Element> where S.Element == PartialKeyPath<Element> {
        _strataResults.distinct(by: keyPaths)
    }

    /// The smallest value of the property `keyPath` names, nil when there are no objects.
    public func min<T: _PropertyValueConvertible & Comparable>(of keyPath: KeyPath<Element, T>) -> T? {
        _strataResults.min(of: keyPath)
    }

    /// The largest value of the property `keyPath` names, nil when there are no objects.
    public func max<T: _PropertyValueConvertible & Comparable>(of keyPath: KeyPath<Element, T>) -> T? {
        _strataResults.max(of: keyPath)
    }

    /// The sum of the property `keyPath` names over the objects.
    public func sum<T: _PropertyValueConvertible & AdditiveArithmetic>(of keyPath: KeyPath<Element, T>) -> T {
        _strataResults.sum(of: keyPath)
    }

    /// The average of the property `keyPath` names, in its own type, nil when there are no objects.
    public func average<T: _PropertyValueConvertible & AdditiveArithmetic>(of keyPath: KeyPath<Element, T>) -> T? {
        _strataResults.average(of: keyPath)
    }
}
