import StrataStorage
import StrataQuery

/// Passes a cluster's test to a sink's `takeMatches`.
struct SinkConsumer<S: SimpleScanSink>: MatchConsumer {
    let sink: UnsafeMutablePointer<S>
    let view: ClusterView
    @inline(__always) mutating func consume<M: RowMatcher>(_ matches: M) {
        sink.pointee.takeMatches(view.count, view, where: matches)
    }
}
