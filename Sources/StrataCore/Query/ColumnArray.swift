import StrataStorage
import StrataQuery

/// Where one `Int` or `Double` column's values for the objects of one cluster are.
struct ColumnArray {
    let base: UnsafeRawPointer
    /// Offset of the null bitmap, or -1 when the cluster has no nulls in the column.
    let nulls: Int
    /// Offset of the first value (for an `Int` column: of the first delta, after the base).
    let values: Int
    let width: Int
    let intBase: Int64

    /// Column `c` of `view`, when the cluster stores it (nil: written before the column existed).
    @inline(__always)
    init?(_ view: ClusterView, column c: Int, isInt: Bool) {
        guard c < view.columnCount, let base = view.bytes.baseAddress else { return nil }
        let (offset, width, hasNulls) = ClusterFormat.descriptor(base, c)
        self.base = base
        self.width = width
        nulls = hasNulls ? offset : -1
        let start = offset + (hasNulls ? (view.count + 7) >> 3 : 0)
        if isInt {
            intBase = Int64(littleEndian: base.loadUnaligned(fromByteOffset: start, as: Int64.self))
            values = start + 8
        } else {
            intBase = 0
            values = start
        }
    }

    @inline(__always)
    func isNull(_ i: Int) -> Bool {
        nulls >= 0 && base.load(fromByteOffset: nulls + i >> 3, as: UInt8.self) & (1 << UInt8(i & 7)) != 0
    }

    @inline(__always)
    func int(_ i: Int) -> Int64 {
        intBase &+ Int64(bitPattern: clusterLoad(base, values + i * width, width))
    }

    @inline(__always)
    func double(_ i: Int) -> Double {
        Double(bitPattern: UInt64(littleEndian: base.loadUnaligned(fromByteOffset: values + i * 8, as: UInt64.self)))
    }
}
