import StrataQuery

/// A comparison operator as a type, for specialisation.
protocol QueryComparisonOperator {
    /// The result when the stored value is null or the comparison is unordered (NaN): true only
    /// for `!=`.
    static var unordered: Bool { get }
    static func test<T: Comparable>(_ a: T, _ b: T) -> Bool
    /// The result for an order (negative, zero, positive).
    static func test(order: Int) -> Bool
}
