import StrataQuery
import StrataStorage

/// Counts the matching objects of a restricted query during a scan of the table: each match adds
/// the number of times its key appears in the collection, so repeated elements count as often as
/// they appear, and objects outside the collection add nothing. No keys are collected.
struct WeightedCountSink: SimpleScanSink {
    let weights: KeyWeights
    var readsColumn: Int? { nil }
    var count = 0
    @inline(__always) mutating func begin(_ view: ClusterView) {}
    @inline(__always) mutating func take(_ i: Int, _ view: ClusterView) {
        count &+= Int(weights.weight(of: view.key(at: i)))
    }
    mutating func take(_ row: RowReader) { count &+= Int(weights.weight(of: row.key)) }
    @inline(__always)
    mutating func takeMatches<M: RowMatcher>(_ m: Int, _ view: ClusterView, where matches: M) {
        // Without a branch per object: a filter matching half the objects at random would
        // mispredict one in two.
        var n = 0
        var i = 0
        if m > 0, view.keyWidth == 0, let run = weights.byteRun(from: view.firstKey, count: m) {
            // Consecutive keys: their weights are one run of the byte table. 32-bit lanes and a
            // mask rather than a multiply, as the unrestricted count's loop (a cluster's at most
            // 65,535 weights of at most 255 each fit).
            var lanes: UInt32 = 0
            while i < m {
                lanes &+= UInt32(run[i]) & (matches(i) ? UInt32.max : 0)
                i &+= 1
            }
            count &+= Int(lanes)
            return
        }
        while i < m {
            n &+= Int(weights.weight(of: view.key(at: i))) &* (matches(i) ? 1 : 0)
            i &+= 1
        }
        count &+= n
    }
}
