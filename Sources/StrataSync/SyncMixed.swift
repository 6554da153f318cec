import Foundation
import StrataCore

/// `AnyRealmValue` values on the wire and in PostgreSQL, where an `AnyRealmValue` property is a
/// nullable `jsonb` column (Docs/Sync.md, "The data model").
///
/// JSON's own values stand for themselves where they read back as the same case: `.none` is
/// SQL `NULL` (JSON `null` inside a list or a dictionary), a `Bool` is `true`/`false`, an `Int`
/// an integer, a `String` a string, a `Double` a number when its shortest text has a point and no
/// exponent (`1.5`, `2.0`: `jsonb` keeps the digits, and a JSON parser reads it back as a
/// `Double`), a list an array. Everything else is an object of one tag:
///
/// | value | JSON |
/// |---|---|
/// | other `Double`s (`1e-05`, `-0.0`, NaN, infinities) | `{"$double": "1e-05"}` (Swift's shortest text, `nan`, `inf`, `-inf`) |
/// | `Float` | `{"$float": "1.5"}` |
/// | `Date` | `{"$date": [seconds, nanoseconds]}` since 1970, both of one sign |
/// | `Data` | `{"$binary": "hex"}` |
/// | `ObjectId` | `{"$oid": "24 hex digits"}` |
/// | `UUID` | `{"$uuid": "canonical text"}` |
/// | `Decimal128` | `{"$decimal": "numeric's text"}` |
/// | a dictionary | `{"$map": {key: value, ...}}` (so a key such as `$oid` is never a tag) |
///
/// An `AnyRealmValue` holding an object does not sync yet: the write fails
/// (`SyncTable.Field.checkStorable`).
enum SyncMixed {
    /// `value` as JSON text.
    static func json(_ value: StoreValue) -> String {
        func tagged(_ tag: String, _ json: String) -> String { "{\"$" + tag + "\":" + json + "}" }
        switch value {
        case .null: return "null"
        case .bool(let b): return b ? "true" : "false"
        case .int(let i): return String(i)
        case .string(let s): return SyncTable.jsonString(s)
        case .double(let d):
            let text = d.isNaN ? "nan" : d.isInfinite ? (d > 0 ? "inf" : "-inf") : "\(d)"
            let plain = d.isFinite && !(d == 0 && d.sign == .minus) && text.contains(".") && !text.contains("e")
            return plain ? text : tagged("double", SyncTable.jsonString(text))
        case .float(let f):
            return tagged(
                "float", SyncTable.jsonString(f.isNaN ? "nan" : f.isInfinite ? (f > 0 ? "inf" : "-inf") : "\(f)"))
        case .timestamp(let s, let n): return tagged("date", "[\(s),\(n)]")
        case .data(let b): return tagged("binary", "\"" + SyncTable.hex(b) + "\"")
        case .objectId(let b): return tagged("oid", "\"" + SyncTable.hex(b) + "\"")
        case .uuid(let b): return tagged("uuid", "\"" + SyncTable.uuidText(b) + "\"")
        case .decimal128(let b): return tagged("decimal", SyncDecimal.text(b).map(SyncTable.jsonString) ?? "null")
        case .list(let items): return "[" + items.map(json).joined(separator: ",") + "]"
        case .map(let entries):
            return tagged(
                "map",
                "{"
                    + entries.sorted { $0.key < $1.key }.map { SyncTable.jsonString($0.key) + ":" + json($0.value) }
                    .joined(separator: ",") + "}")
        case .link, .typedLink: return "null"  // refused before: `checkStorable`
        }
    }

    /// The value of a JSON value (as `SyncJSON` returns it), or nil when it is not one.
    static func value(fromJSON j: Any?) -> StoreValue? {
        guard let j, !(j is NSNull) else { return .null }
        if let s = j as? String { return .string(s) }
        if let n = j as? NSNumber {
            // `SyncJSON`: `true`/`false` are booleans ("c"), integers that fit an Int64 are "q",
            // other numbers doubles ("d").
            switch String(cString: n.objCType) {
            case "c", "B": return .bool(n.boolValue)
            case "d", "f": return .double(n.doubleValue)
            default: return .int(n.int64Value)
            }
        }
        if let items = j as? [Any] {
            var out: [StoreValue] = []
            out.reserveCapacity(items.count)
            for i in items {
                guard let v = value(fromJSON: i) else { return nil }
                out.append(v)
            }
            return .list(out)
        }
        guard let object = j as? [String: Any] else { return nil }
        if object.count == 1, let (tag, payload) = object.first, let v = tagged(tag, payload) { return v }
        // Not one of the tags: an object an SQL writer put there is read as a dictionary (rather
        // than stalling every replica's download on a value none can read).
        return dictionary(object)
    }

    /// The value of a one-key object `{tag: payload}`, or nil when it is not one of the tags.
    private static func tagged(_ tag: String, _ payload: Any) -> StoreValue? {
        func number<F: LosslessStringConvertible & FloatingPoint>(_ text: String) -> F? {
            switch text {
            case "nan": .nan
            case "inf": .infinity
            case "-inf": -.infinity
            default: F(text)
            }
        }
        switch tag {
        case "$double": return (payload as? String).flatMap { number($0) as Double? }.map { .double($0) }
        case "$float": return (payload as? String).flatMap { number($0) as Float? }.map { .float($0) }
        case "$date":
            // Whole seconds and nanoseconds of one sign, as the store keeps a date.
            guard let parts = payload as? [NSNumber], parts.count == 2,
                parts.allSatisfy({ String(cString: $0.objCType) != "d" && String(cString: $0.objCType) != "c" })
            else { return nil }
            let (s, n) = (parts[0].int64Value, parts[1].int64Value)
            guard n > -1_000_000_000, n < 1_000_000_000, (s >= 0 && n >= 0) || (s <= 0 && n <= 0) else { return nil }
            return .timestamp(seconds: s, nanoseconds: Int32(n))
        case "$binary": return (payload as? String).flatMap { SyncTable.bytes(hex: $0) }.map { .data($0) }
        case "$oid":
            guard let b = (payload as? String).flatMap({ SyncTable.bytes(hex: $0) }), b.count == 12 else { return nil }
            return .objectId(b)
        case "$uuid":
            guard let u = (payload as? String).flatMap(UUID.init(uuidString:)) else { return nil }
            return .uuid(withUnsafeBytes(of: u.uuid) { [UInt8]($0) })
        case "$decimal":
            // In `numeric`'s form, as a replica keeps it (an SQL writer may write `1.5E+3`).
            return (payload as? String).flatMap(SyncDecimal.bytes).map { SyncDecimal.canonical(.decimal128($0)) }
        case "$map": return (payload as? [String: Any]).flatMap(dictionary)
        default: return nil
        }
    }

    private static func dictionary(_ entries: [String: Any]) -> StoreValue? {
        var out: [String: StoreValue] = [:]
        for (k, e) in entries {
            guard let v = value(fromJSON: e) else { return nil }
            out[k] = v
        }
        return .map(out)
    }

    /// `value` as it reads back from the server: its decimals (nested too) in `numeric`'s form,
    /// as a `Decimal128` property keeps them (`SyncDecimal`), so that replicas hold the same bytes.
    static func canonical(_ value: StoreValue) -> StoreValue {
        switch value {
        case .decimal128: SyncDecimal.canonical(value)
        case .list(let items): .list(items.map(canonical))
        case .map(let entries): .map(entries.mapValues(canonical))
        default: value
        }
    }

    /// How deeply lists and dictionaries may nest in a synced `AnyRealmValue`: the JSON of a
    /// deeper one (a dictionary takes two levels, `{"$map": {...}}`, and `json_agg` two more)
    /// would pass `SyncJSON`'s limit, and no replica could read the row.
    static let maxNesting = 100

    /// How deeply lists and dictionaries nest in `value` (0 for neither).
    static func nesting(_ value: StoreValue) -> Int {
        switch value {
        case .list(let items): 1 + (items.map(nesting).max() ?? 0)
        case .map(let entries): 1 + (entries.values.map(nesting).max() ?? 0)
        default: 0
        }
    }

    /// Whether `value` holds an object (here or nested), which does not sync yet.
    static func holdsObject(_ value: StoreValue) -> Bool {
        switch value {
        case .link, .typedLink: true
        case .list(let items): items.contains(where: holdsObject)
        case .map(let entries): entries.values.contains(where: holdsObject)
        default: false
        }
    }
}
