#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif
import Synchronization

/// A test hook that injects failures into ``System`` calls.
///
/// ```swift
/// FaultInjector.arm(.fdatasync, kind: .error(EIO), after: 2) // the third fdatasync fails
/// defer { FaultInjector.disarmAll() }
/// ```
///
/// ## Concurrency
/// Thread-safe: state is guarded by a lock. Faults are process-wide, so tests that use them must
/// not run concurrently with other tests that do I/O (XCTest runs a test case's methods serially).
public enum FaultInjector {
    private final class State: @unchecked Sendable {
        var lock = pthread_mutex_t()
        var armed: [FaultPoint: (kind: FaultKind, skip: Int, remaining: Int, pathFilter: String?)] = [:]
        var hits: [FaultPoint: Int] = [:]
        init() { pthread_mutex_init(&lock, nil) }
    }
    private static let state = State()
    private static let anyArmed = Atomic<Bool>(false)

    /// Arms `point`: the call is allowed `after` more times, then fails `times` times as `kind`.
    /// - Parameters:
    ///   - point: the system call to fail.
    ///   - kind: how it fails.
    ///   - after: how many calls succeed first.
    ///   - times: how many calls fail (default: every call until disarmed).
    ///   - pathContaining: only calls on paths containing this text (or descriptors opened from them) count.
    public static func arm(
        _ point: FaultPoint, kind: FaultKind, after: Int = 0, times: Int = Int.max, pathContaining: String? = nil
    ) {
        pthread_mutex_lock(&state.lock)
        state.armed[point] = (kind, after, times, pathContaining)
        anyArmed.store(true, ordering: .releasing)
        pthread_mutex_unlock(&state.lock)
    }

    /// Removes every armed fault and resets the hit counters.
    public static func disarmAll() {
        pthread_mutex_lock(&state.lock)
        state.armed.removeAll()
        state.hits.removeAll()
        anyArmed.store(false, ordering: .releasing)
        pthread_mutex_unlock(&state.lock)
    }

    /// How many times `point` was reached (armed or not) since the last `disarmAll`, counting only while something is armed.
    public static func hits(_ point: FaultPoint) -> Int {
        pthread_mutex_lock(&state.lock)
        defer { pthread_mutex_unlock(&state.lock) }
        return state.hits[point, default: 0]
    }

    /// Returns the fault to apply at `point` for a call about `path`, if one is due. Counts one
    /// hit per call (per attempt, for a wrapper that retries).
    @usableFromInline
    static func check(_ point: FaultPoint, path: String?) -> FaultKind? {
        guard anyArmed.load(ordering: .acquiring) else { return nil }
        pthread_mutex_lock(&state.lock)
        defer { pthread_mutex_unlock(&state.lock) }
        state.hits[point, default: 0] += 1
        guard var entry = state.armed[point] else { return nil }
        if let filter = entry.pathFilter, !(path?.contains(filter) ?? false) { return nil }
        if entry.skip > 0 {
            entry.skip -= 1
            state.armed[point] = entry
            return nil
        }
        guard entry.remaining > 0 else { return nil }
        entry.remaining -= 1
        state.armed[point] = entry
        return entry.kind
    }
}
