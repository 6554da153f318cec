import StrataStorage
import StrataQuery

/// The compound scan's match bytes.
struct MaskMatcher: RowMatcher {
    let mask: UnsafeMutablePointer<UInt8>
    @inline(__always) func callAsFunction(_ i: Int) -> Bool { mask[i] != 0 }
}
