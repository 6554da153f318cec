import StrataStorage
import StrataQuery

/// Writes a cluster's test into match bytes (1 or 0 per object): the compound scan's masks and
/// the `Double` sum's first pass.
struct MaskFill: MatchConsumer {
    let out: UnsafeMutablePointer<UInt8>
    let m: Int
    @inline(__always) mutating func consume<M: RowMatcher>(_ matches: M) {
        var i = 0
        while i < m {
            out[i] = matches(i) ? 1 : 0
            i &+= 1
        }
    }
}
