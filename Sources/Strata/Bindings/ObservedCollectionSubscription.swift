import Foundation

/// How `@StateRealmObject` and `@ObservedRealmObject` observe a `List`, `MutableSet` or `Map`:
/// from its realm when it is managed and its owner exists, else held as it is. Not API.
enum ObservedCollectionSubscription {
    /// What observing one collection takes: the value to hand out first, the configuration to
    /// observe it with (nil: not observed), and the subscription.
    struct Plan<Collection> {
        let initial: Collection
        let configuration: Realm.Configuration?
        let subscribe: (Realm, DispatchQueue, @escaping (Collection?) -> Void) -> NotificationToken?
    }

    /// A storage observing the collection of `plan` (holding it as it is, with Observation
    /// turned on, when it is not observed).
    static func storage<C>(_ plan: Plan<C>) -> ObservedValueStorage<C?> {
        guard let configuration = plan.configuration else {
            ObservationGate.set(true)
            return ObservedValueStorage(constant: plan.initial)
        }
        return ObservedValueStorage(placeholder: plan.initial, configuration: configuration, subscribe: plan.subscribe)
    }

    /// Makes `storage` observe the collection of `plan` from now on.
    static func restart<C>(_ storage: ObservedValueStorage<C?>, _ plan: Plan<C>) {
        storage.restart(with: plan.initial, configuration: plan.configuration, subscribe: plan.subscribe)
    }

    static func plan<V>(_ list: List<V>) -> Plan<List<V>> {
        plan(
            list, owner: list.owner, isInvalidated: list.isInvalidated, frozen: { $0.freeze() }, make: List.init(owner:)
        ) {
            list, queue, publish in
            list.observe(keyPaths: nil, on: queue) { change in
                switch change {
                case .initial(let list), .update(let list, _, _, _): publish(list.isInvalidated ? nil : list.freeze())
                case .error(let error): QuickWrite.report(error)
                }
            }
        }
    }

    static func plan<V>(_ set: MutableSet<V>) -> Plan<MutableSet<V>> {
        plan(
            set, owner: set.owner, isInvalidated: set.isInvalidated, frozen: { $0.freeze() },
            make: MutableSet.init(owner:)
        ) {
            set, queue, publish in
            set.observe(keyPaths: nil, on: queue) { change in
                switch change {
                case .initial(let set), .update(let set, _, _, _): publish(set.isInvalidated ? nil : set.freeze())
                case .error(let error): QuickWrite.report(error)
                }
            }
        }
    }

    static func plan<K, V>(_ map: Map<K, V>) -> Plan<Map<K, V>> {
        plan(map, owner: map.owner, isInvalidated: map.isInvalidated, frozen: { $0.freeze() }, make: Map.init(owner:)) {
            map, queue, publish in
            map.observe(keyPaths: nil, on: queue) { change in
                switch change {
                case .initial(let map), .update(let map, _, _, _): publish(map.isInvalidated ? nil : map.freeze())
                case .error(let error): QuickWrite.report(error)
                }
            }
        }
    }

    /// The plan of a collection that is property `owner.index` of `owner`'s object: on the
    /// private queue's realm, the collection is made again for the same object (`make`), handed
    /// out frozen and observed (`observe`); nil is published once the object is gone.
    private static func plan<C>(
        _ collection: C, owner: _CollectionOwner?, isInvalidated: Bool, frozen: @escaping (C) -> C,
        make: @escaping (_CollectionOwner) -> C,
        observe: @escaping (C, DispatchQueue, @escaping (C?) -> Void) -> NotificationToken
    ) -> Plan<C> {
        guard let owner, !isInvalidated else {
            return Plan(initial: collection, configuration: nil) { _, _, _ in nil }
        }
        let state = owner.state
        let index = owner.index
        return Plan(
            initial: owner.realm.isFrozen ? collection : frozen(collection), configuration: owner.realm.configuration
        ) { realm, queue, publish in
            guard realm.currentRow(state.binding, state.key) != nil,
                let live = realm.object(state.binding, key: state.key)._strataManaged
            else {
                publish(nil)
                return nil
            }
            let collection = make(_CollectionOwner(state: live, index: index))
            publish(frozen(collection))
            return observe(collection, queue, publish)
        }
    }
}
