internal import Synchronization

/// Whether reads of managed objects and collections report to Swift's Observation framework.
///
/// Observation keeps the state of `withObservationTracking` (is a tracking running on this
/// thread?) private to its runtime: the only way to register a read is to call
/// `ObservationRegistrar.access`, an out-of-line call on every property read. The gate keeps
/// that call off the read path of programs that never track: one relaxed atomic load per read.
/// It opens with ``Realm/isObservationTrackingEnabled`` or when a property wrapper
/// (`@ObservedResults`, `@ObservedRealmObject`, ...) is first made, and stays open.
enum ObservationGate {
    private static let open = Atomic<Bool>(false)

    /// Whether reads register with Observation.
    @inline(__always)
    static var isOpen: Bool { open.load(ordering: .relaxed) }

    /// Opens or closes the gate.
    static func set(_ value: Bool) {
        open.store(value, ordering: .relaxed)
    }
}
