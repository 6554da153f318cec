import Foundation

/// How `@ObservedRealmObject` observes a `List`. Not API.
enum ObservedListSubscription {
    /// The storage of an `@ObservedRealmObject` holding `list`: observed from its realm when it
    /// is managed and its owner exists, else held as it is (and Observation turned on).
    static func storage<V>(for list: List<V>) -> ObservedValueStorage<List<V>?> {
        guard let owner = list.owner, !list.isInvalidated else {
            ObservationGate.set(true)
            return ObservedValueStorage(constant: list)
        }
        let state = owner.state
        let index = owner.index
        return ObservedValueStorage(
            placeholder: owner.realm.isFrozen ? list : list.freeze(), configuration: owner.realm.configuration
        ) { realm, queue, publish in
            guard realm.currentRow(state.binding, state.key) != nil,
                let live = realm.object(state.binding, key: state.key)._strataManaged
            else {
                publish(nil)
                return nil
            }
            let list = List<V>(owner: _CollectionOwner(state: live, index: index))
            publish(list.freeze())
            return list.observe(keyPaths: nil, on: queue) { change in
                switch change {
                case .initial(let list), .update(let list, _, _, _):
                    publish(list.isInvalidated ? nil : list.freeze())
                case .error(let error): QuickWrite.report(error)
                }
            }
        }
    }
}
