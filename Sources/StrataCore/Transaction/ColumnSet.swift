/// The columns of one object that a write changed, as a bit set: bit `c` for column `c` below
/// 63; bit 63 stands for every column from 63 on (so a test against it is conservative).
package struct ColumnSet: Sendable, Hashable {
    package var bits: UInt64

    package init(bits: UInt64 = 0) { self.bits = bits }

    /// Every column.
    package static let all = ColumnSet(bits: .max)

    /// The set holding `column`.
    @inline(__always)
    package static func column(_ column: Int) -> ColumnSet { ColumnSet(bits: 1 << UInt64(min(column, 63))) }

    @inline(__always)
    package mutating func insert(_ column: Int) { bits |= 1 << UInt64(min(column, 63)) }

    package func contains(_ column: Int) -> Bool { bits & (1 << UInt64(min(column, 63))) != 0 }

    package func intersects(_ other: ColumnSet) -> Bool { bits & other.bits != 0 }

    package var isEmpty: Bool { bits == 0 }

    package mutating func formUnion(_ other: ColumnSet) { bits |= other.bits }
}
