import Dispatch
import Foundation
internal import StrataCore
internal import StrataStorage

/// An `asyncWrite` call waiting for the write lock: its continuation, resumed once.
///
/// ## Concurrency
/// `Sendable`: granted from the realm's context, cancelled from any thread.
final class WriteTicket: @unchecked Sendable {
    private let lock = NSLock()
    private var continuation: CheckedContinuation<Void, Swift.Error>?
    private var cancelled = false

    func wait(_ continuation: CheckedContinuation<Void, Swift.Error>) {
        lock.withLock { self.continuation = continuation }
    }

    var isCancelled: Bool { lock.withLock { cancelled } }

    /// Resumes the task with the lock granted; false if it was cancelled first.
    func grant() -> Bool {
        guard let c = take() else { return false }
        c.resume()
        return true
    }

    func fail(_ error: Swift.Error) {
        take()?.resume(throwing: error)
    }

    /// From the task's cancellation handler (any thread).
    func cancel() {
        let c: CheckedContinuation<Void, Swift.Error>? = lock.withLock {
            cancelled = true
            defer { continuation = nil }
            return continuation
        }
        c?.resume(throwing: CancellationError())
    }

    private func take() -> CheckedContinuation<Void, Swift.Error>? {
        lock.withLock {
            defer { continuation = nil }
            return cancelled ? nil : continuation
        }
    }
}
