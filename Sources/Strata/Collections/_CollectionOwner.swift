import Foundation

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
        state.realm.noteRead(state, index)
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
        guard state.realm.modifiableTransaction() != nil else { return false }
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
            Self.readsBackUnchanged(value, in: realm)
        else { return }
        state.collectionCaches[index] = _CollectionCache(stamp: realm.stamp, value: decoded)
    }

    static func readsBackUnchanged(_ value: PropertyValue, in realm: Realm) -> Bool {
        switch value {
        case .date: false
        case .object(let object): object._strataManaged?.realm.realmState === realm.realmState
        case .list(let values), .set(let values): values.allSatisfy { readsBackUnchanged($0, in: realm) }
        case .map(let entries): entries.values.allSatisfy { readsBackUnchanged($0, in: realm) }
        default: true
        }
    }

    /// Replaces the contents of collection property `index` of a managed object with
    /// `elements`, stored as `wrap` makes them (`PropertyValue.list`, `.set`), inside a write
    /// transaction; nothing when `source` is that same property (`person.dogs = person.dogs`).
    static func assign<Element: RealmCollectionValue>(
        _ state: ManagedObjectState, _ index: Int, _ kind: String, from source: _CollectionOwner?,
        _ elements: @autoclosure () -> [Element], as wrap: ([PropertyValue]) -> PropertyValue
    ) {
        let owner = _CollectionOwner(state: state, index: index)
        guard owner.checkWritable(kind) else { return }
        if let source, source.isSame(as: owner) { return }
        let elements = elements()
        owner.write(wrap(elements.map { $0._strataPropertyValue }), decoded: elements)
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
