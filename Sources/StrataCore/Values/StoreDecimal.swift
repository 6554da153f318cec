/// A `Decimal128` as the store holds it (FORMAT.md, "Values": IEEE 754-2008 decimal128 with a
/// binary integer significand, 16 bytes little-endian), read for comparison by value.
///
/// The order is total, as `Decimal128`'s `Comparable` in the Strata module: NaN, negative
/// infinity, the finite values by numeric value, positive infinity. Encodings of one number
/// compare equal (`0.10` and `0.1`, `-0` and `0`), and NaN equals NaN, so queries, sorting and
/// aggregates agree with what Swift code comparing the values sees.
package struct StoreDecimal {
    private enum Rank: Int { case nan = 0, negativeInfinity, finite, positiveInfinity }

    private let rank: Rank
    private let isNegative: Bool
    private let significand: UInt128
    private let exponent: Int

    /// The value `bytes` holds; nil unless there are 16 of them.
    package init?(bytes: [UInt8]) {
        guard bytes.count == 16 else { return nil }
        let low = bytes.withUnsafeBytes { UInt64(littleEndian: $0.loadUnaligned(as: UInt64.self)) }
        let high = bytes.withUnsafeBytes { UInt64(littleEndian: $0.loadUnaligned(fromByteOffset: 8, as: UInt64.self)) }
        let negative = high >> 63 == 1
        switch (high >> 58) & 0x1F {
        case 0x1F:
            (rank, isNegative, significand, exponent) = (.nan, false, 0, 0)
        case 0x1E:
            (rank, isNegative, significand, exponent) = (
                negative ? .negativeInfinity : .positiveInfinity, negative, 0, 0
            )
        default:
            let s = (UInt128(high & ((1 << 49) - 1)) << 64) | UInt128(low)
            // Zero has no sign in the order.
            (rank, isNegative, significand, exponent) = (
                .finite, s != 0 && negative, s, Int((high >> 49) & 0x3FFF) - 6176
            )
        }
    }

    /// The decimal equal to `value`.
    package init(_ value: Int64) {
        rank = .finite
        isNegative = value < 0
        significand = UInt128(value.magnitude)
        exponent = 0
    }

    /// The store's 16 bytes of this value.
    package var bytes: [UInt8] {
        var high = (isNegative ? 1 << 63 : 0) | (UInt64(exponent + 6176) << 49)
        high |= UInt64(truncatingIfNeeded: significand >> 64) & ((1 << 49) - 1)
        switch rank {
        case .nan: high = 0x7C00_0000_0000_0000
        case .negativeInfinity: high = 0xF800_0000_0000_0000
        case .positiveInfinity: high = 0x7800_0000_0000_0000
        case .finite: break
        }
        var out: [UInt8] = []
        out.reserveCapacity(16)
        withUnsafeBytes(of: UInt64(truncatingIfNeeded: significand).littleEndian) { out.append(contentsOf: $0) }
        withUnsafeBytes(of: high.littleEndian) { out.append(contentsOf: $0) }
        return out
    }

    /// Bytes whose order (`memcmp`) is this order, equal for equal values: a class byte (NaN,
    /// negative infinity, negative, zero, positive, positive infinity), then for a nonzero finite
    /// value the exponent of its most significant digit and its digits left-aligned to 35 places
    /// (both big-endian; inverted when negative).
    package var orderKey: [UInt8] {
        switch rank {
        case .nan: return [0]
        case .negativeInfinity: return [1]
        case .positiveInfinity: return [5]
        case .finite: break
        }
        if significand == 0 { return [3] }
        var s = significand
        var e = exponent
        while s % 10 == 0 {
            s /= 10
            e += 1
        }
        let digits = Self.digitCount(s)
        for _ in digits..<35 { s *= 10 }
        let adjusted = UInt16(truncatingIfNeeded: e + digits - 1 + 10_000)
        var out: [UInt8] = [isNegative ? 2 : 4]
        out.reserveCapacity(19)
        withUnsafeBytes(of: adjusted.bigEndian) { out.append(contentsOf: $0) }
        withUnsafeBytes(of: UInt64(truncatingIfNeeded: s >> 64).bigEndian) { out.append(contentsOf: $0) }
        withUnsafeBytes(of: UInt64(truncatingIfNeeded: s).bigEndian) { out.append(contentsOf: $0) }
        if isNegative {
            for i in 1..<out.count { out[i] = ~out[i] }
        }
        return out
    }

    /// The order of the values two encodings hold (negative, zero or positive); nil when either
    /// is not 16 bytes.
    package static func compare(_ a: [UInt8], _ b: [UInt8]) -> Int? {
        guard let x = StoreDecimal(bytes: a), let y = StoreDecimal(bytes: b) else { return nil }
        return x.compare(y)
    }

    /// The order of `self` and `other`: negative, zero or positive.
    package func compare(_ other: StoreDecimal) -> Int {
        if rank != other.rank { return rank.rawValue < other.rank.rawValue ? -1 : 1 }
        guard rank == .finite else { return 0 }
        if isNegative != other.isNegative { return isNegative ? -1 : 1 }
        let magnitude = Self.compareMagnitude(significand, exponent, other.significand, other.exponent)
        return isNegative ? -magnitude : magnitude
    }

    /// The order of `s1 * 10^e1` and `s2 * 10^e2` (negative, zero or positive).
    package static func compareMagnitude(_ s1: UInt128, _ e1: Int, _ s2: UInt128, _ e2: Int) -> Int {
        if s1 == 0 || s2 == 0 { return s1 == s2 ? 0 : (s1 == 0 ? -1 : 1) }
        let d1 = digitCount(s1), d2 = digitCount(s2)
        // The position of the most significant digit first, then the digits aligned (at most 35
        // digits: below 2^117).
        if d1 + e1 != d2 + e2 { return d1 + e1 < d2 + e2 ? -1 : 1 }
        var a = s1, b = s2
        for _ in d1..<max(d1, d2) { a *= 10 }
        for _ in d2..<max(d1, d2) { b *= 10 }
        return a < b ? -1 : (a == b ? 0 : 1)
    }

    private static func digitCount(_ value: UInt128) -> Int {
        var count = 1
        var v = value
        while v >= 10 {
            v /= 10
            count += 1
        }
        return count
    }
}
