import Strata
import StrataCore

/// `Decimal128` values on the wire and in PostgreSQL, where a `Decimal128` property is a
/// `numeric` column (Docs/Sync.md, "The data model").
///
/// Every finite `Decimal128` fits `numeric` exactly (at most 34 digits, exponents -6176...6111;
/// `numeric` takes 131,072 digits before the point and 16,383 after), and so do NaN and the
/// infinities. On the wire a value is `numeric`'s own text: plain notation, never an exponent
/// (`-12.50`, `0.000001`, `1500000`), `NaN`, `Infinity`, `-Infinity`; JSON carries it as a
/// string, since a JSON number would go through a `Double` on the way.
///
/// `numeric` keeps the digits after the point as written (`1.50` stays `1.50`) but not an
/// exponent above zero: `15E+1` comes back as `150`. A replica therefore keeps what the server
/// keeps (`canonical`), as it does for dates rounded to microseconds, so that replicas and the
/// server hold the same bytes, not only equal values.
enum SyncDecimal {
    /// `numeric`'s text of the value in `bytes` (the store's 16 bytes); nil when they are not a
    /// Decimal128.
    static func text(_ bytes: [UInt8]) -> String? {
        guard let d = Decimal128(strataBytes: bytes) else { return nil }
        if d.isNaN { return "NaN" }
        if d.isInfinite { return d.isNegative ? "-Infinity" : "Infinity" }
        var digits = String(d.significand)
        let sign = d.isNegative ? "-" : ""
        if d.exponent >= 0 {
            if d.significand == 0 { return "0" }
            return sign + digits + String(repeating: "0", count: d.exponent)
        }
        let scale = -d.exponent
        if digits.count <= scale { digits = String(repeating: "0", count: scale - digits.count + 1) + digits }
        let point = digits.index(digits.endIndex, offsetBy: -scale)
        return sign + digits[..<point] + "." + digits[point...]
    }

    /// The store's bytes of a Decimal128 written as `text` (`numeric`'s text, or any form
    /// `Decimal128(string:)` reads); nil when it is not one.
    static func bytes(_ text: String) -> [UInt8]? {
        guard let d = try? Decimal128(string: text) else { return nil }
        return d.strataBytes
    }

    /// The Decimal128 in `value` as the server keeps it (see the type's notes); other values as
    /// they are.
    static func canonical(_ value: StoreValue) -> StoreValue {
        guard case .decimal128(let b) = value, let t = text(b), let c = bytes(t) else { return value }
        return .decimal128(c)
    }
}
