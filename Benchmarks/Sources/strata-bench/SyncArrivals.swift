import Foundation

/// When each object first reached replica B's observer in `sync_latency` (Sync.swift): the
/// observer's queue records, the measuring thread waits.
///
/// ## Concurrency
/// Thread-safe: every access holds `lock`.
final class SyncArrivals: @unchecked Sendable {
    private let lock = NSCondition()
    private var times: [Int: Double] = [:]
    private var initialDelivered = false
    private var deliveries = 0

    /// The observer's first (`.initial`) delivery.
    func recordInitial() {
        lock.lock()
        initialDelivered = true
        lock.broadcast()
        lock.unlock()
    }

    /// An `.update` delivery in which the objects `ids` are visible, at the time of the call.
    func record(_ ids: [Int]) {
        let t = now()
        lock.lock()
        deliveries += 1
        for id in ids where times[id] == nil { times[id] = t }
        lock.broadcast()
        lock.unlock()
    }

    /// Waits for the initial delivery; false after `timeout` seconds without it.
    func waitForInitial(timeout: Double) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        let deadline = Date(timeIntervalSinceNow: timeout)
        while !initialDelivered {
            if !lock.wait(until: deadline) { return initialDelivered }
        }
        return true
    }

    /// Waits until object `id` arrived; returns the time of its delivery (`now()`), or nil after
    /// `timeout` seconds.
    func wait(for id: Int, timeout: Double) -> Double? {
        lock.lock()
        defer { lock.unlock() }
        let deadline = Date(timeIntervalSinceNow: timeout)
        while times[id] == nil {
            if !lock.wait(until: deadline) { return times[id] }
        }
        return times[id]
    }

    /// The `.update` deliveries so far.
    var updates: Int {
        lock.lock()
        defer { lock.unlock() }
        return deliveries
    }
}
