import StrataQuery

enum QueryOpGreaterOrEqual: QueryComparisonOperator {
    static var unordered: Bool { false }
    @inline(__always) static func test<T: Comparable>(_ a: T, _ b: T) -> Bool { a >= b }
    @inline(__always) static func test(order: Int) -> Bool { order >= 0 }
}
