import Observation
internal import Synchronization

/// Tells whether a `withObservationTracking` (or an `Observations` sequence, or a SwiftUI view
/// body) is collecting reads on the calling thread, so that reads made outside any tracking are
/// not recorded. Used where ``ObservationTrackingSlot`` (a direct read of Observation's
/// thread-local, much cheaper) cannot be: other platforms, toolchains that lay Observation out
/// otherwise, programs linked with the standard library statically.
///
/// Observation keeps its "tracking in progress" state in a thread-local that it does not export;
/// `ObservationRegistrar.access` reads it and, only when a tracking runs, adds the key path to
/// the tracking's set of accesses, which hashes the key path and with it the key path's
/// subscript argument. The probe is such an argument (``ObservationProbeMark``): its
/// `hash(into:)` counts, so a count that moved across one `access` call means that call was
/// recorded by a tracking of this thread. Another thread's tracking may move the count at the
/// same moment; the probe then answers yes when the answer is no, and the read is recorded
/// needlessly (as every read was before the probe), never the reverse.
///
/// This relies on how Observation records an access (hashing the key path), not on its API.
/// ``isReliable`` checks it once, by probing inside a tracking; if a toolchain records accesses
/// differently, the probe is not used and every read is recorded.
///
/// ## Concurrency
/// Thread-safe: the count is atomic and the registrar is thread-safe.
enum ObservationProbe {
    /// Counts the probe's `hash(into:)` calls, from any thread.
    static let hashes = Atomic<UInt64>(0)

    /// The registrar the probe reports its reads to; nothing is ever changed through it.
    private static let registrar = ObservationRegistrar()

    /// The probe's key path, made once (key paths are immutable once made).
    private nonisolated(unsafe) static let keyPath: KeyPath<ObservationProbeSubject, Int> = \.[ObservationProbeMark()]

    /// Whether a tracking may be collecting reads on this thread: true when one is (and,
    /// rarely, when one runs on another thread at the same moment); false only when none is.
    @inline(__always)
    static var mayBeTracking: Bool {
        let before = hashes.load(ordering: .relaxed)
        registrar.access(ObservationProbeSubject.shared, keyPath: keyPath)
        return hashes.load(ordering: .relaxed) != before
    }

    /// Whether the probe answers true inside a tracking with this toolchain's Observation;
    /// checked once, on first use. (An answer of true outside any tracking would only cost
    /// time, never a missed read, so it is not checked: the first use may itself run inside a
    /// tracking, such as a SwiftUI body making a property wrapper.)
    static let isReliable: Bool = {
        var inside = false
        withObservationTracking {
            inside = mayBeTracking
        } onChange: {
        }
        return inside
    }()
}
