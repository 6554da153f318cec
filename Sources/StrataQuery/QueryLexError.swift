/// A lexical error, in scalar offsets; the parser turns it into a `QueryParseError`.
struct QueryLexError: Error, Equatable {
    var kind: QueryParseError.Kind
    var found: String
    var offset: Int
    var expected: String
}
