internal import StrataCore

/// A 128-bit decimal floating-point number (IEEE 754-2008 decimal128 range: up to 34 significant
/// digits, exponents -6176...6111), for amounts that must not suffer binary rounding.
///
/// ```swift
/// final class Invoice: Object {
///     @Persisted var total: Decimal128 = "19.99"
/// }
/// let price = try Decimal128(string: "0.10")
/// price == (try Decimal128(string: "0.1"))   // true: equality compares values
/// price * 3 / 2                               // 0.15 (results are rounded to 34 digits)
/// ```
///
/// Values are stored, compared, parsed and printed exactly; a string with more than 34
/// significant digits is rejected rather than rounded. Arithmetic (`+ - * /`) rounds its result
/// to 34 significant digits (half to even), as IEEE 754 does; a result beyond the exponent range
/// is an infinity, and `0 / 0` is NaN (`isNaN`). As in RealmSwift, NaN equals NaN and sorts
/// before every number, so that sorting and queries have one order.
///
/// ## Concurrency
/// A value type; `Sendable`.
public struct Decimal128: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// True for negative values (and negative infinity).
    public let isNegative: Bool
    /// The coefficient, below 10^34 (0 for NaN and infinities).
    public let significand: UInt128
    /// The power of ten the coefficient is multiplied by (0 for NaN and infinities).
    public let exponent: Int
    /// Whether the value is a number, NaN or an infinity.
    let kind: Kind

    /// The kinds of value besides finite numbers.
    enum Kind: UInt8, Sendable {
        case finite, nan, infinity
    }

    /// Not a number (the result of `0 / 0`, or the string "NaN").
    public static let nan = Decimal128(special: .nan, negative: false)
    /// Positive infinity (the result of a positive number divided by zero, or of an overflow).
    public static let infinity = Decimal128(special: .infinity, negative: false)

    /// Whether the value is NaN.
    public var isNaN: Bool { kind == .nan }
    /// Whether the value is NaN; every NaN is signaling here, as in RealmSwift.
    public var isSignaling: Bool { isNaN }
    /// Whether the value is NaN (RealmSwift's name).
    public var isSignalingNaN: Bool { isNaN }
    /// Whether the value is positive or negative infinity.
    public var isInfinite: Bool { kind == .infinity }
    /// Whether the value is a number (not NaN, not infinite).
    public var isFinite: Bool { kind == .finite }

    init(special: Kind, negative: Bool) {
        self.kind = special
        self.isNegative = special == .infinity && negative
        self.significand = 0
        self.exponent = 0
    }

    static let maxSignificand: UInt128 = 9_999_999_999_999_999_999_999_999_999_999_999
    static let exponentRange = -6176...6111

    /// Zero.
    public init() {
        self.init(uncheckedNegative: false, significand: 0, exponent: 0)
    }

    /// The exact value of `value`.
    public init(_ value: Int) {
        self.init(uncheckedNegative: value < 0, significand: UInt128(value.magnitude), exponent: 0)
    }

    /// The shortest decimal that reads back as `value` (so `Decimal128(0.1)` is exactly 0.1);
    /// NaN and the infinities convert to their Decimal128 counterparts.
    public init(_ value: Double) {
        if value.isNaN {
            self = .nan
        } else if value.isInfinite {
            self.init(special: .infinity, negative: value < 0)
        } else {
            // Swift prints the shortest round-tripping form, at most 17 significant digits.
            self = Decimal128(parsing: "\(value)") ?? .nan
        }
    }

    /// `sign × significand × 10^exponent`; nil when out of range.
    public init?(isNegative: Bool, significand: UInt128, exponent: Int) {
        guard significand <= Self.maxSignificand, Self.exponentRange.contains(exponent) else { return nil }
        self.init(uncheckedNegative: isNegative, significand: significand, exponent: exponent)
    }

    init(uncheckedNegative: Bool, significand: UInt128, exponent: Int) {
        self.isNegative = uncheckedNegative && significand != 0
        self.significand = significand
        self.exponent = exponent
        self.kind = .finite
    }

    /// Parses `-12.50`, `1e-3`, `+7E+2`, `NaN`, `Inf`, `-Infinity`, as RealmSwift's
    /// `init(string:)`.
    /// - Throws: `Realm.Error` with code `.invalidInput` naming the string when it is not a
    ///   decimal number, or has more than 34 significant digits (it would be rounded).
    public init(string: String) throws(Realm.Error) {
        guard let parsed = Decimal128(parsing: string) else {
            throw Realm.Error(
                .invalidInput,
                "Invalid Decimal128 string '\(string)': expected digits with an optional sign, '.' and exponent (such as -12.50 or 1.5E+40), at most 34 significant digits, or NaN/Inf."
            )
        }
        self = parsed
    }

    /// `init(string:)` without the error: nil when `string` is not a Decimal128.
    init?(parsing string: String) {
        var scalars = Substring(string.trimmingCharacters(in: .whitespaces))
        var negative = false
        if let first = scalars.first, first == "-" || first == "+" {
            negative = first == "-"
            scalars = scalars.dropFirst()
        }
        switch scalars.lowercased() {
        case "nan": self = .nan; return
        case "inf", "infinity": self.init(special: .infinity, negative: negative); return
        default: break
        }
        var mantissa = scalars
        var exponent = 0
        if let e = scalars.firstIndex(where: { $0 == "e" || $0 == "E" }) {
            mantissa = scalars[..<e]
            guard let parsed = Int(scalars[scalars.index(after: e)...]), abs(parsed) < 100_000 else { return nil }
            exponent = parsed
        }
        var digits: [UInt8] = []
        var seenPoint = false
        for character in mantissa {
            if character == "." {
                guard !seenPoint else { return nil }
                seenPoint = true
            } else if let digit = character.wholeNumberValue, character.isASCII {
                digits.append(UInt8(digit))
                if seenPoint { exponent -= 1 }
            } else {
                return nil
            }
        }
        guard !digits.isEmpty else { return nil }
        // Leading zeros carry nothing; trailing zeros beyond 34 digits move into the exponent.
        while digits.count > 1, digits.first == 0 { digits.removeFirst() }
        while digits.count > 34, digits.last == 0 {
            digits.removeLast()
            exponent += 1
        }
        guard digits.count <= 34 else { return nil }
        let significand = digits.reduce(UInt128(0)) { $0 * 10 + UInt128($1) }
        self.init(isNegative: negative, significand: significand, exponent: exponent)
    }

    /// The value with trailing zeros moved into the exponent (zero is `0e0`).
    var normalized: (negative: Bool, significand: UInt128, exponent: Int) {
        if significand == 0 { return (false, 0, 0) }
        var s = significand
        var e = exponent
        while s % 10 == 0 {
            s /= 10
            e += 1
        }
        return (isNegative, s, e)
    }

    /// Value equality: `0.10 == 0.1`; NaN equals NaN (as in RealmSwift, so that queries and
    /// sorting have one order).
    public static func == (lhs: Decimal128, rhs: Decimal128) -> Bool {
        lhs.kind == rhs.kind && lhs.isNegative == rhs.isNegative && lhs.normalized == rhs.normalized
    }

    /// Hashes the value, so equal values hash alike whatever their trailing zeros.
    public func hash(into hasher: inout Hasher) {
        let n = normalized
        hasher.combine(kind)
        hasher.combine(n.negative)
        hasher.combine(n.significand)
        hasher.combine(n.exponent)
    }

    /// Numeric order; NaN sorts before every number, and the infinities at the ends.
    public static func < (lhs: Decimal128, rhs: Decimal128) -> Bool {
        if lhs.kind != .finite || rhs.kind != .finite { return specialRank(lhs) < specialRank(rhs) }
        let a = lhs.normalized, b = rhs.normalized
        if a.negative != b.negative { return a.negative }
        let magnitudeLess = StoreDecimal.compareMagnitude(a.significand, a.exponent, b.significand, b.exponent) < 0
        let magnitudeEqual = a == b
        return a.negative ? (!magnitudeLess && !magnitudeEqual) : magnitudeLess
    }

    /// The order of values when one is not finite: NaN, -inf, finite numbers, +inf.
    private static func specialRank(_ d: Decimal128) -> Int {
        switch d.kind {
        case .nan: 0
        case .infinity: d.isNegative ? 1 : 4
        case .finite: d.isNegative ? 2 : 3
        }
    }

    /// Plain notation (`-12.5`, `0.001`) for moderate exponents, else scientific (`1.5E+40`).
    public var description: String {
        switch kind {
        case .nan: return "NaN"
        case .infinity: return isNegative ? "-Inf" : "+Inf"
        case .finite: break
        }
        let digits = String(significand)
        let sign = isNegative ? "-" : ""
        if exponent >= 0 && exponent <= 6 {
            return sign + digits + String(repeating: "0", count: exponent)
        }
        if exponent < 0 && -exponent <= digits.count + 6 {
            let point = digits.count + exponent
            if point > 0 {
                return sign + digits.prefix(point) + "." + digits.dropFirst(point)
            }
            return sign + "0." + String(repeating: "0", count: -point) + digits
        }
        let adjusted = exponent + digits.count - 1
        let mantissa = digits.count > 1 ? digits.prefix(1) + "." + digits.dropFirst() : digits
        return sign + mantissa + "E" + (adjusted >= 0 ? "+" : "") + String(adjusted)
    }
}

extension Decimal128: _Persistable, _PersistableInsideOptional, RealmCollectionValue {
    public static func _strataDefaultValue() -> Decimal128 { Decimal128() }
    public var _strataPropertyValue: PropertyValue { .decimal128(self) }
    public static func _strataFromPropertyValue(_ value: PropertyValue) -> Decimal128? {
        if case .decimal128(let v) = value { return v }
        return nil
    }
}
