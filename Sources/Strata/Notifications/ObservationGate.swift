internal import Synchronization

/// Whether reads of managed objects and collections report to Swift's Observation framework.
///
/// Observation keeps the state of `withObservationTracking` (is a tracking running on this
/// thread?) private to its runtime: the only way to register a read is to call
/// `ObservationRegistrar.access`, an out-of-line call on every property read. The gate keeps
/// that call off the read path of programs that never track: one relaxed atomic load per read.
/// It opens with ``Realm/isObservationTrackingEnabled`` or when a property wrapper
/// (`@ObservedResults`, `@ObservedRealmObject`, ...) is first made, and stays open. While it is
/// open, reads made outside any tracking are not recorded: ``ObservationTrackingSlot`` tells
/// them apart where it can, ``ObservationProbe`` where it cannot, and where neither can, every
/// read is recorded.
enum ObservationGate {
    /// How a read made with the gate open learns whether a tracking runs on its thread.
    enum Mode: UInt8, AtomicRepresentable {
        /// ``ObservationTrackingSlot``: Observation's thread-local, read directly.
        case slot
        /// ``ObservationProbe``: a read reported to a registrar of the probe's own.
        case probe
        /// Neither works with this toolchain: every read is recorded.
        case everyRead
    }

    private static let open = Atomic<Bool>(false)
    private static let mode = Atomic<Mode>(.slot)

    /// Whether reads register with Observation.
    @inline(__always)
    static var isOpen: Bool { open.load(ordering: .relaxed) }

    /// Whether every read is recorded, tracked or not: when neither ``ObservationTrackingSlot``
    /// nor ``ObservationProbe`` can tell tracked reads with this toolchain.
    static var recordsEveryRead: Bool { mode.load(ordering: .relaxed) == .everyRead }

    /// Whether tracked reads are told apart by reading Observation's thread-local directly.
    static var readsTrackingSlot: Bool { mode.load(ordering: .relaxed) == .slot }

    /// Whether a read made now, with the gate open, is to be recorded: a tracking may be
    /// collecting reads on this thread, or nothing can tell.
    @inline(__always)
    static var readIsTracked: Bool {
        switch mode.load(ordering: .relaxed) {
        case .slot: ObservationTrackingSlot.isTracking
        case .probe: probeMayBeTracking()
        case .everyRead: true
        }
    }

    /// ``ObservationProbe/mayBeTracking``, out of line: inlined, its copy of a resilient
    /// `ObservationRegistrar` made every read ask for the registrar's type metadata, probe or not.
    @inline(never)
    private static func probeMayBeTracking() -> Bool { ObservationProbe.mayBeTracking }

    /// Opens or closes the gate. Opening it picks the best ``Mode`` this toolchain allows, or
    /// `mode` (tests).
    static func set(_ value: Bool, mode forced: Mode? = nil) {
        if value {
            let mode: Mode =
                forced
                ?? (ObservationTrackingSlot.isUsable
                    ? .slot : ObservationProbe.isReliable ? .probe : .everyRead)
            self.mode.store(mode, ordering: .relaxed)
        }
        open.store(value, ordering: .relaxed)
    }
}
