import StrataQuery

// SUBQUERY(collection, $v, predicate).@count: the predicate is compiled by a compiler of its own,
// bound to the table of the collection's elements, in which every key path starts with `$v`.
// Each owner row then counts the elements whose rows pass the compiled test.

extension QueryOperand {
    /// Whether this is `SUBQUERY(...).@count`.
    var isSubqueryCount: Bool {
        if case .subqueryCount = self { return true }
        return false
    }
}

extension QueryCompiler {
    /// `components` without the subquery's variable in front. Inside a subquery every key path
    /// must start with its variable; outside one, none may start with a variable.
    func withoutVariable(_ components: [String], text: String) throws(StoreQueryError) -> [String] {
        guard let first = components.first, first.hasPrefix("$") else {
            if let variable {
                throw .unsupported(
                    "'\(text)' does not start with \(variable): inside SUBQUERY(..., \(variable), ...) every key path names a property of the element, e.g. \(variable).name."
                )
            }
            return components
        }
        guard let variable, first == variable else {
            throw .unsupported(
                "'\(text)' starts with \(first), which no enclosing SUBQUERY names; write SUBQUERY(collection, \(first), \(text) ...)."
            )
        }
        guard components.count > 1 else {
            throw .unsupported(
                "'\(variable)' alone is the element of the subquery; compare one of its properties, e.g. \(variable).name == 'Rex'."
            )
        }
        return Array(components.dropFirst())
    }

    /// A comparison with `SUBQUERY(...).@count` on one side (either side; the operator is
    /// mirrored when it is on the right).
    func compileSubqueryComparison(_ comparison: QueryComparison) throws(StoreQueryError) -> CompiledPredicate {
        var op = comparison.op
        let subquery: QuerySubquery
        let other: QueryOperand
        if case .subqueryCount(let s) = comparison.left {
            subquery = s
            other = comparison.right
        } else if case .subqueryCount(let s) = comparison.right {
            guard let mirrored = op.mirrored else {
                throw .unsupported(
                    "SUBQUERY(...).@count is a number; put it on the left of \(op.rawValue), e.g. SUBQUERY(dogs, $d, $d.age > 3).@count > 1."
                )
            }
            subquery = s
            other = comparison.left
            op = mirrored
        } else {
            throw .unsupported("Expected SUBQUERY(...).@count on one side of the comparison.")
        }
        let text = QueryOperand.subqueryCount(subquery).description
        if let quantifier = comparison.quantifier {
            throw .invalidQuantifier(
                keyPath: text, quantifier: quantifier.rawValue,
                reason: "SUBQUERY(...).@count is one number per object; remove \(quantifier.rawValue)")
        }
        if !comparison.options.isEmpty {
            throw .invalidOperator(keyPath: text, type: "int", operator: comparison.options.text)
        }
        let count = try subqueryCounter(subquery, text: text)
        if other.isSubqueryCount {
            let otherCount: (RowReader) throws -> Int
            guard case .subqueryCount(let s) = other else { throw .unsupported(text) }
            otherCount = try subqueryCounter(s, text: other.description)
            guard op != .in, op != .between, op.mirrored != nil else {
                throw .invalidOperator(keyPath: text, type: "int", operator: op.rawValue)
            }
            let test = QueryValues.pairTest(op, [])
            generalComparisons += 1
            return .test { row in test(.int(Int64(try count(row))), .int(Int64(try otherCount(row)))) }
        }
        let bound = try bind(other)
        generalComparisons += 1
        switch op {
        case .equal, .notEqual, .lessThan, .lessThanOrEqual, .greaterThan, .greaterThanOrEqual:
            let test = QueryValues.pairTest(op, [])
            switch bound {
            case .constant(let value, let source, _):
                try Self.checkCountOperand(value, text: text, source: source)
                return .test { row in test(.int(Int64(try count(row))), value) }
            case .path(let path):
                guard !path.isMulti, path.valueClass == .numeric else {
                    throw .typeMismatch(
                        keyPath: text, type: "int", found: path.isMulti ? "list of values" : path.typeName,
                        source: "'\(path.text)'")
                }
                let value = singleValue(path)
                return .test { row in test(.int(Int64(try count(row))), try value(row)) }
            case .list:
                throw .unsupported(
                    "A list in braces can only follow IN or BETWEEN; write SUBQUERY(...).@count IN {1, 2}.")
            }
        case .between, .in:
            var candidates: [(value: StoreValue, source: String)]
            switch bound {
            case .list(let values):
                candidates = values
            case .constant(.list(let elements), let source, _):
                candidates = elements.enumerated().map { ($1, "element \($0) of \(source)") }
            case .constant(let value, _, let index):
                throw .invalidArgument(
                    index: index ?? 0, expected: "a list of numbers for \(op.rawValue)", found: value.kindName)
            case .path(let path):
                throw .invalidOperator(
                    keyPath: path.text, type: path.typeName, operator: "\(op.rawValue) (with a property on the right)")
            }
            for candidate in candidates {
                try Self.checkCountOperand(candidate.value, text: text, source: candidate.source)
            }
            let values = candidates.map(\.value)
            if op == .in {
                return .test { row in
                    let n = StoreValue.int(Int64(try count(row)))
                    return values.contains { QueryValues.equal(n, $0) }
                }
            }
            guard values.count == 2 else {
                throw .unsupported(
                    "BETWEEN needs exactly two values, low and high, e.g. SUBQUERY(...).@count BETWEEN {1, 5}; found \(values.count)."
                )
            }
            let low = values[0]
            let high = values[1]
            return .test { row in QueryCompiler.between(.int(Int64(try count(row))), low, high) }
        case .beginsWith, .endsWith, .contains, .like:
            throw .invalidOperator(keyPath: text, type: "int", operator: op.rawValue)
        }
    }

    private static func checkCountOperand(_ value: StoreValue, text: String, source: String) throws(StoreQueryError) {
        guard QueryValueClass(value) == .numeric else {
            throw .typeMismatch(
                keyPath: text, type: "int", found: QueryValueClass(value) == nil ? "null" : value.kindName,
                source: source)
        }
    }

    /// A function counting, in one row, the elements of the subquery's collection that match its
    /// predicate.
    func subqueryCounter(_ subquery: QuerySubquery, text: String) throws(StoreQueryError) -> (RowReader) throws -> Int {
        guard subqueryDepth < StoreQuery.maximumDepth else {
            throw .unsupported(
                "The query nests more than \(StoreQuery.maximumDepth) SUBQUERYs; split it into several queries.")
        }
        guard subquery.variable.hasPrefix("$"), subquery.variable.count > 1, subquery.variable != variable else {
            throw .unsupported(
                "'\(subquery.variable)' cannot name the elements of \(text); name them with a new variable such as $d."
            )
        }
        let collection = try resolvePath(subquery.collection, aggregate: nil)
        if collection.isMulti, collection.aggregate == nil, collection.valueType != .link {
            return try valueSubqueryCounter(subquery, collection)
        }
        guard collection.isMulti, collection.aggregate == nil, collection.valueType == .link,
            let targetName = collection.linkTarget, let target = txn.tables[targetName]
        else {
            throw .invalidAggregate(
                keyPath: text, aggregate: "SUBQUERY",
                reason:
                    "'\(collection.text)' is not a list, set or LinkingObjects property of objects; SUBQUERY tests each object of such a collection (compare a single value directly, or use ANY for a list of values)"
            )
        }
        let inner = QueryCompiler(txn: txn, table: target, arguments: arguments)
        inner.variable = subquery.variable
        inner.subqueryDepth = subqueryDepth + 1
        let test: QueryRowTest
        switch try inner.compile(subquery.predicate) {
        case .constant(let b): test = { _ in b }
        case .test(let t): test = t
        }
        let values = multiValues(collection)
        let txn = self.txn
        return { row in
            var n = 0
            for value in try values(row) {
                if case .link(let key) = value, let element = try txn.row(target, key: key), try test(element) {
                    n += 1
                }
            }
            return n
        }
    }
}
