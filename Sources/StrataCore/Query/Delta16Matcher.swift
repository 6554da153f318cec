import StrataStorage
import StrataQuery

/// `delta op b` for deltas of two bytes.
struct Delta16Matcher<Op: QueryComparisonOperator>: RowMatcher {
    let p: UnsafeRawPointer
    let b: UInt16
    @inline(__always) func callAsFunction(_ i: Int) -> Bool {
        Op.test(UInt16(littleEndian: p.loadUnaligned(fromByteOffset: 2 * i, as: UInt16.self)), b)
    }
}
