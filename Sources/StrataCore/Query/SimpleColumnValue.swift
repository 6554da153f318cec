import StrataStorage
import StrataQuery

/// A column value as the simple scan compares it.
protocol SimpleColumnValue: Comparable {
    static var isInt: Bool { get }
    static func load(_ a: ColumnArray, _ i: Int) -> Self
}
