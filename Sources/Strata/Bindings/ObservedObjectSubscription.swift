import Foundation

/// How the object property wrappers observe one object. Not API.
enum ObservedObjectSubscription {
    /// The storage of an object property wrapper holding `object`: observed from its realm when
    /// managed and not deleted, else held as it is (and Observation turned on for its reads).
    static func storage<T: ObjectBase>(for object: T) -> ObservedValueStorage<T?> {
        guard let configuration = configuration(of: object) else {
            ObservationGate.set(true)
            return ObservedValueStorage(constant: object)
        }
        return ObservedValueStorage(
            placeholder: frozen(object), configuration: configuration, subscribe: subscribe(object))
    }

    /// The frozen version of `object` to hand out first (the object itself when unmanaged or
    /// frozen already).
    static func frozen<T: ObjectBase>(_ object: T) -> T {
        guard let state = object._strataManaged, !state.realm.isFrozen, !object.isInvalidated else { return object }
        return object.frozenObject() as? T ?? object
    }

    /// The configuration to observe `object` with; nil for unmanaged or deleted objects, which
    /// are not observed.
    static func configuration<T: ObjectBase>(of object: T) -> Realm.Configuration? {
        guard let state = object._strataManaged, !object.isInvalidated else { return nil }
        return state.realm.configuration
    }

    /// Subscribes to the changes of `object` from the realm of the private queue: publishes its
    /// newest frozen version after each change, nil once it is deleted.
    static func subscribe<T: ObjectBase>(
        _ object: T
    ) -> (Realm, DispatchQueue, @escaping (T?) -> Void) -> NotificationToken? {
        let state = object._strataManaged
        return { realm, queue, publish in
            guard let state, realm.currentRow(state.binding, state.key) != nil,
                let live = realm.object(state.binding, key: state.key) as? T
            else {
                publish(nil)
                return nil
            }
            publish(live.frozenObject() as? T)
            return live.observe(keyPaths: nil, on: queue) { (change: ObjectChange<T>) in
                switch change {
                case .change(let changed, _): publish(changed.frozenObject() as? T)
                case .deleted: publish(nil)
                case .error(let error): QuickWrite.report(error)
                }
            }
        }
    }
}
