import StrataStorage
import StrataQuery

/// Counts the matching objects.
struct SimpleCountSink: SimpleScanSink {
    var readsColumn: Int? { nil }
    var count = 0
    @inline(__always) mutating func begin(_ view: ClusterView) {}
    @inline(__always) mutating func take(_ i: Int, _ view: ClusterView) { count &+= 1 }
    mutating func take(_ row: RowReader) { count &+= 1 }
    @inline(__always)
    mutating func takeMatches<M: RowMatcher>(_ m: Int, _ view: ClusterView, where matches: M) {
        // 32-bit lanes: with an `Int` sum the vector loop took 4 objects per step, not 8.
        var n: UInt32 = 0
        var i = 0
        while i < m {
            n &+= matches(i) ? 1 : 0
            i &+= 1
        }
        count &+= Int(n)
    }
}
