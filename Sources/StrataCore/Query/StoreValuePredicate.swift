import StrataQuery

/// A predicate over single values rather than rows: the filter of a collection of values
/// (`List<Int>`, `MutableSet<String>`), where the query names the element itself as `self`
/// (`filter("self > 1")`) or, in the type-safe form, by an empty key path (`where { $0 > 1 }`).
///
/// The comparisons follow the engine's value rules (``QueryValues``): null equals only null and
/// is never ordered, numbers compare exactly across Int, Float and Double, `[c]`/`[d]` fold
/// strings.
///
/// ```swift
/// let p = try StoreValuePredicate(ParsedQuery.parse("self > %@").predicate, arguments: [.int(1)])
/// p.matches(.int(2))   // true
/// ```
///
/// ## Concurrency
/// Immutable after `init`; its tests capture only constants, so it may be used from any thread.
package struct StoreValuePredicate: @unchecked Sendable {
    private let test: (StoreValue) -> Bool

    /// Compiles `predicate` with `arguments` bound to its `%@` placeholders.
    ///
    /// - Throws: `StoreQueryError`: a key path other than `self`, a collection operator
    ///   (`@count`, ...), a quantifier, `%K`, a placeholder without an argument, or a list in
    ///   braces anywhere but after `IN` and `BETWEEN`.
    package init(_ predicate: QueryPredicate, arguments: [StoreValue]) throws(StoreQueryError) {
        test = try Self.compile(predicate, arguments, depth: 0)
    }

    private init(test: @escaping (StoreValue) -> Bool) { self.test = test }

    /// The predicate no value satisfies (the results of a query that was refused).
    package static let matchingNothing = StoreValuePredicate(test: { _ in false })

    /// Whether `value` satisfies the predicate.
    package func matches(_ value: StoreValue) -> Bool { test(value) }

    private static func compile(
        _ predicate: QueryPredicate, _ arguments: [StoreValue], depth: Int
    ) throws(StoreQueryError) -> (StoreValue) -> Bool {
        guard depth < StoreQuery.maximumDepth else {
            throw .unsupported("The query nests deeper than \(StoreQuery.maximumDepth) levels.")
        }
        switch predicate {
        case .truePredicate: return { _ in true }
        case .falsePredicate: return { _ in false }
        case .not(let p):
            let t = try compile(p, arguments, depth: depth + 1)
            return { !t($0) }
        case .and(let ps):
            var tests: [(StoreValue) -> Bool] = []
            for p in ps { tests.append(try compile(p, arguments, depth: depth + 1)) }
            return { v in tests.allSatisfy { $0(v) } }
        case .or(let ps):
            var tests: [(StoreValue) -> Bool] = []
            for p in ps { tests.append(try compile(p, arguments, depth: depth + 1)) }
            return { v in tests.contains { $0(v) } }
        case .comparison(let c):
            return try compile(c, arguments)
        }
    }

    private static func compile(
        _ c: QueryComparison, _ arguments: [StoreValue]
    ) throws(StoreQueryError) -> (StoreValue) -> Bool {
        if let quantifier = c.quantifier {
            throw .invalidQuantifier(
                keyPath: "self", quantifier: "\(quantifier)",
                reason: "the elements of a collection of values are single values; compare self directly")
        }
        let selfOnLeft = try isSelf(c.left)
        let selfOnRight = try isSelf(c.right)
        switch (selfOnLeft, selfOnRight) {
        case (true, true):
            let test = QueryValues.pairTest(c.op, c.options)
            return { test($0, $0) }
        case (true, false):
            switch c.op {
            case .in:
                let values = try list(c.right, arguments)
                let equal = QueryValues.pairTest(.equal, c.options)
                return { v in values.contains { equal(v, $0) } }
            case .between:
                let bounds = try list(c.right, arguments)
                guard bounds.count == 2 else {
                    throw .unsupported(
                        "BETWEEN needs exactly two values, low and high, e.g. self BETWEEN {1, 5}; found \(bounds.count)."
                    )
                }
                return { QueryCompiler.between($0, bounds[0], bounds[1]) }
            default:
                return QueryValues.constantTest(c.op, c.options, try constant(c.right, arguments))
            }
        case (false, true):
            // `'a' IN self` style: the constant is on the left (string operators and IN keep
            // their sides as written).
            let value = try constant(c.left, arguments)
            let test = QueryValues.pairTest(c.op == .in ? .equal : c.op, c.options)
            return { test(value, $0) }
        case (false, false):
            let result: Bool
            let left = try constant(c.left, arguments)
            let right = try constant(c.right, arguments)
            result = QueryValues.pairTest(c.op, c.options)(left, right)
            return { _ in result }
        }
    }

    /// Whether `operand` names the element; throws for any other key path.
    private static func isSelf(_ operand: QueryOperand) throws(StoreQueryError) -> Bool {
        switch operand {
        case .keyPath(let components, let aggregate):
            guard aggregate == nil, components.isEmpty || components == ["self"] else {
                let text = components.joined(separator: ".")
                throw .unsupported(
                    "'\(text)' is not a property of a collection of values: name the element as self (self > 1).")
            }
            return true
        case .keyPathArgument:
            throw .unsupported("%K cannot name a property of a collection of values; write self.")
        case .subqueryCount:
            throw .unsupported("SUBQUERY needs a collection of objects; on a collection of values compare self.")
        case .literal, .argument, .list:
            return false
        }
    }

    private static func constant(
        _ operand: QueryOperand, _ arguments: [StoreValue]
    ) throws(StoreQueryError)
        -> StoreValue
    {
        switch operand {
        case .literal(let literal): return literal.coreValue
        case .argument(let index): return try argument(index, arguments)
        case .list(let elements):
            var values: [StoreValue] = []
            for e in elements { values.append(try constant(e, arguments)) }
            return .list(values)
        case .keyPath, .keyPathArgument, .subqueryCount:
            throw .unsupported("Compare self with a constant or an argument.")
        }
    }

    private static func list(
        _ operand: QueryOperand, _ arguments: [StoreValue]
    ) throws(StoreQueryError)
        -> [StoreValue]
    {
        switch try constant(operand, arguments) {
        case .list(let values): return values
        case let other:
            let index: Int = if case .argument(let i) = operand { i } else { 0 }
            throw .invalidArgument(index: index, expected: "a list of values", found: other.kindName)
        }
    }

    private static func argument(_ index: Int, _ arguments: [StoreValue]) throws(StoreQueryError) -> StoreValue {
        guard index >= 0, index < arguments.count else {
            throw .wrongArgumentCount(expected: index + 1, given: arguments.count)
        }
        return arguments[index]
    }

    // MARK: Order

    /// The order of two elements for sorting: nulls first, then the engine's order; values
    /// without a common order (NaN, mixed kinds) keep their places relative to each other.
    package static func precedes(_ a: StoreValue, _ b: StoreValue) -> Bool {
        if a.isNull { return !b.isNull }
        if b.isNull { return false }
        return (QueryValues.compare(a, b) ?? 0) < 0
    }

    /// Whether two elements are the same value for `distinct()`.
    package static func same(_ a: StoreValue, _ b: StoreValue) -> Bool {
        QueryValues.equal(a, b)
    }
}
