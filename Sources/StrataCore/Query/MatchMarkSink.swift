import StrataQuery
import StrataStorage

/// Marks the matching objects of a restricted query during a scan of the table: one byte per key
/// from `first` to `first + span - 1` (the range of the collection's keys), 1 for a match. The
/// collection's keys are then kept in the collection's own order by reading one byte each, with
/// no key collected during the scan and no lookup structure built over the matches. Objects
/// outside the range are not in the collection and are skipped.
///
/// The bytes must start zeroed: an object the scan does not see (a deleted one) stays unmarked.
struct MatchMarkSink: SimpleScanSink {
    let first: Int64
    let span: Int
    let marks: UnsafeMutablePointer<UInt8>
    var readsColumn: Int? { nil }

    @inline(__always) mutating func begin(_ view: ClusterView) {}

    @inline(__always) mutating func take(_ i: Int, _ view: ClusterView) { take(view.key(at: i)) }

    mutating func take(_ row: RowReader) { take(row.key) }

    /// Marks `key` as a match (nothing when it is outside the range).
    @inline(__always)
    func take(_ key: Int64) {
        let (offset, overflow) = key.subtractingReportingOverflow(first)
        if !overflow, offset >= 0, offset < Int64(span) { marks[Int(offset)] = 1 }
    }

    @inline(__always)
    mutating func takeMatches<M: RowMatcher>(_ m: Int, _ view: ClusterView, where matches: M) {
        // Consecutive keys: the cluster's part of the range is one run of bytes, written without
        // a branch per object (a filter matching half the objects at random would mispredict
        // one in two).
        let (offset, overflow) = view.firstKey.subtractingReportingOverflow(first)
        guard m > 0, view.keyWidth == 0, !overflow, offset > Int64(Int32.min) else {
            for i in 0..<m where matches(i) { take(i, view) }
            return
        }
        // A cluster past the range holds no key of the collection.
        if offset >= Int64(span) { return }
        let start = Int(offset)
        if start &+ m <= 0 { return }
        let lower = Swift.max(0, -start)
        let upper = Swift.min(m, span &- start)
        var i = lower
        while i < upper {
            marks[start &+ i] = matches(i) ? 1 : 0
            i &+= 1
        }
    }
}
