import Foundation

/// Builds rows.
enum RowEncoder {
    /// Encodes `values` (one per column of `table`, in column order) as a row.
    /// - Throws: `StoreError.typeMismatch` naming the column when a value does not fit it.
    static func encode(_ values: [StoreValue], table: StoreTable) throws(StoreError) -> [UInt8] {
        var out: [UInt8] = []
        try encode(values, table: table, into: &out)
        return out
    }

    /// Encodes into `out`, replacing its contents (and keeping its capacity: callers reuse one
    /// buffer for many rows).
    static func encode(_ values: [StoreValue], table: StoreTable, into out: inout [UInt8]) throws(StoreError) {
        let layout = table.layout
        let n = table.columns.count
        precondition(values.count == n, "row of \(table.name) needs \(n) values, got \(values.count)")
        let header = layout.fullHeader
        let slotsEnd = header + (layout.slotOffsets.last.map { $0 + layout.slotSizes[n - 1] } ?? 0)
        out.removeAll(keepingCapacity: true)
        appendZeros(slotsEnd, to: &out)
        out[0] = UInt8(n & 0xFF)
        out[1] = UInt8(n >> 8)
        for c in 0..<n where layout.slotSizes[c] > 0 {
            // The column's description is copied only where it is needed (a copy retains its
            // strings), not for every fixed-width value.
            let type = layout.types[c]
            let value = values[c]
            let s = header + layout.slotOffsets[c]
            if value.isNull {
                guard table.columns[c].isNullable || type == .mixed else {
                    throw .nullNotAllowed(table: table.name, column: table.columns[c].name)
                }
                out[2 + c >> 3] |= 1 << UInt8(c & 7)
                continue
            }
            if layout.variable[c] {
                let column = table.columns[c]
                let start = out.count
                switch (column.collection, column.type, value) {
                case (.none, .string, .string(let str)): out.append(contentsOf: str.utf8)
                case (.none, .data, .data(let d)): out.append(contentsOf: d)
                case (.none, .mixed, _): ValueCodec.write(value, &out)
                case (.list, _, .list(let elements)), (.set, _, .list(let elements)):
                    for e in elements { try checkElement(e, column, table) }
                    ValueCodec.write(value, &out)
                case (.map, _, .map(let entries)):
                    for e in entries.values { try checkElement(e, column, table) }
                    ValueCodec.write(value, &out)
                default:
                    throw .typeMismatch(
                        table: table.name, column: column.name, expected: "\(column.type)", found: value.kindName)
                }
                store(UInt32(start), at: s, &out)
                store(UInt32(out.count - start), at: s + 4, &out)
                continue
            }
            switch (type, value) {
            case (.int, .int(let i)), (.link, .link(let i)): store(UInt64(bitPattern: i), at: s, &out)
            case (.bool, .bool(let b)): out[s] = b ? 1 : 0
            case (.float, .float(let f)): store(f.bitPattern, at: s, &out)
            case (.double, .double(let d)): store(d.bitPattern, at: s, &out)
            case (.timestamp, .timestamp(let sec, let ns)):
                store(UInt64(bitPattern: sec), at: s, &out)
                store(UInt32(bitPattern: ns), at: s + 8, &out)
            case (.objectId, .objectId(let b)) where b.count == 12: out.replaceSubrange(s..<s + 12, with: b)
            case (.uuid, .uuid(let b)) where b.count == 16: out.replaceSubrange(s..<s + 16, with: b)
            case (.decimal128, .decimal128(let b)) where b.count == 16: out.replaceSubrange(s..<s + 16, with: b)
            default:
                throw .typeMismatch(
                    table: table.name, column: table.columns[c].name, expected: "\(type)", found: value.kindName)
            }
        }
    }

    /// Zeros copied into a row's header and slots: appending a `repeatElement` went byte by byte
    /// (about 330 instructions for the `strata-bench w1` 27-byte header, a twentieth of an insert; callgrind).
    private static let zeros = [UInt8](repeating: 0, count: 512)

    @inline(__always)
    static func appendZeros(_ count: Int, to out: inout [UInt8]) {
        if count <= zeros.count {
            zeros.withUnsafeBufferPointer { out.append(contentsOf: UnsafeBufferPointer(rebasing: $0[..<count])) }
        } else {
            out.append(contentsOf: repeatElement(0, count: count))
        }
    }

    /// Checks that `element` fits the element type of collection column `column`: a value of its
    /// type, or null where elements are optional (and as a map value of links, which deleting the
    /// target leaves behind). `AnyRealmValue` elements take anything.
    static func checkElement(_ element: StoreValue, _ column: StoreColumn, _ table: StoreTable) throws(StoreError) {
        switch (column.type, element) {
        case (.mixed, _): return
        case (_, .null):
            if column.isNullable || (column.type == .link && column.collection == .map) { return }
            throw .nullNotAllowed(table: table.name, column: column.name)
        case (.int, .int), (.bool, .bool), (.float, .float), (.double, .double), (.string, .string),
            (.data, .data), (.timestamp, .timestamp), (.link, .link):
            return
        case (.objectId, .objectId(let b)) where b.count == 12: return
        case (.uuid, .uuid(let b)) where b.count == 16: return
        case (.decimal128, .decimal128(let b)) where b.count == 16: return
        default:
            throw .typeMismatch(
                table: table.name, column: column.name, expected: "\(column.type)", found: element.kindName)
        }
    }

    @inline(__always)
    static func store<T: FixedWidthInteger>(_ v: T, at offset: Int, _ out: inout [UInt8]) {
        withUnsafeBytes(of: v.littleEndian) { raw in
            for i in 0..<raw.count { out[offset + i] = raw[i] }
        }
    }

    /// Writes a fixed-width, non-null `value` of column `c` into the row `bytes` in place, when the
    /// row already has the column. Returns false when the row must be rebuilt instead.
    static func patchFixed(
        _ bytes: UnsafeMutableRawBufferPointer, table: StoreTable, column c: Int, _ value: StoreValue
    ) -> Bool {
        let layout = table.layout
        guard bytes.count >= 2, !layout.variable[c], layout.slotSizes[c] > 0 else { return false }
        let n = Int(UInt16(littleEndian: bytes.loadUnaligned(as: UInt16.self)))
        guard n == layout.columnCount else { return false }
        let s = layout.fullHeader + layout.slotOffsets[c]
        let bit = UInt8(1) << UInt8(c & 7)
        if value.isNull {
            guard table.columns[c].isNullable else { return false }
            bytes[2 + c >> 3] |= bit
            // A null column's slot is zero, as `encode` writes it: no stale value stays behind.
            for i in s..<s + layout.slotSizes[c] { bytes[i] = 0 }
            return true
        }
        switch (layout.types[c], value) {
        case (.int, .int(let i)), (.link, .link(let i)):
            bytes.storeBytes(of: UInt64(bitPattern: i).littleEndian, toByteOffset: s, as: UInt64.self)
        default: guard storeFixedSlot(layout.types[c], value, at: bytes.baseAddress! + s) else { return false }
        }
        bytes[2 + c >> 3] &= ~bit
        return true
    }
}
