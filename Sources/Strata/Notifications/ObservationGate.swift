internal import Synchronization

/// Whether reads of managed objects and collections report to Swift's Observation framework.
///
/// Observation keeps the state of `withObservationTracking` (is a tracking running on this
/// thread?) private to its runtime: the only way to register a read is to call
/// `ObservationRegistrar.access`, an out-of-line call on every property read. The gate keeps
/// that call off the read path of programs that never track: one relaxed atomic load per read.
/// It opens with ``Realm/isObservationTrackingEnabled`` or when a property wrapper
/// (`@ObservedResults`, `@ObservedRealmObject`, ...) is first made, and stays open. While it is
/// open, ``ObservationProbe`` keeps the reads made outside any tracking from being recorded.
enum ObservationGate {
    private static let open = Atomic<Bool>(false)
    private static let everyRead = Atomic<Bool>(false)

    /// Whether reads register with Observation.
    @inline(__always)
    static var isOpen: Bool { open.load(ordering: .relaxed) }

    /// Whether every read is recorded, tracked or not: when ``ObservationProbe`` cannot tell
    /// tracked reads with this toolchain.
    static var recordsEveryRead: Bool { everyRead.load(ordering: .relaxed) }

    /// Whether a read made now, with the gate open, is to be recorded: a tracking may be
    /// collecting reads on this thread, or the probe cannot tell.
    @inline(__always)
    static var readIsTracked: Bool { recordsEveryRead || ObservationProbe.mayBeTracking }

    /// Opens or closes the gate.
    static func set(_ value: Bool) {
        if value { everyRead.store(!ObservationProbe.isReliable, ordering: .relaxed) }
        open.store(value, ordering: .relaxed)
    }
}
