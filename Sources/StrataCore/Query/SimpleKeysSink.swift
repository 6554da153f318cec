import StrataStorage
import StrataQuery

/// Collects the keys of the matching objects.
struct SimpleKeysSink: SimpleScanSink {
    var readsColumn: Int? { nil }
    var keys: [Int64] = []
    @inline(__always) mutating func begin(_ view: ClusterView) {}
    @inline(__always) mutating func take(_ i: Int, _ view: ClusterView) { keys.append(view.key(at: i)) }
    mutating func take(_ row: RowReader) { keys.append(row.key) }
}
