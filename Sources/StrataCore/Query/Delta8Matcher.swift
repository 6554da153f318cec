import StrataStorage
import StrataQuery

/// `delta op b` for deltas of one byte (`Int` columns without nulls; see `withMatches`), compared
/// in the deltas' own width.
struct Delta8Matcher<Op: QueryComparisonOperator>: RowMatcher {
    let p: UnsafeRawPointer
    let b: UInt8
    @inline(__always) func callAsFunction(_ i: Int) -> Bool { Op.test(p.load(fromByteOffset: i, as: UInt8.self), b) }
}
