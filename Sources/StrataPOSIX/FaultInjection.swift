#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// Named places where tests make a system call fail on purpose.
///
/// Each wrapper in ``System`` consults the injector on every attempt of its call, in place of the
/// operating system's answer: an armed fault makes that attempt fail the way the real call could
/// (an `errno`, or a short transfer for `pread`, `pwrite` and `pwritev`), and the wrapper then does
/// what it does with a real failure (retries EINTR, completes a short transfer, throws a
/// `SystemError` naming the C call). The check costs one atomic load when nothing is armed.
public enum FaultPoint: String, Sendable, CaseIterable {
    /// `pwritev` is the commit's write of data pages (`pwrite`: meta records and the rest), so a test
    /// can fail one without the other.
    case open, close, pread, pwrite, pwritev, fsync, fdatasync, ftruncate, fallocate, mmap, msync, rename, link, unlink, fstat
    /// `fcntl(2)` taking a byte lock: ``System/lock(_:byte:kind:)`` (`F_OFD_SETLKW`) and
    /// ``System/tryLock(_:byte:kind:)`` (`F_OFD_SETLK`; an injected `EAGAIN` reads as "held by another").
    case fcntlLock
    /// `fcntl(2)` releasing a byte lock (`F_UNLCK`): ``System/unlock(_:byte:)``.
    case fcntlUnlock
    /// `fcntl(2)` asking who holds a byte lock (`F_OFD_GETLK`): ``System/isLockedByOther(_:byte:)``.
    case fcntlGetLock
}

/// How an armed fault fails.
///
/// Never inject `EBADF` or `EFAULT`: the wrappers treat those as a bug in Strata and stop.
public enum FaultKind: Sendable, Equatable {
    /// The attempt fails with this `errno` and transfers nothing. `EINTR` is retried by the
    /// wrapper like a real interruption, so arm it with a finite `times`.
    case error(Int32)
    /// `pwrite` or `pwritev` writes only this many bytes of the request, then the next attempt
    /// fails with `ENOSPC` (the device took part of the data, then was full). Other calls ignore it.
    case shortWrite(Int)
    /// One attempt of `pread`, `pwrite` or `pwritev` transfers at most this many bytes (at least
    /// one), as the kernel may; the wrapper completes the request with further attempts. Other
    /// calls ignore it.
    case partialTransfer(Int)
}

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
    public static func arm(_ point: FaultPoint, kind: FaultKind, after: Int = 0, times: Int = Int.max, pathContaining: String? = nil) {
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
