// Typed constants, spelled as realm-core's query language spells them:
//   oid(507f1f77bcf86cd799439011)                   an ObjectId: 24 hexadecimal digits
//   uuid(137ecc3b-1b8a-4c2a-9d3e-7a1b2c3d4e5f)      a UUID: 8-4-4-4-12 hexadecimal digits
//   T1700000000:500                                 a date: seconds and nanoseconds since 1970 (UTC)
//   2023-11-14@22:13:20 or 2023-11-14T22:13:20:500  a date in UTC, with optional nanoseconds
//   B64"aGVsbG8="                                   data, base64-encoded
// `inf`, `infinity` and `nan` (any case) are words the parser reads as doubles.

extension QueryLexer {
    /// At an identifier: the typed constant it starts, or nil for a plain word.
    mutating func typedLiteral() throws(QueryLexError) -> QueryToken? {
        let start = index
        if matches("oid(") { return try objectId(start) }
        if matches("uuid(") { return try uuid(start) }
        if matches("B64\"") { return try base64(start) }
        if peek() == "T", let token = try secondsTimestamp(start) { return token }
        return nil
    }

    private func matches(_ text: String) -> Bool {
        var i = 0
        for scalar in text.unicodeScalars {
            guard peek(i) == scalar else { return false }
            i += 1
        }
        return true
    }

    private mutating func hexDigits(_ count: Int) -> [UInt8]? {
        var nibbles: [UInt8] = []
        while nibbles.count < count, let c = peek(), let d = Self.hexValue(c) {
            nibbles.append(d)
            index += 1
        }
        return nibbles.count == count ? nibbles : nil
    }

    private static func bytes(_ nibbles: [UInt8]) -> [UInt8] {
        stride(from: 0, to: nibbles.count, by: 2).map { nibbles[$0] << 4 | nibbles[$0 + 1] }
    }

    private mutating func closeTyped(_ start: Int, _ expected: String) throws(QueryLexError) {
        guard peek() == ")" else {
            while let c = peek(), c != ")", !c.properties.isWhitespace { index += 1 }
            if peek() == ")" { index += 1 }
            throw QueryLexError(kind: .invalidNumber, found: text(start, index), offset: start, expected: expected)
        }
        index += 1
    }

    private mutating func objectId(_ start: Int) throws(QueryLexError) -> QueryToken {
        index += 4
        let expected = "expected oid(...) with 24 hexadecimal digits, e.g. oid(507f1f77bcf86cd799439011)"
        guard let nibbles = hexDigits(24) else {
            try closeTyped(start, expected)
            throw QueryLexError(kind: .invalidNumber, found: text(start, index), offset: start, expected: expected)
        }
        try closeTyped(start, expected)
        return QueryToken(kind: .typed(.objectId(Self.bytes(nibbles))), text: text(start, index), offset: start)
    }

    private mutating func uuid(_ start: Int) throws(QueryLexError) -> QueryToken {
        index += 5
        let expected =
            "expected uuid(...) with 32 hexadecimal digits grouped 8-4-4-4-12, e.g. uuid(137ecc3b-1b8a-4c2a-9d3e-7a1b2c3d4e5f)"
        var nibbles: [UInt8] = []
        for (i, group) in [8, 4, 4, 4, 12].enumerated() {
            if i > 0 {
                guard peek() == "-" else {
                    try closeTyped(start, expected)
                    throw QueryLexError(
                        kind: .invalidNumber, found: text(start, index), offset: start, expected: expected)
                }
                index += 1
            }
            guard let part = hexDigits(group) else {
                try closeTyped(start, expected)
                throw QueryLexError(kind: .invalidNumber, found: text(start, index), offset: start, expected: expected)
            }
            nibbles += part
        }
        try closeTyped(start, expected)
        return QueryToken(kind: .typed(.uuid(Self.bytes(nibbles))), text: text(start, index), offset: start)
    }

    private mutating func base64(_ start: Int) throws(QueryLexError) -> QueryToken {
        index += 4
        let expected = "expected base64 text (A-Z, a-z, 0-9, +, / and = padding) and a closing \" in B64\"...\""
        var encoded: [Unicode.Scalar] = []
        while let c = peek(), c != "\"" {
            encoded.append(c)
            index += 1
        }
        guard peek() == "\"" else {
            throw QueryLexError(kind: .unterminatedString, found: "B64\"", offset: start, expected: expected)
        }
        index += 1
        guard let bytes = Self.decodeBase64(encoded) else {
            throw QueryLexError(kind: .invalidNumber, found: text(start, index), offset: start, expected: expected)
        }
        return QueryToken(kind: .typed(.data(bytes)), text: text(start, index), offset: start)
    }

    /// Standard base64 with `=` padding (padding may be left out); nil for anything else.
    static func decodeBase64(_ scalars: [Unicode.Scalar]) -> [UInt8]? {
        var body = scalars
        var padding = 0
        while body.last == "=" && padding < 2 {
            body.removeLast()
            padding += 1
        }
        if padding > 0 && (body.count + padding) % 4 != 0 { return nil }
        if body.count % 4 == 1 { return nil }
        var bytes: [UInt8] = []
        var buffer: UInt32 = 0
        var bits = 0
        for c in body {
            let v: UInt32
            switch c {
            case "A"..."Z": v = c.value - 65
            case "a"..."z": v = c.value - 97 + 26
            case "0"..."9": v = c.value - 48 + 52
            case "+": v = 62
            case "/": v = 63
            default: return nil
            }
            buffer = buffer << 6 | v
            bits += 6
            if bits >= 8 {
                bits -= 8
                bytes.append(UInt8(truncatingIfNeeded: buffer >> UInt32(bits)))
                buffer &= (1 << UInt32(bits)) - 1
            }
        }
        return bytes
    }

    /// `T<seconds>:<nanoseconds>`, both optionally signed; nil when the word is not one (`Tom`).
    private mutating func secondsTimestamp(_ start: Int) throws(QueryLexError) -> QueryToken? {
        var i = 1
        if peek(i) == "+" || peek(i) == "-" { i += 1 }
        guard let d = peek(i), Self.isDigit(d) else { return nil }
        while let c = peek(i), Self.isDigit(c) { i += 1 }
        guard peek(i) == ":" else { return nil }
        index += 1
        let expected =
            "expected T<seconds>:<nanoseconds> with nanoseconds between -999999999 and 999999999 and the sign of the seconds, e.g. T1700000000:0"
        guard let seconds = signedInteger(), peek() == ":" else {
            throw QueryLexError(kind: .invalidNumber, found: text(start, index), offset: start, expected: expected)
        }
        index += 1
        guard let nanos = signedInteger(), abs(nanos) < 1_000_000_000,
            seconds == 0 || nanos == 0 || (seconds < 0) == (nanos < 0)
        else {
            while let c = peek(), Self.isIdentifierContinue(c) { index += 1 }
            throw QueryLexError(kind: .invalidNumber, found: text(start, index), offset: start, expected: expected)
        }
        try rejectTrailingIdentifier(start)
        return QueryToken(
            kind: .typed(.timestamp(seconds: seconds, nanoseconds: Int32(nanos))), text: text(start, index),
            offset: start)
    }

    private mutating func signedInteger() -> Int64? {
        var negative = false
        if peek() == "+" || peek() == "-" {
            negative = peek() == "-"
            index += 1
        }
        var value: Int64 = 0
        var digits = 0
        while let c = peek(), Self.isDigit(c) {
            let (m, o1) = value.multipliedReportingOverflow(by: 10)
            let (a, o2) = m.addingReportingOverflow(Int64(c.value - 48))
            if o1 || o2 { return nil }
            value = a
            digits += 1
            index += 1
        }
        guard digits > 0 else { return nil }
        return negative ? -value : value
    }

    /// `YYYY-MM-DD@HH:MM:SS[:nanoseconds]` (or `T` for `@`) in UTC; nil when the digits are a
    /// plain number.
    mutating func dateLiteral() throws(QueryLexError) -> QueryToken? {
        let start = index
        var i = 0
        func digits() -> Int {
            var n = 0
            while let c = peek(i), Self.isDigit(c) { i += 1; n += 1 }
            return n
        }
        guard digits() > 0, peek(i) == "-" else { return nil }
        i += 1
        guard digits() > 0, peek(i) == "-" else { return nil }
        i += 1
        guard digits() > 0, peek(i) == "@" || peek(i) == "T" else { return nil }
        let expected =
            "expected a date and time in UTC as YYYY-MM-DD@HH:MM:SS or YYYY-MM-DD@HH:MM:SS:NANOSECONDS, e.g. 2023-11-14@22:13:20"
        var fields: [Int64] = []
        func field() -> Int64? {
            var value: Int64 = 0
            var n = 0
            while let c = peek(), Self.isDigit(c), n < 10 {
                value = value * 10 + Int64(c.value - 48)
                index += 1
                n += 1
            }
            return n > 0 ? value : nil
        }
        let separators: [Unicode.Scalar?] = ["-", "-", nil, ":", ":"]
        for (n, separator) in separators.enumerated() {
            guard let value = field() else { break }
            fields.append(value)
            if n == 2 {
                guard peek() == "@" || peek() == "T" else { break }
            } else if let separator, peek() != separator {
                break
            }
            index += 1
        }
        if fields.count == 5, let value = field() { fields.append(value) }
        if fields.count == 6, peek() == ":" {
            index += 1
            if let nanos = field() { fields.append(nanos) } else { fields.append(-1) }
        }
        if let c = peek(), Self.isIdentifierContinue(c) || c == ":" || c == "." {
            while let c = peek(), Self.isIdentifierContinue(c) || c == ":" || c == "." { index += 1 }
            throw QueryLexError(kind: .invalidNumber, found: text(start, index), offset: start, expected: expected)
        }
        guard fields.count >= 6, let seconds = Self.secondsSince1970(fields),
            fields.count == 6 || (0..<1_000_000_000).contains(fields[6])
        else {
            throw QueryLexError(kind: .invalidNumber, found: text(start, index), offset: start, expected: expected)
        }
        var s = seconds
        var nanos = fields.count == 7 ? Int32(fields[6]) : 0
        // Realm's timestamps carry the sign of the interval in both parts.
        if s < 0 && nanos > 0 {
            s += 1
            nanos -= 1_000_000_000
        }
        return QueryToken(
            kind: .typed(.timestamp(seconds: s, nanoseconds: nanos)), text: text(start, index), offset: start)
    }

    /// Seconds since 1970-01-01 00:00:00 UTC for year, month, day, hour, minute, second; nil
    /// when a field is out of range.
    static func secondsSince1970(_ f: [Int64]) -> Int64? {
        let (year, month, day, hour, minute, second) = (f[0], f[1], f[2], f[3], f[4], f[5])
        guard (1...9999).contains(year), (1...12).contains(month), hour < 24, minute < 60, second < 60 else {
            return nil
        }
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let lengths: [Int64] = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        guard (1...lengths[Int(month) - 1]).contains(day) else { return nil }
        // Days from the civil date (Howard Hinnant's algorithm).
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        let days = era * 146097 + doe - 719468
        return days * 86400 + hour * 3600 + minute * 60 + second
    }
}
