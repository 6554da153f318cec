import Foundation

/// The hybrid logical clock of one replica: each reading is above every reading it made or
/// observed before, and close to the wall clock (Kulkarni et al., "Logical Physical Clocks").
///
/// ## Concurrency
/// Thread-safe (a lock).
package final class HybridLogicalClock: @unchecked Sendable {
    /// The replica's node number (never 0: that is the server's).
    package let node: UInt64
    private var last: UInt64
    private let lock = NSLock()

    /// A clock for `node` that will not read below `floor` (the last reading saved before).
    package init(node: UInt64, floor: UInt64 = 0) {
        self.node = node
        self.last = floor
    }

    /// The wall clock in the clock's units (milliseconds shifted above the 16-bit counter).
    static func wallTime() -> UInt64 {
        UInt64(max(0, Date().timeIntervalSince1970 * 1000)) << 16
    }

    /// A new reading, above every earlier one.
    package func now() -> SyncClock {
        lock.withLock {
            last = max(last &+ 1, Self.wallTime())
            return SyncClock(time: last, node: node)
        }
    }

    /// Moves the clock past a reading received from elsewhere.
    package func observe(_ clock: SyncClock) {
        lock.withLock { last = max(last, clock.time) }
    }

    /// The last reading's time (saved with each commit so a restart never reads below it).
    package var lastTime: UInt64 { lock.withLock { last } }
}
