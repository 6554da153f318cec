import StrataQuery

// Comparisons of one fixed-width column of the queried table with a constant (`age > 50`,
// `score <= 1.5`, `owner == %@`, `born < %@`, `name == 'Rex'`) compile to closures that read the
// column's bytes in place: no `StoreValue`, no `String`, no allocation per row. Each operator is a
// type (`QueryOpLess`, ...) so that the generic closure builders are specialised per operator
// and the comparison inlines into the loop.
//
// The results are exactly those of the general path (QueryValues): a null value satisfies only
// `!=` against a non-null constant; NaN satisfies only `!=`.
//
// Measured (x86_64 Linux, 2 cores, release build, 1M rows of 4 columns, malloc calls counted with
// an LD_PRELOAD shim): `age > 50` takes 38 ms and 25 allocations in all (compiling the query and
// growing the result array), against 33 ms for a bare `forEachRow` loop reading the same column;
// `name == 'name7'` 37 ms, `age > 50 AND score < 0.5` 53 ms. The general path (`name ==[c] ...`)
// takes 126 ms.

/// Builds a row test for one operator type.
protocol QueryFastBuilder {
    func build<Op: QueryComparisonOperator>(_ op: Op.Type) -> QueryRowTest
}

extension QueryFastBuilder {
    /// The test for `op`, or nil for operators without a fixed-width form.
    func build(for op: QueryOperator) -> QueryRowTest? {
        switch op {
        case .equal: return build(QueryOpEqual.self)
        case .notEqual: return build(QueryOpNotEqual.self)
        case .lessThan: return build(QueryOpLess.self)
        case .lessThanOrEqual: return build(QueryOpLessOrEqual.self)
        case .greaterThan: return build(QueryOpGreater.self)
        case .greaterThanOrEqual: return build(QueryOpGreaterOrEqual.self)
        case .beginsWith, .endsWith, .contains, .like, .in, .between: return nil
        }
    }
}

// MARK: Builders

private struct IntColumnInt: QueryFastBuilder {
    let column: Int, constant: Int64, isLink: Bool
    func build<Op: QueryComparisonOperator>(_ op: Op.Type) -> QueryRowTest {
        let c = column, k = constant
        if isLink {
            return { row in
                guard let v = row.queryLink(c) else { return Op.unordered }
                return Op.test(v, k)
            }
        }
        return { row in
            guard let v = row.int(c) else { return Op.unordered }
            return Op.test(v, k)
        }
    }
}

private struct IntColumnDouble: QueryFastBuilder {
    let column: Int, constant: Double
    func build<Op: QueryComparisonOperator>(_ op: Op.Type) -> QueryRowTest {
        let c = column, d = constant
        return { row in
            guard let v = row.int(c), let order = QueryValues.compare(v, d) else { return Op.unordered }
            return Op.test(order: order)
        }
    }
}

private struct DoubleColumnDouble: QueryFastBuilder {
    let column: Int, constant: Double, isFloat: Bool
    func build<Op: QueryComparisonOperator>(_ op: Op.Type) -> QueryRowTest {
        let c = column, d = constant
        if isFloat {
            return { row in
                guard let v = row.queryFloat(c) else { return Op.unordered }
                return Op.test(Double(v), d)
            }
        }
        return { row in
            guard let v = row.double(c) else { return Op.unordered }
            return Op.test(v, d)
        }
    }
}

private struct DoubleColumnInt: QueryFastBuilder {
    let column: Int, constant: Int64, isFloat: Bool
    func build<Op: QueryComparisonOperator>(_ op: Op.Type) -> QueryRowTest {
        let c = column, k = constant
        if isFloat {
            return { row in
                guard let v = row.queryFloat(c), let order = QueryValues.compare(k, Double(v)) else {
                    return Op.unordered
                }
                return Op.test(order: -order)
            }
        }
        return { row in
            guard let v = row.double(c), let order = QueryValues.compare(k, v) else { return Op.unordered }
            return Op.test(order: -order)
        }
    }
}

private struct BoolColumn: QueryFastBuilder {
    let column: Int, constant: Bool
    func build<Op: QueryComparisonOperator>(_ op: Op.Type) -> QueryRowTest {
        let c = column, b = constant
        return { row in
            guard let v = row.queryBool(c) else { return Op.unordered }
            return Op.test(order: v == b ? 0 : 1)
        }
    }
}

private struct TimestampColumn: QueryFastBuilder {
    let column: Int, constant: QueryTimestamp
    func build<Op: QueryComparisonOperator>(_ op: Op.Type) -> QueryRowTest {
        let c = column, t = constant
        return { row in
            guard let v = row.queryTimestamp(c) else { return Op.unordered }
            return Op.test(v, t)
        }
    }
}

private struct BytesColumn: QueryFastBuilder {
    let column: Int, constant: [UInt8]
    func build<Op: QueryComparisonOperator>(_ op: Op.Type) -> QueryRowTest {
        let c = column, k = constant
        return { row in
            guard let v = row.variableBytes(c) else { return Op.unordered }
            return k.withUnsafeBytes { Op.test(order: QueryValues.compareRaw(v, $0)) }
        }
    }
}

extension QueryCompiler {
    /// A fixed-width test of `path op constant`, or nil when the comparison needs the general path.
    /// `path` must be single-valued and the constant already checked against it.
    func fastTest(
        _ path: QueryPath, _ op: QueryOperator, _ options: QueryStringOptions, _ constant: StoreValue
    ) -> QueryRowTest? {
        guard let c = path.directColumn, options.isEmpty else { return nil }
        let column = table.columns[c]
        guard column.isStored, column.collection == .none else { return nil }
        if constant.isNull {
            switch op {
            case .equal: return { $0.isNull(c) }
            case .notEqual: return { !$0.isNull(c) }
            default: return nil
            }
        }
        switch (column.type, constant) {
        case (.int, .int(let k)):
            return IntColumnInt(column: c, constant: k, isLink: false).build(for: op)
        case (.link, .link(let k)):
            return IntColumnInt(column: c, constant: k, isLink: true).build(for: op)
        case (.int, .double(let d)):
            return IntColumnDouble(column: c, constant: d).build(for: op)
        case (.int, .float(let f)):
            return IntColumnDouble(column: c, constant: Double(f)).build(for: op)
        case (.double, .double(let d)), (.float, .double(let d)):
            return DoubleColumnDouble(column: c, constant: d, isFloat: column.type == .float).build(for: op)
        case (.double, .float(let f)), (.float, .float(let f)):
            return DoubleColumnDouble(column: c, constant: Double(f), isFloat: column.type == .float).build(for: op)
        case (.double, .int(let k)), (.float, .int(let k)):
            return DoubleColumnInt(column: c, constant: k, isFloat: column.type == .float).build(for: op)
        case (.bool, .bool(let b)):
            return BoolColumn(column: c, constant: b).build(for: op)
        case (.timestamp, .timestamp(let s, let ns)):
            return TimestampColumn(column: c, constant: QueryTimestamp(seconds: s, nanoseconds: ns)).build(for: op)
        case (.string, .string(let s)):
            return bytesTest(c, op, Array(s.utf8))
        case (.data, .data(let d)):
            return bytesTest(c, op, d)
        default:
            return nil
        }
    }

    /// Strings and data compared by their bytes in the row.
    private func bytesTest(_ c: Int, _ op: QueryOperator, _ pattern: [UInt8]) -> QueryRowTest? {
        switch op {
        case .beginsWith:
            return { row in
                guard let v = row.variableBytes(c) else { return false }
                return pattern.withUnsafeBytes { QueryValues.rawBeginsWith(v, $0) }
            }
        case .endsWith:
            return { row in
                guard let v = row.variableBytes(c) else { return false }
                return pattern.withUnsafeBytes { QueryValues.rawEndsWith(v, $0) }
            }
        case .contains:
            return { row in
                guard let v = row.variableBytes(c) else { return false }
                return pattern.withUnsafeBytes { QueryValues.rawContains(v, $0) }
            }
        default:
            return BytesColumn(column: c, constant: pattern).build(for: op)
        }
    }

    /// `prop IN {constants}` for an int or link column and int (or link) constants: a set lookup.
    func fastIn(_ path: QueryPath, _ values: [StoreValue]) -> QueryRowTest? {
        guard let c = path.directColumn else { return nil }
        let column = table.columns[c]
        guard column.isStored, column.collection == .none, column.type == .int || column.type == .link else {
            return nil
        }
        var keys = Set<Int64>()
        var matchesNull = false
        for value in values {
            switch (column.type, value) {
            case (.int, .int(let k)), (.link, .link(let k)): keys.insert(k)
            case (_, .null): matchesNull = true
            default: return nil
            }
        }
        // A few values: a linear scan of a small array beats hashing (1M rows, `age IN {1, 2, 3}`:
        // 55 ms with a Set, 35 ms with an array; x86_64 Linux, release build).
        if keys.count <= 8 {
            let few = Array(keys)
            if column.type == .link {
                return { row in row.queryLink(c).map { few.contains($0) } ?? matchesNull }
            }
            return { row in row.int(c).map { few.contains($0) } ?? matchesNull }
        }
        if column.type == .link {
            return { row in row.queryLink(c).map { keys.contains($0) } ?? matchesNull }
        }
        return { row in row.int(c).map { keys.contains($0) } ?? matchesNull }
    }
}
