import StrataStorage
import StrataQuery

/// Sums an `Int` or `Double` column of the matching objects, as the general path does:
/// integers with wrapping, doubles in key order, nulls skipped.
struct SimpleSumSink: SimpleScanSink {
    var readsColumn: Int? { column }
    let table: StoreTable
    let column: Int
    let isInt: Bool
    var target: ColumnArray?
    var ints: Int64 = 0
    var doubles = 0.0
    var sawValue = false

    /// Room for one match byte per object of a cluster (at most `UInt16.max`), owned by the
    /// caller.
    let matchBytes: UnsafeMutablePointer<UInt8>

    init(table: StoreTable, column: Int, matchBytes: UnsafeMutablePointer<UInt8>) {
        self.table = table
        self.column = column
        self.matchBytes = matchBytes
        isInt = table.columns[column].type == .int
    }

    /// Capacity `matchBytes` must have.
    static let matchByteCapacity = Int(UInt16.max) + 1

    /// This cluster's `Double` column has no nulls: `take` reads `doubleBase` directly.
    var plainDoubles = false
    var doubleBase = UnsafeRawPointer(bitPattern: 8)!

    @inline(__always)
    mutating func begin(_ view: ClusterView) {
        target = ColumnArray(view, column: column, isInt: isInt)
        plainDoubles = false
        if !isInt, let t = target, t.nulls < 0 {
            plainDoubles = true
            doubleBase = t.base + t.values
        }
    }

    @inline(__always)
    mutating func take(_ i: Int, _ view: ClusterView) {
        if plainDoubles {
            doubles += Double(
                bitPattern: UInt64(littleEndian: doubleBase.loadUnaligned(fromByteOffset: 8 * i, as: UInt64.self)))
            sawValue = true
            return
        }
        guard let t = target else {
            // A cluster without the column: every object has the column's default (0, or null).
            if !table.columns[column].isNullable { sawValue = true }
            return
        }
        if t.isNull(i) { return }
        sawValue = true
        if isInt { ints &+= t.int(i) } else { doubles += t.double(i) }
    }

    @inline(__always)
    mutating func takeMatches<M: RowMatcher>(_ m: Int, _ view: ClusterView, where matches: M) {
        guard plainDoubles else {
            for i in 0..<m where matches(i) { take(i, view) }
            return
        }
        // Adding +0.0 for an object that does not match leaves the sum's bits as skipping it
        // would (the sum starts at +0.0, so it is never -0.0), in the same order. Two passes:
        // the match bytes (a loop the compiler vectorises), then the sum, each value masked by
        // its byte. In one pass the compiler turned `hit ? v : 0` back into a branch per
        // object, mispredicted on every other object of a filter matching half of them at random.
        // A cluster holds at most `UInt16.max` objects (its count is a u16), so `m` fits.
        let bytes = matchBytes
        var fill = MaskFill(out: bytes, m: m)
        fill.consume(matches)
        var sum = doubles
        var any: UInt8 = 0
        var i = 0
        while i < m {
            let raw = UInt64(littleEndian: doubleBase.loadUnaligned(fromByteOffset: i &<< 3, as: UInt64.self))
            let hit = bytes[i]
            sum += Double(bitPattern: raw & (0 &- UInt64(hit)))
            any |= hit
            i &+= 1
        }
        doubles = sum
        if any != 0 { sawValue = true }
    }

    mutating func take(_ row: RowReader) {
        if isInt {
            if let i = row.int(column) { ints &+= i; sawValue = true }
        } else if let d = row.double(column) {
            doubles += d
            sawValue = true
        }
    }
}
