// Recursive-descent parser for the query grammar in Docs/QueryLanguage.md:
//
//   query      := or END
//   or         := and (("OR" | "||") and)*
//   and        := not (("AND" | "&&") not)*
//   not        := ("NOT" | "!") not | primary
//   primary    := "(" or ")" | "TRUEPREDICATE" | "FALSEPREDICATE" | comparison
//   comparison := quantifier? operand operator modifier? operand
//   operand    := keypath | literal | "%@" | "$" digits | "%K" | "{" (operand ("," operand)*)? "}"
//
// Recursion happens only through "(" and NOT, and both count against `maximumNestingDepth`, so no
// input can exhaust the stack. Lists of AND/OR operands are parsed in loops.

struct QueryParser {
    private let query: String
    private let tokens: [QueryToken]
    private let lexError: QueryLexError?
    private var position = 0
    private var depth = 0

    // Placeholders, in reading order.
    private(set) var placeholders: [ParsedQuery.Placeholder] = []
    private var positionalCount = 0
    private var firstPositional: QueryToken?
    private var firstIndexed: QueryToken?

    init(_ query: String) {
        self.query = query
        (tokens, lexError) = QueryLexer.tokenize(query)
    }

    /// The number of arguments the query expects: the count of `%@` and `%K`, or one more than
    /// the largest `$n`.
    var argumentCount: Int {
        if firstIndexed != nil { return (placeholders.map(\.index).max() ?? -1) + 1 }
        return positionalCount
    }

    mutating func parseQuery() throws(QueryParseError) -> QueryPredicate {
        let predicate = try parseOr(after: nil)
        let token = try peek()
        switch token.kind {
        case .end:
            return predicate
        case .symbol where token.text == ")":
            throw error(token, "expected the end of the query; this ')' has no matching '('")
        case .word where ["SORT", "DISTINCT", "LIMIT"].contains(token.text.uppercased()):
            throw error(
                token, "\(token.text.uppercased()) is not supported in a filter; sort with sorted(byKeyPath:) and limit with prefix(_:) on the results",
                kind: .unsupported)
        default:
            throw error(token, "expected AND, OR or the end of the query; join comparisons with AND or OR")
        }
    }

    // MARK: Tokens

    private func peek() throws(QueryParseError) -> QueryToken {
        if position < tokens.count { return tokens[position] }
        if let lexError {
            throw QueryParseError(
                lexError.kind, query: query, found: lexError.found,
                offset: characterOffset(lexError.offset), expected: lexError.expected)
        }
        // Unreachable: the lexer ends with `.end` unless it failed. Answer `.end` rather than trap.
        return QueryToken(kind: .end, text: "", offset: query.unicodeScalars.count)
    }

    @discardableResult
    private mutating func advance() throws(QueryParseError) -> QueryToken {
        let token = try peek()
        if token.kind != .end { position += 1 }
        return token
    }

    private func isSymbol(_ token: QueryToken, _ symbols: String...) -> Bool {
        token.kind == .symbol && symbols.contains(token.text)
    }

    /// The keyword `token` spells, uppercased, or `nil` if it is not one.
    private func keyword(_ token: QueryToken) -> String? {
        guard token.kind == .word else { return nil }
        let upper = token.text.uppercased()
        return Self.keywords.contains(upper) ? upper : nil
    }

    /// Words that cannot start a key path. A property with one of these names is reachable with
    /// `%K` or after a dot (`owner.in`).
    static let keywords: Set<String> = [
        "AND", "OR", "NOT", "IN", "BETWEEN", "BEGINSWITH", "ENDSWITH", "CONTAINS", "LIKE",
        "ANY", "SOME", "ALL", "NONE", "TRUEPREDICATE", "FALSEPREDICATE", "TRUE", "FALSE", "NIL", "NULL",
        "SUBQUERY", "MATCHES",
    ]

    // MARK: Errors

    /// Converts a scalar offset from the lexer into a `Character` offset.
    private func characterOffset(_ scalarOffset: Int) -> Int {
        var scalars = 0
        var characters = 0
        for character in query {
            let next = scalars + character.unicodeScalars.count
            if next > scalarOffset { return characters }
            scalars = next
            characters += 1
        }
        return characters
    }

    private func error(
        _ token: QueryToken, _ expected: String, kind: QueryParseError.Kind? = nil, found: String? = nil
    ) -> QueryParseError {
        let kind = kind ?? (token.kind == .end ? .unexpectedEnd : .unexpectedToken)
        return QueryParseError(
            kind, query: query, found: found ?? token.text, offset: characterOffset(token.offset),
            expected: expected)
    }

    private func column(of token: QueryToken) -> Int {
        error(token, "").column
    }

    private func place(of token: QueryToken) -> String {
        let e = error(token, "")
        return e.line == 1 ? "column \(e.column)" : "line \(e.line), column \(e.column)"
    }

    private mutating func enterNesting(_ token: QueryToken) throws(QueryParseError) {
        depth += 1
        if depth > ParsedQuery.maximumNestingDepth {
            throw error(
                token,
                "expected at most \(ParsedQuery.maximumNestingDepth) levels of parentheses and NOT; split the query or remove redundant parentheses",
                kind: .nestingTooDeep)
        }
    }

    private func expectedPredicate(after previous: QueryToken?) -> String {
        guard let previous else {
            return "expected a comparison such as name == 'Rex' (or TRUEPREDICATE to match every object)"
        }
        return "expected a comparison after '\(previous.text)', e.g. age > 3"
    }

    // MARK: Logic

    private mutating func parseOr(after previous: QueryToken?) throws(QueryParseError) -> QueryPredicate {
        var children: [QueryPredicate] = []
        Self.append(try parseAnd(after: previous), to: &children, flattening: { if case .or(let c) = $0 { c } else { nil } })
        while true {
            let token = try peek()
            guard keyword(token) == "OR" || isSymbol(token, "||") else { break }
            try advance()
            Self.append(try parseAnd(after: token), to: &children, flattening: { if case .or(let c) = $0 { c } else { nil } })
        }
        return children.count == 1 ? children[0] : .or(children)
    }

    private mutating func parseAnd(after previous: QueryToken?) throws(QueryParseError) -> QueryPredicate {
        var children: [QueryPredicate] = []
        Self.append(try parseNot(after: previous), to: &children, flattening: { if case .and(let c) = $0 { c } else { nil } })
        while true {
            let token = try peek()
            guard keyword(token) == "AND" || isSymbol(token, "&&") else { break }
            try advance()
            Self.append(try parseNot(after: token), to: &children, flattening: { if case .and(let c) = $0 { c } else { nil } })
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

    private mutating func parseNot(after previous: QueryToken?) throws(QueryParseError) -> QueryPredicate {
        let token = try peek()
        guard keyword(token) == "NOT" || isSymbol(token, "!") else { return try parsePrimary(after: previous) }
        try advance()
        try enterNesting(token)
        defer { depth -= 1 }
        return .not(try parseNot(after: token))
    }

    private mutating func parsePrimary(after previous: QueryToken?) throws(QueryParseError) -> QueryPredicate {
        let token = try peek()
        if isSymbol(token, "(") {
            try advance()
            try enterNesting(token)
            defer { depth -= 1 }
            let inner = try parseOr(after: token)
            let close = try peek()
            guard isSymbol(close, ")") else {
                throw error(close, "expected AND, OR or ')' to close the '(' at \(place(of: token))")
            }
            try advance()
            return inner
        }
        switch keyword(token) {
        case "TRUEPREDICATE":
            try advance()
            return .truePredicate
        case "FALSEPREDICATE":
            try advance()
            return .falsePredicate
        case "AND", "OR", "IN", "BETWEEN", "BEGINSWITH", "ENDSWITH", "CONTAINS", "LIKE", "MATCHES":
            throw error(token, expectedPredicate(after: previous))
        default:
            break
        }
        switch token.kind {
        case .end:
            throw error(token, expectedPredicate(after: previous))
        case .symbol where !isSymbol(token, "{", "-"):
            throw error(token, expectedPredicate(after: previous))
        default:
            return .comparison(try parseComparison(after: previous))
        }
    }

    // MARK: Comparisons

    private mutating func parseComparison(after previous: QueryToken?) throws(QueryParseError) -> QueryComparison {
        var quantifier: QueryQuantifier?
        var lastToken = previous
        let first = try peek()
        switch keyword(first) {
        case "ANY", "SOME": quantifier = .any
        case "ALL": quantifier = .all
        case "NONE": quantifier = .noElement
        default: break
        }
        if quantifier != nil {
            try advance()
            lastToken = first
            let next = try peek()
            let startsKeyPath = (next.kind == .word && keyword(next) == nil) || next.kind == .keyPathPlaceholder
                || next.kind == .atWord  // so that `ANY @links...` reports @links
            guard startsKeyPath else {
                throw error(next, "expected a key path after '\(first.text)', e.g. \(first.text.uppercased()) dogs.name == 'Rex'")
            }
        }

        let leftToken = try peek()
        let left = try parseOperand(
            lastToken.map { "expected a value after '\($0.text)' (a number, a string in quotes, %@, or a property name)" }
                ?? "expected a comparison such as name == 'Rex' (or TRUEPREDICATE to match every object)")
        if case .list = left {
            throw error(leftToken, "expected a property name before the operator; a list in braces can only follow IN or BETWEEN", found: "{")
        }

        let (op, opToken) = try parseOperator(left: left, leftToken: leftToken)
        let options = try parseOptions(op, opToken)
        let operatorText = tokens[position - 1].text == "]" ? "\(opToken.text)\(Self.modifierText(options))" : opToken.text

        let rightToken = try peek()
        let right = try parseOperand(
            "expected a value after '\(operatorText)' (a number, a string in quotes, %@, or a property name)")
        try validate(op: op, opText: operatorText, right: right, rightToken: rightToken)

        // Normalise `5 < age` to `age > 5`. Only a real key path on the right is swapped in, never
        // `%K`, so the placeholders keep their reading order (the printer relies on it).
        if !left.isKeyPath, case .keyPath = right, let mirrored = op.mirrored {
            return QueryComparison(right, mirrored, left, options: options, quantifier: quantifier)
        }
        return QueryComparison(left, op, right, options: options, quantifier: quantifier)
    }

    private static func modifierText(_ options: QueryStringOptions) -> String {
        "[" + (options.contains(.caseInsensitive) ? "c" : "") + (options.contains(.diacriticInsensitive) ? "d" : "") + "]"
    }

    private static let operatorList = "==, !=, <, <=, >, >=, BEGINSWITH, ENDSWITH, CONTAINS, LIKE, IN or BETWEEN"

    private mutating func parseOperator(
        left: QueryOperand, leftToken: QueryToken
    ) throws(QueryParseError) -> (QueryOperator, QueryToken) {
        let token = try peek()
        let previous = tokens[position - 1].text
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
                throw error(token, "expected an operator after '\(previous)'; modifiers such as [c] go right after the operator (name ==[c] 'rex'), and subscripts such as dogs[0] are not supported")
            default: op = nil
            }
        case .word:
            switch token.text.uppercased() {
            case "BEGINSWITH": op = .beginsWith
            case "ENDSWITH": op = .endsWith
            case "CONTAINS": op = .contains
            case "LIKE": op = .like
            case "IN": op = .in
            case "BETWEEN": op = .between
            case "MATCHES":
                throw error(token, "regular expressions are not supported; use LIKE with * and ? wildcards, or BEGINSWITH, ENDSWITH or CONTAINS", kind: .unsupported)
            case "TEXT", "GEOWITHIN":
                throw error(token, "full-text and geospatial queries are not supported; use CONTAINS, or compare latitude and longitude properties", kind: .unsupported)
            case "NOT":
                throw error(token, "expected an operator after '\(previous)'; to negate a comparison put NOT in front of it: NOT (name IN {'Rex', 'Maui'})")
            default: op = nil
            }
        default:
            op = nil
        }
        guard let op else {
            var expected = "expected an operator after '\(previous)' (\(Self.operatorList))"
            let endsComparison = token.kind == .end || isSymbol(token, ")", "&&", "||") || keyword(token) == "AND" || keyword(token) == "OR"
            if case .keyPath = left, endsComparison {
                expected += "; for a Bool property write \(previous) == true"
            }
            throw error(token, expected)
        }
        try advance()
        return (op, token)
    }

    private mutating func parseOptions(_ op: QueryOperator, _ opToken: QueryToken) throws(QueryParseError) -> QueryStringOptions {
        let open = try peek()
        guard isSymbol(open, "[") else { return [] }
        try advance()
        let letters = try peek()
        var options: QueryStringOptions = []
        var valid = letters.kind == .word
        if valid {
            for letter in letters.text.lowercased() {
                let option: QueryStringOptions
                switch letter {
                case "c": option = .caseInsensitive
                case "d": option = .diacriticInsensitive
                default: valid = false; option = []
                }
                if options.contains(option) { valid = false }
                options.insert(option)
            }
        }
        guard valid else {
            throw error(letters, "expected c (case-insensitive), d (diacritic-insensitive) or cd inside '[...]' after '\(opToken.text)', e.g. ==[c]")
        }
        try advance()
        let close = try peek()
        guard isSymbol(close, "]") else {
            throw error(close, "expected ']' to close '[\(letters.text)'")
        }
        try advance()
        guard op.acceptsStringOptions else {
            throw error(
                open, "[\(letters.text)] can only follow ==, !=, BEGINSWITH, ENDSWITH, CONTAINS or LIKE; remove it after '\(opToken.text)'",
                found: "[\(letters.text)]")
        }
        return options
    }

    private func validate(op: QueryOperator, opText: String, right: QueryOperand, rightToken: QueryToken) throws(QueryParseError) {
        switch (op, right) {
        case (.between, .list(let values)):
            if values.count != 2 {
                throw error(rightToken, "expected exactly two values after BETWEEN, e.g. age BETWEEN {1, 5}; found \(values.count)", found: "{")
            }
        case (.between, .argument):
            break
        case (.between, _):
            throw error(rightToken, "expected {low, high} or %@ after BETWEEN, e.g. age BETWEEN {1, 5}")
        case (.in, .list), (.in, .argument), (.in, .keyPath), (.in, .keyPathArgument):
            break
        case (.in, .literal):
            throw error(rightToken, "expected a list in braces, %@ or a list property after IN, e.g. name IN {'Rex', 'Maui'}")
        case (_, .list):
            throw error(rightToken, "expected a single value after '\(opText)'; a list in braces can only follow IN or BETWEEN", found: "{")
        default:
            break
        }
    }

    // MARK: Operands

    /// Parses one operand; `expected` describes what may stand here, for the error message.
    private mutating func parseOperand(_ expected: String) throws(QueryParseError) -> QueryOperand {
        let token = try peek()
        switch token.kind {
        case .word:
            switch keyword(token) {
            case "TRUE": try advance(); return .literal(.bool(true))
            case "FALSE": try advance(); return .literal(.bool(false))
            case "NIL", "NULL": try advance(); return .literal(.null)
            case "ANY", "SOME", "ALL", "NONE":
                throw error(token, "expected a value; ANY, ALL, NONE and SOME go once, at the start of a comparison: ANY dogs.name == 'Rex'")
            case "SUBQUERY":
                throw error(token, "SUBQUERY is not supported; use ANY, ALL or NONE with one comparison (ANY dogs.age > 3), or @count", kind: .unsupported)
            case .some:
                throw error(token, expected)
            case nil:
                return try parseKeyPath()
            }
        case .atWord:
            if token.text.lowercased() == "@links" { throw linksUnsupported(token) }
            if Self.aggregateNames.contains(token.text.lowercased()) {
                throw error(token, "expected a collection property before '\(token.text)', e.g. dogs.\(token.text)")
            }
            throw unknownAggregate(token)
        case .integer, .real:
            return .literal(try number(negative: false))
        case .string(let value):
            try advance()
            return .literal(.string(value))
        case .positional:
            try advance()
            return .argument(index: try positional(token))
        case .keyPathPlaceholder:
            try advance()
            let index = try positional(token)
            let next = try peek()
            if isSymbol(next, ".") {
                throw error(next, "expected an operator after '%K'; %K stands for a whole key path, so pass the full path (such as \"dogs.@count\") as the argument")
            }
            return .keyPathArgument(index: index)
        case .indexed(let index):
            try advance()
            if let firstPositional {
                throw mixedPlaceholders(token, other: firstPositional)
            }
            if firstIndexed == nil { firstIndexed = token }
            placeholders.append(ParsedQuery.Placeholder(index: index, offset: characterOffset(token.offset), text: token.text))
            return .argument(index: index)
        case .symbol:
            if token.text == "-" {
                try advance()
                let next = try peek()
                switch next.kind {
                case .integer, .real: return .literal(try number(negative: true))
                default: throw error(next, "expected a number after '-'")
                }
            }
            if token.text == "{" { return try parseList() }
            if token.text == "(" {
                throw error(token, expected + "; parentheses group comparisons, not values")
            }
            throw error(token, expected)
        case .end:
            throw error(token, expected)
        }
    }

    private mutating func positional(_ token: QueryToken) throws(QueryParseError) -> Int {
        if let firstIndexed {
            throw mixedPlaceholders(token, other: firstIndexed)
        }
        if firstPositional == nil { firstPositional = token }
        let index = positionalCount
        positionalCount += 1
        placeholders.append(ParsedQuery.Placeholder(index: index, offset: characterOffset(token.offset), text: token.text))
        return index
    }

    private func mixedPlaceholders(_ token: QueryToken, other: QueryToken) -> QueryParseError {
        error(
            token,
            "expected the same kind of placeholder as the '\(other.text)' at \(place(of: other)); use either %@ and %K (numbered in order) or $0, $1, ... in one query, not both",
            kind: .mixedPlaceholders)
    }

    private mutating func number(negative: Bool) throws(QueryParseError) -> QueryLiteral {
        let token = try advance()
        switch token.kind {
        case .real(let value):
            return .double(negative ? -value : value)
        case .integer(let magnitude):
            if negative, magnitude == UInt64(Int64.max) + 1 { return .int(Int64.min) }
            guard magnitude <= UInt64(Int64.max) else {
                throw error(
                    token, "expected an integer between -9223372036854775808 and 9223372036854775807; write a floating-point literal such as 1e20 for larger values",
                    kind: .invalidNumber)
            }
            return .int(negative ? -Int64(magnitude) : Int64(magnitude))
        default:
            throw error(token, "expected a number")
        }
    }

    private mutating func parseList() throws(QueryParseError) -> QueryOperand {
        let open = try advance()
        var elements: [QueryOperand] = []
        if isSymbol(try peek(), "}") {
            try advance()
            return .list(elements)
        }
        while true {
            let elementToken = try peek()
            let element = try parseOperand(
                "expected a value in the list that starts at \(place(of: open)) (a number, a string in quotes, true, false, nil or %@)")
            switch element {
            case .literal, .argument:
                elements.append(element)
            case .keyPath, .keyPathArgument:
                throw error(elementToken, "expected a constant or %@ in the list that starts at \(place(of: open)); property names cannot appear in {...}")
            case .list:
                throw error(elementToken, "expected a constant or %@ in the list that starts at \(place(of: open)); lists cannot be nested", found: "{")
            }
            let separator = try peek()
            if isSymbol(separator, ",") {
                try advance()
            } else if isSymbol(separator, "}") {
                try advance()
                return .list(elements)
            } else {
                throw error(separator, "expected ',' or '}' in the list that starts at \(place(of: open))")
            }
        }
    }

    // MARK: Key paths

    private static let aggregateNames: Set<String> = ["@count", "@size", "@min", "@max", "@sum", "@avg"]

    private func linksUnsupported(_ token: QueryToken) -> QueryParseError {
        error(
            token,
            "backlink queries (@links) are not supported; declare a LinkingObjects property on the model and query it by name",
            kind: .unsupported)
    }

    private func unknownAggregate(_ token: QueryToken) -> QueryParseError {
        error(
            token,
            "expected one of the collection operators @count, @size, @min, @max, @sum or @avg; \(token.text) is not supported",
            kind: .unsupported)
    }

    private mutating func parseKeyPath() throws(QueryParseError) -> QueryOperand {
        var components = [try advance().text]
        while isSymbol(try peek(), ".") {
            try advance()
            let token = try peek()
            switch token.kind {
            case .word:
                try advance()
                components.append(token.text)
            case .atWord:
                try advance()
                let aggregate = try parseAggregate(token, after: components.joined(separator: "."))
                return .keyPath(components, aggregate: aggregate)
            default:
                throw error(token, "expected a property name after '\(components.joined(separator: ".")).'")
            }
        }
        if isSymbol(try peek(), "(") {
            let paren = try peek()
            let name = components.joined(separator: ".")
            switch name.uppercased() {
            case "SORT", "DISTINCT", "LIMIT":
                throw error(
                    paren, "\(name)(...) is not supported in a filter; sort with sorted(byKeyPath:) and limit with prefix(_:) on the results",
                    kind: .unsupported, found: name)
            default:
                throw error(paren, "expected an operator after '\(name)'; function calls are not supported")
            }
        }
        return .keyPath(components, aggregate: nil)
    }

    private mutating func parseAggregate(_ token: QueryToken, after path: String) throws(QueryParseError) -> QueryAggregate {
        let name = token.text.lowercased()
        let make: (String?) -> QueryAggregate
        switch name {
        case "@count", "@size":
            let next = try peek()
            if isSymbol(next, ".") {
                throw error(next, "expected an operator after '\(path).\(token.text)'; nothing can follow \(token.text), e.g. \(path).\(token.text) > 2")
            }
            return name == "@count" ? .count : .size
        case "@min": make = QueryAggregate.min
        case "@max": make = QueryAggregate.max
        case "@sum": make = QueryAggregate.sum
        case "@avg": make = QueryAggregate.avg
        case "@links": throw linksUnsupported(token)
        default: throw unknownAggregate(token)
        }
        guard isSymbol(try peek(), ".") else { return make(nil) }
        try advance()
        let property = try peek()
        guard property.kind == .word else {
            throw error(property, "expected a property name after '\(path).\(token.text).', e.g. dogs.\(token.text).age")
        }
        try advance()
        let next = try peek()
        if isSymbol(next, ".") {
            throw error(next, "expected an operator after '\(path).\(token.text).\(property.text)'; \(token.text) takes a single property of the elements, e.g. dogs.\(token.text).age")
        }
        return make(property.text)
    }
}
