extension _CollectionOwner {
    /// The objects linking to the owner through its `LinkingObjects` property `index`, read from
    /// the realm's current version, and kept per object until the realm changes (frozen realms
    /// read afresh: several threads may read one frozen object). Empty, after reporting the
    /// violation, when the owner was deleted.
    func linkingObjects<Element: ObjectBase>(as _: Element.Type) -> [Element] {
        let realm = state.realm
        let property = realm.schemaProperty(state, index)
        realm.noteTableRead(className: property.objectClassName)
        let stamp = realm.stamp
        let frozen = realm.isFrozen
        if !frozen, let box = state.collectionCaches[index] as? _CollectionCache<[Element]>, box.stamp == stamp {
            return box.value
        }
        guard state.row() != nil else {
            return realm.ownerMissing(state, Self.invalidatedMessage("LinkingObjects"), fallback: [])
        }
        let objects = realm.linkingObjects(state, index).compactMap { $0 as? Element }
        if !frozen { state.collectionCaches[index] = _CollectionCache(stamp: stamp, value: objects) }
        return objects
    }
}
