import StrataStorage
import StrataQuery

/// The test of object `i` of a cluster, as a concrete type per form of the test, so that the
/// loops taking it are specialised for it (and, written as `while` loops over narrow
/// comparisons, vectorised: `for i in 0..<m`, or a comparison widened to `Int64`, kept the
/// compiler from it).
protocol RowMatcher {
    func callAsFunction(_ i: Int) -> Bool
}
