import Foundation

/// The JSON reader of what StrataSync reads from the server (the rows `json_agg` gives) and from
/// its own older outbox entries. It returns what `JSONSerialization` returns (`[String: Any]`,
/// `[Any]`, `String`, `NSNumber`, `NSNull`), with numbers read exactly.
///
/// Why not `JSONSerialization`: swift-corelibs-foundation's reads many doubles a unit in the last
/// place off (7,215 of 20,000 random doubles written in Swift's shortest form, on this project's
/// Linux toolchain), so a `Double` written on one replica arrived changed on the others. Here an
/// integer (no `.`, `e` or `E`) that fits an `Int64` is an `Int64` (an integer `NSNumber`) but
/// `-0`, which is -0.0; any other number is `Double(text)`, which rounds correctly; `true` and
/// `false` are `NSNumber`s of `Bool` (type `c`).
enum SyncJSON {
    /// A malformed document.
    struct Malformed: Error, CustomStringConvertible {
        let offset: Int
        let what: String
        var description: String { "malformed JSON at byte \(offset): \(what)" }
    }

    /// The value of the JSON document `text`.
    static func parse(_ text: String) throws -> Any {
        var text = text
        return try text.withUTF8 { try parse(bytes: $0) }
    }

    /// The value of the JSON document in `bytes` (UTF-8).
    static func parse(_ bytes: [UInt8]) throws -> Any {
        try bytes.withUnsafeBufferPointer { try parse(bytes: $0) }
    }

    private static func parse(bytes: UnsafeBufferPointer<UInt8>) throws -> Any {
        var reader = Reader(bytes: bytes)
        let value = try reader.value(depth: 0)
        reader.skipSpace()
        guard reader.at == bytes.count else { throw reader.malformed("text after the value") }
        return value
    }

    private struct Reader {
        let bytes: UnsafeBufferPointer<UInt8>
        var at = 0

        /// Arrays and objects nested deeper than this are refused rather than risk the stack.
        static let maxDepth = 512

        func malformed(_ what: String) -> Malformed { Malformed(offset: at, what: what) }

        mutating func skipSpace() {
            while at < bytes.count {
                switch bytes[at] {
                case 0x20, 0x0A, 0x0D, 0x09: at += 1
                default: return
                }
            }
        }

        mutating func expect(_ literal: StaticString) throws {
            let n = literal.utf8CodeUnitCount
            guard at + n <= bytes.count else { throw malformed("expected \(literal)") }
            for i in 0..<n where bytes[at + i] != literal.utf8Start[i] { throw malformed("expected \(literal)") }
            at += n
        }

        mutating func value(depth: Int) throws -> Any {
            skipSpace()
            guard at < bytes.count else { throw malformed("a value is missing") }
            switch bytes[at] {
            case UInt8(ascii: "{"):
                guard depth < Self.maxDepth else { throw malformed("nested deeper than \(Self.maxDepth)") }
                at += 1
                var object: [String: Any] = [:]
                skipSpace()
                if at < bytes.count, bytes[at] == UInt8(ascii: "}") {
                    at += 1
                    return object
                }
                while true {
                    skipSpace()
                    guard at < bytes.count, bytes[at] == UInt8(ascii: "\"") else { throw malformed("expected a key") }
                    let key = try string()
                    skipSpace()
                    guard at < bytes.count, bytes[at] == UInt8(ascii: ":") else { throw malformed("expected ':'") }
                    at += 1
                    object[key] = try value(depth: depth + 1)
                    skipSpace()
                    guard at < bytes.count else { throw malformed("an object is not closed") }
                    if bytes[at] == UInt8(ascii: ",") {
                        at += 1
                    } else if bytes[at] == UInt8(ascii: "}") {
                        at += 1
                        return object
                    } else {
                        throw malformed("expected ',' or '}'")
                    }
                }
            case UInt8(ascii: "["):
                guard depth < Self.maxDepth else { throw malformed("nested deeper than \(Self.maxDepth)") }
                at += 1
                var array: [Any] = []
                skipSpace()
                if at < bytes.count, bytes[at] == UInt8(ascii: "]") {
                    at += 1
                    return array
                }
                while true {
                    array.append(try value(depth: depth + 1))
                    skipSpace()
                    guard at < bytes.count else { throw malformed("an array is not closed") }
                    if bytes[at] == UInt8(ascii: ",") {
                        at += 1
                    } else if bytes[at] == UInt8(ascii: "]") {
                        at += 1
                        return array
                    } else {
                        throw malformed("expected ',' or ']'")
                    }
                }
            case UInt8(ascii: "\""): return try string()
            case UInt8(ascii: "t"):
                try expect("true")
                return NSNumber(value: true)
            case UInt8(ascii: "f"):
                try expect("false")
                return NSNumber(value: false)
            case UInt8(ascii: "n"):
                try expect("null")
                return NSNull()
            default: return try number()
            }
        }

        mutating func number() throws -> NSNumber {
            let start = at
            var integral = true
            while at < bytes.count, Self.isNumberByte(bytes[at]) {
                switch bytes[at] {
                case UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"): integral = false
                default: break
                }
                at += 1
            }
            guard at > start else { throw malformed("expected a value") }
            let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<at]), as: UTF8.self)
            // PostgreSQL prints a `float8` or `real` negative zero as `-0`: a Double, or its sign
            // would be lost.
            if integral, let i = Int64(text), !(i == 0 && text.hasPrefix("-")) { return NSNumber(value: i) }
            guard let d = Double(text) else { throw malformed("'\(text)' is not a number") }
            return NSNumber(value: d)
        }

        static func isNumberByte(_ b: UInt8) -> Bool {
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"),
                UInt8(ascii: "+"), UInt8(ascii: "-"):
                true
            default: false
            }
        }

        /// The string starting at the opening quote.
        mutating func string() throws -> String {
            at += 1
            let start = at
            // The common case: no escape, the bytes are the string's UTF-8.
            while at < bytes.count {
                let b = bytes[at]
                if b == UInt8(ascii: "\"") {
                    let s = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<at]), as: UTF8.self)
                    at += 1
                    return s
                }
                if b == UInt8(ascii: "\\") { break }
                guard b >= 0x20 else { throw malformed("a control character in a string") }
                at += 1
            }
            var out = Array(UnsafeBufferPointer(rebasing: bytes[start..<at]))
            while at < bytes.count {
                let b = bytes[at]
                if b == UInt8(ascii: "\"") {
                    at += 1
                    return String(decoding: out, as: UTF8.self)
                }
                guard b >= 0x20 else { throw malformed("a control character in a string") }
                if b != UInt8(ascii: "\\") {
                    out.append(b)
                    at += 1
                    continue
                }
                at += 1
                guard at < bytes.count else { break }
                let e = bytes[at]
                at += 1
                switch e {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(e)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "u"):
                    var scalar = try hex4()
                    if (0xD800..<0xDC00).contains(scalar) {
                        // A high surrogate: a low one must follow to make one scalar.
                        guard at + 1 < bytes.count, bytes[at] == UInt8(ascii: "\\"), bytes[at + 1] == UInt8(ascii: "u")
                        else { throw malformed("a lone surrogate") }
                        at += 2
                        let low = try hex4()
                        guard (0xDC00..<0xE000).contains(low) else { throw malformed("a lone surrogate") }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    }
                    guard let u = Unicode.Scalar(scalar) else { throw malformed("a lone surrogate") }
                    out.append(contentsOf: Array(String(Character(u)).utf8))
                default: throw malformed("an unknown escape")
                }
            }
            throw malformed("a string is not closed")
        }

        mutating func hex4() throws -> UInt32 {
            guard at + 4 <= bytes.count else { throw malformed("a short \\u escape") }
            var v: UInt32 = 0
            for _ in 0..<4 {
                let b = bytes[at]
                let d: UInt8
                switch b {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): d = b - UInt8(ascii: "0")
                case UInt8(ascii: "a")...UInt8(ascii: "f"): d = b - UInt8(ascii: "a") + 10
                case UInt8(ascii: "A")...UInt8(ascii: "F"): d = b - UInt8(ascii: "A") + 10
                default: throw malformed("a bad \\u escape")
                }
                v = v << 4 | UInt32(d)
                at += 1
            }
            return v
        }
    }
}
