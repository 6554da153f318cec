import Foundation

/// How the object property wrappers observe a projection: through its projected object,
/// handing out a projection of each new frozen version. Not API.
enum ObservedProjectionSubscription {
    /// The storage of a wrapper holding `projection`: observed when its object is managed and
    /// not deleted, else held as it is (and Observation turned on for its reads).
    static func storage<P: ProjectionObservable>(for projection: P) -> ObservedValueStorage<P?> {
        let root = projection.rootObject
        guard let configuration = ObservedObjectSubscription.configuration(of: root) else {
            ObservationGate.set(true)
            return ObservedValueStorage(constant: projection)
        }
        let subscribeRoot = ObservedObjectSubscription.subscribe(root)
        return ObservedValueStorage(
            placeholder: P(projecting: ObservedObjectSubscription.frozen(root)), configuration: configuration
        ) { realm, queue, publish in
            subscribeRoot(realm, queue) { root in publish(root.map { P(projecting: $0) }) }
        }
    }
}
