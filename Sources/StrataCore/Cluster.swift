// Clusters: many objects of one table in one B+tree value, column by column (FORMAT.md,
// "Clusters"; Docs/ObjectStore.md). A scan reads only the columns it tests; integers take the
// bytes their range in the cluster needs.
//
// ```
// 0    u16  m: objects in the cluster (>= 1)
// 2    u16  n: columns of the table when the cluster was written (older clusters may have fewer)
// 4    u8   key width: 0 = keys are first, first + 1, ... (dense); else 1, 2, 4 or 8 bytes per key
// 5    u8   0
// 6    u16  0
// 8    i64  first object key (the entry's tree key)
// 16   n x 6 column descriptors: u32 area offset, u8 width, u8 flags (bit 0: null bitmap)
//      keys: m x key width bytes, unsigned deltas from the first key (absent when dense)
//      column areas (below)
// ```

/// Constants of the cluster format.
enum ClusterFormat {
    static let headerSize = 16
    static let descriptorSize = 6
    /// Descriptor flag: the area starts with a null bitmap of ceil(m / 8) bytes.
    static let hasNulls: UInt8 = 1

    /// Column `c`'s descriptor in the cluster at `base`: area offset, width, null bitmap.
    @inline(__always)
    static func descriptor(_ base: UnsafeRawPointer, _ c: Int) -> (offset: Int, width: Int, nulls: Bool) {
        let d = base + headerSize + c * descriptorSize
        return (Int(UInt32(littleEndian: d.loadUnaligned(as: UInt32.self))),
                Int(d.load(fromByteOffset: 4, as: UInt8.self)),
                d.load(fromByteOffset: 5, as: UInt8.self) & hasNulls != 0)
    }

    /// Writes column `c`'s descriptor into the cluster at `base` (all zeros for a column
    /// without an area).
    @inline(__always)
    static func setDescriptor(_ base: UnsafeMutableRawPointer, _ c: Int, offset: Int, width: Int, nulls: Bool) {
        let d = base + headerSize + c * descriptorSize
        d.storeBytes(of: UInt32(offset).littleEndian, as: UInt32.self)
        d.storeBytes(of: UInt8(width), toByteOffset: 4, as: UInt8.self)
        d.storeBytes(of: nulls ? hasNulls : 0, toByteOffset: 5, as: UInt8.self)
    }
}

/// How a column is laid out in a cluster.
@usableFromInline
enum ClusterColumnKind: UInt8, Sendable {
    /// No area: the `Int` primary key (the object key) and `LinkingObjects`.
    case none
    /// `Int` and link: an i64 base, then per object an unsigned delta of `width` bytes (0, 1, 2, 4, 8).
    case int
    /// Bool (1), Float (4), Double (8), Date (12), ObjectId (12), UUID (16), Decimal128 (16): raw
    /// little-endian values of `width` = the type's size, as in a row slot.
    case fixed
    /// String, Data, AnyRealmValue and collections: m end offsets of `width` (2 or 4) bytes, then
    /// the bytes. Object i's bytes are [end(i - 1), end(i)), end(-1) = 0.
    case variable
}

/// Bytes per unsigned value up to `v`: 0, 1, 2, 4 or 8.
@inline(__always)
func clusterWidth(_ v: UInt64) -> Int {
    v == 0 ? 0 : v <= 0xFF ? 1 : v <= 0xFFFF ? 2 : v <= 0xFFFF_FFFF ? 4 : 8
}

/// Loads an unsigned value of `width` bytes (0, 1, 2, 4, 8) at `offset`.
@inline(__always)
func clusterLoad(_ p: UnsafeRawPointer, _ offset: Int, _ width: Int) -> UInt64 {
    switch width {
    case 1: UInt64(p.load(fromByteOffset: offset, as: UInt8.self))
    case 2: UInt64(UInt16(littleEndian: p.loadUnaligned(fromByteOffset: offset, as: UInt16.self)))
    case 4: UInt64(UInt32(littleEndian: p.loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
    case 8: UInt64(littleEndian: p.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    default: 0
    }
}

/// A validated cluster: its header, and where each object's key is.
///
/// Construction checks that every column area of the stored columns lies inside the bytes and
/// that variable-width end offsets rise, so a `RowReader` over it never reads outside it. (Keys
/// are not checked to rise: wrong keys find wrong objects, but read nothing outside.)
struct ClusterView {
    let bytes: UnsafeRawBufferPointer
    let count: Int
    let columnCount: Int
    let keyWidth: Int
    let firstKey: Int64

    /// nil when `bytes` is not a well-formed cluster of `table`.
    /// - Parameter rising: also check that variable-width end offsets rise (reads need it);
    ///   without it, only that each column's area, up to its last end offset, lies inside.
    init?(_ bytes: UnsafeRawBufferPointer, table: CoreTable, checkColumns: Bool = true, rising: Bool = true) {
        guard bytes.count >= ClusterFormat.headerSize, let base = bytes.baseAddress else { return nil }
        let m = Int(UInt16(littleEndian: base.loadUnaligned(as: UInt16.self)))
        let n = Int(UInt16(littleEndian: base.loadUnaligned(fromByteOffset: 2, as: UInt16.self)))
        let kw = Int(base.load(fromByteOffset: 4, as: UInt8.self))
        guard m >= 1, n <= table.layout.columnCount, kw == 0 || kw == 1 || kw == 2 || kw == 4 || kw == 8 else { return nil }
        let keysEnd = ClusterFormat.headerSize + n * ClusterFormat.descriptorSize + m * kw
        guard keysEnd <= bytes.count else { return nil }
        self.bytes = bytes
        count = m
        columnCount = n
        keyWidth = kw
        firstKey = Int64(littleEndian: base.loadUnaligned(fromByteOffset: 8, as: Int64.self))
        // Keys are not checked to rise: a cluster whose keys do not finds wrong objects but never
        // reads outside its bytes. `Database.verify()`-level checks are the place for that.
        if kw == 0, firstKey > Int64.max - Int64(m - 1) { return nil }
        if checkColumns {
            for c in 0..<n where !Self.columnFits(base, bytes.count, m, c, table.layout.clusterKinds[c], table.layout.slotSizes[c], rising: rising) { return nil }
        }
    }

    /// Whether column `c` of `table` can be read from this cluster (validated without
    /// `checkColumns`): its area lies inside (a column the cluster predates has none).
    func fits(column c: Int, table: CoreTable) -> Bool {
        c >= columnCount || Self.columnFits(bytes.baseAddress!, bytes.count, count, c, table.layout.clusterKinds[c], table.layout.slotSizes[c])
    }

    /// Whether column `c`'s area lies inside the cluster (and, for variable-width columns, its
    /// end offsets rise).
    static func columnFits(_ base: UnsafeRawPointer, _ size: Int, _ m: Int, _ c: Int, _ kind: ClusterColumnKind, _ slotSize: Int,
                           rising: Bool = true) -> Bool {
        if kind == .none { return true }
        let (offset, width, nulls) = ClusterFormat.descriptor(base, c)
        var start = offset + (nulls ? (m + 7) / 8 : 0)
        switch kind {
        case .none: return true
        case .int:
            guard width == 0 || width == 1 || width == 2 || width == 4 || width == 8 else { return false }
            return start + 8 + m * width <= size
        case .fixed:
            return width == slotSize && start + m * width <= size
        case .variable:
            guard width == 2 || width == 4, start + m * width <= size else { return false }
            // End offsets must rise (object i reads [end(i - 1), end(i))).
            var previous = 0
            if !rising {
                previous = Int(clusterLoad(base, start + (m - 1) * width, width))
            } else if width == 2 {
                for i in 0..<m {
                    let e = Int(UInt16(littleEndian: base.loadUnaligned(fromByteOffset: start + 2 * i, as: UInt16.self)))
                    if e < previous { return false }
                    previous = e
                }
            } else {
                for i in 0..<m {
                    let e = Int(UInt32(littleEndian: base.loadUnaligned(fromByteOffset: start + 4 * i, as: UInt32.self)))
                    if e < previous { return false }
                    previous = e
                }
            }
            start += m * width
            return start + previous <= size
        }
    }

    /// Where the cluster's encoded bytes end: after its last column area (or its keys). The
    /// bytes from there to the value's end are its reserve for in-place inserts.
    func contentEnd(table: CoreTable) -> Int {
        let base = bytes.baseAddress!
        var end = ClusterFormat.headerSize + columnCount * ClusterFormat.descriptorSize + count * keyWidth
        for c in 0..<columnCount where table.layout.clusterKinds[c] != .none {
            let (offset, width, nulls) = ClusterFormat.descriptor(base, c)
            var e = offset + (nulls ? (count + 7) >> 3 : 0)
            switch table.layout.clusterKinds[c] {
            case .none: break
            case .int: e += 8 + count * width
            case .fixed: e += count * width
            case .variable: e += count * width + Int(clusterLoad(base, e + (count - 1) * width, width))
            }
            end = max(end, e)
        }
        return end
    }

    /// Whether object `i`'s variable-width values lie within their columns' bytes (their end
    /// offsets rise at `i`): enough for a reader of that one object, on a cluster validated
    /// with `rising: false`.
    func rangesRise(at i: Int, table: CoreTable) -> Bool {
        let base = bytes.baseAddress!
        for c in 0..<columnCount where table.layout.clusterKinds[c] == .variable {
            let (offset, width, nulls) = ClusterFormat.descriptor(base, c)
            let ends = offset + (nulls ? (count + 7) >> 3 : 0)
            let start = i == 0 ? 0 : clusterLoad(base, ends + (i - 1) * width, width)
            let end = clusterLoad(base, ends + i * width, width)
            if start > end || end > clusterLoad(base, ends + (count - 1) * width, width) { return false }
        }
        return true
    }

    /// The key of object `i`.
    @inline(__always)
    func key(at i: Int) -> Int64 {
        if keyWidth == 0 { return firstKey &+ Int64(i) }
        let k0 = ClusterFormat.headerSize + columnCount * ClusterFormat.descriptorSize
        return firstKey &+ Int64(bitPattern: clusterLoad(bytes.baseAddress!, k0 + i * keyWidth, keyWidth))
    }

    /// Where `key` is (found) or would go to keep the keys in order.
    func position(of key: Int64) -> (index: Int, found: Bool) {
        if key < firstKey { return (0, false) }
        if keyWidth == 0 {
            let d = UInt64(bitPattern: key &- firstKey)
            return d < UInt64(count) ? (Int(d), true) : (count, false)
        }
        let target = UInt64(bitPattern: key &- firstKey)
        let k0 = ClusterFormat.headerSize + columnCount * ClusterFormat.descriptorSize
        let base = bytes.baseAddress!
        var lo = 0, hi = count
        while lo < hi {
            let mid = (lo + hi) >> 1
            let d = clusterLoad(base, k0 + mid * keyWidth, keyWidth)
            if d < target { lo = mid + 1 } else if d > target { hi = mid } else { return (mid, true) }
        }
        return (lo, false)
    }

    /// The number of objects in the cluster `bytes` (0 when it is too short to say).
    @inline(__always)
    static func objectCount(_ bytes: UnsafeRawBufferPointer) -> Int {
        bytes.count >= 2 ? Int(UInt16(littleEndian: bytes.loadUnaligned(as: UInt16.self))) : 0
    }
}

/// Reads the columns of one object in its cluster, in place (zero copies for fixed-width values).
///
/// ## Concurrency
/// Not `Sendable` in spirit: the bytes point into a transaction's snapshot and are valid only
/// while it is (for a write transaction: until the next change).
public struct RowReader {
    /// The bytes of the object's cluster.
    public private(set) var bytes: UnsafeRawBufferPointer
    public let table: CoreTable
    /// The object's key.
    public private(set) var key: Int64
    /// The object's position in its cluster.
    public private(set) var position: Int
    /// Objects in the cluster.
    @usableFromInline private(set) var m: Int
    /// Columns stored in the cluster.
    @usableFromInline private(set) var n: Int

    /// A reader of object `position` of a validated cluster.
    init(cluster: ClusterView, position: Int, table: CoreTable) {
        bytes = cluster.bytes
        self.table = table
        self.position = position
        key = cluster.key(at: position)
        m = cluster.count
        n = cluster.columnCount
    }

    /// A reader that points at nothing yet (scans move it).
    init(table: CoreTable) {
        bytes = UnsafeRawBufferPointer(start: nil, count: 0)
        self.table = table
        key = 0
        position = 0
        m = 0
        n = 0
    }

    /// Points the reader at another object: a scan moves one reader from object to object
    /// (making a reader per object retained and released its table each time).
    @inline(__always)
    mutating func move(to cluster: ClusterView, position: Int, key: Int64) {
        bytes = cluster.bytes
        m = cluster.count
        n = cluster.columnCount
        self.position = position
        self.key = key
    }

    @inline(__always)
    func descriptor(_ c: Int) -> (offset: Int, width: Int, nulls: Bool) {
        ClusterFormat.descriptor(bytes.baseAddress!, c)
    }

    /// Whether column `c` is null (or absent from an older cluster, with a nullable column).
    @inline(__always)
    public func isNull(_ c: Int) -> Bool {
        if c == table.layout.keyColumn { return key == table.layout.nullKey }
        guard c < n else { return table.columns[c].defaultValue.isNull }
        if table.layout.clusterKinds[c] == .none { return true }
        let d = descriptor(c)
        return d.nulls && bytes[d.offset + position >> 3] & (1 << UInt8(position & 7)) != 0
    }

    /// Byte offset of a fixed-width column's value for this object (a stored, non-null column).
    @inline(__always)
    func fixedOffset(_ c: Int) -> Int {
        let d = descriptor(c)
        return d.offset + (d.nulls ? (m + 7) >> 3 : 0) + position * d.width
    }

    /// An `Int`, `link` column's value, nil when null.
    @inline(__always)
    public func int(_ c: Int) -> Int64? {
        if c == table.layout.keyColumn { return key == table.layout.nullKey ? nil : key }
        guard c < n else { return table.columns[c].isNullable ? nil : 0 }
        let d = descriptor(c)
        if d.nulls, bytes[d.offset + position >> 3] & (1 << UInt8(position & 7)) != 0 { return nil }
        let start = d.offset + (d.nulls ? (m + 7) >> 3 : 0)
        let p = bytes.baseAddress!
        let base = Int64(littleEndian: p.loadUnaligned(fromByteOffset: start, as: Int64.self))
        return base &+ Int64(bitPattern: clusterLoad(p, start + 8 + position * d.width, d.width))
    }

    /// A `Double` column's value, nil when null.
    @inline(__always)
    public func double(_ c: Int) -> Double? {
        guard c < n else { return table.columns[c].isNullable ? nil : 0 }
        if isNull(c) { return nil }
        return Double(bitPattern: UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: fixedOffset(c), as: UInt64.self)))
    }

    /// The bytes of a `String`, `Data`, `AnyRealmValue` or collection column, nil when null.
    @inline(__always)
    public func variableBytes(_ c: Int) -> UnsafeRawBufferPointer? {
        guard c < n else { return table.columns[c].isNullable ? nil : UnsafeRawBufferPointer(start: nil, count: 0) }
        let d = descriptor(c)
        if d.nulls, bytes[d.offset + position >> 3] & (1 << UInt8(position & 7)) != 0 { return nil }
        let ends = d.offset + (d.nulls ? (m + 7) >> 3 : 0)
        let p = bytes.baseAddress!
        let start = position == 0 ? 0 : Int(clusterLoad(p, ends + (position - 1) * d.width, d.width))
        let end = Int(clusterLoad(p, ends + position * d.width, d.width))
        let data = ends + m * d.width
        return UnsafeRawBufferPointer(rebasing: bytes[(data + start)..<(data + end)])
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
        if column.isVariable {
            let v = variableBytes(c)!
            if column.collection != .none || column.type == .mixed {
                var r = ByteReader(v)
                return ValueCodec.read(&r) ?? column.defaultValue
            }
            return column.type == .string ? .string(String(decoding: v, as: UTF8.self)) : .data(Array(v))
        }
        switch column.type {
        case .int: return .int(int(c)!)
        case .link: return .link(int(c)!)
        default: break
        }
        return fixedSlotValue(column.type, bytes, at: fixedOffset(c))
    }

    /// All columns' values, in column order.
    public func values() -> [CoreValue] {
        (0..<table.columns.count).map(value)
    }

    /// A `Bool` column's value, nil when null.
    @inline(__always)
    func queryBool(_ c: Int) -> Bool? {
        guard c < n else { return table.columns[c].isNullable ? nil : false }
        if isNull(c) { return nil }
        return bytes[fixedOffset(c)] != 0
    }

    /// A `Float` column's value, nil when null.
    @inline(__always)
    func queryFloat(_ c: Int) -> Float? {
        guard c < n else { return table.columns[c].isNullable ? nil : 0 }
        if isNull(c) { return nil }
        return Float(bitPattern: UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: fixedOffset(c), as: UInt32.self)))
    }

    /// A date column's value, nil when null.
    @inline(__always)
    func queryTimestamp(_ c: Int) -> QueryTimestamp? {
        guard c < n else { return table.columns[c].isNullable ? nil : QueryTimestamp(seconds: 0, nanoseconds: 0) }
        if isNull(c) { return nil }
        let s = fixedOffset(c)
        return QueryTimestamp(seconds: Int64(littleEndian: bytes.loadUnaligned(fromByteOffset: s, as: Int64.self)),
                              nanoseconds: Int32(littleEndian: bytes.loadUnaligned(fromByteOffset: s + 8, as: Int32.self)))
    }

    /// A link column's target key, nil when null (also for clusters written before the column existed).
    @inline(__always)
    func queryLink(_ c: Int) -> Int64? {
        guard c < n else { return nil }
        return int(c)
    }
}
