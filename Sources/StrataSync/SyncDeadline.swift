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
        let once = Once()
        return try await withCheckedThrowingContinuation { (c: CheckedContinuation<T, Error>) in
            let work = Task {
                do {
                    let v = try await operation()
                    if once.take() { c.resume(returning: v) } else { await late?(v) }
                } catch {
                    if once.take() { c.resume(throwing: error) }
                }
            }
            // A statement sent while its connection closes is never answered (postgres-nio
            // queues it on a channel that is going away): the close ends the wait at once.
            if let closing {
                let id = closing.watch {
                    if once.take() {
                        work.cancel()
                        c.resume(
                            throwing: SyncError(
                                .connection,
                                "The connection to the server closed during \(what); the session reconnects."
                            ))
                    }
                }
                // Forgotten when the operation ends, however it ends (a connection lives for
                // thousands of statements).
                Task {
                    _ = await work.result
                    closing.unwatch(id)
                }
            }
            Task {
                try? await Task.sleep(nanoseconds: UInt64(seconds * 1e9))
                if once.take() {
                    work.cancel()
                    c.resume(
                        throwing: SyncError(
                            .connection,
                            timeoutMessage
                                ?? "The server did not answer \(what) within \(Int(seconds)) s; the session reconnects."
                        ))
                }
            }
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

    /// True for the first caller only.
    private final class Once: @unchecked Sendable {
        private let lock = NSLock()
        private var taken = false
        func take() -> Bool {
            lock.withLock {
                defer { taken = true }
                return !taken
            }
        }
    }
}
