/// A dictionary property from `String` keys to values or optional objects
/// (`Map<String, Int>`, `Map<String, Dog?>`).
///
/// ```swift
/// final class Dog: Object {
///     @Persisted var scores: Map<String, Int>
/// }
/// dog.scores["agility"] = 9
/// ```
///
/// A class, as in RealmSwift. Iteration order of an unmanaged map is ascending key order, so
/// output that prints a map is stable.
///
/// ## Concurrency
/// Not `Sendable`; follows the rules of the object that owns it.
public final class Map<Key: _MapKey, Value: RealmCollectionValue>: Sequence {
    @usableFromInline internal var entries: [Key: Value] = [:]

    /// Creates an empty, unmanaged map.
    public init() {}

    /// The number of entries.
    public var count: Int { entries.count }

    /// The keys, ascending.
    public var keys: [Key] { entries.keys.sorted() }

    /// The values, in ascending key order.
    public var values: [Value] { keys.compactMap { entries[$0] } }

    /// The value for `key`; assigning nil removes the entry.
    public subscript(key: Key) -> Value? {
        get { entries[key] }
        set { entries[key] = newValue }
    }

    /// Sets the value for `key`.
    public func updateValue(_ value: Value, forKey key: Key) {
        entries[key] = value
    }

    /// Removes the entry for `key`, if any.
    public func removeObject(for key: Key) {
        entries[key] = nil
    }

    /// Removes every entry.
    public func removeAll() {
        entries.removeAll()
    }

    /// The entries in ascending key order.
    public func makeIterator() -> IndexingIterator<[(key: Key, value: Value)]> {
        keys.compactMap { key in entries[key].map { (key: key, value: $0) } }.makeIterator()
    }
}

/// Types a `Map` can use as keys: `String`, as in RealmSwift.
///
/// ## Concurrency
/// Marker; no state.
public protocol _MapKey: Hashable, Comparable {
    var _strataMapKey: String { get }
    init(_strataMapKey: String)
}

extension String: _MapKey {
    public var _strataMapKey: String { self }
    public init(_strataMapKey key: String) { self = key }
}

extension Map: _Persistable, _PropertyValueConvertible {
    public static func _strataDefaultValue() -> Map<Key, Value> { Map() }
    public var _strataPropertyValue: PropertyValue {
        .map(Dictionary(uniqueKeysWithValues: entries.map { ($0.key._strataMapKey, $0.value._strataPropertyValue) }))
    }
    public static func _strataFromPropertyValue(_ value: PropertyValue) -> Map<Key, Value>? {
        guard case .map(let values) = value else { return nil }
        let map = Map()
        for (key, value) in values {
            guard let decoded = Value._strataFromPropertyValue(value) else { return nil }
            map.entries[Key(_strataMapKey: key)] = decoded
        }
        return map
    }
}
