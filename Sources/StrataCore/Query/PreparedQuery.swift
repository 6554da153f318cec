import StrataQuery

/// A query bound to one table in one transaction, ready to run.
struct PreparedQuery {
    let txn: StoreTransaction
    let table: StoreTable
    let predicate: CompiledPredicate
    let probes: [IndexProbe]?
    var sortKeys: [(value: (RowReader) throws -> StoreValue, ascending: Bool)]
    var distinctKeys: [(RowReader) throws -> StoreValue]
    let plan: StoreQueryPlan
    /// The query as one fixed-width comparison, when it is one (QuerySimpleScan.swift).
    var simple: SimpleComparison? = nil
    /// The query as AND, OR and NOT over such comparisons, when it is that and not one
    /// comparison (QueryMaskScan.swift).
    var compound: SimplePredicate? = nil

    /// The matching keys in result order.
    func run() throws -> [Int64] {
        let test: QueryRowTest?
        switch predicate {
        case .constant(false): return []
        case .constant(true): test = nil
        case .test(let t): test = t
        }
        var keys: [Int64] = []
        // Per result: the encoded value of each sort key, and the encoded distinct values.
        var sortValues: [[[UInt8]]] = Array(repeating: [], count: sortKeys.count)
        var distinctValues: [[UInt8]] = []
        let ordering = !sortKeys.isEmpty || !distinctKeys.isEmpty
        func accept(_ row: RowReader) throws {
            keys.append(row.key)
            for (i, key) in sortKeys.enumerated() {
                sortValues[i].append(IndexKey.encodeForOrdering(try key.value(row)))
            }
            if !distinctKeys.isEmpty {
                var combined: [UInt8] = []
                for key in distinctKeys { IndexKey.encodeForOrdering(try key(row), into: &combined) }
                distinctValues.append(combined)
            }
        }

        if let probes {
            for key in try candidates(probes) {
                guard let row = try txn.row(table, key: key) else { continue }
                if try test?(row) ?? true { try accept(row) }
            }
        } else if ordering {
            // These walks keep keys and encoded copies of values (`passing`: see
            // `StoreTransaction.forEachRowInPlace`); the compiled tests read the row in place.
            try txn.forEachRowInPlace(
                table, passing: true,
                { (row: inout RowReader) in
                    if try test?(row) ?? true { try accept(row) }
                    return true
                })
        } else if let test, let keys = try simpleKeys(test) {
            return keys
        } else if let test {
            // The hot loop: one call of the compiled test per row, the key appended on a match.
            try txn.forEachRowInPlace(
                table, passing: true,
                { (row: inout RowReader) in
                    if try test(row) { keys.append(row.key) }
                    return true
                })
        } else {
            try txn.forEachRowInPlace(
                table, passing: true,
                { (row: inout RowReader) in
                    keys.append(row.key)
                    return true
                })
        }
        guard ordering else { return keys }
        return ordered(keys, sortValues: sortValues, distinctValues: distinctValues)
    }

    /// `keys` sorted by their encoded sort values (stable) and then de-duplicated by their encoded
    /// distinct values, keeping the first of each.
    func ordered(_ keys: [Int64], sortValues: [[[UInt8]]], distinctValues: [[UInt8]]) -> [Int64] {
        var order = Array(keys.indices)
        if !sortKeys.isEmpty {
            let directions = sortKeys.map(\.ascending)
            order.sort { a, b in
                for (i, ascending) in directions.enumerated() {
                    let c = QueryValues.compareBytes(sortValues[i][a], sortValues[i][b])
                    if c != 0 { return ascending ? c < 0 : c > 0 }
                }
                return a < b  // stable
            }
        }
        if !distinctKeys.isEmpty {
            var seen = Set<[UInt8]>()
            order = order.filter { seen.insert(distinctValues[$0]).inserted }
        }
        return order.map { keys[$0] }
    }

    /// Calls `body` with each matching row, in key order (sorting and distinct do not apply).
    func forEachMatch(_ body: (RowReader) throws -> Void) throws {
        let test: QueryRowTest?
        switch predicate {
        case .constant(false): return
        case .constant(true): test = nil
        case .test(let t): test = t
        }
        if let probes {
            for key in try candidates(probes) {
                guard let row = try txn.row(table, key: key) else { continue }
                if try test?(row) ?? true { try body(row) }
            }
        } else if let test {
            try txn.forEachRowInPlace(
                table,
                { (row: inout RowReader) in
                    if try test(row) { try body(row) }
                    return true
                })
        } else {
            try txn.forEachRowInPlace(
                table,
                { (row: inout RowReader) in
                    try body(row)
                    return true
                })
        }
    }

    /// The union of the probes' lookups, in key order.
    private func candidates(_ probes: [IndexProbe]) throws -> [Int64] {
        var keys: [Int64] = []
        var lookups = 0
        for probe in probes {
            for value in probe.values {
                keys.append(contentsOf: try txn.indexLookup(table, column: probe.column, equals: value))
                lookups += 1
            }
        }
        if lookups > 1 {
            keys.sort()
            var unique: [Int64] = []
            unique.reserveCapacity(keys.count)
            for k in keys where unique.last != k { unique.append(k) }
            keys = unique
        }
        return keys
    }
}
