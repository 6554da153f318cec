import Foundation

/// Tasks waiting for a counter to reach their target: uploads (the outbox sequence number on
/// the server), download passes, subscription versions. `advance(to:)` releases each waiter
/// whose target is reached; `failAll` ends every wait with an error.
///
/// ## Concurrency
/// Thread-safe (a lock); waits are cancellable.
final class SyncWaiters: @unchecked Sendable {
    private let lock = NSLock()
    private var reached: UInt64 = 0
    private var waiters: [(target: UInt64, id: Int, continuation: CheckedContinuation<Void, Error>)] = []
    private var nextID = 0
    /// Set by `failAll` until `reopen()`: a wait that registers in between fails at once
    /// instead of waiting for a loop that has stopped.
    private var closed: Error?

    /// Accepts waits again (the loops started).
    func reopen() { lock.withLock { closed = nil } }

    /// Whether some task waits.
    var hasWaiters: Bool { lock.withLock { !waiters.isEmpty } }

    /// The highest value reached so far.
    var current: UInt64 { lock.withLock { reached } }

    /// Records that the counter reached `value` and releases the waiters it satisfies.
    func advance(to value: UInt64) {
        let ready: [CheckedContinuation<Void, Error>] = lock.withLock {
            reached = max(reached, value)
            let r = waiters.filter { $0.target <= reached }.map(\.continuation)
            waiters.removeAll { $0.target <= reached }
            return r
        }
        for c in ready { c.resume() }
    }

    /// Returns once the counter reaches `target`; calls `started` after registering (to wake
    /// the loop that advances it). Throws the error of `failAll`, or `CancellationError`.
    func wait(for target: UInt64, started: () -> Void = {}) async throws {
        let id = lock.withLock {
            nextID += 1
            return nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (c: CheckedContinuation<Void, Error>) in
                let now: (Bool, Error?) = lock.withLock {
                    if reached >= target || Task.isCancelled { return (true, nil) }
                    if let closed { return (true, closed) }
                    waiters.append((target, id, c))
                    return (false, nil)
                }
                if let error = now.1 {
                    c.resume(throwing: error)
                } else if now.0 {
                    c.resume()
                } else {
                    started()
                }
            }
        } onCancel: {
            let c: CheckedContinuation<Void, Error>? = lock.withLock {
                guard let i = waiters.firstIndex(where: { $0.id == id }) else { return nil }
                return waiters.remove(at: i).continuation
            }
            c?.resume(throwing: CancellationError())
        }
        try Task.checkCancellation()
    }

    /// Ends every wait with `error`; with `close`, also the waits that register until
    /// `reopen()`.
    func failAll(_ error: Error, close: Bool = false) {
        let all: [CheckedContinuation<Void, Error>] = lock.withLock {
            if close { closed = error }
            defer { waiters = [] }
            return waiters.map(\.continuation)
        }
        for c in all { c.resume(throwing: error) }
    }
}
