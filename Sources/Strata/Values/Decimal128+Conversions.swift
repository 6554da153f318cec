import Foundation

/// Conversions to `Decimal128`, as RealmSwift has them: from numbers, strings, literals and
/// `Codable`.
extension Decimal128: ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral, ExpressibleByStringLiteral, Codable {
    /// The exact value of `number`: an integer exactly, a floating-point number as the shortest
    /// decimal that reads back as it (`0.1` is exactly 0.1), a `Bool` as 0 or 1.
    public init(number: NSNumber) {
        switch String(cString: number.objCType) {
        case "d", "f": self.init(number.doubleValue)
        case "Q", "L", "I":
            self.init(uncheckedNegative: false, significand: UInt128(number.uint64Value), exponent: 0)
        default: self.init(Int(number.int64Value))
        }
    }

    /// Converts `value`: an integer of any width, `Float`, `Double`, `String`, `NSNumber`,
    /// `Decimal` or `Decimal128`, as RealmSwift's `init(value:)`.
    ///
    /// Any other type, or a string that is not a Decimal128, is a programming error (RealmSwift
    /// stops the program): it is reported to `Realm.violationHandler`, and the value is NaN when
    /// the handler returns.
    public init(value: Any) {
        switch value {
        case let d as Decimal128: self = d
        case let i as Int: self.init(i)
        case let i as Int64: self.init(Int(i))
        case let i as Int32: self.init(Int(i))
        case let i as Int16: self.init(Int(i))
        case let i as Int8: self.init(Int(i))
        case let u as UInt64: self.init(uncheckedNegative: false, significand: UInt128(u), exponent: 0)
        case let u as UInt: self.init(uncheckedNegative: false, significand: UInt128(u), exponent: 0)
        case let u as UInt32: self.init(Int(u))
        case let u as UInt16: self.init(Int(u))
        case let u as UInt8: self.init(Int(u))
        case let d as Double: self.init(d)
        case let f as Float: self.init(Double("\(f)") ?? Double(f))
        case let s as String:
            guard let parsed = Decimal128(parsing: s) else {
                self = Realm.violation("'\(s)' is not a Decimal128 (Decimal128(value:)).", fallback: .nan)
                return
            }
            self = parsed
        case let d as Decimal:
            guard let parsed = Decimal128(parsing: d.description) else {
                self = Realm.violation("\(d) cannot be converted to a Decimal128.", fallback: .nan)
                return
            }
            self = parsed
        case let n as NSNumber: self.init(number: n)
        default:
            self = Realm.violation(
                "Cannot convert a value of type \(type(of: value)) to Decimal128: pass an integer, Float, Double, String, NSNumber or Decimal.",
                fallback: .nan)
        }
    }

    /// The exact value of `source` (every integer up to 34 digits is exact).
    public init?<T: BinaryInteger>(exactly source: T) {
        guard let s = Decimal128(parsing: String(source)) else { return nil }
        self = s
    }

    /// An integer literal, e.g. `let d: Decimal128 = 5`.
    public init(integerLiteral value: Int64) {
        self.init(Int(value))
    }

    /// A floating-point literal, e.g. `let d: Decimal128 = 19.99`: the shortest decimal that
    /// reads back as the literal's `Double` (19.99 exactly).
    public init(floatLiteral value: Double) {
        self.init(value)
    }

    /// A decimal literal written as a string, e.g. `"19.99"`. An invalid literal is a programming
    /// error and stops the program with the literal in the message (as RealmSwift's does).
    public init(stringLiteral value: String) {
        guard let parsed = Decimal128(parsing: value) else {
            preconditionFailure(
                "'\(value)' is not a Decimal128 literal; write digits with an optional '.', sign and exponent")
        }
        self = parsed
    }

    /// Reads a string (`"12.50"`), an integer or a floating-point number.
    /// - Throws: `DecodingError.dataCorrupted` for anything else, or a string that is not a
    ///   Decimal128.
    public init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let string = try? container.decode(String.self) {
            guard let parsed = Decimal128(parsing: string) else {
                throw DecodingError.dataCorruptedError(
                    in: container, debugDescription: "'\(string)' is not a Decimal128")
            }
            self = parsed
        } else if let int = try? container.decode(Int64.self) {
            self.init(Int(int))
        } else if let double = try? container.decode(Double.self) {
            self.init(double)
        } else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "Cannot convert the value to Decimal128: expected a string or a number"
            )
        }
    }

    /// Writes the value as its string (`description`), which reads back exactly.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }

    /// The string RealmSwift's `stringValue` gives (the same as `description`).
    public var stringValue: String { description }

    /// The value as a Foundation `Decimal` (38 significant digits, exponents -128...127): exact
    /// for values within that range, NaN for NaN, infinities and values outside it.
    public var decimalValue: Decimal {
        guard isFinite, let d = Decimal(string: description, locale: Locale(identifier: "en_US_POSIX")) else {
            return .nan
        }
        return d
    }
}
