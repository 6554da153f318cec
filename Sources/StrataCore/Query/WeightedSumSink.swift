import StrataQuery
import StrataStorage

/// Sums a column over the matching objects of a restricted query during a scan of the table:
/// each match is added as many times as its key appears in the collection (one addition each
/// time, in key order, as the general path adds them), objects outside the collection add
/// nothing. No keys are collected and no rows are materialised.
struct WeightedSumSink: SimpleScanSink {
    let weights: KeyWeights
    var inner: SimpleSumSink
    var readsColumn: Int? { inner.readsColumn }

    @inline(__always) mutating func begin(_ view: ClusterView) { inner.begin(view) }

    @inline(__always) mutating func take(_ i: Int, _ view: ClusterView) {
        var times = weights.weight(of: view.key(at: i))
        while times > 0 {
            inner.take(i, view)
            times &-= 1
        }
    }

    mutating func take(_ row: RowReader) {
        var times = weights.weight(of: row.key)
        while times > 0 {
            inner.take(row)
            times &-= 1
        }
    }

    @inline(__always)
    mutating func takeMatches<M: RowMatcher>(_ m: Int, _ view: ClusterView, where matches: M) {
        // No key appears twice and the keys run consecutively: each object is added at most once,
        // so the inner sum takes the matches that are in the collection (branch-free where it is).
        if !weights.repeats, m > 0, view.keyWidth == 0, let run = weights.byteRun(from: view.firstKey, count: m) {
            inner.takeMatches(m, view, where: WeightRunMatcher(matches: matches, run: run))
            return
        }
        for i in 0..<m where matches(i) { take(i, view) }
    }
}
