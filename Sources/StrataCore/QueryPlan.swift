import StrataQuery

/// How ``CoreQuery/evaluate(in:table:)`` finds the matching objects: what ``CoreQuery/explain(in:table:)``
/// returns.
///
/// ```swift
/// let plan = try CoreQuery("name == 'Rex' AND age > 3").explain(in: txn, table: dogs)
/// plan.access            // .index(columns: ["name"], lookups: 1)
/// plan.fastComparisons   // 2: both comparisons read the row's bytes directly
/// ```
///
/// ## Concurrency
/// A value type; `Sendable`.
public struct CoreQueryPlan: Sendable, Equatable, CustomStringConvertible {
    /// Which rows are read.
    ///
    /// ## Concurrency
    /// A value type; `Sendable`.
    public enum Access: Sendable, Equatable {
        /// None: the filter can never match (`FALSEPREDICATE`, or an empty `IN {}` in an AND).
        case none
        /// Every row of the table, in key order.
        case scan
        /// Only the rows an index (or the primary key) returns for `lookups` values of `columns`
        /// (several columns for an OR of equalities); the whole filter is then checked on each.
        case index(columns: [String], lookups: Int)
    }

    /// The queried table.
    public let table: String
    /// Which rows are read.
    public let access: Access
    /// Comparisons that read a fixed-width (or string) column in place, without building a value.
    public let fastComparisons: Int
    /// Comparisons on the general path: links, collections, aggregates, `[c]`/`[d]`, mixed values.
    public let generalComparisons: Int
    /// The number of sort descriptors applied after filtering.
    public let sortKeys: Int
    /// The number of distinct key paths applied after sorting.
    public let distinctKeys: Int

    /// The plan in one line, e.g. `scan of Dog, 1 fast and 0 general comparisons per row`.
    public var description: String {
        var text: String
        let perRow: String
        switch access {
        case .none:
            return "no rows read from \(table): the filter never matches"
        case .scan:
            text = "scan of \(table)"
            perRow = "per row"
        case .index(let columns, let lookups):
            let names = columns.map { "\(table).\($0)" }
            var unique: [String] = []
            for n in names where !unique.contains(n) { unique.append(n) }
            text = "index lookup on \(unique.joined(separator: ", ")) (\(lookups) value\(lookups == 1 ? "" : "s"))"
            perRow = "per candidate"
        }
        if fastComparisons + generalComparisons > 0 {
            text += ", then \(fastComparisons) fast and \(generalComparisons) general comparison\(fastComparisons + generalComparisons == 1 ? "" : "s") \(perRow)"
        }
        if sortKeys > 0 { text += "; sorted by \(sortKeys) key\(sortKeys == 1 ? "" : "s")" }
        if distinctKeys > 0 { text += "; distinct on \(distinctKeys) key path\(distinctKeys == 1 ? "" : "s")" }
        return text
    }
}

/// Lookups of one indexed (or primary-key) column: the rows whose value equals one of `values`.
struct IndexProbe {
    let column: Int
    /// The values in the column's own type (an `Int` column is looked up with `.int`).
    let values: [CoreValue]
    let isPrimaryKey: Bool
}

extension QueryCompiler {
    // MARK: Index planning

    /// The index lookups whose union holds every row `predicate` can match, or nil when the
    /// predicate needs a scan. Only called after `compile` accepted the predicate.
    ///
    /// - `prop == constant` and `prop IN {...}` on an indexed or primary-key column: lookups.
    /// - `AND`: the child with the fewest lookups (a primary key preferred).
    /// - `OR`: the union, when every child has lookups.
    func indexProbes(_ predicate: QueryPredicate) -> [IndexProbe]? {
        switch predicate {
        case .comparison(let comparison):
            return indexProbe(comparison).map { [$0] }
        case .and(let children):
            var best: [IndexProbe]? = nil
            func cost(_ probes: [IndexProbe]) -> Int {
                probes.reduce(0) { $0 + $1.values.count * ($1.isPrimaryKey ? 1 : 2) }
            }
            for child in children {
                guard let probes = indexProbes(child) else { continue }
                if best == nil || cost(probes) < cost(best!) { best = probes }
            }
            return best
        case .or(let children):
            var all: [IndexProbe] = []
            for child in children {
                guard let probes = indexProbes(child) else { return nil }
                all.append(contentsOf: probes)
            }
            return all
        case .not, .truePredicate, .falsePredicate:
            return nil
        }
    }

    private func indexProbe(_ comparison: QueryComparison) -> IndexProbe? {
        guard comparison.quantifier == nil, comparison.options.isEmpty,
              comparison.op == .equal || comparison.op == .in,
              case .path(let path)? = try? bind(comparison.left), let c = path.directColumn else { return nil }
        let column = table.columns[c]
        guard column.collection == .none, column.isPrimaryKey || column.hasIndexTree else { return nil }
        switch column.type {
        case .mixed, .link, .linkingObjects: return nil
        default: break
        }
        var constants: [CoreValue]
        switch try? bind(comparison.right) {
        case .constant(let value, _, _)? where comparison.op == .equal:
            constants = [value]
        case .constant(.list(let values), _, _)? where comparison.op == .in:
            constants = values
        case .list(let values)? where comparison.op == .in:
            constants = values.map(\.value)
        default:
            return nil
        }
        var values: [CoreValue] = []
        for constant in constants {
            switch lookupValue(constant, column: column) {
            case .value(let v): if !values.contains(v) { values.append(v) }
            case .matchesNothing: continue
            case .unusable: return nil
            }
        }
        return IndexProbe(column: c, values: values, isPrimaryKey: column.isPrimaryKey)
    }

    private enum LookupValue {
        case value(CoreValue)
        /// No stored value can equal the constant (`age == 1.5` on an Int column).
        case matchesNothing
        /// The index cannot answer this constant; scan instead.
        case unusable
    }

    /// The constant as the index stores values of `column`, so that index equality is the query's
    /// equality (QueryValues.equal).
    private func lookupValue(_ constant: CoreValue, column: CoreColumn) -> LookupValue {
        switch (column.type, constant) {
        case (_, .null):
            // An optional Int primary key keeps its nil key as an object key too (RowLayout.nullKey).
            return !column.isNullable ? .matchesNothing : .value(.null)
        case (.int, .int):
            return .value(constant)
        case (.int, .float(let f)):
            return lookupValue(.double(Double(f)), column: column)
        case (.int, .double(let d)):
            guard !d.isNaN, d >= -9_223_372_036_854_775_808.0, d < 9_223_372_036_854_775_808.0, d.rounded(.towardZero) == d else { return .matchesNothing }
            return .value(.int(Int64(d)))
        case (.double, .double(let d)), (.float, .double(let d)):
            return d.isNaN ? .matchesNothing : .value(.double(d))
        case (.double, .float(let f)), (.float, .float(let f)):
            return f.isNaN ? .matchesNothing : .value(.double(Double(f)))
        case (.double, .int(let k)), (.float, .int(let k)):
            let d = Double(k)
            return QueryValues.compare(k, d) == 0 ? .value(.double(d)) : .matchesNothing
        case (.bool, .bool), (.string, .string), (.data, .data), (.timestamp, .timestamp), (.objectId, .objectId),
             (.uuid, .uuid), (.decimal128, .decimal128):
            return .value(constant)
        default:
            return .unusable
        }
    }
}

/// A query bound to one table in one transaction, ready to run.
struct PreparedQuery {
    let txn: StoreTransaction
    let table: CoreTable
    let predicate: CompiledPredicate
    let probes: [IndexProbe]?
    let sortKeys: [(value: (RowReader) throws -> CoreValue, ascending: Bool)]
    let distinctKeys: [(RowReader) throws -> CoreValue]
    let plan: CoreQueryPlan
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
            for (i, key) in sortKeys.enumerated() { sortValues[i].append(IndexKey.encode(try key.value(row))) }
            if !distinctKeys.isEmpty {
                var combined: [UInt8] = []
                for key in distinctKeys { IndexKey.encode(try key(row), into: &combined) }
                distinctValues.append(combined)
            }
        }

        if let probes {
            for key in try candidates(probes) {
                guard let row = try txn.row(table, key: key) else { continue }
                if try test?(row) ?? true { try accept(row) }
            }
        } else if ordering {
            try txn.forEachRowInPlace(table, { (row: inout RowReader) in
                if try test?(row) ?? true { try accept(row) }
                return true
            })
        } else if let test, let keys = try simpleKeys(test) {
            return keys
        } else if let test {
            // The hot loop: one call of the compiled test per row, the key appended on a match.
            try txn.forEachRowInPlace(table, { (row: inout RowReader) in
                if try test(row) { keys.append(row.key) }
                return true
            })
        } else {
            try txn.forEachRowInPlace(table, { (row: inout RowReader) in
                keys.append(row.key)
                return true
            })
        }
        guard ordering else { return keys }

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
            try txn.forEachRowInPlace(table, { (row: inout RowReader) in
                if try test(row) { try body(row) }
                return true
            })
        } else {
            try txn.forEachRowInPlace(table, { (row: inout RowReader) in
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

extension QueryCompiler {
    // MARK: Sort and distinct keys

    /// A function reading the value of a sort or distinct key path: a single value reached
    /// through to-one links only.
    func sortValue(_ keyPath: String) throws(CoreQueryError) -> (RowReader) throws -> CoreValue {
        let components = keyPath.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        if components.contains(where: { $0.hasPrefix("@") }) {
            throw .invalidSortKeyPath(keyPath: keyPath, reason: "collection operators such as @count cannot be sorted or de-duplicated by; sort by a property")
        }
        if components.contains(where: \.isEmpty) {
            throw .invalidSortKeyPath(keyPath: keyPath, reason: "it is not a key path; write property names separated by dots, such as owner.name")
        }
        let path = try resolvePath(components, aggregate: nil)
        guard !path.isMulti else {
            throw .invalidSortKeyPath(keyPath: keyPath, reason: "it goes through a list, set, map or LinkingObjects property; only single values reached through to-one links can be sorted or de-duplicated by")
        }
        return singleValue(path)
    }
}
