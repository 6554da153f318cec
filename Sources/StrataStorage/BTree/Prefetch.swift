// Software prefetch for scans, through a one-line C header (`StrataPrefetchShim`): Clang's
// `__builtin_prefetch` becomes the target's prefetch instruction (`prefetcht0` on x86-64,
// `prfm pldl1keep` on arm64), in debug, release and sanitizer builds alike.
//
// Why: a scan over a cold table is bound by memory latency, not by instructions. Each cluster
// sits in a different part of a page and its column arrays in different lines, so the scan
// loop waited for one miss at a time (`strata-bench w1` scan_filter: about two thirds of the count pass's
// samples sat on the first load of a cell). Asking for the next leaf and the next cluster's
// columns early lets those misses overlap with the work on the current one.
import StrataPrefetchShim

/// Asks the processor to start loading the 64-byte lines of `[address, address + bytes)` into its
/// caches (at least the line holding `address`).
///
/// A hint only: it never faults, whatever the address (so it may be given a pointer computed
/// from unchecked bytes), and never changes what the program computes.
@inlinable @inline(__always)
package func prefetchForRead(_ address: UnsafeRawPointer, bytes: Int = 1) {
    var offset = 0
    repeat {
        strata_prefetch_read(address + offset)
        offset &+= 64
    } while offset < bytes
}
