import Foundation

/// Reads the columns of one row of the row format that clusters replaced (FORMAT.md, "Object
/// rows (format 1)"): opening such a file rewrites its rows as clusters.
///
/// ## Concurrency
/// Not `Sendable` in spirit: the bytes point into a transaction's snapshot and are valid only
/// while it is (for a write transaction: until the next change).
struct LegacyRowReader {
    package private(set) var bytes: UnsafeRawBufferPointer
    package let table: StoreTable
    package private(set) var key: Int64
    @usableFromInline private(set) var n: Int
    @usableFromInline private(set) var slotBase: Int

    package init(bytes: UnsafeRawBufferPointer, table: StoreTable, key: Int64) {
        self.bytes = bytes
        self.table = table
        self.key = key
        let n = bytes.count >= 2 ? Int(UInt16(littleEndian: bytes.loadUnaligned(as: UInt16.self))) : 0
        self.n = n
        self.slotBase = n == table.layout.columnCount ? table.layout.fullHeader : RowLayout.header(n)
    }

    /// Points the reader at another row of the same table. A scan moves one reader from row to
    /// row: making a reader per row retained and released its table each time (a fifth of a
    /// scan's time).
    @inline(__always)
    mutating func move(to bytes: UnsafeRawBufferPointer, key: Int64) {
        self.bytes = bytes
        self.key = key
        let n = bytes.count >= 2 ? Int(UInt16(littleEndian: bytes.loadUnaligned(as: UInt16.self))) : 0
        self.n = n
        self.slotBase = n == table.layout.columnCount ? table.layout.fullHeader : RowLayout.header(n)
    }

    /// Whether column `c` is null (or absent from an older row, with a nullable column).
    @inline(__always)
    package func isNull(_ c: Int) -> Bool {
        if c == table.layout.keyColumn { return key == table.layout.nullKey }
        guard c < n else { return table.columns[c].defaultValue.isNull }
        return bytes[2 + c >> 3] & (1 << UInt8(c & 7)) != 0
    }

    @inline(__always)
    func slot(_ c: Int) -> Int { slotBase + table.layout.slotOffsets[c] }

    /// An `Int`, `link` column's value, nil when null.
    @inline(__always)
    package func int(_ c: Int) -> Int64? {
        if c == table.layout.keyColumn { return key == table.layout.nullKey ? nil : key }
        guard c < n else { return table.columns[c].isNullable ? nil : 0 }
        if isNull(c) { return nil }
        return Int64(littleEndian: bytes.loadUnaligned(fromByteOffset: slot(c), as: Int64.self))
    }

    /// A `Double` column's value, nil when null.
    @inline(__always)
    package func double(_ c: Int) -> Double? {
        guard c < n else { return table.columns[c].isNullable ? nil : 0 }
        if isNull(c) { return nil }
        return Double(bitPattern: UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: slot(c), as: UInt64.self)))
    }

    /// The bytes of a `String` or `Data` column, nil when null.
    @inline(__always)
    package func variableBytes(_ c: Int) -> UnsafeRawBufferPointer? {
        guard c < n else { return table.columns[c].isNullable ? nil : UnsafeRawBufferPointer(start: nil, count: 0) }
        if isNull(c) { return nil }
        let s = slot(c)
        let off = Int(UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: s, as: UInt32.self)))
        let len = Int(UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: s + 4, as: UInt32.self)))
        precondition(off + len <= bytes.count, "row of \(table.name) is shorter than its slot says")
        return UnsafeRawBufferPointer(rebasing: bytes[off..<off + len])
    }

    /// A `String` column's value, nil when null.
    package func string(_ c: Int) -> String? {
        variableBytes(c).map { String(decoding: $0, as: UTF8.self) }
    }

    /// Column `c`'s value.
    package func value(_ c: Int) -> StoreValue {
        let column = table.columns[c]
        if c == table.layout.keyColumn { return key == table.layout.nullKey ? .null : .int(key) }
        guard column.isStored else { return .null }
        guard c < n else { return column.defaultValue }
        if isNull(c) { return .null }
        let s = slot(c)
        if column.isVariable {
            let v = variableBytes(c)!
            if column.collection != .none || column.type == .mixed {
                var r = ByteReader(v)
                return ValueCodec.read(&r) ?? column.defaultValue
            }
            return column.type == .string ? .string(String(decoding: v, as: UTF8.self)) : .data(Array(v))
        }
        switch column.type {
        case .int: return .int(Int64(littleEndian: bytes.loadUnaligned(fromByteOffset: s, as: Int64.self)))
        case .link: return .link(Int64(littleEndian: bytes.loadUnaligned(fromByteOffset: s, as: Int64.self)))
        default: return fixedSlotValue(column.type, bytes, at: s)
        }
    }

    /// All columns' values, in column order.
    package func values() -> [StoreValue] {
        (0..<table.columns.count).map(value)
    }
}
