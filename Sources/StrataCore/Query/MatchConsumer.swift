import StrataStorage
import StrataQuery

/// What `withMatches` hands the test to: a sink's `takeMatches`, or the compound scan's fill.
protocol MatchConsumer {
    mutating func consume<M: RowMatcher>(_ matches: M)
}
