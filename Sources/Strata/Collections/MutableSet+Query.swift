internal import StrataCore

/// Queries, sorting and aggregates of a managed set of objects, run by the store over the objects the
/// set links to (an index or a scan of the set's objects; no object is created per element).
/// Each returns live `Results` that keep the set's order until sorted and follow the set as it
/// changes. An unmanaged set cannot be queried: the call is reported through
/// `Realm.violationHandler` (as RealmSwift raises its exception) and gives empty results.
extension MutableSet where Element: Object {
    /// The set's objects as live results, or empty results after reporting the violation when
    /// the set is unmanaged.
    private var storeResults: Results<Element> {
        guard let owner else {
            return Realm.violation(
                _CollectionOwner.unmanagedQueryMessage,
                fallback: Results(realm: nil, query: StoreQuery().filtered(by: .falsePredicate)))
        }
        return owner.results(of: Element.self)
    }

    /// The objects for which `isIncluded` holds, as a type-safe query, in the set's order:
    /// `person.dogs.where { $0.age > 3 }`.
    public func `where`(_ isIncluded: (Query<Element>) -> Query<Bool>) -> Results<Element> {
        storeResults.where(isIncluded)
    }

    /// The objects matching `predicateFormat` (Realm's query language), in the set's order:
    /// `person.dogs.filter("age > %@", 3)`.
    public func filter(_ predicateFormat: String, _ args: Any...) -> Results<Element> {
        storeResults.filter(predicateFormat, arguments: args)
    }

    /// `filter(_:_:)` with the arguments in an array.
    public func filter(_ predicateFormat: String, arguments args: [Any]) -> Results<Element> {
        storeResults.filter(predicateFormat, arguments: args)
    }

    /// The objects sorted by the property `keyPath` names (`"name"`, `"owner.name"`).
    public func sorted(byKeyPath keyPath: String, ascending: Bool = true) -> Results<Element> {
        storeResults.sorted(byKeyPath: keyPath, ascending: ascending)
    }

    /// The objects sorted by several properties, the first deciding first.
    public func sorted<S: Sequence>(by descriptors: S) -> Results<Element> where S.Element == SortDescriptor {
        storeResults.sorted(by: descriptors)
    }

    /// The objects keeping only the first of each distinct combination of values of `keyPaths`.
    public func distinct<S: Sequence>(by keyPaths: S) -> Results<Element> where S.Element == String {
        storeResults.distinct(by: keyPaths)
    }

    /// The smallest value of `property` among the objects, nil when there are none.
    public func min<T: _PropertyValueConvertible & Comparable>(ofProperty property: String) -> T? {
        storeResults.min(ofProperty: property)
    }

    /// The largest value of `property` among the objects, nil when there are none.
    public func max<T: _PropertyValueConvertible & Comparable>(ofProperty property: String) -> T? {
        storeResults.max(ofProperty: property)
    }

    /// The sum of `property` (an Int, Float, Double or Decimal128 property) over the objects.
    public func sum<T: _PropertyValueConvertible & AdditiveArithmetic>(ofProperty property: String) -> T {
        storeResults.sum(ofProperty: property)
    }

    /// The average of `property` over the objects, nil when there are none.
    public func average<T: BinaryFloatingPoint>(ofProperty property: String) -> T? {
        storeResults.average(ofProperty: property)
    }
}
