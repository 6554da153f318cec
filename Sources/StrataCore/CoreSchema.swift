/// The storage type of one column (for collections: of one element).
///
/// ## Concurrency
/// A plain value; `Sendable`.
public enum ColumnType: UInt8, Sendable, Hashable {
    case int = 1, bool, float, double, string, data, timestamp, objectId, uuid, decimal128
    /// `AnyRealmValue`: a tagged value of any of the other types, or a typed link.
    case mixed
    /// A link to an object of `CoreColumn.targetTable`.
    case link
    /// `LinkingObjects`: computed from backlinks, never stored in the row.
    case linkingObjects

    /// Bytes of the column's slot in a row (see FORMAT.md, "Object rows").
    var slotSize: Int {
        switch self {
        case .bool: 1
        case .float: 4
        case .int, .double, .link: 8
        case .timestamp, .objectId: 12
        case .uuid, .decimal128: 16
        case .string, .data, .mixed: 8  // u32 offset, u32 length into the row's variable area
        case .linkingObjects: 0
        }
    }
}

/// Whether a column holds one value or a collection.
///
/// ## Concurrency
/// A plain value; `Sendable`.
public enum CollectionKind: UInt8, Sendable, Hashable {
    case none = 0, list, set, map
}

/// One column of a table, as the object store stores it.
///
/// ## Concurrency
/// A plain value; `Sendable`.
public struct CoreColumn: Sendable, Hashable {
    public var name: String
    public var type: ColumnType
    public var collection: CollectionKind
    public var isNullable: Bool
    public var isPrimaryKey: Bool
    public var isIndexed: Bool
    /// The linked table for `.link` and `.linkingObjects`.
    public var targetTable: String?
    /// For `.linkingObjects`: the link column of `targetTable` this column inverts.
    public var originProperty: String?

    public init(name: String, type: ColumnType, collection: CollectionKind = .none, isNullable: Bool = false,
                isPrimaryKey: Bool = false, isIndexed: Bool = false, targetTable: String? = nil,
                originProperty: String? = nil) {
        self.name = name
        self.type = type
        self.collection = collection
        self.isNullable = isNullable
        self.isPrimaryKey = isPrimaryKey
        self.isIndexed = isIndexed
        self.targetTable = targetTable
        self.originProperty = originProperty
    }

    /// Whether the value lives in the row's variable area.
    var isVariable: Bool {
        collection != .none || type == .string || type == .data || type == .mixed
    }

    /// Whether the column is kept in the row at all (`LinkingObjects` is not).
    public var isStored: Bool { type != .linkingObjects }

    /// Whether the column keeps a secondary index tree.
    public var hasIndexTree: Bool { isIndexed && !isPrimaryKey && collection == .none }

    /// The value a row without this column (written before the column was added) reads as.
    public var defaultValue: CoreValue {
        if collection == .list || collection == .set { return .list([]) }
        if collection == .map { return .map([:]) }
        if isNullable { return .null }
        switch type {
        case .int: return .int(0)
        case .bool: return .bool(false)
        case .float: return .float(0)
        case .double: return .double(0)
        case .string: return .string("")
        case .data: return .data([])
        case .timestamp: return .timestamp(seconds: 0, nanoseconds: 0)
        case .objectId: return .objectId([UInt8](repeating: 0, count: 12))
        case .uuid: return .uuid([UInt8](repeating: 0, count: 16))
        case .decimal128: return .decimal128([UInt8](repeating: 0, count: 16))
        case .mixed, .link, .linkingObjects: return .null
        }
    }
}

/// One table: an object type's columns and the names of its trees in the storage catalog.
///
/// | tree | key | value |
/// |---|---|---|
/// | `c:<Table>` | first object key of the cluster (8 bytes, big-endian, sign bit flipped) | a cluster of objects |
/// | `p:<Table>` | primary key as an `IndexKey` (String, ObjectId, UUID keys) | object key (u64 little-endian) |
/// | `i:<Table>:<column>` | `IndexKey(value) ‖ object key` | empty |
/// | `b:<Table>` | `target key ‖ origin table ‖ 00 ‖ origin column ‖ 00 ‖ origin key` | u32 link count |
///
/// ## Concurrency
/// Immutable after creation; `Sendable`.
public final class CoreTable: Sendable {
    public let name: String
    /// Embedded objects live only inside their parent: deleted with it, never queried alone.
    public let isEmbedded: Bool
    public let columns: [CoreColumn]
    /// The index of the primary key column.
    public let primaryKeyColumn: Int?
    /// The row layout of the stored columns.
    public let layout: RowLayout
    /// Column index by name.
    public let columnIndex: [String: Int]
    /// The tree of the table's clusters (`c:<Table>`).
    public let objectTree: String
    /// The tree of one row per object that files written before clusters have (`o:<Table>`).
    public let legacyRowTree: String
    public let primaryKeyTree: String
    public let backlinkTree: String
    /// Columns with a secondary index tree, in order (computed once: an insert walks these
    /// instead of copying every column's description).
    let indexedColumns: [Int]
    /// Columns whose values must fit an index key: indexed ones, and a primary key kept in a
    /// primary-key tree.
    let indexKeyColumns: [Int]
    /// To-one link columns.
    let linkColumns: [Int]
    /// Per column: fixed-width, stored in the row, without an index tree, links or key role, so
    /// that setting it is a patch of its slot (`StoreTransaction.set`'s one-descent path; read
    /// from here instead of copying the column's description, which retains its strings).
    let plainFixed: [Bool]
    /// Per column: whether it may hold null.
    let nullable: [Bool]

    public init(name: String, isEmbedded: Bool = false, columns: [CoreColumn]) {
        self.name = name
        self.isEmbedded = isEmbedded
        self.columns = columns
        let pk = columns.firstIndex(where: \.isPrimaryKey)
        self.primaryKeyColumn = pk
        self.layout = RowLayout(columns: columns, primaryKeyIsObjectKey: pk.map { columns[$0].type == .int } ?? false ? pk : nil)
        var index: [String: Int] = [:]
        for (i, c) in columns.enumerated() { index[c.name] = i }
        self.columnIndex = index
        self.objectTree = "c:" + name
        self.legacyRowTree = "o:" + name
        self.primaryKeyTree = "p:" + name
        self.backlinkTree = "b:" + name
        let pkIsObjectKey = layout.keyColumn != nil
        indexedColumns = columns.indices.filter { columns[$0].hasIndexTree }
        indexKeyColumns = columns.indices.filter { columns[$0].hasIndexTree || (columns[$0].isPrimaryKey && !pkIsObjectKey) }
        linkColumns = columns.indices.filter { columns[$0].type == .link }
        plainFixed = columns.map { c in !c.isVariable && c.isStored && !c.hasIndexTree && c.type != .link && !c.isPrimaryKey }
        nullable = columns.map(\.isNullable)
    }

    /// Whether the object key is the `Int` primary key itself (no primary-key tree).
    public var primaryKeyIsObjectKey: Bool { layout.keyColumn != nil }

    /// The secondary index tree of column `i`.
    public func indexTree(_ i: Int) -> String { "i:" + name + ":" + columns[i].name }

    /// The encoding of this table's schema in the `s:` tree (FORMAT.md, "Schema catalog").
    public func encoded() -> [UInt8] {
        var out: [UInt8] = [1, isEmbedded ? 1 : 0]
        appendU16(UInt16(columns.count), &out)
        for c in columns {
            appendString(c.name, &out)
            out.append(c.type.rawValue)
            out.append(c.collection.rawValue)
            var flags: UInt8 = 0
            if c.isNullable { flags |= 1 }
            if c.isPrimaryKey { flags |= 2 }
            if c.isIndexed { flags |= 4 }
            out.append(flags)
            appendString(c.targetTable ?? "", &out)
            appendString(c.originProperty ?? "", &out)
        }
        return out
    }

    /// Decodes a table stored by `encoded()`; nil when the bytes are not a table record.
    public static func decode(name: String, _ bytes: UnsafeRawBufferPointer) -> CoreTable? {
        var r = ByteReader(bytes)
        guard let version = r.u8(), version == 1, let embedded = r.u8(), let count = r.u16() else { return nil }
        var columns: [CoreColumn] = []
        for _ in 0..<count {
            guard let cname = r.string(), let t = r.u8(), let type = ColumnType(rawValue: t),
                  let k = r.u8(), let coll = CollectionKind(rawValue: k), let flags = r.u8(),
                  let target = r.string(), let origin = r.string() else { return nil }
            columns.append(CoreColumn(name: cname, type: type, collection: coll, isNullable: flags & 1 != 0,
                                      isPrimaryKey: flags & 2 != 0, isIndexed: flags & 4 != 0,
                                      targetTable: target.isEmpty ? nil : target,
                                      originProperty: origin.isEmpty ? nil : origin))
        }
        return CoreTable(name: name, isEmbedded: embedded == 1, columns: columns)
    }

    /// Whether `other` stores rows the same way (same columns, types and indexes, in order).
    public func sameShape(as other: CoreTable) -> Bool {
        isEmbedded == other.isEmbedded && columns == other.columns
    }
}

func appendU16(_ v: UInt16, _ out: inout [UInt8]) {
    out.append(UInt8(v & 0xFF))
    out.append(UInt8(v >> 8))
}

func appendU32(_ v: UInt32, _ out: inout [UInt8]) {
    withUnsafeBytes(of: v.littleEndian) { out.append(contentsOf: $0) }
}

func appendString(_ s: String, _ out: inout [UInt8]) {
    let bytes = Array(s.utf8)
    appendU32(UInt32(bytes.count), &out)
    out.append(contentsOf: bytes)
}

/// Sequential little-endian reads with bounds checks: every method returns nil past the end.
struct ByteReader {
    let bytes: UnsafeRawBufferPointer
    var offset = 0

    init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    var atEnd: Bool { offset >= bytes.count }

    mutating func u8() -> UInt8? {
        guard offset < bytes.count else { return nil }
        defer { offset += 1 }
        return bytes[offset]
    }

    mutating func u16() -> UInt16? {
        guard offset + 2 <= bytes.count else { return nil }
        defer { offset += 2 }
        return UInt16(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt16.self))
    }

    mutating func u32() -> UInt32? {
        guard offset + 4 <= bytes.count else { return nil }
        defer { offset += 4 }
        return UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
    }

    mutating func u64() -> UInt64? {
        guard offset + 8 <= bytes.count else { return nil }
        defer { offset += 8 }
        return UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }

    mutating func raw(_ n: Int) -> UnsafeRawBufferPointer? {
        guard n >= 0, offset + n <= bytes.count else { return nil }
        defer { offset += n }
        return UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + n])
    }

    mutating func string() -> String? {
        guard let n = u32(), let b = raw(Int(n)) else { return nil }
        return String(decoding: b, as: UTF8.self)
    }
}
