// Splits query text into tokens. Works on Unicode scalars, not `Character`s, so that a quote or a
// backslash followed by a combining mark still ends or escapes a string, and string literals keep
// exactly the scalars that were written. Offsets here are scalar offsets; `QueryParser` converts
// them to `Character` offsets for error messages.

struct QueryLexer {
    private let scalars: [Unicode.Scalar]
    var index = 0

    /// Tokenizes `text` up to the end, or up to the first lexical error. The tokens before the
    /// error are returned with it so that the parser reports an earlier syntax error first.
    static func tokenize(_ text: String) -> (tokens: [QueryToken], error: QueryLexError?) {
        var lexer = QueryLexer(scalars: Array(text.unicodeScalars))
        var tokens: [QueryToken] = []
        while true {
            do {
                let token = try lexer.next()
                tokens.append(token)
                if token.kind == .end { return (tokens, nil) }
            } catch {
                return (tokens, error)
            }
        }
    }

    private init(scalars: [Unicode.Scalar]) {
        self.scalars = scalars
    }

    func peek(_ ahead: Int = 0) -> Unicode.Scalar? {
        let i = index + ahead
        return i < scalars.count ? scalars[i] : nil
    }

    func text(_ start: Int, _ end: Int) -> String {
        var view = String.UnicodeScalarView()
        view.append(contentsOf: scalars[start..<min(end, scalars.count)])
        return String(view)
    }

    private mutating func next() throws(QueryLexError) -> QueryToken {
        while let s = peek(), s.properties.isWhitespace { index += 1 }
        let start = index
        guard let s = peek() else { return QueryToken(kind: .end, text: "", offset: start) }

        if Self.isIdentifierStart(s) {
            if let typed = try typedLiteral() { return typed }
            index += 1
            while let c = peek(), Self.isIdentifierContinue(c) { index += 1 }
            let word = text(start, index)
            return QueryToken(kind: .word, keyword: QueryKeyword(rawValue: Self.upper(word)), text: word, offset: start)
        }
        if Self.isDigit(s) {
            if let date = try dateLiteral() { return date }
            return try number()
        }
        if s == "'" || s == "\"" { return try string(quote: s) }

        func symbol(_ length: Int) -> QueryToken {
            index += length
            return QueryToken(kind: .symbol, text: text(start, index), offset: start)
        }
        let next = peek(1)
        switch s {
        case "(", ")", "{", "}", "[", "]", ",", ".", "-":
            return symbol(1)
        case "=":
            return symbol(next == "=" || next == "<" || next == ">" ? 2 : 1)
        case "!":
            return symbol(next == "=" ? 2 : 1)
        case "<":
            return symbol(next == "=" || next == ">" ? 2 : 1)
        case ">":
            return symbol(next == "=" ? 2 : 1)
        case "&", "|":
            if next == s { return symbol(2) }
            let word = s == "&" ? "AND" : "OR"
            throw QueryLexError(
                kind: .invalidCharacter, found: String(s), offset: start,
                expected: "expected \(s)\(s) or \(word); a single '\(s)' is not an operator")
        case "%":
            if next == "@" { index += 2; return QueryToken(kind: .positional, text: "%@", offset: start) }
            if next == "K" { index += 2; return QueryToken(kind: .keyPathPlaceholder, text: "%K", offset: start) }
            guard let next, !next.properties.isWhitespace else {
                throw QueryLexError(
                    kind: .invalidCharacter, found: "%", offset: start,
                    expected: "expected %@ (a value argument) or %K (a key path argument)")
            }
            throw QueryLexError(
                kind: .unsupported, found: text(start, start + 2), offset: start,
                expected:
                    "format specifiers other than %@ and %K are not supported; write %@ for every value argument and %K for a key path argument"
            )
        case "$":
            return try indexedPlaceholder()
        case "@":
            index += 1
            guard let c = peek(), Self.isIdentifierStart(c) else {
                throw QueryLexError(
                    kind: .invalidCharacter, found: "@", offset: start,
                    expected: "expected a collection operator after '@' (@count, @size, @min, @max, @sum or @avg)")
            }
            while let c = peek(), Self.isIdentifierContinue(c) { index += 1 }
            return QueryToken(kind: .atWord, text: text(start, index), offset: start)
        default:
            throw QueryLexError(
                kind: .invalidCharacter, found: String(s), offset: start,
                expected:
                    "expected a property name, a value, an operator or a parenthesis; '\(s.escaped(asASCII: true))' has no meaning in a query"
            )
        }
    }

    // MARK: Numbers

    private static let integerRange = "an integer between -9223372036854775808 and 9223372036854775807"

    private mutating func number() throws(QueryLexError) -> QueryToken {
        let start = index
        if peek() == "0", peek(1) == "x" || peek(1) == "X" {
            index += 2
            var value: UInt64 = 0
            var overflow = false
            var digits = 0
            while let c = peek(), let d = Self.hexValue(c) {
                let (shifted, o1) = value.multipliedReportingOverflow(by: 16)
                let (sum, o2) = shifted.addingReportingOverflow(UInt64(d))
                overflow = overflow || o1 || o2
                value = sum
                digits += 1
                index += 1
            }
            try rejectTrailingIdentifier(start)
            if digits == 0 {
                throw QueryLexError(
                    kind: .invalidNumber, found: text(start, index), offset: start,
                    expected: "expected hexadecimal digits after '0x', e.g. 0x1F")
            }
            if overflow {
                throw QueryLexError(
                    kind: .invalidNumber, found: text(start, index), offset: start,
                    expected: "expected \(Self.integerRange)")
            }
            return QueryToken(kind: .integer(value), text: text(start, index), offset: start)
        }

        var isReal = false
        while let c = peek(), Self.isDigit(c) { index += 1 }
        if peek() == ".", let c = peek(1), Self.isDigit(c) {
            isReal = true
            index += 1
            while let c = peek(), Self.isDigit(c) { index += 1 }
        }
        if peek() == "e" || peek() == "E" {
            let signLength = peek(1) == "+" || peek(1) == "-" ? 1 : 0
            if let c = peek(1 + signLength), Self.isDigit(c) {
                isReal = true
                index += 1 + signLength
                while let c = peek(), Self.isDigit(c) { index += 1 }
            } else {
                index += 1 + signLength
                throw QueryLexError(
                    kind: .invalidNumber, found: text(start, index), offset: start,
                    expected: "expected digits after the exponent, e.g. 2e3 or 1.5e-2")
            }
        }
        try rejectTrailingIdentifier(start)
        let written = text(start, index)
        if isReal {
            guard let value = Double(written), value.isFinite else {
                throw QueryLexError(
                    kind: .invalidNumber, found: written, offset: start,
                    expected: "expected a floating-point number no larger than 1.7976931348623157e308")
            }
            return QueryToken(kind: .real(value), text: written, offset: start)
        }
        guard let value = UInt64(written) else {
            throw QueryLexError(
                kind: .invalidNumber, found: written, offset: start,
                expected: "expected \(Self.integerRange); write a floating-point literal such as 1e20 for larger values"
            )
        }
        return QueryToken(kind: .integer(value), text: written, offset: start)
    }

    /// `12abc`, `0x1G`, `1.5x`: a number that runs into letters is one bad token, not two.
    mutating func rejectTrailingIdentifier(_ start: Int) throws(QueryLexError) {
        guard let c = peek(), Self.isIdentifierContinue(c) else { return }
        while let c = peek(), Self.isIdentifierContinue(c) { index += 1 }
        throw QueryLexError(
            kind: .invalidNumber, found: text(start, index), offset: start,
            expected: "expected a number such as 42, -7, 0x1F, 1.5 or 2e3; property names cannot start with a digit")
    }

    private mutating func indexedPlaceholder() throws(QueryLexError) -> QueryToken {
        let start = index
        index += 1
        var digits = 0
        while let c = peek(), Self.isDigit(c) { index += 1; digits += 1 }
        if digits == 0 {
            if let c = peek(), Self.isIdentifierStart(c) {
                // `$dog`: a SUBQUERY variable; the parser checks that one is in scope.
                while let c = peek(), Self.isIdentifierContinue(c) { index += 1 }
                let name = text(start, index)
                return QueryToken(kind: .variable(name), text: name, offset: start)
            }
            throw QueryLexError(
                kind: .invalidCharacter, found: "$", offset: start,
                expected: "expected an argument number after '$', e.g. $0")
        }
        try rejectTrailingIdentifier(start)
        let written = text(start, index)
        // Six digits are plenty: nobody passes a million arguments, and Int(...) cannot overflow.
        guard digits <= 6, let value = Int(written.dropFirst()) else {
            throw QueryLexError(
                kind: .invalidNumber, found: written, offset: start,
                expected: "expected an argument number below 1000000, e.g. $0")
        }
        return QueryToken(kind: .indexed(value), text: written, offset: start)
    }

    // MARK: Strings

    private mutating func string(quote: Unicode.Scalar) throws(QueryLexError) -> QueryToken {
        let start = index
        index += 1
        var value = String.UnicodeScalarView()
        let unterminated = QueryLexError(
            kind: .unterminatedString, found: String(quote), offset: start,
            expected: "expected a closing \(quote) at the end of the string; write \\\(quote) for a quote inside it")
        while true {
            guard let c = peek() else { throw unterminated }
            index += 1
            if c == quote { break }
            guard c == "\\" else { value.append(c); continue }
            let escapeStart = index - 1
            guard let e = peek() else { throw unterminated }
            index += 1
            switch e {
            case "\\", "'", "\"": value.append(e)
            case "n": value.append("\n")
            case "t": value.append("\t")
            case "r": value.append("\r")
            case "0": value.append("\0")
            case "u":
                var code: UInt32 = 0
                var digits = 0
                while digits < 4, let c = peek(), let d = Self.hexValue(c) {
                    code = code * 16 + UInt32(d)
                    digits += 1
                    index += 1
                }
                guard digits == 4, let scalar = Unicode.Scalar(code) else {
                    throw QueryLexError(
                        kind: .invalidEscape, found: text(escapeStart, index), offset: escapeStart,
                        expected: "expected four hexadecimal digits naming a Unicode scalar after \\u, e.g. \\u00E9")
                }
                value.append(scalar)
            default:
                throw QueryLexError(
                    kind: .invalidEscape, found: text(escapeStart, index), offset: escapeStart,
                    expected:
                        "expected one of \\\\ \\' \\\" \\n \\t \\r \\0 \\uXXXX after a backslash; write \\\\ for a backslash"
                )
            }
        }
        return QueryToken(kind: .string(String(value)), text: text(start, index), offset: start)
    }

    // MARK: Character classes

    /// Upper-cases ASCII letters only. Keywords are ASCII; Unicode case mapping would turn a
    /// property named "ın" (dotless i) into the keyword IN and "beginſwith" into BEGINSWITH.
    static func upper(_ text: String) -> String {
        String(decoding: text.utf8.map { $0 >= 0x61 && $0 <= 0x7A ? $0 - 0x20 : $0 }, as: UTF8.self)
    }

    static func isDigit(_ s: Unicode.Scalar) -> Bool { s >= "0" && s <= "9" }

    static func hexValue(_ s: Unicode.Scalar) -> UInt8? {
        switch s {
        case "0"..."9": return UInt8(s.value - 48)
        case "a"..."f": return UInt8(s.value - 97 + 10)
        case "A"..."F": return UInt8(s.value - 65 + 10)
        default: return nil
        }
    }

    static func isIdentifierStart(_ s: Unicode.Scalar) -> Bool {
        s == "_" || s.properties.isAlphabetic
    }

    /// Letters, digits, `_`, and the marks that combine with them (`e` + U+0301).
    static func isIdentifierContinue(_ s: Unicode.Scalar) -> Bool {
        s == "_" || s.properties.isAlphabetic || s.properties.numericType != nil || s.properties.isGraphemeExtend
    }
}
