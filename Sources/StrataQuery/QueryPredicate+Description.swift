// Prints the AST back as canonical query text: keywords in upper case, `==` `!=` `<=` `>=`,
// strings in single quotes, parentheses only where precedence needs them. For any predicate the
// parser produced, `parse(p.description).predicate == p`.

extension QueryPredicate: CustomStringConvertible {
    /// Canonical query text for this predicate.
    ///
    /// Placeholders print as `%@` and `%K` when their indices run 0, 1, 2, ... in reading order
    /// (as the parser numbers them), and as `$n` otherwise. A hand-built predicate that mixes `%K`
    /// with out-of-order indices prints `%K` anyway and will not parse back to the same indices.
    public var description: String {
        var printer = QueryPrinter(style: QueryPrinter.style(for: self))
        printer.predicate(self)
        return printer.output
    }
}

extension QueryComparison: CustomStringConvertible {
    /// Canonical query text for this comparison, e.g. `ANY dogs.name BEGINSWITH[c] 'b'`.
    public var description: String {
        QueryPredicate.comparison(self).description
    }
}

extension QueryOperand: CustomStringConvertible {
    /// Canonical query text for this operand; arguments print as `$n`, key path arguments as `%K`.
    public var description: String {
        var printer = QueryPrinter(style: .indexed)
        printer.operand(self)
        return printer.output
    }
}

extension QueryLiteral: CustomStringConvertible {
    /// Canonical query text for this literal: `42`, `1.5`, `'Rex'`, `true`, `nil`.
    public var description: String {
        switch self {
        case .int(let value):
            return String(value)
        case .double(let value):
            // Swift prints finite doubles with a '.' or an exponent ("2000.0", "1e+16"), so the
            // text lexes back as a double, and with enough digits to round-trip exactly.
            return "\(value)"
        case .string(let value):
            return QueryPrinter.quoted(value)
        case .bool(let value):
            return value ? "true" : "false"
        case .null:
            return "nil"
        case .objectId(let bytes):
            return "oid(" + QueryLiteral.hex(bytes) + ")"
        case .uuid(let bytes):
            let hex = Array(QueryLiteral.hex(bytes))
            guard hex.count == 32 else { return "uuid(" + String(hex) + ")" }
            return "uuid(" + [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(hex[$0]) }.joined(separator: "-")
                + ")"
        case .timestamp(let seconds, let nanoseconds):
            return "T\(seconds):\(nanoseconds)"
        case .data(let bytes):
            return "B64\"" + QueryLiteral.base64(bytes) + "\""
        }
    }

    static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef")
        var text = ""
        for b in bytes {
            text.append(digits[Int(b >> 4)])
            text.append(digits[Int(b & 15)])
        }
        return text
    }

    static func base64(_ bytes: [UInt8]) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")
        var text = ""
        var i = 0
        while i < bytes.count {
            let b0 = UInt32(bytes[i])
            let b1 = i + 1 < bytes.count ? UInt32(bytes[i + 1]) : 0
            let b2 = i + 2 < bytes.count ? UInt32(bytes[i + 2]) : 0
            let triple = b0 << 16 | b1 << 8 | b2
            text.append(alphabet[Int(triple >> 18 & 63)])
            text.append(alphabet[Int(triple >> 12 & 63)])
            text.append(i + 1 < bytes.count ? alphabet[Int(triple >> 6 & 63)] : "=")
            text.append(i + 2 < bytes.count ? alphabet[Int(triple & 63)] : "=")
            i += 3
        }
        return text
    }
}
