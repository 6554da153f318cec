import StrataStorage
import StrataQuery

/// Every object, or none (an `Int` column whose values all equal the cluster's base, or a
/// constant beyond the range of the deltas).
struct ConstantMatcher: RowMatcher {
    let all: Bool
    @inline(__always) func callAsFunction(_ i: Int) -> Bool { all }
}
