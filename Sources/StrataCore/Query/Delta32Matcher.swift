import StrataStorage
import StrataQuery

/// `delta op b` for deltas of four bytes.
struct Delta32Matcher<Op: QueryComparisonOperator>: RowMatcher {
    let p: UnsafeRawPointer
    let b: UInt32
    @inline(__always) func callAsFunction(_ i: Int) -> Bool {
        Op.test(UInt32(littleEndian: p.loadUnaligned(fromByteOffset: 4 * i, as: UInt32.self)), b)
    }
}
