internal import StrataCore

extension _CollectionOwner {
    /// Sets entry `key` of the stored map to `value`, or removes it when `value` is nil: only
    /// `value` is converted for the store, and the store edits the one entry (a loop of single
    /// sets costs what the stored map's bytes cost, not a conversion of every entry per set).
    /// The decoded map cached for the realm's version before the edit is carried to the new
    /// version when it was there. Removing a key the cached map does not hold writes nothing.
    /// Nothing happens (after reporting the violation) outside a write transaction or when the
    /// owner was deleted.
    func setMapEntry<Key: _MapKey, Value: RealmCollectionValue>(_ key: Key, _ value: Value?) {
        guard checkWritable("Map") else { return }
        if value == nil, let cached = cachedValue([Key: Value].self), cached[key] == nil { return }
        let realm = state.realm
        let converted = value.map { $0._strataPropertyValue }
        carryingCache(
            [Key: Value].self, readsBack: { converted.map { Self.readsBackUnchanged($0, in: realm) } ?? true }
        ) {
            realm.setMapEntry(state, index, key._strataMapKey, converted)
        } update: {
            $0[key] = value
        }
    }
}

extension Realm {
    /// Sets entry `mapKey` of map property `index` of a managed object to `value` (removes it
    /// when nil), inside a write transaction, adding an unmanaged object `value` holds.
    func setMapEntry(_ state: ManagedObjectState, _ index: Int, _ mapKey: String, _ value: PropertyValue?) {
        guard let txn = modifiableTransaction() else { return }
        let binding = state.binding
        do {
            let stored = try value.map {
                try coreValue($0, property: binding.schema.properties[index], update: .error)
            }
            try txn.setMapEntry(
                binding.table, key: state.key, column: binding.columns[index], mapKey: mapKey, to: stored)
            stamp &+= 1
        } catch let e as Realm.Error {
            fail(e)
        } catch {
            fail(translate(error, className: binding.className))
        }
    }
}
