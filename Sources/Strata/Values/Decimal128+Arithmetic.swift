/// Arithmetic on `Decimal128`, as RealmSwift's: `+`, `-`, `*`, `/`, `magnitude`, `min`/`max`,
/// `distance(to:)` and `advanced(by:)`.
///
/// Each operation computes the exact result and rounds it to 34 significant digits, half to
/// even (IEEE 754's default). An exact result keeps IEEE's preferred exponent: `1.10 + 2.20` is
/// `3.30`, `1.5 * 2` is `3.0`, `6 / 2` is `3`. A result too large for the exponent range is an
/// infinity of its sign; one too small rounds towards zero digits. NaN in, NaN out; `0 / 0`,
/// `inf - inf` and `0 * inf` are NaN; `x / 0` is an infinity of the quotient's sign.
extension Decimal128: AdditiveArithmetic {
    /// The type of `distance(to:)` (RealmSwift's name).
    public typealias Stride = Decimal128
    /// The type of `magnitude` (RealmSwift's name).
    public typealias Magnitude = Decimal128

    /// The largest finite value: 34 nines times 10^6111.
    public static var max: Decimal128 {
        Decimal128(uncheckedNegative: false, significand: maxSignificand, exponent: exponentRange.upperBound)
    }

    /// The smallest (most negative) finite value: `-max`.
    public static var min: Decimal128 {
        Decimal128(uncheckedNegative: true, significand: maxSignificand, exponent: exponentRange.upperBound)
    }

    /// Zero.
    public static var zero: Decimal128 { Decimal128() }

    /// The absolute value.
    public var magnitude: Decimal128 {
        switch kind {
        case .nan: self
        case .infinity: .infinity
        case .finite: Decimal128(uncheckedNegative: false, significand: significand, exponent: exponent)
        }
    }

    /// The value with its sign flipped.
    public static prefix func - (value: Decimal128) -> Decimal128 {
        switch value.kind {
        case .nan: value
        case .infinity: Decimal128(special: .infinity, negative: !value.isNegative)
        case .finite:
            Decimal128(uncheckedNegative: !value.isNegative, significand: value.significand, exponent: value.exponent)
        }
    }

    /// The sum, rounded to 34 significant digits.
    public static func + (lhs: Decimal128, rhs: Decimal128) -> Decimal128 {
        if lhs.isNaN || rhs.isNaN { return .nan }
        if lhs.isInfinite || rhs.isInfinite {
            if lhs.isInfinite && rhs.isInfinite && lhs.isNegative != rhs.isNegative { return .nan }
            return lhs.isInfinite ? lhs : rhs
        }
        var a = DecimalDigits(lhs), b = DecimalDigits(rhs)
        // An addend far below the other's last kept digit only matters for rounding: replace it by
        // one digit just below that position (keeping its sign), so the digit arrays stay short.
        let limit = 40
        if a.top - b.top > limit, !b.isZero {
            b = DecimalDigits(negative: b.negative, digits: [1], exponent: a.top - limit)
        }
        if b.top - a.top > limit, !a.isZero {
            a = DecimalDigits(negative: a.negative, digits: [1], exponent: b.top - limit)
        }
        let e = Swift.min(a.exponent, b.exponent)
        let x = a.digits + [UInt8](repeating: 0, count: a.exponent - e)
        let y = b.digits + [UInt8](repeating: 0, count: b.exponent - e)
        if a.negative == b.negative {
            return DecimalDigits(negative: a.negative, digits: DecimalDigits.add(x, y), exponent: e).rounded()
        }
        // Opposite signs: subtract the smaller magnitude from the larger.
        let order = DecimalDigits.compare(x, y)
        if order == 0 { return Decimal128(uncheckedNegative: false, significand: 0, exponent: e).clampedZero() }
        let (big, small, negative) = order > 0 ? (x, y, a.negative) : (y, x, b.negative)
        return DecimalDigits(negative: negative, digits: DecimalDigits.subtract(big, small), exponent: e).rounded()
    }

    /// The difference, rounded to 34 significant digits.
    public static func - (lhs: Decimal128, rhs: Decimal128) -> Decimal128 {
        lhs + (-rhs)
    }

    /// The product, rounded to 34 significant digits.
    public static func * (lhs: Decimal128, rhs: Decimal128) -> Decimal128 {
        if lhs.isNaN || rhs.isNaN { return .nan }
        let negative = lhs.isNegative != rhs.isNegative
        if lhs.isInfinite || rhs.isInfinite {
            if (lhs.isFinite && lhs.significand == 0) || (rhs.isFinite && rhs.significand == 0) { return .nan }
            return Decimal128(special: .infinity, negative: negative)
        }
        let a = DecimalDigits(lhs), b = DecimalDigits(rhs)
        return DecimalDigits(
            negative: negative, digits: DecimalDigits.multiply(a.digits, b.digits), exponent: a.exponent + b.exponent
        ).rounded()
    }

    /// The quotient, rounded to 34 significant digits.
    public static func / (lhs: Decimal128, rhs: Decimal128) -> Decimal128 {
        if lhs.isNaN || rhs.isNaN { return .nan }
        let negative = lhs.isNegative != rhs.isNegative
        if lhs.isInfinite {
            return rhs.isInfinite ? .nan : Decimal128(special: .infinity, negative: negative)
        }
        if rhs.isInfinite { return Decimal128(uncheckedNegative: negative, significand: 0, exponent: 0) }
        if rhs.significand == 0 {
            return lhs.significand == 0 ? .nan : Decimal128(special: .infinity, negative: negative)
        }
        let ideal = lhs.exponent - rhs.exponent
        if lhs.significand == 0 {
            return Decimal128(uncheckedNegative: negative, significand: 0, exponent: ideal).clampedZero()
        }
        // Long division, one decimal digit at a time: the remainder stays below the divisor
        // (< 10^34), so remainder * 10 + digit fits in 128 bits.
        let divisor = rhs.significand
        var dividend = DecimalDigits(lhs).digits
        var exponent = ideal
        var quotient: [UInt8] = []
        var remainder: UInt128 = 0
        var index = 0
        while true {
            let digit: UInt8
            if index < dividend.count {
                digit = dividend[index]
            } else {
                if remainder == 0 || quotient.count > 36 { break }
                dividend.append(0)
                digit = 0
                exponent -= 1
            }
            index += 1
            remainder = remainder * 10 + UInt128(digit)
            let q = remainder / divisor
            remainder -= q * divisor
            // Leading zeros of the quotient are not kept: the digit count limits significant digits.
            if !quotient.isEmpty || q != 0 { quotient.append(UInt8(q)) }
        }
        // A non-zero remainder is a digit below the last: it only breaks ties when rounding.
        if remainder != 0 {
            quotient.append(1)
            exponent -= 1
        }
        var result = DecimalDigits(negative: negative, digits: quotient, exponent: exponent)
        // An exact quotient takes the preferred exponent when the digits allow (6 / 2 = 3).
        if remainder == 0 {
            while result.exponent < ideal, result.digits.count > 1, result.digits.last == 0 {
                result.digits.removeLast()
                result.exponent += 1
            }
        }
        return result.rounded()
    }

    /// Adds `rhs` to `lhs`.
    public static func += (lhs: inout Decimal128, rhs: Decimal128) { lhs = lhs + rhs }
    /// Subtracts `rhs` from `lhs`.
    public static func -= (lhs: inout Decimal128, rhs: Decimal128) { lhs = lhs - rhs }
    /// Multiplies `lhs` by `rhs`.
    public static func *= (lhs: inout Decimal128, rhs: Decimal128) { lhs = lhs * rhs }
    /// Divides `lhs` by `rhs`.
    public static func /= (lhs: inout Decimal128, rhs: Decimal128) { lhs = lhs / rhs }

    /// `other - self`.
    public func distance(to other: Decimal128) -> Decimal128 { other - self }

    /// `self + n`.
    public func advanced(by n: Decimal128) -> Decimal128 { self + n }

    /// A zero keeps its exponent only inside the range.
    fileprivate func clampedZero() -> Decimal128 {
        let e = Swift.max(Self.exponentRange.lowerBound, Swift.min(Self.exponentRange.upperBound, exponent))
        return Decimal128(uncheckedNegative: false, significand: 0, exponent: e)
    }
}

/// A finite decimal as an array of digits (most significant first) and an exponent: the exact
/// intermediate form of `Decimal128` arithmetic before rounding.
struct DecimalDigits {
    var negative: Bool
    var digits: [UInt8]
    var exponent: Int

    init(negative: Bool, digits: [UInt8], exponent: Int) {
        self.negative = negative
        self.digits = digits
        self.exponent = exponent
    }

    init(_ d: Decimal128) {
        negative = d.isNegative
        digits = String(d.significand).utf8.map { $0 - UInt8(ascii: "0") }
        exponent = d.exponent
    }

    var isZero: Bool { digits.allSatisfy { $0 == 0 } }

    /// The position just above the most significant digit.
    var top: Int { exponent + digits.count }

    /// The nearest `Decimal128`: 34 significant digits at most (half to even), the exponent
    /// brought into range (an infinity when too large).
    func rounded() -> Decimal128 {
        var digits = self.digits
        var exponent = self.exponent
        while digits.count > 1, digits.first == 0 { digits.removeFirst() }
        // Digits to drop: beyond 34 significant ones, and below the smallest exponent.
        var drop = Swift.max(0, digits.count - 34)
        drop = Swift.max(drop, Decimal128.exponentRange.lowerBound - exponent)
        if drop > 0 {
            if drop > digits.count {
                return Decimal128(uncheckedNegative: negative, significand: 0, exponent: exponent + drop)
            }
            let kept = Array(digits[..<(digits.count - drop)])
            let dropped = digits[(digits.count - drop)...]
            let first = dropped.first!
            let restNonZero = dropped.dropFirst().contains { $0 != 0 }
            let lastKept = kept.last ?? 0
            let roundUp = first > 5 || (first == 5 && (restNonZero || lastKept % 2 == 1))
            digits = kept.isEmpty ? [0] : kept
            exponent += drop
            if roundUp {
                digits = Self.add(digits, [1])
                if digits.count > 34 {
                    // 99...9 rounded up to 100...0: one digit more than allowed.
                    digits.removeLast()
                    exponent += 1
                }
            }
        }
        // Too large an exponent: trade it for trailing zeros while the digits allow.
        while exponent > Decimal128.exponentRange.upperBound, digits.count < 34, !(digits.count == 1 && digits[0] == 0)
        {
            digits.append(0)
            exponent -= 1
        }
        let significand = digits.reduce(UInt128(0)) { $0 * 10 + UInt128($1) }
        if exponent > Decimal128.exponentRange.upperBound {
            if significand == 0 {
                return Decimal128(
                    uncheckedNegative: false, significand: 0, exponent: Decimal128.exponentRange.upperBound)
            }
            return Decimal128(special: .infinity, negative: negative)
        }
        return Decimal128(uncheckedNegative: negative, significand: significand, exponent: exponent)
    }

    /// `x + y` for digit arrays of any lengths (aligned at the last digit).
    static func add(_ x: [UInt8], _ y: [UInt8]) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: Swift.max(x.count, y.count) + 1)
        var carry: UInt8 = 0
        var i = x.count - 1, j = y.count - 1, k = out.count - 1
        while k >= 0 {
            var sum = carry
            if i >= 0 { sum += x[i] }
            if j >= 0 { sum += y[j] }
            out[k] = sum % 10
            carry = sum / 10
            i -= 1
            j -= 1
            k -= 1
        }
        while out.count > 1, out.first == 0 { out.removeFirst() }
        return out
    }

    /// `x - y` for `x >= y` (aligned at the last digit).
    static func subtract(_ x: [UInt8], _ y: [UInt8]) -> [UInt8] {
        var out = x
        var borrow: Int = 0
        var j = y.count - 1
        for i in stride(from: x.count - 1, through: 0, by: -1) {
            var d = Int(x[i]) - borrow - (j >= 0 ? Int(y[j]) : 0)
            borrow = 0
            if d < 0 {
                d += 10
                borrow = 1
            }
            out[i] = UInt8(d)
            j -= 1
        }
        while out.count > 1, out.first == 0 { out.removeFirst() }
        return out
    }

    /// Compares digit arrays aligned at the last digit: -1, 0 or 1.
    static func compare(_ x: [UInt8], _ y: [UInt8]) -> Int {
        let a = Array(x.drop { $0 == 0 }), b = Array(y.drop { $0 == 0 })
        if a.count != b.count { return a.count < b.count ? -1 : 1 }
        for (p, q) in zip(a, b) where p != q { return p < q ? -1 : 1 }
        return 0
    }

    /// `x * y`, schoolbook.
    static func multiply(_ x: [UInt8], _ y: [UInt8]) -> [UInt8] {
        var acc = [Int](repeating: 0, count: x.count + y.count)
        for i in stride(from: x.count - 1, through: 0, by: -1) {
            for j in stride(from: y.count - 1, through: 0, by: -1) {
                acc[i + j + 1] += Int(x[i]) * Int(y[j])
            }
        }
        for k in stride(from: acc.count - 1, to: 0, by: -1) {
            acc[k - 1] += acc[k] / 10
            acc[k] %= 10
        }
        var out = acc.map { UInt8($0) }
        while out.count > 1, out.first == 0 { out.removeFirst() }
        return out
    }
}
