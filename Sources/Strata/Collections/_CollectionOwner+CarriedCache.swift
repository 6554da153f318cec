extension _CollectionOwner {
    /// The decoded collection cached for the realm's current version, if any.
    func cachedValue<Value>(_: Value.Type) -> Value? {
        (state.collectionCaches[index] as? _CollectionCache<Value>).flatMap {
            $0.stamp == state.realm.stamp ? $0.value : nil
        }
    }

    /// Runs `edit`, a write of this collection, and when it succeeded carries the decoded value
    /// cached for the version before it to the new version, changed by `update`, so that a loop
    /// of edits in one write does not decode the whole collection again after each one. Not
    /// carried when `readsBack` (asked after the edit) says the written values would read back
    /// as something else.
    func carryingCache<Value>(
        _: Value.Type, readsBack: () -> Bool, _ edit: () -> Void, update: (inout Value) -> Void
    ) {
        let realm = state.realm
        let before = realm.stamp
        let wasFailed = realm.pendingError != nil
        let cached = cachedValue(Value.self)
        state.collectionCaches[index] = nil
        edit()
        guard !wasFailed, realm.pendingError == nil, realm.stamp != before, var cached, readsBack() else { return }
        update(&cached)
        state.collectionCaches[index] = _CollectionCache(stamp: realm.stamp, value: cached)
    }
}
