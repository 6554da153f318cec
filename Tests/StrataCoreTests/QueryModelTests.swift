import Foundation
import XCTest
import StrataQuery
@testable import StrataCore

/// Random rows and random predicates (every operator on int, double, float, string, optional int,
/// optional double, optional string, bool and date columns, with AND/OR/NOT, constants and
/// arguments, equalities on indexed columns, sorting and distinct), each evaluated by the engine
/// and by a brute-force model written independently below. The model uses Foundation's
/// `folding(options:locale:)` for `[c]`/`[d]`, a recursive `LIKE`, and doubles for numbers (the
/// generated integers are small enough to convert exactly).
final class QueryModelTests: QueryTestCase {
    enum Kind { case int, double, float, string, bool, date }

    struct Column {
        let name: String
        let kind: Kind
        let nullable: Bool
        let indexed: Bool
    }

    let columns = [
        Column(name: "i", kind: .int, nullable: false, indexed: false),
        Column(name: "d", kind: .double, nullable: false, indexed: false),
        Column(name: "s", kind: .string, nullable: false, indexed: false),
        Column(name: "oi", kind: .int, nullable: true, indexed: false),
        Column(name: "b", kind: .bool, nullable: false, indexed: false),
        Column(name: "t", kind: .date, nullable: false, indexed: false),
        Column(name: "si", kind: .string, nullable: false, indexed: true),
        Column(name: "ii", kind: .int, nullable: false, indexed: true),
        Column(name: "od", kind: .double, nullable: true, indexed: false),
        Column(name: "os", kind: .string, nullable: true, indexed: false),
        Column(name: "f", kind: .float, nullable: false, indexed: false),
        Column(name: "ot", kind: .date, nullable: true, indexed: false),
    ]

    // MARK: Model values

    /// A value as the model sees it (floats widened to doubles, dates as seconds and nanoseconds).
    enum M {
        case null
        case number(Double)
        case string(String)
        case bool(Bool)
        case date(Int64, Int32)
    }

    static func equal(_ a: M, _ b: M) -> Bool {
        switch (a, b) {
        case (.null, .null): return true
        case (.number(let x), .number(let y)): return x == y
        case (.string(let x), .string(let y)): return Array(x.utf8) == Array(y.utf8)
        case (.bool(let x), .bool(let y)): return x == y
        case (.date(let s, let n), .date(let t, let m)): return s == t && n == m
        default: return false
        }
    }

    static func compare(_ a: M, _ b: M) -> Int? {
        switch (a, b) {
        case (.number(let x), .number(let y)):
            if x.isNaN || y.isNaN { return nil }
            return x < y ? -1 : (x > y ? 1 : 0)
        case (.string(let x), .string(let y)):
            let u = Array(x.utf8), v = Array(y.utf8)
            return u == v ? 0 : (u.lexicographicallyPrecedes(v) ? -1 : 1)
        case (.date(let s, let n), .date(let t, let m)):
            return (s, n) == (t, m) ? 0 : ((s, n) < (t, m) ? -1 : 1)
        default:
            return nil
        }
    }

    static func fold(_ s: String, _ options: QueryStringOptions) -> String {
        var o: String.CompareOptions = []
        if options.contains(.caseInsensitive) { o.insert(.caseInsensitive) }
        if options.contains(.diacriticInsensitive) { o.insert(.diacriticInsensitive) }
        return o.isEmpty ? s : s.folding(options: o, locale: nil)
    }

    static func like(_ t: ArraySlice<Unicode.Scalar>, _ p: ArraySlice<Unicode.Scalar>) -> Bool {
        guard let first = p.first else { return t.isEmpty }
        if first == "*" { return like(t, p.dropFirst()) || (!t.isEmpty && like(t.dropFirst(), p)) }
        guard let c = t.first else { return false }
        return (first == "?" || first == c) && like(t.dropFirst(), p.dropFirst())
    }

    static func contains(_ a: [UInt8], _ p: [UInt8]) -> Bool {
        if p.isEmpty { return true }
        guard a.count >= p.count else { return false }
        for i in 0...(a.count - p.count) where Array(a[i..<i + p.count]) == p { return true }
        return false
    }

    /// `a op[options] b` in the model.
    static func test(_ a: M, _ op: QueryOperator, _ options: QueryStringOptions, _ b: M) -> Bool {
        switch op {
        case .equal, .notEqual:
            var result = equal(a, b)
            if case .string(let x) = a, case .string(let y) = b {
                result = Array(fold(x, options).utf8) == Array(fold(y, options).utf8)
            }
            return op == .equal ? result : !result
        case .lessThan: return compare(a, b).map { $0 < 0 } ?? false
        case .lessThanOrEqual: return compare(a, b).map { $0 <= 0 } ?? false
        case .greaterThan: return compare(a, b).map { $0 > 0 } ?? false
        case .greaterThanOrEqual: return compare(a, b).map { $0 >= 0 } ?? false
        case .beginsWith, .endsWith, .contains, .like:
            guard case .string(let x) = a, case .string(let y) = b else { return false }
            let s = fold(x, options), p = fold(y, options)
            switch op {
            case .beginsWith: return Array(s.utf8).starts(with: Array(p.utf8))
            case .endsWith: return Array(s.utf8).reversed().starts(with: Array(p.utf8).reversed())
            case .contains: return contains(Array(s.utf8), Array(p.utf8))
            default: return like(Array(s.unicodeScalars)[...], Array(p.unicodeScalars)[...])
            }
        case .in, .between:
            return false
        }
    }

    /// Sort order of the model: null first, numbers by value (-0 equal to 0) with NaN after
    /// everything, strings by UTF-8, false before true, dates by time.
    static func sortOrder(_ a: M, _ b: M) -> Int {
        func rank(_ v: M) -> Int {
            switch v {
            case .null: return 0
            case .number(let x): return x.isNaN ? 2 : 1
            default: return 1
            }
        }
        if rank(a) != rank(b) { return rank(a) < rank(b) ? -1 : 1 }
        if case .bool(let x) = a, case .bool(let y) = b { return x == y ? 0 : (x ? 1 : -1) }
        return compare(a, b) ?? 0
    }

    // MARK: Random values

    var rng = QueryRandom(seed: 0)
    let tokens = ["a", "A", "b", "B", "é", "É", "e\u{301}", "ab", "*", "?", "z", "ö", "Ö", " "]
    let dates: [Double] = [-2.5, -1, -0.5, 0, 0.5, 1, 2.25, 2.5]

    func randomString() -> String {
        (0..<Int.random(in: 0...3, using: &rng)).map { _ in tokens.randomElement(using: &rng)! }.joined()
    }

    func randomPattern() -> String {
        (0..<Int.random(in: 0...4, using: &rng)).map { _ in
            Int.random(in: 0..<3, using: &rng) == 0
                ? ["*", "?"].randomElement(using: &rng)! : tokens.randomElement(using: &rng)!
        }.joined()
    }

    func randomDouble() -> Double {
        let pick = Int.random(in: 0..<40, using: &rng)
        if pick == 0 { return .nan }
        if pick == 1 { return .infinity }
        if pick == 2 { return -.infinity }
        return [-2.5, -1, -0.0, 0, 0.5, 1, 2, 2.5, 3, 1000].randomElement(using: &rng)!
    }

    /// A random non-null value of `kind` as (model value, store value).
    func randomValue(_ kind: Kind) -> (M, StoreValue) {
        switch kind {
        case .int:
            let i = Int64([-3, -2, -1, 0, 1, 2, 3, 1000, -1000].randomElement(using: &rng)!)
            return (.number(Double(i)), .int(i))
        case .double:
            let d = randomDouble()
            return (.number(d), .double(d))
        case .float:
            let f = [Float(-1.5), 0, 0.25, 1, 2.5, 3].randomElement(using: &rng)!
            return (.number(Double(f)), .float(f))
        case .string:
            let s = randomString()
            return (.string(s), .string(s))
        case .bool:
            let b = Bool.random(using: &rng)
            return (.bool(b), .bool(b))
        case .date:
            let v = date(dates.randomElement(using: &rng)!)
            guard case .timestamp(let s, let n) = v else { fatalError() }
            return (.date(s, n), v)
        }
    }

    func randomCell(_ column: Column) -> (M, StoreValue) {
        if column.nullable, Int.random(in: 0..<4, using: &rng) == 0 { return (.null, .null) }
        return randomValue(column.kind)
    }

    // MARK: Random predicates

    /// A predicate, the arguments its placeholders refer to, and the model's verdict on a row.
    struct Generated {
        var predicate: QueryPredicate
        var test: ([M]) -> Bool
    }

    var arguments: [StoreValue] = []

    /// A constant operand for `value`: a literal when the language can write it, else an argument.
    func operand(_ value: (M, StoreValue)) -> QueryOperand {
        let literal: QueryLiteral?
        switch value.1 {
        case .null: literal = .null
        case .int(let i): literal = .int(i)
        case .double(let d): literal = d.isFinite ? .double(d) : nil
        case .string(let s): literal = .string(s)
        case .bool(let b): literal = .bool(b)
        default: literal = nil
        }
        if let literal, Bool.random(using: &rng) { return .literal(literal) }
        arguments.append(value.1)
        return .argument(index: arguments.count - 1)
    }

    /// A constant to compare with a column of `kind`: usually of the same kind, sometimes the
    /// other numeric kind, sometimes nil for an optional column.
    func constant(for column: Column, allowNull: Bool) -> (M, StoreValue) {
        if allowNull, column.nullable, Int.random(in: 0..<5, using: &rng) == 0 { return (.null, .null) }
        switch column.kind {
        case .int, .double, .float:
            return randomValue([Kind.int, .double, column.kind].randomElement(using: &rng)!)
        case .string:
            if Bool.random(using: &rng), let existing = sampleStrings.randomElement(using: &rng) {
                return (.string(existing), .string(existing))
            }
            return randomValue(.string)
        default:
            return randomValue(column.kind)
        }
    }

    var sampleStrings: [String] = []

    func comparison() -> Generated {
        let ci = Int.random(in: 0..<columns.count, using: &rng)
        let column = columns[ci]
        let path = QueryOperand.keyPath([column.name])
        var ops: [QueryOperator] = [.equal, .notEqual, .in]
        switch column.kind {
        case .int, .double, .float, .date:
            ops += [.lessThan, .lessThanOrEqual, .greaterThan, .greaterThanOrEqual, .between]
        case .string:
            ops += [.lessThan, .greaterThanOrEqual, .beginsWith, .endsWith, .contains, .like, .like, .beginsWith]
        case .bool: break
        }
        let op = ops.randomElement(using: &rng)!
        switch op {
        case .in:
            let values = (0..<Int.random(in: 0...3, using: &rng)).map { _ in constant(for: column, allowNull: true) }
            let right: QueryOperand
            if Bool.random(using: &rng) {
                right = .list(values.map(operand))
            } else {
                arguments.append(.list(values.map(\.1)))
                right = .argument(index: arguments.count - 1)
            }
            let models = values.map(\.0)
            return Generated(predicate: .comparison(QueryComparison(path, .in, right))) { row in
                models.contains { QueryModelTests.equal(row[ci], $0) }
            }
        case .between:
            let low = constant(for: column, allowNull: false), high = constant(for: column, allowNull: false)
            let right: QueryOperand
            if Bool.random(using: &rng) {
                right = .list([operand(low), operand(high)])
            } else {
                arguments.append(.list([low.1, high.1]))
                right = .argument(index: arguments.count - 1)
            }
            return Generated(predicate: .comparison(QueryComparison(path, .between, right))) { row in
                guard let a = QueryModelTests.compare(row[ci], low.0), let b = QueryModelTests.compare(row[ci], high.0)
                else { return false }
                return a >= 0 && b <= 0
            }
        default:
            // Sometimes another column of the same kind on the right.
            if Int.random(in: 0..<8, using: &rng) == 0,
                let other = columns.indices.filter({
                    columns[$0].kind == column.kind || (numeric(columns[$0].kind) && numeric(column.kind))
                }).randomElement(using: &rng),
                op != .like
            {
                let options: QueryStringOptions =
                    column.kind == .string && op != .lessThan && op != .greaterThanOrEqual ? randomOptions() : []
                return Generated(
                    predicate: .comparison(QueryComparison(path, op, .keyPath([columns[other].name]), options: options))
                ) { row in
                    QueryModelTests.test(row[ci], op, options, row[other])
                }
            }
            var value = constant(for: column, allowNull: op == .equal || op == .notEqual)
            if op == .like, Bool.random(using: &rng) {
                let p = randomPattern()
                value = (.string(p), .string(p))
            }
            let options: QueryStringOptions
            switch op {
            case .equal, .notEqual, .beginsWith, .endsWith, .contains, .like:
                options = column.kind == .string ? randomOptions() : []
            default:
                options = []
            }
            let constantOperand = operand(value)
            // Half of the mirrorable comparisons are written constant first (`3 < i`).
            if let mirrored = op.mirrored, Bool.random(using: &rng) {
                return Generated(
                    predicate: .comparison(QueryComparison(constantOperand, mirrored, path, options: options))
                ) { row in
                    QueryModelTests.test(row[ci], op, options, value.0)
                }
            }
            return Generated(predicate: .comparison(QueryComparison(path, op, constantOperand, options: options))) {
                row in
                QueryModelTests.test(row[ci], op, options, value.0)
            }
        }
    }

    func numeric(_ kind: Kind) -> Bool { kind == .int || kind == .double || kind == .float }

    func randomOptions() -> QueryStringOptions {
        [[], [], .caseInsensitive, .diacriticInsensitive, [.caseInsensitive, .diacriticInsensitive]].randomElement(
            using: &rng)!
    }

    func predicate(depth: Int = 0) -> Generated {
        let pick = depth >= 3 ? 9 : Int.random(in: 0..<10, using: &rng)
        switch pick {
        case 0, 1:
            let children = (0..<Int.random(in: 2...3, using: &rng)).map { _ in predicate(depth: depth + 1) }
            let tests = children.map(\.test)
            return Generated(predicate: .and(children.map(\.predicate))) { row in tests.allSatisfy { $0(row) } }
        case 2, 3:
            let children = (0..<Int.random(in: 2...3, using: &rng)).map { _ in predicate(depth: depth + 1) }
            let tests = children.map(\.test)
            return Generated(predicate: .or(children.map(\.predicate))) { row in tests.contains { $0(row) } }
        case 4:
            let child = predicate(depth: depth + 1)
            return Generated(predicate: .not(child.predicate)) { !child.test($0) }
        case 5 where Int.random(in: 0..<4, using: &rng) == 0:
            let b = Bool.random(using: &rng)
            return Generated(predicate: b ? .truePredicate : .falsePredicate) { _ in b }
        default:
            return comparison()
        }
    }

    /// An equality (or IN) on an indexed column, to AND with a random predicate.
    func indexedEquality(_ rows: [[M]]) -> Generated {
        let ci = Bool.random(using: &rng) ? 6 : 7
        let pickFromRows = Int.random(in: 0..<4, using: &rng) != 0
        let value: (M, StoreValue)
        if pickFromRows, let row = rows.randomElement(using: &rng) {
            switch row[ci] {
            case .string(let s): value = (.string(s), .string(s))
            case .number(let d): value = (.number(d), Bool.random(using: &rng) ? .int(Int64(d)) : .double(d))
            default: value = constant(for: columns[ci], allowNull: false)
            }
        } else {
            value = constant(for: columns[ci], allowNull: false)
        }
        if Int.random(in: 0..<4, using: &rng) == 0 {
            let other = constant(for: columns[ci], allowNull: false)
            return Generated(
                predicate: .comparison(
                    QueryComparison(.keyPath([columns[ci].name]), .in, .list([operand(value), operand(other)])))
            ) { row in
                QueryModelTests.equal(row[ci], value.0) || QueryModelTests.equal(row[ci], other.0)
            }
        }
        return Generated(predicate: .comparison(QueryComparison(.keyPath([columns[ci].name]), .equal, operand(value))))
        { row in
            QueryModelTests.equal(row[ci], value.0)
        }
    }

    // MARK: The test

    func testRandomPredicatesMatchTheModel() throws {
        try runModel(seed: 1, rowCount: 300, predicates: 1500)
    }

    func testRandomPredicatesMatchTheModelOnAnotherSeed() throws {
        try runModel(seed: 2, rowCount: 120, predicates: 1000)
    }

    func runModel(seed: UInt64, rowCount: Int, predicates: Int) throws {
        rng = QueryRandom(seed: seed)
        let table = StoreTable(
            name: "Item",
            columns: columns.map { c in
                let type: ColumnType
                switch c.kind {
                case .int: type = .int
                case .double: type = .double
                case .float: type = .float
                case .string: type = .string
                case .bool: type = .bool
                case .date: type = .timestamp
                }
                return StoreColumn(name: c.name, type: type, isNullable: c.nullable, isIndexed: c.indexed)
            })
        try create(table)
        var model: [[M]] = []
        var stored: [[StoreValue]] = []
        for _ in 0..<rowCount {
            let cells = columns.map { randomCell($0) }
            model.append(cells.map(\.0))
            stored.append(cells.map(\.1))
        }
        sampleStrings = model.flatMap { $0.compactMap { if case .string(let s) = $0 { s } else { nil } } }
        let keys = try insert(table, stored)

        var usedIndex = 0, usedText = 0, sortedCount = 0, distinctCount = 0, matched = 0, emptyResults = 0
        let txn = StoreTransaction(read: try db.beginRead())
        txn.tables = tables
        defer { txn.read?.end() }
        for n in 0..<predicates {
            arguments = []
            var generated = predicate()
            if Int.random(in: 0..<3, using: &rng) == 0 {
                let equality = indexedEquality(model)
                let rest = generated
                generated = Generated(predicate: .and([equality.predicate, rest.predicate])) {
                    equality.test($0) && rest.test($0)
                }
            }
            var query = StoreQuery(predicate: generated.predicate, arguments: arguments)
            // Half of the queries go through the query text and the parser.
            if Bool.random(using: &rng) {
                query = try StoreQuery(generated.predicate.description, arguments: arguments)
                usedText += 1
            }
            var expected = keys.indices.filter { generated.test(model[$0]) }

            // Sorting and distinct.
            if Int.random(in: 0..<4, using: &rng) == 0 {
                let sortColumns = (0..<Int.random(in: 1...2, using: &rng)).map { _ in
                    (Int.random(in: 0..<columns.count, using: &rng), Bool.random(using: &rng))
                }
                query = query.sorted(by: sortColumns.map { (columns[$0.0].name, $0.1) })
                expected = expected.enumerated().sorted { x, y in
                    for (c, ascending) in sortColumns {
                        let o = QueryModelTests.sortOrder(model[x.element][c], model[y.element][c])
                        if o != 0 { return ascending ? o < 0 : o > 0 }
                    }
                    return x.offset < y.offset
                }.map(\.element)
                sortedCount += 1
            }
            if Int.random(in: 0..<5, using: &rng) == 0 {
                let distinctColumns = (0..<Int.random(in: 1...2, using: &rng)).map { _ in
                    Int.random(in: 0..<columns.count, using: &rng)
                }
                query = query.distinct(by: distinctColumns.map { columns[$0].name })
                var kept: [Int] = []
                for i in expected
                where !kept.contains(where: { j in
                    distinctColumns.allSatisfy { QueryModelTests.sortOrder(model[i][$0], model[j][$0]) == 0 }
                }) {
                    kept.append(i)
                }
                expected = kept
                distinctCount += 1
            }

            let plan = try query.explain(in: txn, table: table)
            if case .index = plan.access { usedIndex += 1 }
            let result = try query.evaluate(in: txn, table: table)
            matched += result.count
            if result.isEmpty { emptyResults += 1 }
            XCTAssertEqual(
                result, expected.map { keys[$0] },
                "predicate \(n): \(generated.predicate) with \(arguments); plan: \(plan)")
            if result != expected.map({ keys[$0] }) { break }
        }
        print(
            "model seed \(seed): \(predicates) predicates, \(usedIndex) by index, \(usedText) parsed from text, \(sortedCount) sorted, \(distinctCount) distinct; \(matched) matches, \(emptyResults) empty results"
        )
        XCTAssertGreaterThan(
            usedIndex, predicates / 5, "the planner used the index for the AND with an indexed equality")
        XCTAssertGreaterThan(usedText, predicates / 3)
        XCTAssertGreaterThan(sortedCount, predicates / 8)
        XCTAssertGreaterThan(distinctCount, predicates / 10)
    }
}
