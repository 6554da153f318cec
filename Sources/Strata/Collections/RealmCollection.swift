import Foundation

/// The operations shared by `Results`, `List`, `MutableSet`, `LinkingObjects` and
/// `AnyRealmCollection`, for code written once for any of them:
///
/// ```swift
/// func oldest<C: RealmCollection>(_ dogs: C) -> Dog? where C.Element == Dog {
///     dogs.filter("age > 1").sorted(byKeyPath: "age", ascending: false).first
/// }
/// oldest(realm.objects(Dog.self))
/// oldest(person.dogs)
/// oldest(AnyRealmCollection(person.dogs))
/// ```
///
/// Queries, sorting and distinct give live `Results`. On a collection of values the value is
/// named `self` (`filter("self > 1")`, `sorted(byKeyPath: "self")`, `min(ofProperty: "self")`).
///
/// Two collections are equal (`==`) when they are the same collection, as in RealmSwift: the
/// same list, set or backlinks of the same object in the same realm, or the same `Results` value
/// (a copy of it, not another query with the same objects); unmanaged lists and sets compare
/// their elements.
///
/// Not in the protocol (see Docs/Compatibility.md): `observe` (each conforming type has its own,
/// `AnyRealmCollection` too), `filter(NSPredicate)` and `sectioned`.
///
/// ## Concurrency
/// A protocol; the conforming collections are confined with their realm, frozen ones may be
/// read from any thread.
public protocol RealmCollection: RealmCollectionBase, Equatable {
    /// The realm managing the collection, nil when unmanaged.
    var realm: Realm? { get }
    /// Whether the collection can no longer be read (its owner was deleted or its realm
    /// invalidated).
    var isInvalidated: Bool { get }
    /// The number of elements.
    var count: Int { get }
    /// Whether the collection belongs to a frozen realm.
    var isFrozen: Bool { get }
    /// A frozen copy of the collection, readable from any thread.
    func freeze() -> Self
    /// The live collection in the calling thread's realm, nil when it no longer exists.
    func thaw() -> Self?

    /// The position of `object` (the same stored object, for objects), nil when absent.
    func index(of object: Element) -> Int?
    /// The position of the first element matching `predicateFormat`, nil when none does.
    func index(matching predicateFormat: String, _ args: Any...) -> Int?
    /// The position of the first element for which `isIncluded` holds, nil when none does.
    func index(matching isIncluded: (Query<Element>) -> Query<Bool>) -> Int?
    /// The elements at `indexes`, in index order.
    func objects(at indexes: IndexSet) -> [Element]

    /// The elements matching `predicateFormat` (Realm's query language), as live results.
    func filter(_ predicateFormat: String, _ args: Any...) -> Results<Element>
    /// The elements for which `isIncluded` holds, as live results.
    func `where`(_ isIncluded: (Query<Element>) -> Query<Bool>) -> Results<Element>
    /// The elements sorted by the property `keyPath` names (`self` for values).
    func sorted(byKeyPath keyPath: String, ascending: Bool) -> Results<Element>
    /// The elements sorted by several properties, the first deciding first.
    func sorted<S: Sequence>(by sortDescriptors: S) -> Results<Element> where S.Element == SortDescriptor
    /// The first element of each distinct combination of the values of `keyPaths`.
    func distinct<S: Sequence>(by keyPaths: S) -> Results<Element> where S.Element == String

    /// The smallest value of `property` (`self` for values), nil when there is none.
    func min<T: _PropertyValueConvertible & Comparable>(ofProperty property: String) -> T?
    /// The largest value of `property` (`self` for values), nil when there is none.
    func max<T: _PropertyValueConvertible & Comparable>(ofProperty property: String) -> T?
    /// The sum of `property` (`self` for values).
    func sum<T: _PropertyValueConvertible & AdditiveArithmetic>(ofProperty property: String) -> T
    /// The average of `property` (`self` for values), nil when there are no values.
    func average<T: BinaryFloatingPoint>(ofProperty property: String) -> T?

    /// The value of the property named `key` of each element (`self`: the values themselves).
    func value(forKey key: String) -> Any?
    /// The value of `keyPath` of each element.
    func value(forKeyPath keyPath: String) -> Any?
    /// Sets the property named `key` of every element (inside a write transaction when managed).
    func setValue(_ value: Any?, forKey key: String)
}

extension RealmCollection {
    /// The elements sorted by the property `keyPath` names, smallest first.
    public func sorted(byKeyPath keyPath: String) -> Results<Element> {
        sorted(byKeyPath: keyPath, ascending: true)
    }
}
