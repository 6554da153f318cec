internal import StrataCore

/// Queries, sorting and aggregates of the objects linking to a managed object, run by the store
/// over those objects (found through the backlinks index; no object is created per element).
/// Each returns live `Results`, in key order until sorted, that follow the links as they change.
/// An unmanaged object has no objects linking to it: its queries give empty results, as in
/// RealmSwift.
extension LinkingObjects where Element: Object {
    /// The linking objects as live results; empty for an unmanaged object.
    private var storeResults: Results<Element> {
        guard let owner, let (_, source) = owner.realm.linkingObjectsSource(owner.state, owner.index) else {
            return Results(realm: owner?.realm, query: StoreQuery().filtered(by: .falsePredicate))
        }
        return Results(realm: owner.realm, query: StoreQuery().restricted(to: source))
    }

    /// The objects for which `isIncluded` holds, as a type-safe query, in key order:
    /// `dog.owners.where { $0.name.starts(with: "A") }`.
    public func `where`(_ isIncluded: (Query<Element>) -> Query<Bool>) -> Results<Element> {
        storeResults.where(isIncluded)
    }

    /// The objects matching `predicateFormat` (Realm's query language), in key order:
    /// `dog.owners.filter("name BEGINSWITH %@", "A")`.
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

    /// The objects sorted by the property `keyPath` names.
    public func sorted<T: Comparable>(by keyPath: KeyPath<Element, T>, ascending: Bool = true) -> Results<Element> {
        storeResults.sorted(by: keyPath, ascending: ascending)
    }

    /// The objects keeping only the first of each distinct combination of the values of `keyPaths`.
    public func distinct<S: Sequence>(by keyPaths: S) -> Results<Element> where S.Element == PartialKeyPath<Element> {
        storeResults.distinct(by: keyPaths)
    }

    /// The smallest value of the property `keyPath` names, nil when there are no objects.
    public func min<T: _PropertyValueConvertible & Comparable>(of keyPath: KeyPath<Element, T>) -> T? {
        storeResults.min(of: keyPath)
    }

    /// The largest value of the property `keyPath` names, nil when there are no objects.
    public func max<T: _PropertyValueConvertible & Comparable>(of keyPath: KeyPath<Element, T>) -> T? {
        storeResults.max(of: keyPath)
    }

    /// The sum of the property `keyPath` names over the objects.
    public func sum<T: _PropertyValueConvertible & AdditiveArithmetic>(of keyPath: KeyPath<Element, T>) -> T {
        storeResults.sum(of: keyPath)
    }

    /// The average of the property `keyPath` names, in its own type, nil when there are no objects.
    public func average<T: _PropertyValueConvertible & AdditiveArithmetic>(of keyPath: KeyPath<Element, T>) -> T? {
        storeResults.average(of: keyPath)
    }

    /// The position of the first object matching `predicateFormat`, or nil.
    public func index(matching predicateFormat: String, _ args: Any...) -> Int? {
        storeResults.index(matching: predicateFormat, arguments: args)
    }

    /// The position of the first object for which `isIncluded` holds, or nil.
    public func index(matching isIncluded: (Query<Element>) -> Query<Bool>) -> Int? {
        storeResults.index(matching: isIncluded)
    }
}
