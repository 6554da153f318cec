import Foundation
import StrataCore

/// JSON values as stored values of a column, in the forms ``JSONText`` writes.
struct JSONConversion {
    let table: StoreTable

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// The value of `column` that `json` gives; a missing property gives the column's default.
    func value(_ json: JSONValue?, _ column: StoreColumn) throws -> StoreValue {
        guard let json else { return column.defaultValue }
        switch column.collection {
        case .list, .set:
            guard case .array(let elements) = json else { throw fail(column, "an array", json) }
            return .list(try elements.map { try element($0, column) })
        case .map:
            guard case .object(let entries) = json else { throw fail(column, "an object", json) }
            var out: [String: StoreValue] = [:]
            for (k, v) in entries { out[k] = try element(v, column) }
            return .map(out)
        case .none:
            return try element(json, column)
        }
    }

    func element(_ json: JSONValue, _ column: StoreColumn) throws -> StoreValue {
        if json == .null {
            if column.isNullable || column.type == .mixed || column.type == .link { return .null }
            throw Failure(
                description: "\(table.name).\(column.name) cannot be null (it is a required \(column.type) property).")
        }
        switch (column.type, json) {
        case (.bool, .bool(let b)): return .bool(b)
        case (.int, .int(let i)): return .int(i)
        case (.float, _): return .float(Float(try double(json, column)))
        case (.double, _): return .double(try double(json, column))
        case (.string, .string(let s)): return .string(s)
        case (.data, .string(let s)):
            guard let d = Data(base64Encoded: s) else { throw fail(column, "a base64 string", json) }
            return .data(Array(d))
        case (.timestamp, .string(let s)):
            guard let t = Self.timestamp(s) else {
                throw fail(column, "an ISO 8601 date such as \"2024-05-01T12:00:00.5Z\"", json)
            }
            return t
        case (.objectId, .string(let s)):
            guard let b = Self.hexBytes(s), b.count == 12 else { throw fail(column, "24 hex digits", json) }
            return .objectId(b)
        case (.uuid, .string(let s)):
            guard let u = UUID(uuidString: s) else { throw fail(column, "a UUID string", json) }
            return .uuid(withUnsafeBytes(of: u.uuid) { Array($0) })
        case (.decimal128, .string(let s)):
            guard s.hasPrefix("0x"), let b = Self.hexBytes(String(s.dropFirst(2))), b.count == 16 else {
                throw fail(column, "\"0x\" and 32 hex digits", json)
            }
            return .decimal128(b)
        case (.link, .int(let k)): return .link(k)
        case (.mixed, _): return try mixed(json, column)
        default:
            throw fail(column, "a \(column.type) value", json)
        }
    }

    func double(_ json: JSONValue, _ column: StoreColumn) throws -> Double {
        switch json {
        case .int(let i): return Double(i)
        case .double(let d): return d
        case .string("NaN"): return .nan
        case .string("Infinity"): return .infinity
        case .string("-Infinity"): return -.infinity
        default: throw fail(column, "a number", json)
        }
    }

    func mixed(_ json: JSONValue, _ column: StoreColumn) throws -> StoreValue {
        switch json {
        case .null: return .null
        case .bool(let b): return .bool(b)
        case .int(let i): return .int(i)
        case .double(let d): return .double(d)
        case .string(let s): return .string(s)
        case .array(let a): return .list(try a.map { try mixed($0, column) })
        case .object(let o):
            if o.count == 1, let (tag, inner) = o.first, tag.hasPrefix("$") {
                let typed: ColumnType?
                switch tag {
                case "$float": typed = .float
                case "$data": typed = .data
                case "$date": typed = .timestamp
                case "$objectId": typed = .objectId
                case "$uuid": typed = .uuid
                case "$decimal128": typed = .decimal128
                case "$link":
                    guard case .object(let l) = inner, case .string(let t)? = l["_type"], case .int(let k)? = l["_key"]
                    else {
                        throw fail(column, "{\"$link\": {\"_type\": T, \"_key\": k}}", json)
                    }
                    return .typedLink(table: t, key: k)
                default: typed = nil
                }
                if let typed {
                    return try element(inner, StoreColumn(name: column.name, type: typed))
                }
            }
            var out: [String: StoreValue] = [:]
            for (k, v) in o { out[k] = try mixed(v, column) }
            return .map(out)
        }
    }

    func fail(_ column: StoreColumn, _ expected: String, _ json: JSONValue) -> Failure {
        Failure(description: "\(table.name).\(column.name) needs \(expected); the line has \(Self.kind(json)).")
    }

    static func kind(_ json: JSONValue) -> String {
        switch json {
        case .null: return "null"
        case .bool: return "a boolean"
        case .int, .double: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }

    static func hexBytes(_ s: String) -> [UInt8]? {
        guard s.count % 2 == 0 else { return nil }
        var out: [UInt8] = []
        var i = s.startIndex
        while i < s.endIndex {
            let j = s.index(i, offsetBy: 2)
            guard let b = UInt8(s[i..<j], radix: 16) else { return nil }
            out.append(b)
            i = j
        }
        return out
    }

    /// An ISO 8601 date with up to nine fraction digits, in the stored form (seconds and
    /// nanoseconds of the same sign).
    static func timestamp(_ s: String) -> StoreValue? {
        var text = s
        var nanos: Int64 = 0
        if let dot = s.firstIndex(of: ".") {
            guard let end = s[dot...].firstIndex(where: { !$0.isNumber && $0 != "." }) else { return nil }
            let digits = String(s[s.index(after: dot)..<end])
            guard !digits.isEmpty, digits.count <= 9, let n = Int64(digits) else { return nil }
            nanos = n * Int64(pow(10, Double(9 - digits.count)))
            text = String(s[..<dot]) + String(s[end...])
        }
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        guard let date = formatter.date(from: text) else { return nil }
        var seconds = Int64(date.timeIntervalSince1970.rounded())
        if seconds < 0 && nanos > 0 {
            seconds += 1
            nanos -= 1_000_000_000
        }
        return .timestamp(seconds: seconds, nanoseconds: Int32(nanos))
    }
}
