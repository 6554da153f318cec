// Recursive-descent parser for the query grammar in Docs/QueryLanguage.md:
//
//   query      := or END
//   or         := and (("OR" | "||") and)*
//   and        := not (("AND" | "&&") not)*
//   not        := ("NOT" | "!") not | primary
//   primary    := "(" or ")" | "TRUEPREDICATE" | "FALSEPREDICATE" | comparison
//   comparison := quantifier? operand operator modifier? operand
//   operand    := keypath | literal | "%@" | "$" digits | "%K" | "{" (operand ("," operand)*)? "}"
//                 | "SUBQUERY" "(" keypath "," variable "," or ")" "." ("@count" | "@size")
//
// Inside a SUBQUERY every key path starts with its variable (`$d.age`); a nested SUBQUERY's
// collection starts with the enclosing variable (`SUBQUERY($d.toys, $t, ...)`).
//
// Recursion happens only through "(" and NOT, and both count against `maximumNestingDepth`, so no
// input can exhaust the stack. Lists of AND/OR operands are parsed in loops.

/// One use per query: `QueryParser(text).parseQuery()`. A class so that the recursive functions
/// do not copy the parser's state into every frame (see `ParseFailure`).
final class QueryParser {
    private let query: String
    private let tokens: [QueryToken]
    private let lexError: QueryLexError?
    private var position = 0
    private var depth = 0
    /// `characterOffsets[i]` is the `Character` offset of the `Character` holding scalar `i`.
    private let characterOffsets: [Int]

    // Placeholders, in reading order.
    private(set) var placeholders: [ParsedQuery.Placeholder] = []
    /// The `SORT`, `DISTINCT` and `LIMIT` clauses after the filter, in the order written.
    private(set) var ordering: [QueryOrderingClause] = []
    private var positionalCount = 0
    private var firstPositional: QueryToken?
    private var firstIndexed: QueryToken?
    /// The variables of the SUBQUERYs being parsed, innermost last.
    private var variables: [String] = []

    init(_ query: String) {
        self.query = query
        (tokens, lexError) = QueryLexer.tokenize(query)
        var offsets: [Int] = []
        offsets.reserveCapacity(query.unicodeScalars.count + 1)
        for (index, character) in query.enumerated() {
            offsets.append(contentsOf: repeatElement(index, count: character.unicodeScalars.count))
        }
        offsets.append(query.count)
        characterOffsets = offsets
    }

    /// The number of arguments the query expects: the count of `%@` and `%K`, or one more than
    /// the largest `$n`.
    var argumentCount: Int {
        if firstIndexed != nil { return (placeholders.map(\.index).max() ?? -1) + 1 }
        return positionalCount
    }

    /// Parses the whole query.
    func parseQuery() throws(QueryParseError) -> QueryPredicate {
        do {
            return try parseWholeQuery()
        } catch {
            throw error.error
        }
    }

    private func parseWholeQuery() throws(ParseFailure) -> QueryPredicate {
        let predicate = try parseOr(after: nil)
        while true {
            let token = try peek()
            switch token.kind {
            case .end:
                return predicate
            case .symbol where token.text == ")":
                throw error(token, "expected the end of the query; this ')' has no matching '('")
            case .word where ["SORT", "DISTINCT", "LIMIT"].contains(Self.upper(token.text)):
                try parseOrderingClause()
            default:
                let expected =
                    ordering.isEmpty
                    ? "expected AND, OR or the end of the query; join comparisons with AND or OR"
                    : "expected SORT, DISTINCT, LIMIT or the end of the query; the filter comes before them"
                throw error(token, expected)
            }
        }
    }

    /// `SORT(keyPath ASC|DESC, ...)`, `DISTINCT(keyPath, ...)` or `LIMIT(n)`. The engine applies
    /// sorting, then distinct, then the limit: clauses written in another order are refused.
    private func parseOrderingClause() throws(ParseFailure) {
        let name = try advance()
        let clause = Self.upper(name.text)
        let open = try peek()
        guard isSymbol(open, "(") else { throw error(open, "expected '(' after \(clause)") }
        try advance()
        let rank = ["SORT": 0, "DISTINCT": 1, "LIMIT": 2]
        if let last = ordering.last {
            let lastRank: Int
            switch last {
            case .sort: lastRank = 0
            case .distinct: lastRank = 1
            case .limit: lastRank = 2
            }
            if lastRank > rank[clause]! || (lastRank == rank[clause]! && clause != "SORT") {
                throw error(
                    name, "expected SORT, then DISTINCT, then LIMIT, each once (SORT may repeat); reorder the clauses",
                    kind: .unsupported)
            }
        }
        switch clause {
        case "LIMIT":
            let count = try advance()
            guard case .integer(let n) = count.kind, n <= UInt64(Int.max) else {
                throw error(count, "expected a whole number of results in LIMIT(...), e.g. LIMIT(10)")
            }
            ordering.append(.limit(Int(n)))
        default:
            var keys: [QuerySortKey] = []
            var paths: [String] = []
            repeat {
                if !paths.isEmpty { try advance() }
                let first = try peek()
                guard first.kind == .word else {
                    throw error(
                        first,
                        "expected a property name in \(clause)(...), e.g. \(clause)(name\(clause == "SORT" ? " ASC" : ""))"
                    )
                }
                guard case .keyPath(let components, nil) = try parseKeyPath() else {
                    throw error(first, "expected a property name, not an aggregate, in \(clause)(...)")
                }
                let path = components.joined(separator: ".")
                paths.append(path)
                if clause == "SORT" {
                    let direction = try advance()
                    switch Self.upper(direction.text) {
                    case "ASC", "ASCENDING": keys.append(QuerySortKey(keyPath: path, ascending: true))
                    case "DESC", "DESCENDING": keys.append(QuerySortKey(keyPath: path, ascending: false))
                    default: throw error(direction, "expected ASC or DESC after '\(path)' in SORT(...)")
                    }
                }
            } while isSymbol(try peek(), ",")
            ordering.append(clause == "SORT" ? .sort(keys) : .distinct(paths))
        }
        let close = try peek()
        guard isSymbol(close, ")") else { throw error(close, "expected ')' to close \(clause)(...)") }
        try advance()
    }

    // MARK: Tokens

    private func peek() throws(ParseFailure) -> QueryToken {
        if position < tokens.count { return tokens[position] }
        throw lexFailure()
    }

    /// The lexer's error, reached when the parser runs past the last good token.
    @inline(never)
    private func lexFailure() -> ParseFailure {
        guard let lexError else {
            // Unreachable: the lexer ends with `.end` unless it failed, and `advance` stops there.
            return error(
                QueryToken(kind: .end, text: "", offset: query.unicodeScalars.count), "expected the end of the query")
        }
        return ParseFailure(
            QueryParseError(
                lexError.kind, query: query, found: lexError.found,
                offset: characterOffset(lexError.offset), expected: lexError.expected))
    }

    @discardableResult
    private func advance() throws(ParseFailure) -> QueryToken {
        let token = try peek()
        if token.kind != .end { position += 1 }
        return token
    }

    private func isSymbol(_ token: QueryToken, _ symbol: String) -> Bool {
        token.kind == .symbol && token.text == symbol
    }

    /// The keyword `token` spells (in any case), or `nil` if it is not one.
    private func keyword(_ token: QueryToken) -> QueryKeyword? {
        token.keyword
    }

    static func upper(_ text: String) -> String { QueryLexer.upper(text) }

    // MARK: Errors

    /// Converts a scalar offset from the lexer into a `Character` offset.
    private func characterOffset(_ scalarOffset: Int) -> Int {
        characterOffsets[max(0, min(scalarOffset, characterOffsets.count - 1))]
    }

    private func error(
        _ token: QueryToken, _ expected: String, kind: QueryParseError.Kind? = nil, found: String? = nil
    ) -> ParseFailure {
        let kind = kind ?? (token.kind == .end ? .unexpectedEnd : .unexpectedToken)
        return ParseFailure(
            QueryParseError(
                kind, query: query, found: found ?? token.text, offset: characterOffset(token.offset),
                expected: expected))
    }

    /// The query text from the start of `first` to the end of `last`, as written.
    private func sourceText(from first: QueryToken, through last: QueryToken) -> String {
        let scalars = query.unicodeScalars
        let end = last.offset + last.text.unicodeScalars.count
        guard first.offset <= end, end <= scalars.count else { return last.text }
        let lower = scalars.index(scalars.startIndex, offsetBy: first.offset)
        let upper = scalars.index(scalars.startIndex, offsetBy: end)
        return String(scalars[lower..<upper])
    }

    private func place(of token: QueryToken) -> String {
        let e = error(token, "").error
        return e.line == 1 ? "column \(e.column)" : "line \(e.line), column \(e.column)"
    }

    private func enterNesting(_ token: QueryToken) throws(ParseFailure) {
        depth += 1
        if depth > ParsedQuery.maximumNestingDepth { throw nestingTooDeep(token) }
    }

    @inline(never)
    private func nestingTooDeep(_ token: QueryToken) -> ParseFailure {
        error(
            token,
            "expected at most \(ParsedQuery.maximumNestingDepth) levels of parentheses and NOT; split the query or remove redundant parentheses",
            kind: .nestingTooDeep)
    }

    private func expectedPredicate(after previous: QueryToken?) -> String {
        guard let previous else {
            return "expected a comparison such as name == 'Rex' (or TRUEPREDICATE to match every object)"
        }
        return "expected a comparison after '\(previous.text)', e.g. age > 3"
    }

    // MARK: Logic

    private func parseOr(after previous: QueryToken?) throws(ParseFailure) -> QueryPredicate {
        var children: [QueryPredicate] = []
        Self.append(
            try parseAnd(after: previous), to: &children, flattening: { if case .or(let c) = $0 { c } else { nil } })
        while true {
            let token = try peek()
            guard keyword(token) == .or || isSymbol(token, "||") else { break }
            try advance()
            Self.append(
                try parseAnd(after: token), to: &children, flattening: { if case .or(let c) = $0 { c } else { nil } })
        }
        return children.count == 1 ? children[0] : .or(children)
    }

    private func parseAnd(after previous: QueryToken?) throws(ParseFailure) -> QueryPredicate {
        var children: [QueryPredicate] = []
        Self.append(
            try parseNot(after: previous), to: &children, flattening: { if case .and(let c) = $0 { c } else { nil } })
        while true {
            let token = try peek()
            guard keyword(token) == .and || isSymbol(token, "&&") else { break }
            try advance()
            Self.append(
                try parseNot(after: token), to: &children, flattening: { if case .and(let c) = $0 { c } else { nil } })
        }
        return children.count == 1 ? children[0] : .and(children)
    }

    /// `a AND (b AND c)` is `.and([a, b, c])`: the canonical form has no `.and` directly in an `.and`.
    private static func append(
        _ child: QueryPredicate, to children: inout [QueryPredicate],
        flattening: (QueryPredicate) -> [QueryPredicate]?
    ) {
        if let grandchildren = flattening(child) {
            children.append(contentsOf: grandchildren)
        } else {
            children.append(child)
        }
    }

    private func parseNot(after previous: QueryToken?) throws(ParseFailure) -> QueryPredicate {
        let token = try peek()
        guard keyword(token) == .not || isSymbol(token, "!") else { return try parsePrimary(after: previous) }
        try advance()
        try enterNesting(token)
        defer { depth -= 1 }
        return .not(try parseNot(after: token))
    }

    private func parsePrimary(after previous: QueryToken?) throws(ParseFailure) -> QueryPredicate {
        let token = try peek()
        if isSymbol(token, "(") {
            try advance()
            try enterNesting(token)
            defer { depth -= 1 }
            let inner = try parseOr(after: token)
            let close = try peek()
            guard isSymbol(close, ")") else { throw unclosedParenthesis(close, open: token) }
            try advance()
            return inner
        }
        switch keyword(token) {
        case .truePredicate:
            try advance()
            return .truePredicate
        case .falsePredicate:
            try advance()
            return .falsePredicate
        case .and, .or, .in, .between, .beginsWith, .endsWith, .contains, .like, .matches:
            throw missingPredicate(token, after: previous)
        default:
            break
        }
        if token.kind == .end || (token.kind == .symbol && !isSymbol(token, "{") && !isSymbol(token, "-")) {
            throw missingPredicate(token, after: previous)
        }
        return .comparison(try parseComparison(after: previous))
    }

    // The error constructors of the recursive functions live out of line: inlined, their string
    // interpolations made every frame of the recursion several kilobytes large.

    @inline(never)
    private func missingPredicate(_ token: QueryToken, after previous: QueryToken?) -> ParseFailure {
        error(token, expectedPredicate(after: previous))
    }

    @inline(never)
    private func unclosedParenthesis(_ token: QueryToken, open: QueryToken) -> ParseFailure {
        error(token, "expected AND, OR or ')' to close the '(' at \(place(of: open))")
    }

    // MARK: Comparisons

    @inline(never)
    private func parseComparison(after previous: QueryToken?) throws(ParseFailure) -> QueryComparison {
        var quantifier: QueryQuantifier?
        var lastToken = previous
        let first = try peek()
        switch keyword(first) {
        case .anyQuantifier, .someQuantifier: quantifier = .any
        case .allQuantifier: quantifier = .all
        case .noneQuantifier: quantifier = .noElement
        default: break
        }
        if quantifier != nil {
            try advance()
            lastToken = first
            let next = try peek()
            let startsKeyPath =
                (next.kind == .word && keyword(next) == nil) || next.kind == .keyPathPlaceholder
                || next.kind == .atWord  // so that `ANY @links...` reports @links
                || { if case .variable = next.kind { true } else { false } }()
            guard startsKeyPath else {
                throw error(
                    next, "expected a key path after '\(first.text)', e.g. \(Self.upper(first.text)) dogs.name == 'Rex'"
                )
            }
        }

        let leftToken = try peek()
        let left = try parseOperand(
            lastToken.map {
                "expected a value after '\($0.text)' (a number, a string in quotes, %@, or a property name)"
            }
                ?? "expected a comparison such as name == 'Rex' (or TRUEPREDICATE to match every object)")
        if case .list = left {
            throw error(
                leftToken,
                "expected a property name before the operator; a list in braces can only follow IN or BETWEEN",
                found: "{")
        }

        let (op, opToken) = try parseOperator(left: left, leftToken: leftToken)
        let options = try parseOptions(op, opToken)
        let operatorText =
            tokens[position - 1].text == "]" ? "\(opToken.text)\(Self.modifierText(options))" : opToken.text

        let rightToken = try peek()
        let right = try parseOperand(
            "expected a value after '\(operatorText)' (a number, a string in quotes, %@, or a property name)")
        try validate(op: op, opText: operatorText, right: right, rightToken: rightToken)

        // Normalise `5 < age` to `age > 5`. Only a real key path on the right is swapped in, never
        // `%K`, so the placeholders keep their reading order (the printer relies on it).
        if !left.isKeyPath, !Self.isSubquery(left), Self.isKeyPathOrSubquery(right), let mirrored = op.mirrored {
            return QueryComparison(right, mirrored, left, options: options, quantifier: quantifier)
        }
        return QueryComparison(left, op, right, options: options, quantifier: quantifier)
    }

    private static func isSubquery(_ operand: QueryOperand) -> Bool {
        if case .subqueryCount = operand { return true }
        return false
    }

    private static func isKeyPathOrSubquery(_ operand: QueryOperand) -> Bool {
        if case .keyPath = operand { return true }
        return isSubquery(operand)
    }

    private static func modifierText(_ options: QueryStringOptions) -> String {
        "[" + (options.contains(.caseInsensitive) ? "c" : "") + (options.contains(.diacriticInsensitive) ? "d" : "")
            + "]"
    }

    private static let operatorList = "==, !=, <, <=, >, >=, BEGINSWITH, ENDSWITH, CONTAINS, LIKE, IN or BETWEEN"

    private func parseOperator(
        left: QueryOperand, leftToken: QueryToken
    ) throws(ParseFailure) -> (QueryOperator, QueryToken) {
        let token = try peek()
        // Only error paths need the left operand's text; computing it eagerly made long queries quadratic.
        let lastLeftToken = tokens[position - 1]
        var previous: String { sourceText(from: leftToken, through: lastLeftToken) }
        let op: QueryOperator?
        switch token.kind {
        case .symbol:
            switch token.text {
            case "==", "=": op = .equal
            case "!=", "<>": op = .notEqual
            case "<": op = .lessThan
            case "<=", "=<": op = .lessThanOrEqual
            case ">": op = .greaterThan
            case ">=", "=>": op = .greaterThanOrEqual
            case "[":
                throw error(
                    token,
                    "expected an operator after '\(previous)'; modifiers such as [c] go right after the operator (name ==[c] 'rex'), and subscripts such as dogs[0] are not supported"
                )
            default: op = nil
            }
        case .word:
            switch Self.upper(token.text) {
            case "BEGINSWITH": op = .beginsWith
            case "ENDSWITH": op = .endsWith
            case "CONTAINS": op = .contains
            case "LIKE": op = .like
            case "IN": op = .in
            case "BETWEEN": op = .between
            case "MATCHES":
                throw error(
                    token,
                    "regular expressions are not supported; use LIKE with * and ? wildcards, or BEGINSWITH, ENDSWITH or CONTAINS",
                    kind: .unsupported)
            case "TEXT", "GEOWITHIN":
                throw error(
                    token,
                    "full-text and geospatial queries are not supported; use CONTAINS, or compare latitude and longitude properties",
                    kind: .unsupported)
            case "NOT":
                throw error(
                    token,
                    "expected an operator after '\(previous)'; to negate a comparison put NOT in front of it: NOT (name IN {'Rex', 'Maui'})"
                )
            default: op = nil
            }
        default:
            op = nil
        }
        guard let op else {
            var expected = "expected an operator after '\(previous)' (\(Self.operatorList))"
            let endsComparison =
                token.kind == .end || isSymbol(token, ")") || isSymbol(token, "&&") || isSymbol(token, "||")
                || keyword(token) == .and || keyword(token) == .or
            if case .keyPath(_, nil) = left, endsComparison {
                expected += "; for a Bool property write \(previous) == true"
            }
            throw error(token, expected)
        }
        try advance()
        return (op, token)
    }

    private func parseOptions(_ op: QueryOperator, _ opToken: QueryToken) throws(ParseFailure) -> QueryStringOptions {
        let open = try peek()
        guard isSymbol(open, "[") else { return [] }
        try advance()
        let letters = try peek()
        var options: QueryStringOptions = []
        var valid = letters.kind == .word
        if valid {
            for letter in Self.upper(letters.text) {
                let option: QueryStringOptions
                switch letter {
                case "C": option = .caseInsensitive
                case "D": option = .diacriticInsensitive
                default: valid = false; option = []
                }
                if options.contains(option) { valid = false }
                options.insert(option)
            }
        }
        guard valid else {
            throw error(
                letters,
                "expected c (case-insensitive), d (diacritic-insensitive) or cd inside '[...]' after '\(opToken.text)', e.g. ==[c]"
            )
        }
        try advance()
        let close = try peek()
        guard isSymbol(close, "]") else {
            throw error(close, "expected ']' to close '[\(letters.text)'")
        }
        try advance()
        guard op.acceptsStringOptions else {
            throw error(
                open,
                "[\(letters.text)] can only follow ==, !=, BEGINSWITH, ENDSWITH, CONTAINS or LIKE; remove it after '\(opToken.text)'",
                found: "[\(letters.text)]")
        }
        return options
    }

    private func validate(
        op: QueryOperator, opText: String, right: QueryOperand, rightToken: QueryToken
    ) throws(ParseFailure) {
        switch (op, right) {
        case (.between, .list(let values)):
            if values.count != 2 {
                throw error(
                    rightToken,
                    "expected exactly two values after BETWEEN, e.g. age BETWEEN {1, 5}; found \(values.count)",
                    found: "{")
            }
        case (.between, .argument):
            break
        case (.between, _):
            throw error(rightToken, "expected {low, high} or %@ after BETWEEN, e.g. age BETWEEN {1, 5}")
        case (.in, .list), (.in, .argument), (.in, .keyPath), (.in, .keyPathArgument):
            break
        case (.in, .literal):
            throw error(
                rightToken, "expected a list in braces, %@ or a list property after IN, e.g. name IN {'Rex', 'Maui'}")
        case (_, .list):
            throw error(
                rightToken, "expected a single value after '\(opText)'; a list in braces can only follow IN or BETWEEN",
                found: "{")
        default:
            break
        }
    }

    // MARK: Operands

    /// Parses one operand; `expected` describes what may stand here, for the error message.
    private func parseOperand(_ expected: @autoclosure () -> String) throws(ParseFailure) -> QueryOperand {
        let token = try peek()
        switch token.kind {
        case .word:
            switch keyword(token) {
            case .true: try advance(); return .literal(.bool(true))
            case .false: try advance(); return .literal(.bool(false))
            case .nil, .null: try advance(); return .literal(.null)
            case .anyQuantifier, .someQuantifier, .allQuantifier, .noneQuantifier:
                throw error(
                    token,
                    "expected a value; ANY, ALL, NONE and SOME go once, at the start of a comparison: ANY dogs.name == 'Rex'"
                )
            case .subquery:
                return try parseSubquery()
            case .some:
                throw error(token, expected())
            case nil:
                if let special = Self.specialDouble(token.text) {
                    try advance()
                    return .literal(.double(special))
                }
                if let variable = variables.last { throw outsideVariable(token, variable: variable) }
                return try parseKeyPath()
            }
        case .variable(let name):
            guard let variable = variables.last else {
                throw error(
                    token,
                    "named variables such as \(name) only name the element inside SUBQUERY(collection, \(name), ...); write $0, $1, ... for arguments by position",
                    kind: .unsupported)
            }
            guard name == variable else { throw outsideVariable(token, variable: variable) }
            return try parseKeyPath()
        case .atWord:
            if Self.upper(token.text) == "@LINKS" {
                if let variable = variables.last { throw outsideVariable(token, variable: variable) }
                return try parseKeyPath()
            }
            if Self.aggregateNames.contains(Self.upper(token.text)) {
                throw error(token, "expected a collection property before '\(token.text)', e.g. dogs.\(token.text)")
            }
            throw unknownAggregate(token)
        case .integer, .real:
            return .literal(try number(negative: false))
        case .typed(let literal):
            try advance()
            return .literal(literal)
        case .string(let value):
            try advance()
            return .literal(.string(value))
        case .positional:
            try advance()
            return .argument(index: try positional(token))
        case .keyPathPlaceholder:
            if let variable = variables.last {
                throw error(
                    token,
                    "%K cannot be used inside SUBQUERY(...); write the key path after \(variable), e.g. \(variable).name",
                    kind: .unsupported)
            }
            try advance()
            let index = try positional(token)
            let next = try peek()
            if isSymbol(next, ".") {
                throw error(
                    next,
                    "expected an operator after '%K'; %K stands for a whole key path, so pass the full path (such as \"dogs.@count\") as the argument"
                )
            }
            return .keyPathArgument(index: index)
        case .indexed(let index):
            try advance()
            if let firstPositional {
                throw mixedPlaceholders(token, other: firstPositional)
            }
            if firstIndexed == nil { firstIndexed = token }
            placeholders.append(
                ParsedQuery.Placeholder(index: index, offset: characterOffset(token.offset), text: token.text))
            return .argument(index: index)
        case .symbol:
            if token.text == "-" {
                try advance()
                let next = try peek()
                switch next.kind {
                case .integer, .real: return .literal(try number(negative: true))
                case .word where Self.specialDouble(next.text) != nil:
                    try advance()
                    return .literal(.double(-Self.specialDouble(next.text)!))
                default: throw error(next, "expected a number after '-'")
                }
            }
            if token.text == "{" { return try parseList() }
            if token.text == "(" {
                throw error(token, expected() + "; parentheses group comparisons, not values")
            }
            throw error(token, expected())
        case .end:
            throw error(token, expected())
        }
    }

    @inline(never)
    private func outsideVariable(_ token: QueryToken, variable: String) -> ParseFailure {
        error(
            token,
            "expected a key path starting with \(variable) inside SUBQUERY(..., \(variable), ...), e.g. \(variable).name; the subquery tests the collection's elements, and properties of other objects cannot be used there",
            kind: .unsupported)
    }

    /// `SUBQUERY(collection, $variable, predicate).@count`.
    @inline(never)
    private func parseSubquery() throws(ParseFailure) -> QueryOperand {
        let start = try advance()
        let example = "e.g. SUBQUERY(dogs, $d, $d.age > 3).@count > 0"
        let open = try peek()
        guard isSymbol(open, "(") else { throw error(open, "expected '(' after SUBQUERY, \(example)") }
        try advance()
        try enterNesting(start)
        defer { depth -= 1 }
        let first = try peek()
        switch first.kind {
        case .word where keyword(first) == nil:
            if let variable = variables.last { throw outsideVariable(first, variable: variable) }
        case .atWord where Self.upper(first.text) == "@LINKS":
            if let variable = variables.last { throw outsideVariable(first, variable: variable) }
        case .variable(let name):
            guard let variable = variables.last, name == variable else {
                throw error(
                    first,
                    "expected the key path of a list, set or LinkingObjects property after 'SUBQUERY('; \(name) is not the variable of an enclosing SUBQUERY",
                    kind: .unsupported)
            }
        default:
            throw error(
                first, "expected the key path of a list, set or LinkingObjects property after 'SUBQUERY(', \(example)")
        }
        guard case .keyPath(let collection, nil) = try parseKeyPath() else {
            throw error(
                first, "expected a collection property, not an aggregate, as the first argument of SUBQUERY, \(example)"
            )
        }
        if collection.count == 1, collection[0].hasPrefix("$") {
            throw error(first, "expected a collection property of \(collection[0]), e.g. \(collection[0]).toys")
        }
        let comma = try peek()
        guard isSymbol(comma, ",") else {
            throw error(comma, "expected ',' and a variable after the collection in SUBQUERY(...), \(example)")
        }
        try advance()
        let variableToken = try peek()
        guard case .variable(let variable) = variableToken.kind else {
            throw error(
                variableToken, "expected a variable that names each element, such as $d, in SUBQUERY(...), \(example)")
        }
        guard !variables.contains(variable) else {
            throw error(
                variableToken,
                "\(variable) already names the element of an enclosing SUBQUERY; give the inner subquery another variable"
            )
        }
        try advance()
        let secondComma = try peek()
        guard isSymbol(secondComma, ",") else {
            throw error(secondComma, "expected ',' and the predicate after \(variable) in SUBQUERY(...), \(example)")
        }
        try advance()
        variables.append(variable)
        let predicate = try parseOr(after: secondComma)
        variables.removeLast()
        let close = try peek()
        guard isSymbol(close, ")") else {
            throw error(close, "expected AND, OR or ')' to close the SUBQUERY at \(place(of: start))")
        }
        try advance()
        let dot = try peek()
        let countAdvice =
            "expected .@count after SUBQUERY(...): a subquery is compared by its number of matching elements, \(example)"
        guard isSymbol(dot, ".") else { throw error(dot, countAdvice) }
        try advance()
        let count = try peek()
        guard count.kind == .atWord, ["@COUNT", "@SIZE"].contains(Self.upper(count.text)) else {
            throw error(count, countAdvice, kind: count.kind == .atWord ? .unsupported : nil)
        }
        try advance()
        let next = try peek()
        if isSymbol(next, ".") {
            throw error(next, "expected an operator after SUBQUERY(...).\(count.text), \(example)")
        }
        return .subqueryCount(QuerySubquery(collection: collection, variable: variable, predicate: predicate))
    }

    /// `inf`, `infinity` and `nan` in any case, as realm-core reads them: they name no property.
    private static func specialDouble(_ word: String) -> Double? {
        switch upper(word) {
        case "INF", "INFINITY": return .infinity
        case "NAN": return .nan
        default: return nil
        }
    }

    private func positional(_ token: QueryToken) throws(ParseFailure) -> Int {
        if let firstIndexed {
            throw mixedPlaceholders(token, other: firstIndexed)
        }
        if firstPositional == nil { firstPositional = token }
        let index = positionalCount
        positionalCount += 1
        placeholders.append(
            ParsedQuery.Placeholder(index: index, offset: characterOffset(token.offset), text: token.text))
        return index
    }

    private func mixedPlaceholders(_ token: QueryToken, other: QueryToken) -> ParseFailure {
        error(
            token,
            "expected the same kind of placeholder as the '\(other.text)' at \(place(of: other)); use either %@ and %K (numbered in order) or $0, $1, ... in one query, not both",
            kind: .mixedPlaceholders)
    }

    private func number(negative: Bool) throws(ParseFailure) -> QueryLiteral {
        let token = try advance()
        switch token.kind {
        case .real(let value):
            return .double(negative ? -value : value)
        case .integer(let magnitude):
            if negative, magnitude == UInt64(Int64.max) + 1 { return .int(Int64.min) }
            guard magnitude <= UInt64(Int64.max) else {
                throw error(
                    token,
                    "expected an integer between -9223372036854775808 and 9223372036854775807; write a floating-point literal such as 1e20 for larger values",
                    kind: .invalidNumber)
            }
            return .int(negative ? -Int64(magnitude) : Int64(magnitude))
        default:
            throw error(token, "expected a number")
        }
    }

    private func parseList() throws(ParseFailure) -> QueryOperand {
        let open = try advance()
        var elements: [QueryOperand] = []
        if isSymbol(try peek(), "}") {
            try advance()
            return .list(elements)
        }
        // Computed once per list: rebuilding it per element made long lists quadratic.
        let listPlace = place(of: open)
        while true {
            let elementToken = try peek()
            let element = try parseOperand(
                "expected a value in the list that starts at \(listPlace) (a number, a string in quotes, true, false, nil or %@)"
            )
            switch element {
            case .literal, .argument:
                elements.append(element)
            case .keyPath, .keyPathArgument, .subqueryCount:
                throw error(
                    elementToken,
                    "expected a constant or %@ in the list that starts at \(listPlace); property names cannot appear in {...}"
                )
            case .list:
                throw error(
                    elementToken,
                    "expected a constant or %@ in the list that starts at \(listPlace); lists cannot be nested",
                    found: "{")
            }
            let separator = try peek()
            if isSymbol(separator, ",") {
                try advance()
            } else if isSymbol(separator, "}") {
                try advance()
                return .list(elements)
            } else {
                throw error(separator, "expected ',' or '}' in the list that starts at \(listPlace)")
            }
        }
    }

    // MARK: Key paths

    private static let aggregateNames: Set<String> = ["@COUNT", "@SIZE", "@MIN", "@MAX", "@SUM", "@AVG", "@TYPE"]

    /// After `@links` in a key path: `.Class.property` (the objects of Class linking here through
    /// property), appended to `components`, or `.@count` / `.@size` (every link to the object),
    /// which ends the key path.
    private func parseLinks(_ components: inout [String], _ links: QueryToken) throws(ParseFailure) -> QueryOperand? {
        let example = "e.g. @links.Person.dogs.name == 'Ann' or @links.@count > 0"
        let dot = try peek()
        guard isSymbol(dot, ".") else {
            throw error(dot, "expected '.' and a class name after @links, \(example)")
        }
        try advance()
        let className = try peek()
        if className.kind == .atWord {
            let name = Self.upper(className.text)
            guard name == "@COUNT" || name == "@SIZE" else {
                throw error(
                    className, "expected a class name, @count or @size after '@links.', \(example)", kind: .unsupported)
            }
            try advance()
            if isSymbol(try peek(), ".") {
                throw error(try peek(), "expected an operator after @links.\(className.text), \(example)")
            }
            return .keyPath(components, aggregate: name == "@COUNT" ? .count : .size)
        }
        guard className.kind == .word else {
            throw error(className, "expected a class name after '@links.', \(example)")
        }
        try advance()
        let secondDot = try peek()
        guard isSymbol(secondDot, ".") else {
            throw error(
                secondDot,
                "expected '.' and the property of \(className.text) that links here after '@links.\(className.text)', \(example)"
            )
        }
        try advance()
        let property = try peek()
        guard property.kind == .word else {
            throw error(
                property, "expected the property of \(className.text) that links here after '@links.\(className.text).'"
            )
        }
        try advance()
        components.append(className.text)
        components.append(property.text)
        return nil
    }

    private func unknownAggregate(_ token: QueryToken) -> ParseFailure {
        error(
            token,
            "expected one of the collection operators @count, @size, @min, @max, @sum, @avg, @keys, @values, @type or @links; \(token.text) is not supported",
            kind: .unsupported)
    }

    private func parseKeyPath() throws(ParseFailure) -> QueryOperand {
        let first = try advance()
        var components = [first.kind == .atWord ? "@links" : first.text]
        if first.kind == .atWord, let counted = try parseLinks(&components, first) { return counted }
        while isSymbol(try peek(), ".") {
            try advance()
            let token = try peek()
            switch token.kind {
            case .word:
                try advance()
                components.append(token.text)
            case .atWord where Self.upper(token.text) == "@LINKS":
                try advance()
                components.append("@links")
                if let counted = try parseLinks(&components, token) { return counted }
            case .atWord:
                try advance()
                let aggregate = try parseAggregate(token, after: components.joined(separator: "."))
                return .keyPath(components, aggregate: aggregate)
            default:
                throw error(token, "expected a property name after '\(components.joined(separator: ".")).'")
            }
        }
        if isSymbol(try peek(), "[") {
            return .keyPath(components, aggregate: try parseMapSubscript(after: components.joined(separator: ".")))
        }
        if isSymbol(try peek(), "(") {
            let paren = try peek()
            let name = components.joined(separator: ".")
            switch Self.upper(name) {
            case "SORT", "DISTINCT", "LIMIT":
                throw error(
                    paren,
                    "\(name)(...) goes after the filter (TRUEPREDICATE \(name)(...) to order every object)",
                    kind: .unsupported, found: name)
            default:
                throw error(paren, "expected an operator after '\(name)'; function calls are not supported")
            }
        }
        return .keyPath(components, aggregate: nil)
    }

    /// `['key']` after a map property: the value for one key. Positional access (`dogs[0]`) is
    /// refused at the bracket.
    private func parseMapSubscript(after path: String) throws(ParseFailure) -> QueryAggregate {
        let open = try advance()
        let key = try peek()
        if key.kind == .word, ["C", "D", "CD", "DC"].contains(Self.upper(key.text)) {
            throw error(
                open,
                "expected an operator after '\(path)'; modifiers such as [c] go right after the operator (\(path) ==[c] 'rex'), and subscripts such as dogs[0] are not supported"
            )
        }
        guard case .string(let text) = key.kind else {
            throw error(
                open,
                "subscripts take a map key in quotes, e.g. \(path)['color']; positional access such as dogs[0], [FIRST] or [LAST] is not supported",
                kind: .unsupported, found: "[")
        }
        try advance()
        let close = try peek()
        guard isSymbol(close, "]") else { throw error(close, "expected ']' after the key in \(path)['\(text)']") }
        try advance()
        let next = try peek()
        if isSymbol(next, ".") || isSymbol(next, "[") {
            throw error(
                next,
                "expected an operator after '\(path)['\(text)']'; compare the value directly, e.g. \(path)['\(text)'] == 'x'"
            )
        }
        return .element(text)
    }

    private func parseAggregate(_ token: QueryToken, after path: String) throws(ParseFailure) -> QueryAggregate {
        let name = Self.upper(token.text)
        let make: (String?) -> QueryAggregate
        switch name {
        case "@COUNT", "@SIZE":
            let next = try peek()
            if isSymbol(next, ".") {
                throw error(
                    next,
                    "expected an operator after '\(path).\(token.text)'; nothing can follow \(token.text), e.g. \(path).\(token.text) > 2"
                )
            }
            return name == "@COUNT" ? .count : .size
        case "@KEYS", "@VALUES", "@TYPE":
            let next = try peek()
            if isSymbol(next, ".") {
                throw error(
                    next,
                    "expected an operator after '\(path).\(token.text)'; nothing can follow \(token.text), e.g. \(path).\(token.text) == 'x'"
                )
            }
            return name == "@KEYS" ? .keys : name == "@VALUES" ? .values : .type
        case "@MIN": make = QueryAggregate.min
        case "@MAX": make = QueryAggregate.max
        case "@SUM": make = QueryAggregate.sum
        case "@AVG": make = QueryAggregate.avg
        default: throw unknownAggregate(token)
        }
        guard isSymbol(try peek(), ".") else { return make(nil) }
        try advance()
        let property = try peek()
        guard property.kind == .word else {
            throw error(
                property, "expected a property name after '\(path).\(token.text).', e.g. dogs.\(token.text).age")
        }
        try advance()
        let next = try peek()
        if isSymbol(next, ".") {
            throw error(
                next,
                "expected an operator after '\(path).\(token.text).\(property.text)'; \(token.text) takes a single property of the elements, e.g. dogs.\(token.text).age"
            )
        }
        return make(property.text)
    }
}
