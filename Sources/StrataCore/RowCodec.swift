import Foundation

/// Where each column of a table lives in a row (FORMAT.md, "Object rows").
///
/// ```
/// u16      n: the number of columns when the row was written (older rows may have fewer)
/// bitmap   ceil(n / 8) bytes, bit i set = column i is null
/// slots    one per column 0..<n, fixed size per type (ColumnType.slotSize); the Int primary key
///          and LinkingObjects have no slot (the key is the object key)
/// var area strings, data, AnyRealmValue and collections; their slots hold u32 offset, u32 length
/// ```
///
/// A fixed-width column is read at a constant offset, so a scan touches only the bytes it reads,
/// and an update of a fixed-width column rewrites its slot in place.
///
/// ## Concurrency
/// Immutable; `Sendable`.
public struct RowLayout: Sendable {
    /// Slot offset of each column, relative to the end of the bitmap.
    let slotOffsets: [Int]
    let slotSizes: [Int]
    let types: [ColumnType]
    /// Per column: list, set, map or none.
    let collections: [CollectionKind]
    let variable: [Bool]
    /// The column whose value is the object key (an `Int` primary key), if any.
    public let keyColumn: Int?
    /// The object key that stands for a nil key when `keyColumn` is an optional `Int` primary key
    /// (FORMAT.md, "Object keys"): `Int64.min`, so that the object with the nil key sorts first,
    /// as nil does. Nil when there is no key column or it is not optional.
    public let nullKey: Int64?
    public let columnCount: Int
    /// Offset of the first slot in a row with all `columnCount` columns.
    let fullHeader: Int
    /// How each column is laid out in a cluster (FORMAT.md, "Clusters").
    let clusterKinds: [ClusterColumnKind]
    /// The order of the column areas in a cluster: integer and fixed-width columns first, then
    /// variable-width ones, each in column order, so that a scan of fixed-width columns reads
    /// the front of each cluster.
    let areaOrder: [Int]

    init(columns: [CoreColumn], primaryKeyIsObjectKey keyColumn: Int?) {
        var offsets: [Int] = []
        var sizes: [Int] = []
        var o = 0
        for (i, c) in columns.enumerated() {
            offsets.append(o)
            let size = (i == keyColumn || !c.isStored) ? 0 : (c.isVariable ? 8 : c.type.slotSize)
            sizes.append(size)
            o += size
        }
        slotOffsets = offsets
        slotSizes = sizes
        types = columns.map(\.type)
        collections = columns.map(\.collection)
        variable = columns.map(\.isVariable)
        self.keyColumn = keyColumn
        nullKey = keyColumn.flatMap { columns[$0].isNullable ? Int64.min : nil }
        columnCount = columns.count
        fullHeader = 2 + (columns.count + 7) / 8
        clusterKinds = columns.enumerated().map { i, c in
            if i == keyColumn || !c.isStored { return .none }
            if c.isVariable { return .variable }
            return c.type == .int || c.type == .link ? .int : .fixed
        }
        let kinds = clusterKinds
        areaOrder = kinds.indices.filter { kinds[$0] == .int || kinds[$0] == .fixed } + kinds.indices.filter { kinds[$0] == .variable }
    }

    /// Bytes before the first slot in a row of `n` columns.
    @inline(__always)
    static func header(_ n: Int) -> Int { 2 + (n + 7) / 8 }
}

/// Reads the columns of one row of the row format that clusters replaced (FORMAT.md, "Object
/// rows (format 1)"): opening such a file rewrites its rows as clusters.
///
/// ## Concurrency
/// Not `Sendable` in spirit: the bytes point into a transaction's snapshot and are valid only
/// while it is (for a write transaction: until the next change).
struct LegacyRowReader {
    public private(set) var bytes: UnsafeRawBufferPointer
    public let table: CoreTable
    public private(set) var key: Int64
    @usableFromInline private(set) var n: Int
    @usableFromInline private(set) var slotBase: Int

    public init(bytes: UnsafeRawBufferPointer, table: CoreTable, key: Int64) {
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
    public func isNull(_ c: Int) -> Bool {
        if c == table.layout.keyColumn { return key == table.layout.nullKey }
        guard c < n else { return table.columns[c].defaultValue.isNull }
        return bytes[2 + c >> 3] & (1 << UInt8(c & 7)) != 0
    }

    @inline(__always)
    func slot(_ c: Int) -> Int { slotBase + table.layout.slotOffsets[c] }

    /// An `Int`, `link` column's value, nil when null.
    @inline(__always)
    public func int(_ c: Int) -> Int64? {
        if c == table.layout.keyColumn { return key == table.layout.nullKey ? nil : key }
        guard c < n else { return table.columns[c].isNullable ? nil : 0 }
        if isNull(c) { return nil }
        return Int64(littleEndian: bytes.loadUnaligned(fromByteOffset: slot(c), as: Int64.self))
    }

    /// A `Double` column's value, nil when null.
    @inline(__always)
    public func double(_ c: Int) -> Double? {
        guard c < n else { return table.columns[c].isNullable ? nil : 0 }
        if isNull(c) { return nil }
        return Double(bitPattern: UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: slot(c), as: UInt64.self)))
    }

    /// The bytes of a `String` or `Data` column, nil when null.
    @inline(__always)
    public func variableBytes(_ c: Int) -> UnsafeRawBufferPointer? {
        guard c < n else { return table.columns[c].isNullable ? nil : UnsafeRawBufferPointer(start: nil, count: 0) }
        if isNull(c) { return nil }
        let s = slot(c)
        let off = Int(UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: s, as: UInt32.self)))
        let len = Int(UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: s + 4, as: UInt32.self)))
        precondition(off + len <= bytes.count, "row of \(table.name) is shorter than its slot says")
        return UnsafeRawBufferPointer(rebasing: bytes[off..<off + len])
    }

    /// A `String` column's value, nil when null.
    public func string(_ c: Int) -> String? {
        variableBytes(c).map { String(decoding: $0, as: UTF8.self) }
    }

    /// Column `c`'s value.
    public func value(_ c: Int) -> CoreValue {
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
    public func values() -> [CoreValue] {
        (0..<table.columns.count).map(value)
    }
}

/// The value of a fixed-width slot of `type` (not int or link) at `s`: the same bytes in a row
/// slot and in a cluster's fixed-width column (FORMAT.md).
func fixedSlotValue(_ type: ColumnType, _ bytes: UnsafeRawBufferPointer, at s: Int) -> CoreValue {
    switch type {
    case .bool: return .bool(bytes[s] != 0)
    case .float: return .float(Float(bitPattern: UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: s, as: UInt32.self))))
    case .double: return .double(Double(bitPattern: UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: s, as: UInt64.self))))
    case .timestamp:
        return .timestamp(seconds: Int64(littleEndian: bytes.loadUnaligned(fromByteOffset: s, as: Int64.self)),
                          nanoseconds: Int32(littleEndian: bytes.loadUnaligned(fromByteOffset: s + 8, as: Int32.self)))
    case .objectId: return .objectId(Array(bytes[s..<s + 12]))
    case .uuid: return .uuid(Array(bytes[s..<s + 16]))
    case .decimal128: return .decimal128(Array(bytes[s..<s + 16]))
    case .int, .link, .string, .data, .mixed, .linkingObjects: return .null
    }
}

/// Writes the bytes of a non-null fixed-width `value` of `type` (not int or link) at `at`, as a row
/// slot and a cluster's fixed-width column hold them; false when the value is not of that type.
func storeFixedSlot(_ type: ColumnType, _ value: CoreValue, at: UnsafeMutableRawPointer) -> Bool {
    switch (type, value) {
    case (.bool, .bool(let b)): at.storeBytes(of: b ? 1 : 0, as: UInt8.self)
    case (.float, .float(let f)): at.storeBytes(of: f.bitPattern.littleEndian, as: UInt32.self)
    case (.double, .double(let d)): at.storeBytes(of: d.bitPattern.littleEndian, as: UInt64.self)
    case (.timestamp, .timestamp(let sec, let ns)):
        at.storeBytes(of: UInt64(bitPattern: sec).littleEndian, as: UInt64.self)
        at.storeBytes(of: UInt32(bitPattern: ns).littleEndian, toByteOffset: 8, as: UInt32.self)
    case (.objectId, .objectId(let b)) where b.count == 12: b.withUnsafeBytes { at.copyMemory(from: $0.baseAddress!, byteCount: 12) }
    case (.uuid, .uuid(let b)) where b.count == 16: b.withUnsafeBytes { at.copyMemory(from: $0.baseAddress!, byteCount: 16) }
    case (.decimal128, .decimal128(let b)) where b.count == 16: b.withUnsafeBytes { at.copyMemory(from: $0.baseAddress!, byteCount: 16) }
    default: return false
    }
    return true
}

/// Builds rows.
enum RowEncoder {
    /// Encodes `values` (one per column of `table`, in column order) as a row.
    /// - Throws: `CoreError.typeMismatch` naming the column when a value does not fit it.
    static func encode(_ values: [CoreValue], table: CoreTable) throws(CoreError) -> [UInt8] {
        var out: [UInt8] = []
        try encode(values, table: table, into: &out)
        return out
    }

    /// Encodes into `out`, replacing its contents (and keeping its capacity: callers reuse one
    /// buffer for many rows).
    static func encode(_ values: [CoreValue], table: CoreTable, into out: inout [UInt8]) throws(CoreError) {
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
                default: throw .typeMismatch(table: table.name, column: column.name, expected: "\(column.type)", found: value.kindName)
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
                throw .typeMismatch(table: table.name, column: table.columns[c].name, expected: "\(type)", found: value.kindName)
            }
        }
    }

    /// Zeros copied into a row's header and slots: appending a `repeatElement` went byte by byte
    /// (about 330 instructions for W1's 27-byte header, a twentieth of an insert; callgrind).
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
    static func checkElement(_ element: CoreValue, _ column: CoreColumn, _ table: CoreTable) throws(CoreError) {
        switch (column.type, element) {
        case (.mixed, _): return
        case (_, .null):
            if column.isNullable || (column.type == .link && column.collection == .map) { return }
            throw .nullNotAllowed(table: table.name, column: column.name)
        case (.int, .int), (.bool, .bool), (.float, .float), (.double, .double), (.string, .string),
             (.data, .data), (.timestamp, .timestamp), (.link, .link): return
        case (.objectId, .objectId(let b)) where b.count == 12: return
        case (.uuid, .uuid(let b)) where b.count == 16: return
        case (.decimal128, .decimal128(let b)) where b.count == 16: return
        default:
            throw .typeMismatch(table: table.name, column: column.name, expected: "\(column.type)", found: element.kindName)
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
    static func patchFixed(_ bytes: UnsafeMutableRawBufferPointer, table: CoreTable, column c: Int, _ value: CoreValue) -> Bool {
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
        case (.int, .int(let i)), (.link, .link(let i)): bytes.storeBytes(of: UInt64(bitPattern: i).littleEndian, toByteOffset: s, as: UInt64.self)
        default: guard storeFixedSlot(layout.types[c], value, at: bytes.baseAddress! + s) else { return false }
        }
        bytes[2 + c >> 3] &= ~bit
        return true
    }
}

/// The tagged encoding of values inside `AnyRealmValue` columns and collections (FORMAT.md,
/// "Tagged values").
enum ValueCodec {
    static func write(_ value: CoreValue, _ out: inout [UInt8]) {
        switch value {
        case .null: out.append(0)
        case .bool(let b): out.append(1); out.append(b ? 1 : 0)
        case .int(let i): out.append(2); appendU64(UInt64(bitPattern: i), &out)
        case .float(let f): out.append(3); appendU32(f.bitPattern, &out)
        case .double(let d): out.append(4); appendU64(d.bitPattern, &out)
        case .string(let s): out.append(5); appendString(s, &out)
        case .data(let d): out.append(6); appendU32(UInt32(d.count), &out); out.append(contentsOf: d)
        case .timestamp(let s, let ns): out.append(7); appendU64(UInt64(bitPattern: s), &out); appendU32(UInt32(bitPattern: ns), &out)
        case .objectId(let b): out.append(8); out.append(contentsOf: b)
        case .uuid(let b): out.append(9); out.append(contentsOf: b)
        case .decimal128(let b): out.append(10); out.append(contentsOf: b)
        case .link(let k): out.append(11); appendU64(UInt64(bitPattern: k), &out)
        case .typedLink(let t, let k): out.append(12); appendString(t, &out); appendU64(UInt64(bitPattern: k), &out)
        case .list(let values):
            out.append(13)
            appendU32(UInt32(values.count), &out)
            for v in values { write(v, &out) }
        case .map(let entries):
            out.append(14)
            appendU32(UInt32(entries.count), &out)
            for k in entries.keys.sorted() {
                appendString(k, &out)
                write(entries[k]!, &out)
            }
        }
    }

    static func read(_ r: inout ByteReader) -> CoreValue? {
        guard let tag = r.u8() else { return nil }
        switch tag {
        case 0: return .null
        case 1: return r.u8().map { .bool($0 != 0) }
        case 2: return r.u64().map { .int(Int64(bitPattern: $0)) }
        case 3: return r.u32().map { .float(Float(bitPattern: $0)) }
        case 4: return r.u64().map { .double(Double(bitPattern: $0)) }
        case 5: return r.string().map { .string($0) }
        case 6: guard let n = r.u32(), let b = r.raw(Int(n)) else { return nil }; return .data(Array(b))
        case 7: guard let s = r.u64(), let ns = r.u32() else { return nil }
            return .timestamp(seconds: Int64(bitPattern: s), nanoseconds: Int32(bitPattern: ns))
        case 8: return r.raw(12).map { .objectId(Array($0)) }
        case 9: return r.raw(16).map { .uuid(Array($0)) }
        case 10: return r.raw(16).map { .decimal128(Array($0)) }
        case 11: return r.u64().map { .link(Int64(bitPattern: $0)) }
        case 12: guard let t = r.string(), let k = r.u64() else { return nil }; return .typedLink(table: t, key: Int64(bitPattern: k))
        case 13:
            guard let n = r.u32() else { return nil }
            var values: [CoreValue] = []
            values.reserveCapacity(Int(min(n, 1 << 16)))
            for _ in 0..<n {
                guard let v = read(&r) else { return nil }
                values.append(v)
            }
            return .list(values)
        case 14:
            guard let n = r.u32() else { return nil }
            var entries: [String: CoreValue] = [:]
            for _ in 0..<n {
                guard let k = r.string(), let v = read(&r) else { return nil }
                entries[k] = v
            }
            return .map(entries)
        default: return nil
        }
    }

    static func appendU64(_ v: UInt64, _ out: inout [UInt8]) {
        withUnsafeBytes(of: v.littleEndian) { out.append(contentsOf: $0) }
    }
}

extension CoreValue {
    /// The case name, for error messages.
    public var kindName: String {
        switch self {
        case .null: "null"
        case .bool: "bool"
        case .int: "int"
        case .float: "float"
        case .double: "double"
        case .string: "string"
        case .data: "data"
        case .timestamp: "date"
        case .objectId: "objectId"
        case .uuid: "uuid"
        case .decimal128: "decimal128"
        case .link, .typedLink: "object"
        case .list: "list"
        case .map: "map"
        }
    }
}

/// Errors of the object store. Each names the table and column and says what to do.
///
/// ## Concurrency
/// A plain value; `Sendable`.
public enum CoreError: Error, Equatable, Sendable, CustomStringConvertible {
    case typeMismatch(table: String, column: String, expected: String, found: String)
    case nullNotAllowed(table: String, column: String)
    case duplicatePrimaryKey(table: String, column: String, value: String)
    case primaryKeyChanged(table: String, column: String)
    case noSuchTable(String)
    case objectMissing(table: String, key: Int64)
    case corruptRow(table: String, key: Int64)
    /// The stored data is damaged (a cluster, row, backlink entry or schema record fails its
    /// checks); the message says which.
    case corrupt(String)
    case valueTooLongForIndex(table: String, column: String, size: Int, limit: Int)
    /// `Int64.min` given as the key of an optional `Int` primary key, where it stands for nil.
    case reservedPrimaryKey(table: String, column: String)

    public var description: String {
        switch self {
        case .typeMismatch(let t, let c, let e, let f):
            "'\(t).\(c)' holds \(e) values; a \(f) value cannot be stored there. Convert the value first."
        case .nullNotAllowed(let t, let c):
            "'\(t).\(c)' is not optional; give it a value (or declare it optional)."
        case .duplicatePrimaryKey(let t, let c, let v):
            "Attempting to create an object of type '\(t)' with an existing primary key value '\(v)' (property '\(c)'). Use add(_:update: .modified) or create(_:value:update: .modified) to update the existing object."
        case .primaryKeyChanged(let t, let c):
            "Primary key can't be changed after an object is inserted ('\(t).\(c)'). Delete the object and create a new one instead."
        case .noSuchTable(let t):
            "the file has no table '\(t)'; add the type to the configuration's objectTypes"
        case .objectMissing(let t, let k):
            "object \(k) of '\(t)' has been deleted or does not exist in this version"
        case .corruptRow(let t, let k):
            "the stored row of object \(k) of '\(t)' is corrupt; run Database.verify() and restore from a backup"
        case .corrupt(let message):
            message
        case .reservedPrimaryKey(let t, let c):
            "\(Int64.min) cannot be the primary key of '\(t).\(c)': an optional Int primary key stores its nil key under that value. Use another key (or nil), or make the primary key non-optional."
        case .valueTooLongForIndex(let t, let c, let size, let limit):
            "the value of '\(t).\(c)' is \(size) bytes long, but an indexed or primary-key property holds at most \(limit) bytes in this file; shorten the value, or remove the index from the property"
        }
    }
}
