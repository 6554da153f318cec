import PostgresNIO
import StrataCore

/// One column of an upload statement's rows: a one-dimensional PostgreSQL array bound in binary
/// form, so the server reads each value as its column's type without parsing text, and `NULL`
/// elements are allowed (postgres-nio's own array binds have none). The statement reads the
/// columns side by side with `unnest($1, $2, ...)`.
struct SyncArrayBind: PostgresThrowingDynamicTypeEncodable {
    /// How the elements are encoded: the server column's type (Docs/Sync.md, "The data model").
    enum Element {
        case bool, int8, float4, float8, text, bytea, timestamptz, uuid, jsonb
        /// A `numeric` column's values, bound as `text` elements (`numeric`'s text, which reads
        /// exactly) and cast by the statement (`castSuffix`).
        case numeric

        /// The element type's OID.
        var oid: UInt32 {
            switch self {
            case .bool: 16
            case .bytea: 17
            case .int8: 20
            case .text, .numeric: 25
            case .float4: 700
            case .float8: 701
            case .timestamptz: 1184
            case .uuid: 2950
            case .jsonb: 3802
            }
        }

        /// The array type's OID.
        var arrayOID: UInt32 {
            switch self {
            case .bool: 1000
            case .bytea: 1001
            case .int8: 1016
            case .text, .numeric: 1009
            case .float4: 1021
            case .float8: 1022
            case .timestamptz: 1185
            case .uuid: 2951
            case .jsonb: 3807
            }
        }

        /// The array type's name, for the statement's casts.
        var sqlArrayType: String {
            switch self {
            case .bool: "boolean[]"
            case .bytea: "bytea[]"
            case .int8: "bigint[]"
            case .text, .numeric: "text[]"
            case .float4: "real[]"
            case .float8: "double precision[]"
            case .timestamptz: "timestamptz[]"
            case .uuid: "uuid[]"
            case .jsonb: "jsonb[]"
            }
        }

        /// What the statement appends to a column of these elements to give it the server
        /// column's type.
        var castSuffix: String { self == .numeric ? "::numeric" : "" }

        /// The element type of a column of property type `t` (not a collection).
        init(_ t: ColumnType) {
            switch t {
            case .bool: self = .bool
            case .int: self = .int8
            case .float: self = .float4
            case .double: self = .float8
            case .data: self = .bytea
            case .timestamp: self = .timestamptz
            case .uuid: self = .uuid
            case .decimal128: self = .numeric
            default: self = .text
            }
        }
    }

    let element: Element
    /// The elements as the array's binary form has them (a length, then the bytes), in a byte
    /// writer: appending to it is several times cheaper than to a `ByteBuffer` or an `[UInt8]`.
    /// Copied before a write when another bind shares it (value semantics).
    private var elements = SyncByteWriter(capacity: 256)
    private(set) var count: Int32 = 0
    private var hasNull = false

    init(_ element: Element) { self.element = element }

    var psqlType: PostgresDataType { PostgresDataType(element.arrayOID) }
    var psqlFormat: PostgresFormat { .binary }

    /// Microseconds between 1970 and 2000, PostgreSQL's epoch for timestamps.
    private static let postgresEpoch: Int64 = 946_684_800_000_000

    /// The elements' writer, copied first if another bind shares it.
    private mutating func writer() -> SyncByteWriter {
        if !isKnownUniquelyReferenced(&elements) { elements = elements.copy() }
        return elements
    }

    /// Appends a value in wire form (`SyncTable`); `.null` is a `NULL` element. A number of
    /// another width than the column's (an entry queued before a migration changed the
    /// property's type) is converted; any other kind is refused.
    mutating func append(_ value: StoreValue) throws {
        let w = writer()
        let at = w.count
        w.u32BE(0)
        switch (element, value) {
        case (.bool, .bool(let b)): w.u8(b ? 1 : 0)
        case (.int8, .int(let i)): w.u64BE(UInt64(bitPattern: i))
        case (.float4, .float(let f)): w.u32BE(f.bitPattern)
        case (.float4, .double(let d)): w.u32BE(Float(d).bitPattern)
        case (.float4, .int(let i)): w.u32BE(Float(i).bitPattern)
        case (.float8, .double(let d)): w.u64BE(d.bitPattern)
        case (.float8, .float(let f)): w.u64BE(Double(f).bitPattern)
        case (.float8, .int(let i)): w.u64BE(Double(i).bitPattern)
        case (.text, .string(let s)): w.utf8(s)
        case (.text, .objectId(let b)): w.utf8(SyncTable.hex(b))
        case (.bytea, .data(let b)): w.raw(b)
        case (.timestamptz, .timestamp(let s, let n)):
            w.u64BE(UInt64(bitPattern: s &* 1_000_000 &+ Int64(n) / 1000 &- Self.postgresEpoch))
        case (.uuid, .uuid(let b)) where b.count == 16: w.raw(b)
        case (.numeric, .decimal128(let b)):
            guard let text = SyncDecimal.text(b) else {
                w.truncate(to: at)
                throw unsendable(value)
            }
            w.utf8(text)
        case (_, .null):
            w.patchU32BE(UInt32(bitPattern: -1), at: at)
            hasNull = true
            count += 1
            return
        default:
            w.truncate(to: at)
            throw unsendable(value)
        }
        w.patchU32BE(UInt32(w.count - at - 4), at: at)
        count += 1
    }

    private func unsendable(_ value: StoreValue) -> SyncError {
        SyncError(
            .local,
            "An outbox value \(value) cannot be sent as the server's \(element) column: the entry was written for another type of the property."
        )
    }

    /// Appends a `jsonb` element from its JSON text.
    mutating func append(json: String) {
        let w = writer()
        w.u32BE(UInt32(json.utf8.count + 1))
        w.u8(1)  // jsonb's binary form: a version byte, then the text
        w.utf8(json)
        count += 1
    }

    /// Appends a `text` element from its UTF-8 bytes.
    mutating func append(textBytes: [UInt8]) {
        let w = writer()
        w.u32BE(UInt32(textBytes.count))
        w.raw(textBytes)
        count += 1
    }

    func encode<JSONEncoder: PostgresJSONEncoder>(
        into buffer: inout ByteBuffer, context: PostgresEncodingContext<JSONEncoder>
    ) throws {
        // PostgreSQL's binary array: dimensions, has-null flag, element type, then per dimension
        // its length and lower bound, then each element as a length (-1: NULL) and its bytes.
        guard count > 0 else {
            buffer.writeInteger(Int32(0))
            buffer.writeInteger(Int32(0))
            buffer.writeInteger(element.oid)
            return
        }
        buffer.writeInteger(Int32(1))
        buffer.writeInteger(Int32(hasNull ? 1 : 0))
        buffer.writeInteger(element.oid)
        buffer.writeInteger(count)
        buffer.writeInteger(Int32(1))
        buffer.writeBytes(elements.bytes)
    }
}
