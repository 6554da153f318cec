/// A constant written in the query text.
///
/// ## Concurrency
/// A value type with no shared state: use it from any thread, actor or task.
public enum QueryLiteral: Sendable, Equatable, Hashable {
    /// An integer: `42`, `-7`, `0x1F`. Must fit in `Int64`.
    case int(Int64)
    /// A floating-point number: `1.5`, `-2e3`, `inf`, `-infinity`, `nan` (any case).
    case double(Double)
    /// A string in single or double quotes, with its escapes resolved.
    case string(String)
    /// `true` or `false` (any case).
    case bool(Bool)
    /// `nil`, `NULL` or `null` (any case).
    case null
    /// `oid(507f1f77bcf86cd799439011)`: an ObjectId's 12 bytes.
    case objectId([UInt8])
    /// `uuid(137ecc3b-1b8a-4c2a-9d3e-7a1b2c3d4e5f)`: a UUID's 16 bytes.
    case uuid([UInt8])
    /// `T1700000000:500` or `2023-11-14@22:13:20:500`: a date as seconds and nanoseconds since
    /// 1970 in UTC, both with the sign of the interval.
    case timestamp(seconds: Int64, nanoseconds: Int32)
    /// `B64"aGVsbG8="`: bytes written in base64.
    case data([UInt8])
}
