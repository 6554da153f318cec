import Foundation
internal import StrataCore
internal import StrataStorage

// Conversions between the API layer's values (`PropertyValue`, `Date`, `ObjectId`, ...) and the
// object store's `StoreValue`.

extension Date {
    /// Seconds and nanoseconds since 1970, both with the sign of the interval (Realm's Timestamp).
    var strataTimestamp: StoreValue {
        let t = timeIntervalSince1970
        let seconds = t.rounded(.towardZero)
        var nanos = ((t - seconds) * 1e9).rounded()
        var s = Int64(seconds)
        if nanos >= 1e9 { s += 1; nanos -= 1e9 }
        if nanos <= -1e9 { s -= 1; nanos += 1e9 }
        return .timestamp(seconds: s, nanoseconds: Int32(nanos))
    }

    init(strataSeconds seconds: Int64, nanoseconds: Int32) {
        self.init(timeIntervalSince1970: Double(seconds) + Double(nanoseconds) / 1e9)
    }
}

extension Decimal128 {
    /// 16 bytes: the significand's low 64 bits, then sign (bit 127), biased exponent (bits 113-126)
    /// and the significand's high 49 bits, little-endian.
    /// NaN and the infinities are IEEE 754's BID encodings: bits 58-62 all set for NaN,
    /// `11110` for an infinity (a biased exponent no finite value has), significand zero.
    package var strataBytes: [UInt8] {
        let low = UInt64(truncatingIfNeeded: significand)
        let highSig = UInt64(truncatingIfNeeded: significand >> 64) & ((1 << 49) - 1)
        var high = (isNegative ? 1 << 63 : 0) | (UInt64(exponent + 6176) << 49) | highSig
        switch kind {
        case .nan: high = 0x7C00_0000_0000_0000
        case .infinity: high = (isNegative ? 1 << 63 : 0) | 0x7800_0000_0000_0000
        case .finite: break
        }
        var out: [UInt8] = []
        withUnsafeBytes(of: low.littleEndian) { out.append(contentsOf: $0) }
        withUnsafeBytes(of: high.littleEndian) { out.append(contentsOf: $0) }
        return out
    }

    package init?(strataBytes b: [UInt8]) {
        guard b.count == 16 else { return nil }
        let low = b.withUnsafeBytes { UInt64(littleEndian: $0.loadUnaligned(as: UInt64.self)) }
        let high = b.withUnsafeBytes { UInt64(littleEndian: $0.loadUnaligned(fromByteOffset: 8, as: UInt64.self)) }
        switch (high >> 58) & 0x1F {
        case 0x1F: self = .nan; return
        case 0x1E: self.init(special: .infinity, negative: high >> 63 == 1); return
        default: break
        }
        let sig = (UInt128(high & ((1 << 49) - 1)) << 64) | UInt128(low)
        let exponent = Int((high >> 49) & 0x3FFF) - 6176
        self.init(isNegative: high >> 63 == 1, significand: sig, exponent: exponent)
    }
}

extension UUID {
    var strataBytes: [UInt8] { withUnsafeBytes(of: uuid) { Array($0) } }

    init?(strataBytes b: [UInt8]) {
        guard b.count == 16 else { return nil }
        self = UUID(
            uuid: (b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15])
        )
    }
}

/// The store's form of a scalar `PropertyValue`; nil for objects and collections, which need a
/// realm to convert (see `Realm.coreValue(_:for:)`).
@inline(__always)
func coreScalar(_ value: PropertyValue) -> StoreValue? {
    switch value {
    case .null: .null
    case .bool(let b): .bool(b)
    case .int(let i): .int(i)
    case .float(let f): .float(f)
    case .double(let d): .double(d)
    case .string(let s): .string(s)
    case .data(let d): .data([UInt8](d))
    case .date(let d): d.strataTimestamp
    case .decimal128(let d): .decimal128(d.strataBytes)
    case .objectId(let o): .objectId(o.bytes)
    case .uuid(let u): .uuid(u.strataBytes)
    case .object, .list, .set, .map, .linkingObjects: nil
    }
}

/// The `PropertyValue` of a scalar `StoreValue` stored in a column of `type`; nil for links and
/// collections.
func propertyScalar(_ value: StoreValue) -> PropertyValue? {
    switch value {
    case .null: .null
    case .bool(let b): .bool(b)
    case .int(let i): .int(i)
    case .float(let f): .float(f)
    case .double(let d): .double(d)
    case .string(let s): .string(s)
    case .data(let d): .data(Data(d))
    case .timestamp(let s, let ns): .date(Date(strataSeconds: s, nanoseconds: ns))
    case .decimal128(let b): Decimal128(strataBytes: b).map { .decimal128($0) }
    case .objectId(let b): ObjectId(bytes: b).map { .objectId($0) }
    case .uuid(let b): UUID(strataBytes: b).map { .uuid($0) }
    case .link, .typedLink, .list, .map: nil
    }
}
