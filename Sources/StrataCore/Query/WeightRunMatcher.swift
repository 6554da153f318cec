import StrataQuery
import StrataStorage

/// A cluster's test restricted to the objects of a collection: object `i` matches when `matches`
/// holds for it and its byte in `run` (its weight, ``KeyWeights/byteRun(from:count:)``) is not
/// zero. Evaluated without a branch, so the loops taking it stay branch-free.
struct WeightRunMatcher<M: RowMatcher>: RowMatcher {
    let matches: M
    let run: UnsafePointer<UInt8>
    @inline(__always) func callAsFunction(_ i: Int) -> Bool {
        ((matches(i) ? 1 : 0) & (run[i] != 0 ? 1 : 0)) != 0
    }
}
