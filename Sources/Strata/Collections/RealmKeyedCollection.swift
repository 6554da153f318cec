import Foundation

/// A Realm collection of values by key, RealmSwift's protocol for `Map`: reading and writing by
/// key, and queries, sorting and aggregates of its values, for code written once for any map.
///
/// ```swift
/// func best<M: RealmKeyedCollection>(_ scores: M) -> Int? where M.Value == Int {
///     scores.sorted(ascending: false).first
/// }
/// best(player.scoresByLevel)
/// ```
///
/// Queries, sorting and aggregates run over the values (in key order), as live `Results` of
/// values; a map of objects cannot be queried yet (the call is reported through
/// `Realm.violationHandler`). Not in the protocol (see Docs/Compatibility.md): `observe` (the
/// map has its own), `filter(NSPredicate)`, `contains(where:)` with two arguments.
///
/// ## Concurrency
/// A protocol; the conforming maps are confined with their realm.
public protocol RealmKeyedCollection: Sequence, ThreadConfined, CustomStringConvertible {
    /// The key type.
    associatedtype Key: _MapKey
    /// The value type.
    associatedtype Value: RealmCollectionValue

    /// The realm managing the map, nil when unmanaged.
    var realm: Realm? { get }
    /// Whether the map can no longer be read.
    var isInvalidated: Bool { get }
    /// The number of entries.
    var count: Int { get }
    /// The keys, ascending.
    var keys: [Key] { get }
    /// The values, in key order.
    var values: [Value] { get }
    /// The value for `key`; assigning nil removes the entry.
    subscript(key: Key) -> Value? { get set }
    /// Sets the value for `key`.
    func updateValue(_ value: Value, forKey key: Key)
    /// Removes the entry for `key`.
    func removeObject(for key: Key)
    /// Removes every entry.
    func removeAll()

    /// The value for the key `key` (key-value coding).
    func value(forKey key: String) -> Any?
    /// The value for the key `keyPath` (key-value coding).
    func value(forKeyPath keyPath: String) -> Any?
    /// Sets the value for the key `key`; nil removes the entry.
    func setValue(_ value: Any?, forKey key: String)

    /// The values matching `predicateFormat` (the value is `self`), as live results.
    func filter(_ predicateFormat: String, _ args: Any...) -> Results<Value>
    /// The values for which `isIncluded` holds, as live results.
    func `where`(_ isIncluded: (Query<Value>) -> Query<Bool>) -> Results<Value>
    /// The values sorted, smallest first when `ascending`.
    func sorted(ascending: Bool) -> Results<Value>
    /// The values sorted by `keyPath` (`self`).
    func sorted(byKeyPath keyPath: String, ascending: Bool) -> Results<Value>
    /// The values sorted by `sortDescriptors` (one, on `self`).
    func sorted<S: Sequence>(by sortDescriptors: S) -> Results<Value> where S.Element == SortDescriptor
    /// The smallest value of `property` (`self`), nil when there is none.
    func min<T: _PropertyValueConvertible & Comparable>(ofProperty property: String) -> T?
    /// The largest value of `property` (`self`), nil when there is none.
    func max<T: _PropertyValueConvertible & Comparable>(ofProperty property: String) -> T?
    /// The sum of `property` (`self`).
    func sum<T: _PropertyValueConvertible & AdditiveArithmetic>(ofProperty property: String) -> T
    /// The average of `property` (`self`), nil when there are no values.
    func average<T: BinaryFloatingPoint>(ofProperty property: String) -> T?

    /// Whether the map belongs to a frozen realm.
    var isFrozen: Bool { get }
    /// A frozen copy of the map.
    func freeze() -> Self
    /// The live map in the calling thread's realm, nil when it no longer exists.
    func thaw() -> Self?
}
