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
        }
    }
}
