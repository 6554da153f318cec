/// A parsed filter string: its predicate and the number of arguments it expects.
///
/// `ParsedQuery.parse(_:)` is the entry point of this module. It turns the string a user passes
/// to `filter(_:_:)` into a ``QueryPredicate`` that the query engine binds to a schema, and counts
/// the placeholders so that the caller can check the arguments before binding:
///
/// ```swift
/// let query = try ParsedQuery.parse("age > %@ AND name BEGINSWITH[c] %@")
/// try query.validateArgumentCount(arguments.count)   // "filter expects 2 arguments, got 1 ..."
/// // query.predicate == .and([
/// //     .comparison(QueryComparison(.keyPath(["age"]), .greaterThan, .argument(index: 0))),
/// //     .comparison(QueryComparison(.keyPath(["name"]), .beginsWith, .argument(index: 1),
/// //                                 options: .caseInsensitive)),
/// // ])
/// ```
///
/// Docs/QueryLanguage.md describes the language: what is supported, what is not, and every error.
///
/// ## Concurrency
/// A value type with no shared state: parse and use it from any thread, actor or task.
public struct ParsedQuery: Sendable, Equatable, CustomStringConvertible {
    /// Where one placeholder was written: for error messages about arguments.
    ///
    /// ## Concurrency
    /// A value type with no shared state: use it from any thread, actor or task.
    public struct Placeholder: Sendable, Equatable {
        /// The argument index it refers to.
        public var index: Int
        /// `Character` offset of the placeholder in the query, 0-based.
        public var offset: Int
        /// `"%@"`, `"%K"` or `"$1"`.
        public var text: String
    }

    /// The text that was parsed.
    public var text: String
    /// The predicate.
    public var predicate: QueryPredicate
    /// How many arguments the query expects: the number of `%@` and `%K` placeholders (each takes
    /// the next argument), or one more than the largest `$n` (`$0` and `$1` need two; `$1` alone
    /// needs two as well, and argument 0 is then unused).
    public var argumentCount: Int
    /// Every placeholder in reading order (the printed form keeps this order).
    public var placeholders: [Placeholder]
    /// The `SORT`, `DISTINCT` and `LIMIT` clauses after the filter, in the order written (sorting,
    /// then distinct, then the limit; the parser refuses other orders).
    public var ordering: [QueryOrderingClause] = []

    /// Parentheses and `NOT` nest at most this deep; deeper input is rejected with
    /// `QueryParseError.Kind.nestingTooDeep` instead of exhausting the stack of a background thread.
    public static let maximumNestingDepth = 100

    /// Parses a filter string.
    ///
    /// ```swift
    /// let query = try ParsedQuery.parse("ANY dogs.name BEGINSWITH 'B'")
    /// ```
    ///
    /// - Parameter text: The query, in the language of Docs/QueryLanguage.md.
    /// - Returns: The predicate and its argument count.
    /// - Throws: `QueryParseError` for any text that is not a valid query, with the offending text,
    ///   its column and what to write instead. Never traps, whatever the input.
    public static func parse(_ text: String) throws(QueryParseError) -> ParsedQuery {
        let parser = QueryParser(text)
        let predicate = try parser.parseQuery()
        var parsed = ParsedQuery(
            text: text, predicate: predicate, argumentCount: parser.argumentCount,
            placeholders: parser.placeholders)
        parsed.ordering = parser.ordering
        return parsed
    }

    /// Checks that the caller passed as many arguments as the query has placeholders.
    ///
    /// ```swift
    /// try ParsedQuery.parse("age > %@ AND name == %@").validateArgumentCount(1)
    /// // throws: filter expects 2 arguments, got 1 for "age > %@ AND name == %@":
    /// //         nothing is passed for the %@ at column 22
    /// ```
    ///
    /// - Parameter given: The number of arguments passed with the query.
    /// - Throws: `QueryParseError` of kind `.wrongArgumentCount(expected:given:)`, located at the
    ///   first placeholder that has no argument (or at the start when there are too many).
    public func validateArgumentCount(_ given: Int) throws(QueryParseError) {
        guard given != argumentCount else { return }
        let kind = QueryParseError.Kind.wrongArgumentCount(expected: argumentCount, given: given)
        if given < argumentCount, let missing = placeholders.first(where: { $0.index >= given }) {
            throw QueryParseError(
                kind, query: text, found: missing.text, offset: missing.offset,
                expected:
                    "nothing is passed for the \(missing.text) at column \(QueryParseError(kind, query: text, found: "", offset: missing.offset, expected: "").column)"
            )
        }
        let advice =
            argumentCount == 0
            ? "the query has no placeholders; remove the arguments or write %@ where each value goes"
            : "pass one argument for each placeholder, or remove the extra arguments"
        throw QueryParseError(kind, query: text, found: "", offset: 0, expected: advice)
    }

    /// The predicate as canonical query text; see ``QueryPredicate/description``.
    public var description: String { predicate.description }
}
