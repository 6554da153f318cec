import Foundation

/// A registration for change notifications. Keep it for as long as you want the notifications:
/// `invalidate()` stops them, and so does releasing the token.
///
/// ## Concurrency
/// `Sendable`: `invalidate()` may be called from any thread. Called on the thread (or queue, or
/// actor) the notifications go to, no callback runs after it returns.
public final class NotificationToken: @unchecked Sendable {
    private let lock = NSLock()
    private var entry: NotifierEntry?
    private weak var notifier: FileNotifier?

    init() {}

    func attach(_ entry: NotifierEntry, to notifier: FileNotifier) {
        lock.lock()
        self.entry = entry
        self.notifier = notifier
        lock.unlock()
        notifier.add(entry)
    }

    /// Stops the notifications. Calling it again does nothing.
    public func invalidate() {
        lock.lock()
        let entry = self.entry
        let notifier = self.notifier
        self.entry = nil
        lock.unlock()
        guard let entry else { return }
        entry.invalidate()
        notifier?.remove(entry.id)
    }

    deinit {
        invalidate()
    }
}
