import Foundation
import StrataCore

/// Stored values as JSON text, one column type at a time (the form `strata dump` writes and
/// `strata import` reads):
///
/// | column type | JSON |
/// |---|---|
/// | bool, int, float, double | a JSON boolean or number (a non-finite float: `"NaN"`, `"Infinity"`, `"-Infinity"`) |
/// | string | a string |
/// | data | a base64 string |
/// | timestamp | an ISO 8601 string in UTC with nanoseconds, `"2024-05-01T12:00:00.000000001Z"` |
/// | objectId | 24 hex digits |
/// | uuid | the canonical UUID string |
/// | decimal128 | `"0x"` and the 16 stored bytes (IEEE 754 BID) as 32 hex digits |
/// | link | the linked object's key (`_key` in its type's dump), or null |
/// | list, set | an array of the element type's form |
/// | map | an object of the value type's form |
/// | mixed | null, a boolean, number or string as above, or a one-key object for other types: `{"$date": ...}`, `{"$data": ...}`, `{"$objectId": ...}`, `{"$uuid": ...}`, `{"$decimal128": ...}`, `{"$float": ...}`, `{"$link": {"_type": T, "_key": k}}` |
enum JSONText {
    /// The JSON text of `value`, a value of `column`.
    static func encode(_ value: StoreValue, _ column: StoreColumn) -> String {
        switch value {
        case .list(let elements):
            return "[" + elements.map { encodeElement($0, column.type) }.joined(separator: ",") + "]"
        case .map(let entries):
            return "{"
                + entries.keys.sorted().map { string($0) + ":" + encodeElement(entries[$0]!, column.type) }.joined(
                    separator: ",") + "}"
        default:
            return encodeElement(value, column.type)
        }
    }

    static func encodeElement(_ value: StoreValue, _ type: ColumnType) -> String {
        let plain = plainForm(value)
        guard type == .mixed else { return plain }
        switch value {
        case .null, .bool, .int, .double, .string: return plain
        case .float: return "{\"$float\":\(plain)}"
        case .data: return "{\"$data\":\(plain)}"
        case .timestamp: return "{\"$date\":\(plain)}"
        case .objectId: return "{\"$objectId\":\(plain)}"
        case .uuid: return "{\"$uuid\":\(plain)}"
        case .decimal128: return "{\"$decimal128\":\(plain)}"
        case .typedLink(let table, let key): return "{\"$link\":{\"_type\":\(string(table)),\"_key\":\(key)}}"
        case .link(let key): return "{\"$link\":{\"_key\":\(key)}}"
        case .list(let l): return "[" + l.map { encodeElement($0, .mixed) }.joined(separator: ",") + "]"
        case .map(let m):
            return "{" + m.keys.sorted().map { string($0) + ":" + encodeElement(m[$0]!, .mixed) }.joined(separator: ",")
                + "}"
        }
    }

    static func plainForm(_ value: StoreValue) -> String {
        switch value {
        case .null: return "null"
        case .bool(let b): return b ? "true" : "false"
        case .int(let i): return String(i)
        case .float(let f): return number(Double(f), text: "\(f)")
        case .double(let d): return number(d, text: "\(d)")
        case .string(let s): return string(s)
        case .data(let bytes): return string(Data(bytes).base64EncodedString())
        case .timestamp(let seconds, let nanoseconds): return string(timestamp(seconds, nanoseconds))
        case .objectId(let bytes): return string(hex(bytes))
        case .uuid(let bytes): return string(uuid(bytes))
        case .decimal128(let bytes): return string("0x" + hex(bytes))
        case .link(let key): return String(key)
        case .typedLink(let table, let key): return "{\"_type\":\(string(table)),\"_key\":\(key)}"
        case .list(let l): return "[" + l.map(plainForm).joined(separator: ",") + "]"
        case .map(let m):
            return "{" + m.keys.sorted().map { string($0) + ":" + plainForm(m[$0]!) }.joined(separator: ",") + "}"
        }
    }

    static func number(_ d: Double, text: String) -> String {
        if d.isNaN { return "\"NaN\"" }
        if d.isInfinite { return d > 0 ? "\"Infinity\"" : "\"-Infinity\"" }
        return text
    }

    /// `s` as a JSON string literal.
    static func string(_ s: String) -> String {
        var out = "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where u.value < 0x20: out += String(format: "\\u%04x", u.value)
            default: out.unicodeScalars.append(u)
            }
        }
        return out + "\""
    }

    static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { String(format: "%02x", $0) }.joined()
    }

    static func uuid(_ b: [UInt8]) -> String {
        guard b.count == 16 else { return hex(b) }
        return UUID(
            uuid: (b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15])
        ).uuidString
    }

    static func timestamp(_ seconds: Int64, _ nanoseconds: Int32) -> String {
        // Whole seconds as ISO 8601, then the nanoseconds (always non-negative here: a negative
        // time is a lower second plus nanoseconds).
        var s = seconds
        var n = Int64(nanoseconds)
        if n < 0 { s -= 1; n += 1_000_000_000 }
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        formatter.timeZone = TimeZone(identifier: "UTC")
        let base = formatter.string(from: Date(timeIntervalSince1970: TimeInterval(s)))
        return String(base.dropLast()) + "." + String(format: "%09lld", n) + "Z"
    }
}
