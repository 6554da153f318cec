import StrataStorage
import StrataQuery

/// What a simple scan does with the objects that match.
protocol SimpleScanSink {
    /// A column the sink reads besides the compared one (checked in each cluster before use).
    var readsColumn: Int? { get }
    /// Called before the matches of each cluster.
    mutating func begin(_ view: ClusterView)
    /// Object `i` of the cluster matches.
    mutating func take(_ i: Int, _ view: ClusterView)
    /// A matching object that went through the compiled test (its cluster predates a column).
    mutating func take(_ row: RowReader)
    /// Takes each object `i < m` of the cluster for which `matches(i)`. Sinks that can add a
    /// match without a branch (a count, a sum) do, so that a filter matching half the objects
    /// at random costs no mispredicted branch per object.
    mutating func takeMatches<M: RowMatcher>(_ m: Int, _ view: ClusterView, where matches: M)
}

extension SimpleScanSink {
    @inline(__always)
    mutating func takeMatches<M: RowMatcher>(_ m: Int, _ view: ClusterView, where matches: M) {
        for i in 0..<m where matches(i) { take(i, view) }
    }
}
