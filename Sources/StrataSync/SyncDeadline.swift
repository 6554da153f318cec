import Foundation
import NIOCore

/// Runs an operation against the server with a time limit. A connection whose peer vanished
/// without closing the socket, or a client library waiting on a message that never comes, must
/// not hang the session: after `seconds` the caller gets `SyncError.connection` and goes on, while
/// the operation, cancelled, finishes on its own (`late` gets its result then, to close what it
/// opened). With `closing` (a connection's `CloseWatch`), the connection closing ends the wait
/// too.
enum SyncDeadline {
    static func run<T: Sendable>(
        _ seconds: Double, _ what: String, late: (@Sendable (T) async -> Void)? = nil, timeoutMessage: String? = nil,
        closing: CloseWatch? = nil, _ operation: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        let race = Race()
        return try await withCheckedThrowingContinuation { (c: CheckedContinuation<T, Error>) in
            // The close or the timer ends the wait unless the operation has: the rest is cancelled.
            let fail: @Sendable (String) -> Void = { message in
                if race.endWait() { c.resume(throwing: SyncError(.connection, message)) }
            }
            // A statement sent while its connection closes is never answered (postgres-nio
            // queues it on a channel that is going away): the close ends the wait at once.
            let watch = closing?.watch {
                fail("The connection to the server closed during \(what); the session reconnects.")
            }
            race.setTimer(
                Task {
                    // Cancelled when the operation ends first: no sleeping task outlives it.
                    do { try await Task.sleep(nanoseconds: UInt64(seconds * 1e9)) } catch { return }
                    fail(
                        timeoutMessage
                            ?? "The server did not answer \(what) within \(Int(seconds)) s; the session reconnects.")
                })
            race.setWork(
                Task {
                    // Forgotten when the operation ends, however it ends (a connection lives for
                    // thousands of statements).
                    defer { if let watch { closing?.unwatch(watch) } }
                    do {
                        let v = try await operation()
                        if race.operationEnded() { c.resume(returning: v) } else { await late?(v) }
                    } catch {
                        if race.operationEnded() { c.resume(throwing: error) }
                    }
                })
        }
    }

    /// Who ends the wait (the operation, the close or the timer: the first only), and the
    /// operation's task and its timer, which the end cancels: the close or the timer cancels
    /// both, the operation its timer, including a task handed over after the end (the close can
    /// fire before the tasks exist).
    private final class Race: @unchecked Sendable {
        private let lock = NSLock()
        private var ended = false
        private var cancelled = false
        private var timerDone = false
        private var work: Task<Void, Never>?
        private var timer: Task<Void, Never>?

        func setWork(_ task: Task<Void, Never>) {
            if (lock.withLock { () -> Bool in
                work = task
                return cancelled
            }) {
                task.cancel()
            }
        }

        func setTimer(_ task: Task<Void, Never>) {
            if (lock.withLock { () -> Bool in
                timer = task
                return cancelled || timerDone
            }) {
                task.cancel()
            }
        }

        /// The close or the timer: true when it ends the wait (nothing did before); both tasks
        /// are cancelled then.
        func endWait() -> Bool {
            let (first, w, t) = lock.withLock { () -> (Bool, Task<Void, Never>?, Task<Void, Never>?) in
                guard !ended else { return (false, nil, nil) }
                ended = true
                cancelled = true
                return (true, work, timer)
            }
            w?.cancel()
            t?.cancel()
            return first
        }

        /// The operation ended: true when that ends the wait (nothing did before); its timer is
        /// cancelled either way.
        func operationEnded() -> Bool {
            let (first, t) = lock.withLock { () -> (Bool, Task<Void, Never>?) in
                defer { ended = true }
                timerDone = true
                return (!ended, timer)
            }
            t?.cancel()
            return first
        }
    }

    /// The operations in flight on one connection that its close must end: one callback on the
    /// connection's close future for all of them (a callback cannot be removed from a future,
    /// so one per statement would pile up for as long as the connection lives).
    final class CloseWatch: @unchecked Sendable {
        private let lock = NSLock()
        private var closed = false
        private var next = 0
        private var watchers: [Int: @Sendable () -> Void] = [:]

        init(_ closeFuture: EventLoopFuture<Void>) {
            closeFuture.whenComplete { [self] _ in
                let all = lock.withLock {
                    closed = true
                    defer { watchers = [:] }
                    return watchers.values
                }
                for fire in all { fire() }
            }
        }

        /// Calls `fire` when the connection closes (now, if it has); returns the id `unwatch`
        /// takes.
        func watch(_ fire: @escaping @Sendable () -> Void) -> Int {
            let (id, now) = lock.withLock { () -> (Int, Bool) in
                next += 1
                if !closed { watchers[next] = fire }
                return (next, closed)
            }
            if now { fire() }
            return id
        }

        /// Forgets watcher `id`.
        func unwatch(_ id: Int) {
            _ = lock.withLock { watchers.removeValue(forKey: id) }
        }

        /// The operations being watched (tests).
        var count: Int { lock.withLock { watchers.count } }
    }
}
