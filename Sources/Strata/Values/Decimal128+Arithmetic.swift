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
