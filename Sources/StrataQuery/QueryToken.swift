struct QueryToken: Equatable {
    enum Kind: Equatable {
        /// A property name or keyword; keywords are recognised by the parser, case-insensitively.
        case word
        /// `@count`, `@links`, ...: `text` includes the `@`.
        case atWord
        /// An unsigned integer; the parser applies a preceding `-` and checks the `Int64` range.
        case integer(UInt64)
        /// An unsigned finite floating-point number.
        case real(Double)
        /// A string literal with its escapes resolved.
        case string(String)
        /// `%@`.
        case positional
        /// `%K`.
        case keyPathPlaceholder
        /// `$0`, `$1`, ...
        case indexed(Int)
        /// `$dog`: a SUBQUERY variable, with its `$`.
        case variable(String)
        /// A typed constant: `oid(...)`, `uuid(...)`, `T1:2`, `2020-01-02@03:04:05`, `B64"..."`.
        case typed(QueryLiteral)
        /// Punctuation or an operator spelled with symbols; `text` says which.
        case symbol
        /// The end of the query.
        case end
    }

    var kind: Kind
    /// For a `.word`, the keyword it spells in any case; computed once here, not per look.
    var keyword: QueryKeyword? = nil
    /// The text as written (`"=<"`, `"'Rex'"`, `"0x1F"`).
    var text: String
    /// Offset of the first scalar of the token.
    var offset: Int
}
