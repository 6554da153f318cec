import StrataStorage
import StrataQuery

/// The single-comparison scan's visitor, for one operator and one constant type: the
/// operator's dispatch happens once per scan, not once per cluster.
struct SimpleScanVisitor<S: SimpleScanSink, V: SimpleColumnValue, Op: QueryComparisonOperator>: ScannedClusterVisitor {
    let column: Int
    let k: V
    let sink: UnsafeMutablePointer<S>

    @inline(__always)
    mutating func visit(_ view: ClusterView) -> Bool {
        sink.pointee.begin(view)
        var consumer = SinkConsumer(sink: sink, view: view)
        return withMatches(view, column: column, k, Op.self, &consumer)
    }
}
