import StrataStorage

/// Encodes values into index keys whose byte order (`memcmp`, the storage engine's key order)
/// is the order of the values, so B+tree range scans answer `<`, `>`, `BETWEEN` and
/// `BEGINSWITH` directly. Docs/ObjectStore.md, "Indexes".
///
/// Every key starts with a one-byte type tag, so values of different types never compare equal
/// and `null` sorts first. Variable-length values (strings, data) are escaped and terminated, so
/// a key can be followed by more fields (an index entry is `value ‖ object key`) without a
/// shorter value's entries interleaving with a longer one's:
///
/// | type | encoding |
/// |---|---|
/// | null | `00` |
/// | bool | `01`, then `00` or `01` |
/// | int | `02`, then 8 bytes big-endian with the sign bit flipped |
/// | float, double | `03`, then the double's 8 bytes, big-endian, sign-folded (negative: all bits inverted; else sign bit set); -0.0 as 0.0, NaN after +infinity |
/// | string | `04`, then UTF-8 with `00` written as `00 FF`, then `00 00` |
/// | data | `05`, then bytes escaped like strings, then `00 00` |
/// | timestamp | `06`, then seconds as an int, then nanoseconds as 4 bytes big-endian with the sign bit flipped |
/// | objectId | `07`, then the 12 bytes |
/// | uuid | `08`, then the 16 bytes |
/// | decimal128 | `09`, then the 16 bytes as stored: equality only, not ordered (ordering BID decimals needs decoding) |
/// | link | `0A`, then the object key as an int |
/// | typed link | `0B`, then the table name escaped like a string, then the key as an int |
/// | list, map | `0C`/`0D`, elements (map: escaped key, then value), `00`: never indexed, equality only |
///
/// Floats are widened to doubles, so a `Float` index orders exactly like its values.
package enum IndexKey {
    /// The key of `value` for sorting and `DISTINCT` in memory: as `encode`, except that a
    /// decimal128 is `09` and then `StoreDecimal.orderKey` (its numeric order, equal for equal
    /// values), which index keys on disk do not use.
    package static func encodeForOrdering(_ value: StoreValue, into out: inout [UInt8]) {
        if case .decimal128(let bytes) = value, let decimal = StoreDecimal(bytes: bytes) {
            out.append(0x09)
            out.append(contentsOf: decimal.orderKey)
        } else {
            encode(value, into: &out)
        }
    }

    /// `encodeForOrdering(_:into:)` into a new array.
    package static func encodeForOrdering(_ value: StoreValue) -> [UInt8] {
        var out: [UInt8] = []
        encodeForOrdering(value, into: &out)
        return out
    }

    package static func encode(_ value: StoreValue, into out: inout [UInt8]) {
        switch value {
        case .null:
            out.append(0x00)
        case .bool(let b):
            out.append(0x01)
            out.append(b ? 1 : 0)
        case .int(let i):
            out.append(0x02)
            appendInt(i, &out)
        case .float(let f):
            out.append(0x03)
            appendDouble(Double(f), &out)
        case .double(let d):
            out.append(0x03)
            appendDouble(d, &out)
        case .string(let s):
            out.append(0x04)
            appendEscaped(s.utf8, &out)
        case .data(let d):
            out.append(0x05)
            appendEscaped(d, &out)
        case .timestamp(let seconds, let nanoseconds):
            out.append(0x06)
            appendInt(seconds, &out)
            let n = UInt32(bitPattern: nanoseconds) ^ 0x8000_0000
            withUnsafeBytes(of: n.bigEndian) { out.append(contentsOf: $0) }
        case .objectId(let bytes):
            out.append(0x07)
            out.append(contentsOf: bytes)
        case .uuid(let bytes):
            out.append(0x08)
            out.append(contentsOf: bytes)
        case .decimal128(let bytes):
            out.append(0x09)
            out.append(contentsOf: bytes)
        case .link(let key):
            out.append(0x0A)
            appendInt(key, &out)
        case .typedLink(let table, let key):
            out.append(0x0B)
            appendEscaped(table.utf8, &out)
            appendInt(key, &out)
        case .list(let values):
            // Collections are never indexed; this keeps the encoding total for equality checks.
            out.append(0x0C)
            for v in values { encode(v, into: &out) }
            out.append(0x00)
        case .map(let entries):
            out.append(0x0D)
            for k in entries.keys.sorted() {
                appendEscaped(k.utf8, &out)
                encode(entries[k]!, into: &out)
            }
            out.append(0x00)
        }
    }

    /// The key of one value.
    package static func encode(_ value: StoreValue) -> [UInt8] {
        var out: [UInt8] = []
        encode(value, into: &out)
        return out
    }

    /// An index entry: the value's key followed by the object key, so entries with equal values
    /// are ordered by object key and each entry is unique.
    package static func entry(_ value: StoreValue, objectKey: UInt64) -> [UInt8] {
        var out = encode(value)
        withUnsafeBytes(of: objectKey.bigEndian) { out.append(contentsOf: $0) }
        return out
    }

    /// The range of index entries whose value is exactly `value`: `[lower, upper)`.
    package static func range(equalTo value: StoreValue) -> (lower: [UInt8], upper: [UInt8]) {
        let key = encode(value)
        var upper = key
        upper.append(contentsOf: [UInt8](repeating: 0xFF, count: 9))
        return (key, upper)
    }

    @inline(__always)
    static func appendInt(_ i: Int64, _ out: inout [UInt8]) {
        let u = UInt64(bitPattern: i) ^ 0x8000_0000_0000_0000
        withUnsafeBytes(of: u.bigEndian) { out.append(contentsOf: $0) }
    }

    @inline(__always)
    static func appendDouble(_ d: Double, _ out: inout [UInt8]) {
        let value = d == 0 ? 0.0 : d  // -0.0 and 0.0 are equal values
        var bits = value.bitPattern
        if value.isNaN { bits = 0x7FF8_0000_0000_0000 }  // one NaN, after +infinity
        bits = bits & 0x8000_0000_0000_0000 != 0 ? ~bits : bits | 0x8000_0000_0000_0000
        withUnsafeBytes(of: bits.bigEndian) { out.append(contentsOf: $0) }
    }

    @inline(__always)
    static func appendEscaped<C: Sequence>(_ bytes: C, _ out: inout [UInt8]) where C.Element == UInt8 {
        for b in bytes {
            out.append(b)
            if b == 0 { out.append(0xFF) }
        }
        out.append(0x00)
        out.append(0x00)
    }
}
