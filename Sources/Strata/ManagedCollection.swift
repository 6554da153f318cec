import Foundation

// What managed `List`, `MutableSet` and `Map` share: where the collection lives (the owning
// object and the property), reading its stored value once per realm version, and writing a new
// value through `Realm.setPropertyValue`.
//
// A managed collection is a view: it holds no elements of its own. Every read asks the owner's
// `ManagedObjectState` for the decoded value, which is cached there keyed by `Realm.stamp`
// (the same pattern as `ManagedObjectState.row()`), so `person.dogs[i]` in a loop decodes the
// list once per realm version, not once per element, even though each `person.dogs` returns a
// new view. A mutation reads the current value, changes it and writes the whole value back
// (collections are stored inline in the owner's row, see Decisions), which bumps the stamp and
// so drops the cache.

/// The owner of a managed collection: the object's state and the schema index of the property.
/// Not API.
///
/// ## Concurrency
/// Not `Sendable`: confined with the realm of the owning object.
@usableFromInline
struct _CollectionOwner {
    /// The owning object.
    let state: ManagedObjectState
    /// The collection property's index in the owner's schema.
    let index: Int

    var realm: Realm { state.realm }

    /// Whether the owning object still exists in the realm's current version.
    var isValid: Bool { state.row() != nil }

    /// `Type.property`, for messages.
    var propertyPath: String {
        "\(state.binding.className).\(state.binding.schema.properties[index].name)"
    }

    /// The stored value decoded by `decode`, from the owner's cache when the realm has not changed
    /// since it was decoded; nil (after reporting the violation) when the owner was deleted or the
    /// stored value does not fit the model.
    func read<Value>(_ kind: String, as _: Value.Type, decode: (PropertyValue) -> Value?) -> Value? {
        let stamp = state.realm.stamp
        // Frozen objects may be read from several threads at once: no per-object cache.
        let frozen = state.realm.isFrozen
        if !frozen, let box = state.collectionCaches[index] as? _CollectionCache<Value>, box.stamp == stamp {
            return box.value
        }
        guard state.row() != nil else {
            return state.realm.ownerMissing(state, Self.invalidatedMessage(kind), fallback: nil)
        }
        let stored = state.realm.propertyValue(state, index)
        guard let decoded = decode(stored) else {
            state.realm._strataStoredValueDoesNotFit(state, index, stored, expected: kind)
            return nil
        }
        if !frozen { state.collectionCaches[index] = _CollectionCache(stamp: stamp, value: decoded) }
        return decoded
    }

    /// Whether a mutation may proceed: inside a write transaction, with the owner still present.
    /// Reports the violation (as RealmSwift raises its exception) when not.
    func checkWritable(_ kind: String) -> Bool {
        guard state.realm.checkThread() else { return false }
        guard !state.realm.isFrozen else {
            return Realm.violation("Attempting to modify a frozen object - call thaw on the Object instance first.", fallback: false)
        }
        guard state.realm.isInWriteTransaction else {
            return Realm.violation("Cannot modify managed objects outside of a write transaction.", fallback: false)
        }
        guard state.row() != nil else {
            return state.realm.ownerMissing(state, Self.invalidatedMessage(kind), fallback: false)
        }
        return true
    }

    /// Writes the collection's new value (adding the unmanaged objects it links to).
    func write(_ value: PropertyValue) {
        state.collectionCaches[index] = nil
        state.realm.setPropertyValue(state, index, value)
    }

    /// Writes `value`, the encoding of `decoded`, and when the write succeeded keeps `decoded` as
    /// the cached value of the new realm version, so a loop of appends in one write does not
    /// decode the whole collection again after each one. Skipped when reading back could give
    /// something else: dates (stored as seconds and nanoseconds) and objects of another realm
    /// instance (a read makes objects of this realm).
    func write<Value>(_ value: PropertyValue, decoded: Value) {
        let realm = state.realm
        let wasFailed = realm.pendingError != nil
        let before = realm.stamp
        write(value)
        guard !wasFailed, realm.pendingError == nil, realm.stamp != before,
              Self.readsBackUnchanged(value, in: realm) else { return }
        state.collectionCaches[index] = _CollectionCache(stamp: realm.stamp, value: decoded)
    }

    private static func readsBackUnchanged(_ value: PropertyValue, in realm: Realm) -> Bool {
        switch value {
        case .date: false
        case .object(let object): object._strataManaged?.realm.core === realm.core
        case .list(let values), .set(let values): values.allSatisfy { readsBackUnchanged($0, in: realm) }
        case .map(let entries): entries.values.allSatisfy { readsBackUnchanged($0, in: realm) }
        default: true
        }
    }

    /// Whether `self` and `other` are the same property of the same object.
    func isSame(as other: _CollectionOwner) -> Bool {
        index == other.index && state.key == other.state.key
            && state.binding.className == other.state.binding.className
            && state.realm.file === other.state.realm.file
    }

    static func invalidatedMessage(_ kind: String) -> String {
        "\(kind) has been invalidated or the object that owns it has been deleted."
    }
}

/// A decoded collection value and the realm stamp it was read at. Not API.
///
/// ## Concurrency
/// Not `Sendable`; held by a `ManagedObjectState`.
final class _CollectionCache<Value> {
    let stamp: UInt64
    let value: Value

    init(stamp: UInt64, value: Value) {
        self.stamp = stamp
        self.value = value
    }
}

/// What makes two collection elements "the same" for `contains`, `index(of:)` and set
/// uniqueness of managed collections: equal values, or the same stored object (same file, class
/// and key) even when the two are different `Object` instances, as RealmSwift compares managed
/// objects. Not API.
///
/// ## Concurrency
/// A plain value.
@usableFromInline
enum _CollectionElementIdentity: Hashable {
    case value(AnyHashable)
    case stored(file: ObjectIdentifier, table: String, key: Int64)
    case instance(ObjectIdentifier)

    init<Element: RealmCollectionValue>(_ element: Element) {
        guard case .object(let object) = element._strataPropertyValue else {
            self = .value(AnyHashable(element))
            return
        }
        if let state = object._strataManaged {
            self = .stored(file: ObjectIdentifier(state.realm.file), table: state.binding.className, key: state.key)
        } else {
            self = .instance(ObjectIdentifier(object))
        }
    }
}

/// Decodes the elements of a stored list or set value.
func _decodeElements<Element: RealmCollectionValue>(_ values: [PropertyValue], as _: Element.Type) -> [Element]? {
    var elements: [Element] = []
    elements.reserveCapacity(values.count)
    for value in values {
        guard let element = Element._strataFromPropertyValue(value) else { return nil }
        elements.append(element)
    }
    return elements
}

/// Reports an index outside `0..<count` (or `0...count` when `allowingEnd`) of a mutation, with
/// RealmSwift's message; returns whether the index is valid.
func _checkIndex(_ index: Int, count: Int, allowingEnd: Bool = false) -> Bool {
    let limit = allowingEnd ? count + 1 : count
    if index >= 0 && index < limit { return true }
    let bound = allowingEnd ? "less than or equal to \(count)" : "less than \(count)"
    return Realm.violation("Index \(index) is out of bounds (must be \(bound)).", fallback: false)
}
