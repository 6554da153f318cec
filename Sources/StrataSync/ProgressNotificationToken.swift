import Foundation

/// Keeps a progress notification (`SyncSession.addProgressNotification`) registered until
/// `invalidate()` is called or the token is released.
///
/// ## Concurrency
/// Thread-safe.
public final class ProgressNotificationToken: @unchecked Sendable {
    private let lock = NSLock()
    private var stop: (@Sendable () -> Void)?

    init(_ stop: @escaping @Sendable () -> Void) { self.stop = stop }

    deinit { invalidate() }

    /// Stops the notifications. Calling it again does nothing.
    public func invalidate() {
        let s = lock.withLock {
            defer { stop = nil }
            return stop
        }
        s?()
    }
}
