import StrataQuery

// `value.@type == 'int'`: the type of an AnyRealmValue's value, compared with type names as
// realm-core's query language spells them (any case; several joined by '|': 'int|double').

extension QueryOperand {
    /// Whether this is a key path ending in `@type`.
    var isTypeAggregate: Bool {
        if case .keyPath(_, .type?) = self { return true }
        return false
    }
}

extension QueryCompiler {
    /// `path.@type == 'name'` (or `!=`), with the names checked once here.
    func compileTypeComparison(_ comparison: QueryComparison) throws(StoreQueryError) -> CompiledPredicate {
        guard comparison.left.isTypeAggregate, case .keyPath(let components, let aggregate) = comparison.left else {
            throw .unsupported(
                "@type can only be compared with a type name on the right, e.g. value.@type == 'int'.")
        }
        let path = try resolvePath(components, aggregate: aggregate)
        let op = comparison.op
        guard op == .equal || op == .notEqual || op == .in else {
            throw .invalidOperator(keyPath: path.text, type: "type name", operator: op.rawValue)
        }
        if !comparison.options.isEmpty {
            throw .invalidOperator(keyPath: path.text, type: "type name", operator: comparison.options.text)
        }
        if let quantifier = comparison.quantifier, !path.isMulti {
            throw .invalidQuantifier(
                keyPath: path.text, quantifier: quantifier.rawValue,
                reason:
                    "the key path after \(quantifier.rawValue) must go through a list, set, map or LinkingObjects property; remove \(quantifier.rawValue) to test a single value"
            )
        }
        var names: [(value: StoreValue, source: String)]
        switch try bind(comparison.right) {
        case .constant(.list(let elements), let source, _) where op == .in:
            names = elements.enumerated().map { ($1, "element \($0) of \(source)") }
        case .constant(let value, let source, _):
            names = [(value, source)]
        case .list(let values) where op == .in:
            names = values
        case .list:
            throw .unsupported("A list in braces can only follow IN; write value.@type IN {'int', 'double'}.")
        case .path(let other):
            throw .typeMismatch(keyPath: path.text, type: "type name", found: other.typeName, source: "'\(other.text)'")
        }
        var kinds: Set<QueryValueKind> = []
        for (value, source) in names {
            guard case .string(let text) = value else {
                throw .typeMismatch(
                    keyPath: path.text, type: "type name", found: value.isNull ? "null" : value.kindName, source: source
                )
            }
            for part in text.split(separator: "|", omittingEmptySubsequences: false) {
                let name = String(part).trimmingSpaces().lowercasedASCII()
                guard let named = QueryValueKind.names[name] else {
                    let known = QueryValueKind.names.keys.sorted().joined(separator: ", ")
                    throw .unsupported(
                        "\(source) is not a type name \(path.text) can be compared with; write one of \(known) (any case), or several joined by '|', e.g. 'int|double'."
                    )
                }
                kinds.formUnion(named)
            }
        }
        let negate = op == .notEqual
        generalComparisons += 1
        return .test(quantified(path, comparison.quantifier ?? .any) { kinds.contains(QueryValueKind($0)) != negate })
    }
}

extension String {
    fileprivate func trimmingSpaces() -> String {
        var scalars = Substring(self)
        while scalars.first == " " { scalars.removeFirst() }
        while scalars.last == " " { scalars.removeLast() }
        return String(scalars)
    }

    fileprivate func lowercasedASCII() -> String {
        String(decoding: utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 }, as: UTF8.self)
    }
}
