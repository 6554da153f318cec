import StrataQuery

/// A compiled predicate's test of one row.
typealias QueryRowTest = (RowReader) throws -> Bool

/// Binds a predicate to a table and compiles it into closures over `RowReader`: every property
/// name, argument and type is resolved here, once per evaluation, and checked; rows only run
/// the closures.
///
/// ## Concurrency
/// Used on the thread of its transaction, for one evaluation.
final class QueryCompiler {
    let txn: StoreTransaction
    let table: StoreTable
    let arguments: [StoreValue]
    /// Inside a SUBQUERY: its variable (`$d`), with which every key path starts; `table` is then
    /// the table of the subquery's elements.
    var variable: String?
    /// How many SUBQUERYs enclose the predicate this compiler compiles.
    var subqueryDepth = 0
    /// Comparisons compiled to a fixed-width loop over the row's bytes (no `StoreValue` per row).
    private(set) var fastComparisons = 0
    /// The simple form of the last fast comparison compiled (`SimpleComparison`): the whole
    /// query's, when the query is that one comparison. (`simplePredicate` resets it per comparison.)
    var simple: SimpleComparison?
    /// Comparisons compiled to the general path (links, collections, options, mixed values).
    var generalComparisons = 0

    init(txn: StoreTransaction, table: StoreTable, arguments: [StoreValue]) {
        self.txn = txn
        self.table = table
        self.arguments = arguments
    }

    // MARK: Predicates

    func compile(_ predicate: QueryPredicate, depth: Int = 0) throws(StoreQueryError) -> CompiledPredicate {
        guard depth <= StoreQuery.maximumDepth else {
            throw .unsupported(
                "The predicate nests more than \(StoreQuery.maximumDepth) levels of AND, OR and NOT; flatten it (a AND (b AND c) is a AND b AND c)."
            )
        }
        switch predicate {
        case .truePredicate:
            return .constant(true)
        case .falsePredicate:
            return .constant(false)
        case .not(let inner):
            switch try compile(inner, depth: depth + 1) {
            case .constant(let b): return .constant(!b)
            case .test(let t): return .test { try !t($0) }
            }
        case .and(let children):
            return try combine(children, depth: depth, isAnd: true)
        case .or(let children):
            return try combine(children, depth: depth, isAnd: false)
        case .comparison(let comparison):
            return try compile(comparison)
        }
    }

    /// AND (`isAnd`) or OR of `children`. Every child is compiled, so errors surface even next to
    /// a FALSEPREDICATE; constant children are then folded away.
    private func combine(
        _ children: [QueryPredicate], depth: Int, isAnd: Bool
    ) throws(StoreQueryError) -> CompiledPredicate {
        var tests: [QueryRowTest] = []
        var decided = false
        for child in children {
            switch try compile(child, depth: depth + 1) {
            case .constant(let b):
                // false decides an AND, true decides an OR.
                if b != isAnd { decided = true }
            case .test(let t):
                tests.append(t)
            }
        }
        if decided { return .constant(!isAnd) }
        switch tests.count {
        case 0:
            return .constant(isAnd)
        case 1:
            return .test(tests[0])
        case 2:
            let a = tests[0], b = tests[1]
            return isAnd ? .test { try a($0) && b($0) } : .test { try a($0) || b($0) }
        default:
            if isAnd {
                return .test { row in
                    for t in tests where try !t(row) { return false }
                    return true
                }
            }
            return .test { row in
                for t in tests where try t(row) { return true }
                return false
            }
        }
    }

    // MARK: Operands

    func argument(_ index: Int) throws(StoreQueryError) -> StoreValue {
        guard index >= 0 else {
            throw .unsupported("Placeholder index \(index) is negative; number arguments from $0.")
        }
        guard index < arguments.count else {
            throw .wrongArgumentCount(expected: index + 1, given: arguments.count)
        }
        return arguments[index]
    }

    func bind(_ operand: QueryOperand) throws(StoreQueryError) -> BoundOperand {
        switch operand {
        case .keyPath(let components, let aggregate):
            return .path(try resolvePath(components, aggregate: aggregate))
        case .keyPathArgument(let index):
            return .path(try keyPathArgument(index))
        case .literal(let literal):
            return .constant(literal.coreValue, source: "the constant \(literal)", argument: nil)
        case .argument(let index):
            return .constant(try argument(index), source: "argument \(index)", argument: index)
        case .list(let elements):
            var values: [(value: StoreValue, source: String)] = []
            for element in elements {
                switch element {
                case .literal(let literal): values.append((literal.coreValue, "the constant \(literal)"))
                case .argument(let index): values.append((try argument(index), "argument \(index)"))
                case .keyPath, .keyPathArgument, .list, .subqueryCount:
                    throw .unsupported(
                        "A list in braces may hold only constants and %@ arguments, not \(element); compare with each property separately and join the comparisons with OR."
                    )
                }
            }
            return .list(values)
        case .subqueryCount:
            throw .unsupported(
                "SUBQUERY(...).@count can only be compared with a number or a single numeric property, e.g. SUBQUERY(dogs, $d, $d.age > 3).@count > 1."
            )
        }
    }

    // MARK: Type checks

    /// Checks that `op` (with `options`) applies to the values of `path`.
    func checkOperator(_ path: QueryPath, _ op: QueryOperator, _ options: QueryStringOptions) throws(StoreQueryError) {
        let cls = path.valueClass  // nil: AnyRealmValue, which takes any operator
        if !options.isEmpty, let cls, cls != .string {
            throw .invalidOperator(keyPath: path.text, type: path.typeName, operator: options.text)
        }
        guard let cls else { return }
        switch op {
        case .equal, .notEqual, .in:
            return
        case .lessThan, .lessThanOrEqual, .greaterThan, .greaterThanOrEqual, .between:
            if !cls.isOrdered { throw .invalidOperator(keyPath: path.text, type: path.typeName, operator: op.rawValue) }
        case .beginsWith, .endsWith, .contains:
            if cls != .string && cls != .data {
                throw .invalidOperator(keyPath: path.text, type: path.typeName, operator: op.rawValue)
            }
        case .like:
            if cls != .string { throw .invalidOperator(keyPath: path.text, type: path.typeName, operator: op.rawValue) }
        }
    }

    /// Checks that `value` can be compared with `path` by `op` and returns it normalised (a typed
    /// link into the path's target table becomes a plain link).
    func checkConstant(
        _ path: QueryPath, _ op: QueryOperator, _ options: QueryStringOptions,
        _ value: StoreValue, source: String
    ) throws(StoreQueryError) -> StoreValue {
        guard let valueClass = QueryValueClass(value) else {
            guard op == .equal || op == .notEqual || op == .in else {
                throw .typeMismatch(keyPath: path.text, type: path.typeName, found: "null", source: source)
            }
            guard path.nullable else { throw .nullNotAllowed(keyPath: path.text, type: path.typeName) }
            return value
        }
        if valueClass == .collection {
            throw .typeMismatch(keyPath: path.text, type: path.typeName, found: value.kindName, source: source)
        }
        let stringOperator = op == .beginsWith || op == .endsWith || op == .contains || op == .like
        if let pathClass = path.valueClass {
            // An integer constant compared with a Decimal128 property is the decimal of that integer.
            if pathClass == .decimal, case .int(let k) = value { return .decimal128(StoreDecimal(k).bytes) }
            guard pathClass == valueClass else {
                throw .typeMismatch(keyPath: path.text, type: path.typeName, found: value.kindName, source: source)
            }
        } else if stringOperator || !options.isEmpty {
            // AnyRealmValue: the operator decides what the constant must be.
            guard valueClass == .string || (valueClass == .data && op != .like && options.isEmpty) else {
                throw .typeMismatch(keyPath: path.text, type: path.typeName, found: value.kindName, source: source)
            }
        }
        if path.valueType == .link {
            switch value {
            case .typedLink(let target, let key):
                guard target == path.linkTarget else {
                    throw .typeMismatch(
                        keyPath: path.text, type: path.typeName, found: "'\(target)' object", source: source)
                }
                return .link(key)
            default:
                return value
            }
        }
        return value
    }

    /// Checks that two paths can be compared by `op`.
    private func checkPaths(
        _ a: QueryPath, _ b: QueryPath, _ op: QueryOperator, _ options: QueryStringOptions
    ) throws(StoreQueryError) {
        try checkOperator(a, op, options)
        try checkOperator(b, op, options)
        if let ca = a.valueClass, let cb = b.valueClass {
            guard ca == cb, ca != .link || a.linkTarget == b.linkTarget else {
                throw .typeMismatch(keyPath: a.text, type: a.typeName, found: b.typeName, source: "'\(b.text)'")
            }
        }
        if a.isMulti && b.isMulti {
            throw .invalidQuantifier(
                keyPath: b.text, quantifier: "list comparison",
                reason:
                    "'\(a.text)' and '\(b.text)' both hold many values, and comparing two collections is not supported; compare one of them with a constant, or with @min, @max or @count"
            )
        }
    }

    // MARK: Comparisons

    private func compile(_ comparison: QueryComparison) throws(StoreQueryError) -> CompiledPredicate {
        if comparison.left.isSubqueryCount || comparison.right.isSubqueryCount {
            return try compileSubqueryComparison(comparison)
        }
        if comparison.left.isTypeAggregate || comparison.right.isTypeAggregate {
            return try compileTypeComparison(comparison)
        }
        let left = try bind(comparison.left)
        let right = try bind(comparison.right)
        let op = comparison.op
        let options = comparison.options
        let quantifier = comparison.quantifier
        // ANY, ALL and NONE need a left side with many values.
        if let quantifier {
            let single: String?
            switch left {
            case .path(let p): single = p.isMulti ? nil : p.text
            case .constant(_, let source, _): single = source
            case .list: single = "{...}"
            }
            if let single {
                throw .invalidQuantifier(
                    keyPath: single, quantifier: quantifier.rawValue,
                    reason:
                        "the key path after \(quantifier.rawValue) must go through a list, set, map or LinkingObjects property; remove \(quantifier.rawValue) to compare a single value"
                )
            }
        }
        switch op {
        case .in:
            return try compileIn(left, right, quantifier: quantifier ?? .any)
        case .between:
            return try compileBetween(left, right, quantifier: quantifier ?? .any)
        default:
            return try compileBinary(left, op, options, right, quantifier: quantifier ?? .any)
        }
    }

    /// `==`, `!=`, `<`, `<=`, `>`, `>=` and the string operators.
    private func compileBinary(
        _ left: BoundOperand, _ op: QueryOperator, _ options: QueryStringOptions,
        _ right: BoundOperand, quantifier: QueryQuantifier
    ) throws(StoreQueryError) -> CompiledPredicate {
        switch (left, right) {
        case (.path(let path), .constant(let value, let source, _)):
            try checkOperator(path, op, options)
            let constant = try checkConstant(path, op, options, value, source: source)
            if !path.isMulti, let fast = fastTest(path, op, options, constant) {
                fastComparisons += 1
                simple = simpleComparison(path, op, options, constant)
                return .test(fast)
            }
            generalComparisons += 1
            return .test(quantified(path, quantifier, QueryValues.constantTest(op, options, constant)))

        case (.constant(let value, let source, _), .path(let path)):
            if let mirrored = op.mirrored {
                return try compileBinary(right, mirrored, options, left, quantifier: quantifier)
            }
            // 'abc' CONTAINS name: the constant is the haystack.
            try checkOperator(path, op, options)
            let constant = try checkConstant(path, op, options, value, source: source)
            let test = QueryValues.pairTest(op, options)
            generalComparisons += 1
            return .test(quantified(path, .any) { test(constant, $0) })

        case (.path(let a), .path(let b)):
            try checkPaths(a, b, op, options)
            let test = QueryValues.pairTest(op, options)
            generalComparisons += 1
            if b.isMulti {
                let getA = singleValue(a)
                let getB = multiValues(b)
                return .test { row in
                    let x = try getA(row)
                    return try getB(row).contains { test(x, $0) }
                }
            }
            let getB = singleValue(b)
            if a.isMulti {
                let getA = multiValues(a)
                return .test { row in
                    let y = try getB(row)
                    return QueryCompiler.quantify(try getA(row), quantifier) { test($0, y) }
                }
            }
            let getA = singleValue(a)
            return .test { row in test(try getA(row), try getB(row)) }

        case (.constant(let a, _, _), .constant(let b, _, _)):
            return .constant(QueryValues.pairTest(op, options)(a, b))

        case (.list, _), (_, .list):
            throw .unsupported("A list in braces can only follow IN or BETWEEN; write name IN {'a', 'b'}.")
        }
    }

    /// `IN`: the left value is one of the right side's values (a list, a list argument, or a
    /// collection property).
    private func compileIn(
        _ left: BoundOperand, _ right: BoundOperand, quantifier: QueryQuantifier
    ) throws(StoreQueryError) -> CompiledPredicate {
        var candidates: [(value: StoreValue, source: String)]
        switch right {
        case .list(let values):
            candidates = values
        case .constant(let value, let source, let index):
            guard case .list(let elements) = value else {
                throw .invalidArgument(index: index ?? 0, expected: "a list of values for IN", found: value.kindName)
            }
            candidates = elements.enumerated().map { ($1, "element \($0) of \(source)") }
        case .path(let collection):
            guard collection.isMulti else {
                throw .invalidOperator(
                    keyPath: collection.text, type: collection.typeName,
                    operator: "IN (with a single value on the right)")
            }
            switch left {
            case .constant(let value, let source, _):
                try checkOperator(collection, .equal, [])
                let constant = try checkConstant(collection, .equal, [], value, source: source)
                let values = multiValues(collection)
                generalComparisons += 1
                return .test { row in try values(row).contains { QueryValues.equal(constant, $0) } }
            case .path(let member):
                try checkPaths(member, collection, .equal, [])
                let getMember = singleValue(member)
                let values = multiValues(collection)
                generalComparisons += 1
                return .test { row in
                    let x = try getMember(row)
                    return try values(row).contains { QueryValues.equal(x, $0) }
                }
            case .list:
                throw .unsupported("A list in braces can only be the right side of IN; write name IN {'a', 'b'}.")
            }
        }
        switch left {
        case .path(let path):
            try checkOperator(path, .in, [])
            for i in candidates.indices {
                candidates[i].value = try checkConstant(
                    path, .in, [], candidates[i].value, source: candidates[i].source)
            }
            let values = candidates.map(\.value)
            if values.isEmpty { return .constant(quantifier == .any ? false : true) }
            if !path.isMulti, let fast = fastIn(path, values) {
                fastComparisons += 1
                return .test(fast)
            }
            generalComparisons += 1
            return .test(quantified(path, quantifier) { v in values.contains { QueryValues.equal(v, $0) } })
        case .constant(let value, _, _):
            return .constant(candidates.contains { QueryValues.equal(value, $0.value) })
        case .list:
            throw .unsupported("A list in braces can only be the right side of IN; write name IN {'a', 'b'}.")
        }
    }

    /// `BETWEEN {low, high}`: `low <= value && value <= high`.
    private func compileBetween(
        _ left: BoundOperand, _ right: BoundOperand, quantifier: QueryQuantifier
    ) throws(StoreQueryError) -> CompiledPredicate {
        var bounds: [(value: StoreValue, source: String)]
        switch right {
        case .list(let values):
            bounds = values
        case .constant(let value, let source, let index):
            guard case .list(let elements) = value, elements.count == 2 else {
                let found = { if case .list(let e) = value { "list of \(e.count) values" } else { value.kindName } }()
                throw .invalidArgument(
                    index: index ?? 0, expected: "a list of two values (low, high) for BETWEEN", found: found)
            }
            bounds = [(elements[0], "the low end of \(source)"), (elements[1], "the high end of \(source)")]
        case .path(let p):
            throw .invalidOperator(
                keyPath: p.text, type: p.typeName, operator: "BETWEEN (with a property on the right)")
        }
        guard bounds.count == 2 else {
            throw .unsupported(
                "BETWEEN needs exactly two values, low and high, e.g. age BETWEEN {1, 5}; found \(bounds.count).")
        }
        switch left {
        case .path(let path):
            try checkOperator(path, .between, [])
            let low = try checkConstant(path, .greaterThanOrEqual, [], bounds[0].value, source: bounds[0].source)
            let high = try checkConstant(path, .lessThanOrEqual, [], bounds[1].value, source: bounds[1].source)
            if !path.isMulti, let lowTest = fastTest(path, .greaterThanOrEqual, [], low),
                let highTest = fastTest(path, .lessThanOrEqual, [], high)
            {
                fastComparisons += 1
                return .test { try lowTest($0) && highTest($0) }
            }
            generalComparisons += 1
            return .test(quantified(path, quantifier) { QueryCompiler.between($0, low, high) })
        case .constant(let value, _, _):
            return .constant(QueryCompiler.between(value, bounds[0].value, bounds[1].value))
        case .list:
            throw .unsupported("A list in braces can only follow IN or BETWEEN; write age BETWEEN {1, 5}.")
        }
    }

    static func between(_ v: StoreValue, _ low: StoreValue, _ high: StoreValue) -> Bool {
        guard let a = QueryValues.compare(v, low), a >= 0, let b = QueryValues.compare(v, high) else { return false }
        return b <= 0
    }

    // MARK: Quantifiers

    /// A row test applying `test` to the value of `path`, or to its values with `quantifier`.
    func quantified(
        _ path: QueryPath, _ quantifier: QueryQuantifier, _ test: @escaping (StoreValue) -> Bool
    ) -> QueryRowTest {
        if path.isMulti {
            let values = multiValues(path)
            return { row in QueryCompiler.quantify(try values(row), quantifier, test) }
        }
        let value = singleValue(path)
        return { row in test(try value(row)) }
    }

    @inline(__always)
    static func quantify(_ values: [StoreValue], _ quantifier: QueryQuantifier, _ test: (StoreValue) -> Bool) -> Bool {
        switch quantifier {
        case .any: return values.contains(where: test)
        case .all: return values.allSatisfy(test)
        case .noElement: return !values.contains(where: test)
        }
    }
}

extension QueryLiteral {
    /// The literal as a store value.
    var coreValue: StoreValue {
        switch self {
        case .int(let i): return .int(i)
        case .double(let d): return .double(d)
        case .string(let s): return .string(s)
        case .bool(let b): return .bool(b)
        case .null: return .null
        case .objectId(let bytes): return .objectId(bytes)
        case .uuid(let bytes): return .uuid(bytes)
        case .timestamp(let seconds, let nanoseconds): return .timestamp(seconds: seconds, nanoseconds: nanoseconds)
        case .data(let bytes): return .data(bytes)
        }
    }
}

extension QueryStringOptions {
    /// `[c]`, `[d]` or `[cd]`.
    var text: String {
        "[" + (contains(.caseInsensitive) ? "c" : "") + (contains(.diacriticInsensitive) ? "d" : "") + "]"
    }
}
