import Foundation

/// Wakes one waiting loop: `fire()` before anyone waits is remembered, so a wake is never lost
/// between a loop's check and its wait.
///
/// ## Concurrency
/// Thread-safe (a lock).
final class SyncSignal: @unchecked Sendable {
    private let lock = NSLock()
    private var pending = false
    private var waiter: CheckedContinuation<Void, Never>?
    private var generation = 0

    /// Wakes the waiter, or the next `wait`.
    func fire() {
        let w: CheckedContinuation<Void, Never>? = lock.withLock {
            if let w = waiter {
                waiter = nil
                return w
            }
            pending = true
            return nil
        }
        w?.resume()
    }

    /// Returns when fired, or after `timeout` seconds.
    func wait(timeout: Double) async {
        await withCheckedContinuation { (c: CheckedContinuation<Void, Never>) in
            let id: Int? = lock.withLock {
                if pending {
                    pending = false
                    return nil
                }
                generation += 1
                waiter = c
                return generation
            }
            guard let id else { return c.resume() }
            DispatchQueue.global().asyncAfter(deadline: .now() + timeout) { [self] in
                let w: CheckedContinuation<Void, Never>? = lock.withLock {
                    guard generation == id, let w = waiter else { return nil }
                    waiter = nil
                    return w
                }
                w?.resume()
            }
        }
    }
}
