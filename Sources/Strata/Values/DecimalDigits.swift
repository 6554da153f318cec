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
