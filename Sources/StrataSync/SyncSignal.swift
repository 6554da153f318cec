import Foundation

/// Wakes the waiting loops: `fire()` before anyone waits is remembered, so a wake is never lost
/// between a loop's check and its wait. Several may wait at once (an old loop ending after
/// `suspend()` beside the new one after `resume()`); `fire()` wakes them all.
///
/// ## Concurrency
/// Thread-safe (a lock).
final class SyncSignal: @unchecked Sendable {
    private let lock = NSLock()
    private var pending = false
    private var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
    private var nextID = 0

    /// Wakes the waiters, or the next `wait`.
    func fire() {
        let ws: [CheckedContinuation<Void, Never>] = lock.withLock {
            if waiters.isEmpty {
                pending = true
                return []
            }
            defer { waiters = [:] }
            return Array(waiters.values)
        }
        for w in ws { w.resume() }
    }

    /// Returns when fired, or after `timeout` seconds.
    func wait(timeout: Double) async {
        await withCheckedContinuation { (c: CheckedContinuation<Void, Never>) in
            let id: Int? = lock.withLock {
                if pending {
                    pending = false
                    return nil
                }
                nextID += 1
                waiters[nextID] = c
                return nextID
            }
            guard let id else { return c.resume() }
            DispatchQueue.global().asyncAfter(deadline: .now() + timeout) { [self] in
                let w = lock.withLock { waiters.removeValue(forKey: id) }
                w?.resume()
            }
        }
    }
}
