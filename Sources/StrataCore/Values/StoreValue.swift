import StrataStorage

/// A property value as the object store sees it: the storage-level twin of the `Strata` types
/// (`ObjectId`, `UUID`, `Date`, `Decimal128` become raw bytes and numbers here, so this layer does
/// not depend on the API layer).
///
/// ## Concurrency
/// A value type; `Sendable`.
package enum StoreValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case int(Int64)
    case float(Float)
    case double(Double)
    case string(String)
    case data([UInt8])
    /// Seconds and nanoseconds since 1970 (nanoseconds in 0..<1_000_000_000, same sign rules as Realm's Timestamp).
    case timestamp(seconds: Int64, nanoseconds: Int32)
    /// The 12 bytes of an ObjectId.
    case objectId([UInt8])
    /// The 16 bytes of a UUID.
    case uuid([UInt8])
    /// The 16 bytes of a Decimal128 (IEEE 754-2008, BID encoding).
    case decimal128([UInt8])
    /// A link to the object with this key in the table the column names (to-one links, list
    /// elements of an object list).
    case link(Int64)
    /// A link that names its table: an object held by an `AnyRealmValue`.
    case typedLink(table: String, key: Int64)
    /// The elements of a list or set, in order.
    case list([StoreValue])
    /// The entries of a map.
    case map([String: StoreValue])

    /// Whether this is `.null`.
    @inlinable package var isNull: Bool {
        if case .null = self { return true }
        return false
    }
}
