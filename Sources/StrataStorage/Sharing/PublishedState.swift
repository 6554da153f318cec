import Atomics
import StrataPOSIX

/// The state a reader needs to start a snapshot, published by the writer in the lock file.
struct PublishedState: Equatable {
    var version: UInt64
    var catalogRoot: UInt32
    var pageCount: UInt32
    var latestSlot: UInt32
    var durableVersion: UInt64
    var durableSlot: UInt32
}
