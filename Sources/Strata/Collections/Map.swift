/// A dictionary property from `String` keys to values or optional objects
/// (`Map<String, Int>`, `Map<String, Dog?>`).
///
/// ```swift
/// final class Dog: Object {
///     @Persisted var scores: Map<String, Int>
/// }
/// dog.scores["agility"] = 9                          // unmanaged: kept in memory
/// try realm.write { managedDog.scores["agility"] = 9 }  // managed: written
/// ```
///
/// A class, as in RealmSwift. Iteration order is ascending key order, so output that prints a
/// map is stable.
///
/// The map read from a managed object is managed: live (reads show the realm's current version,
/// including changes made earlier in the current write transaction), and every mutation writes
/// to the realm, so it must happen inside a write transaction (outside one it is reported through
/// `Realm.violationHandler` and skipped). Setting an unmanaged object as a value adds it to the
/// realm. Deleting an object leaves `nil` as the value of every map entry that held it.
///
/// ## Concurrency
/// Not `Sendable`; follows the rules of the object that owns it (a managed map is confined with
/// its realm).
public final class Map<Key: _MapKey, Value: RealmCollectionValue>: Sequence {
    /// The entries of an unmanaged map (unused when managed).
    @usableFromInline internal var entries: [Key: Value] = [:]
    /// The owning object and property of a managed map; nil when unmanaged.
    @usableFromInline internal let owner: _CollectionOwner?

    /// Creates an empty, unmanaged map.
    public init() {
        owner = nil
    }

    /// A managed map: a live view of property `owner.index` of `owner.state`'s object.
    init(owner: _CollectionOwner) {
        self.owner = owner
    }

    // MARK: Reading

    /// The current entries: the unmanaged entries, or the managed map's value in the realm's
    /// current version (decoded once per version).
    var snapshot: [Key: Value] {
        guard let owner else { return entries }
        return owner.read("Map", as: [Key: Value].self) { Self.decodeEntries($0) } ?? [:]
    }

    static func decodeEntries(_ value: PropertyValue) -> [Key: Value]? {
        guard case .map(let values) = value else { return nil }
        var entries: [Key: Value] = [:]
        entries.reserveCapacity(values.count)
        for (key, value) in values {
            guard let decoded = Value._strataFromPropertyValue(value) else { return nil }
            entries[Key(_strataMapKey: key)] = decoded
        }
        return entries
    }

    /// The number of entries.
    public var count: Int { snapshot.count }

    /// Whether the map has no entries.
    public var isEmpty: Bool { snapshot.isEmpty }

    /// The keys, ascending.
    public var keys: [Key] { snapshot.keys.sorted() }

    /// The values, in ascending key order.
    public var values: [Value] {
        let current = snapshot
        return current.keys.sorted().compactMap { current[$0] }
    }

    /// The value for `key` (nil when there is no entry); assigning nil removes the entry. For a
    /// map of optionals, assign `.some(nil)` or use `updateValue(nil, forKey:)` to store a nil
    /// value.
    public subscript(key: Key) -> Value? {
        get { snapshot[key] }
        set {
            if let newValue {
                updateValue(newValue, forKey: key)
            } else {
                removeObject(for: key)
            }
        }
    }

    /// The entries in ascending key order, as they are when iteration starts.
    public func makeIterator() -> IndexingIterator<[(key: Key, value: Value)]> {
        let current = snapshot
        return current.keys.sorted().compactMap { key in current[key].map { (key: key, value: $0) } }.makeIterator()
    }

    /// The realm managing the map, or nil when it is unmanaged.
    public var realm: Realm? { owner?.realm }

    /// Whether the object owning the map was deleted from its realm (or its realm was
    /// invalidated); always false for unmanaged maps.
    public var isInvalidated: Bool {
        guard let owner else { return false }
        return !owner.isValid
    }

    // MARK: Mutating

    /// Applies `change` to the entries: in memory when unmanaged; when managed, to the realm's
    /// current value, written back inside a write transaction.
    func mutate(_ change: (inout [Key: Value]) -> Void) {
        guard let owner else {
            change(&entries)
            return
        }
        guard owner.checkWritable("Map") else { return }
        var current = snapshot
        change(&current)
        owner.write(Self.propertyValue(current), decoded: current)
    }

    static func propertyValue(_ entries: [Key: Value]) -> PropertyValue {
        .map(Dictionary(uniqueKeysWithValues: entries.map { ($0.key._strataMapKey, $0.value._strataPropertyValue) }))
    }

    /// Sets the value for `key`. Setting an unmanaged object in a managed map adds it to the realm.
    public func updateValue(_ value: Value, forKey key: Key) {
        guard let owner else {
            entries[key] = value
            return
        }
        owner.setMapEntry(key, value)
    }

    /// Removes the entry for `key`, if any.
    public func removeObject(for key: Key) {
        guard let owner else {
            entries[key] = nil
            return
        }
        owner.setMapEntry(key, nil as Value?)
    }

    /// Removes every entry.
    public func removeAll() {
        mutate { $0.removeAll() }
    }
}

extension String: _MapKey {
    public var _strataMapKey: String { self }
    public init(_strataMapKey key: String) { self = key }
}

extension Map: _Persistable, _PropertyValueConvertible {
    public static func _strataDefaultValue() -> Map<Key, Value> { Map() }
    public var _strataPropertyValue: PropertyValue { Self.propertyValue(snapshot) }
    public static func _strataFromPropertyValue(_ value: PropertyValue) -> Map<Key, Value>? {
        guard let entries = decodeEntries(value) else { return nil }
        let map = Map()
        map.entries = entries
        return map
    }

    /// The managed map of property `index` of a managed object: a live view, not a copy.
    public static func _strataManagedGet(_ state: ManagedObjectState, _ index: Int) -> Map<Key, Value> {
        Map(owner: _CollectionOwner(state: state, index: index))
    }

    /// Replaces the entries of property `index` of a managed object with `newValue`'s entries
    /// (inside a write transaction).
    public static func _strataManagedSet(_ state: ManagedObjectState, _ index: Int, _ newValue: Map<Key, Value>) {
        let owner = _CollectionOwner(state: state, index: index)
        guard owner.checkWritable("Map") else { return }
        if let other = newValue.owner, other.isSame(as: owner) { return }
        let entries = newValue.snapshot
        owner.write(propertyValue(entries), decoded: entries)
    }
}

extension Map: CustomStringConvertible {
    /// The key and value types and the entries in key order, e.g. `Map<String, Int>[a: 1, b: 2]`.
    public var description: String {
        "Map<\(Key.self), \(Value.self)>[" + map { "\($0.key): \($0.value)" }.joined(separator: ", ") + "]"
    }
}
