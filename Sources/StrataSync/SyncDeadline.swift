import Foundation
import NIOCore

/// Runs an operation against the server with a time limit. A connection whose peer vanished
/// without closing the socket, or a client library waiting on a message that never comes, must
/// not hang the session: after `seconds` the caller gets `SyncError.connection` and goes on, while
/// the operation, cancelled, finishes on its own (`late` gets its result then, to close what it
/// opened). With `closed` (a connection's close future), the connection closing ends the wait
/// too.
enum SyncDeadline {
    static func run<T: Sendable>(
        _ seconds: Double, _ what: String, late: (@Sendable (T) async -> Void)? = nil, timeoutMessage: String? = nil,
        closed: EventLoopFuture<Void>? = nil, _ operation: @escaping @Sendable () async throws -> T
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
            closed?.whenComplete { _ in
                if once.take() {
                    work.cancel()
                    c.resume(
                        throwing: SyncError(
                            .connection, "The connection to the server closed during \(what); the session reconnects."))
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
