/// Why a filter string could not be parsed, where, and what to write instead.
///
/// Every error the parser throws is a `QueryParseError`; no input makes it trap. The
/// `description` reads:
///
/// ```
/// Unexpected 'AND' at column 7 in "age > AND name == 'x'": expected a value after '>' (a number, a string in quotes, %@, or a property name)
/// ```
///
/// The query text is part of the message because it is program text written by the developer;
/// argument values (the user's data) never reach the parser and so never appear here.
/// Docs/QueryLanguage.md lists every error with an example.
///
/// ## Concurrency
/// A value type with no shared state: use it from any thread, actor or task.
public struct QueryParseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The kind of mistake; a value type, usable from any thread, actor or task.
    public enum Kind: Sendable, Equatable {
        /// A token where another was needed (``QueryParseError/expected`` says which).
        case unexpectedToken
        /// The query ended where more was needed.
        case unexpectedEnd
        /// A character that starts no token (`#`, `^`, a lone `&`).
        case invalidCharacter
        /// A string literal without its closing quote.
        case unterminatedString
        /// A backslash escape the parser does not know (`\q`).
        case invalidEscape
        /// A malformed or out-of-range number (`0x`, `1e`, `99999999999999999999`).
        case invalidNumber
        /// Valid in Realm or NSPredicate, but outside this parser's subset (`SUBQUERY`, `@links`).
        case unsupported
        /// `$0`-style and `%@`-style placeholders in one query.
        case mixedPlaceholders
        /// Parentheses or `NOT` nested more deeply than ``ParsedQuery/maximumNestingDepth``.
        case nestingTooDeep
        /// The caller passed a different number of arguments than the query has placeholders
        /// (thrown by ``ParsedQuery/validateArgumentCount(_:)``, not by `parse`).
        case wrongArgumentCount(expected: Int, given: Int)
    }

    /// The kind of mistake.
    public var kind: Kind
    /// The whole query text.
    public var query: String
    /// The offending text (`"AND"`), or `""` at the end of the query.
    public var found: String
    /// Offset of the offending text from the start of the query, in `Character`s, 0-based.
    public var offset: Int
    /// 1-based line of ``offset`` (queries may span lines).
    public var line: Int
    /// 1-based column of ``offset`` on its line, in `Character`s.
    public var column: Int
    /// What was expected there and what to write instead, e.g.
    /// `"expected a value after '>' (a number, a string in quotes, %@, or a property name)"`.
    public var expected: String

    /// Creates an error at `offset` in `query`; `line` and `column` are computed from the offset.
    public init(_ kind: Kind, query: String, found: String, offset: Int, expected: String) {
        self.kind = kind
        self.query = query
        self.found = found
        self.offset = offset
        self.expected = expected
        var line = 1
        var column = 1
        var index = 0
        for character in query {
            if index == offset { break }
            if character == "\n" || character == "\r\n" || character == "\r" {
                line += 1
                column = 1
            } else {
                column += 1
            }
            index += 1
        }
        self.line = line
        self.column = column
    }

    /// The full message: what went wrong, where, and what to write instead.
    public var description: String {
        let place = line == 1 ? "column \(column)" : "line \(line), column \(column)"
        let headline: String
        switch kind {
        case .unexpectedEnd:
            headline = "Unexpected end of query"
        case .unterminatedString:
            headline = "Unterminated string"
        case .invalidEscape:
            headline = "Invalid escape '\(found)'"
        case .invalidNumber:
            headline = "Invalid number '\(found)'"
        case .unsupported:
            headline = "Unsupported '\(found)'"
        case .wrongArgumentCount(let expected, let given):
            return "filter expects \(expected) argument\(expected == 1 ? "" : "s"), got \(given)"
                + " for \"\(query)\"" + (self.expected.isEmpty ? "" : ": \(self.expected)")
        case .unexpectedToken, .invalidCharacter, .mixedPlaceholders, .nestingTooDeep:
            // A string literal is already quoted: `Unexpected string 'x'`, not `Unexpected ''x''`.
            let isString = found.hasPrefix("'") || found.hasPrefix("\"")
            headline = isString ? "Unexpected string \(found)" : "Unexpected '\(found)'"
        }
        return "\(headline) at \(place) in \"\(query)\": \(expected)"
    }
}
