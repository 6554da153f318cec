import StrataQuery

/// A query over one table: an optional filter, sort descriptors and distinct key paths.
///
/// `StoreQuery` is a description; nothing is read until ``evaluate(in:table:)``, which binds the
/// filter to the table's schema (resolving every property name, argument and type once), picks
/// an index when the filter allows one (see ``explain(in:table:)``), and returns the keys of the
/// matching objects in result order: key order, then sorted, then de-duplicated.
///
/// ```swift
/// let query = try StoreQuery("age > %@ AND owner.name BEGINSWITH[c] %@", arguments: [.int(3), .string("a")])
///     .sorted(by: "name")
///     .distinct(by: ["owner.name"])
/// let keys = try query.evaluate(in: txn, table: dogs)   // object keys of Dog, in result order
/// ```
///
/// The filter language is that of Docs/QueryLanguage.md. The engine evaluates all of it:
/// comparisons (`==` `!=` `<` `<=` `>` `>=` `BETWEEN` `IN`), the string operators
/// (`BEGINSWITH` `ENDSWITH` `CONTAINS` `LIKE`, with `[c]` and `[d]`), `AND` `OR` `NOT`,
/// `TRUEPREDICATE` `FALSEPREDICATE`, `nil`, key paths through links (`owner.name`), `ANY`/`ALL`/`NONE`
/// over lists, sets, maps and `LinkingObjects` (a key path through a collection without a
/// quantifier means `ANY`), `@count` `@size` `@min` `@max` `@sum` `@avg`, `%K`, and links compared
/// with `.link(key)` arguments (`owner == %@`). The rules for each comparison (nulls, Int vs
/// Double, string order) are at the top of QueryValues.swift.
///
/// Arguments fill `%@` and `$n` placeholders: a `.list` for `IN %@`, a two-element `.list` for
/// `BETWEEN %@`, a `.string` key path for `%K`, a `.link(key)` (or a `.typedLink` into the
/// property's table) for a link property.
///
/// ## Concurrency
/// A value type; `Sendable`. Evaluate it on the thread that uses the transaction.
package struct StoreQuery: Sendable {
    /// One sort key: a key path (through to-one links only, such as `"owner.name"`) and its
    /// direction.
    package typealias SortDescriptor = (keyPath: String, ascending: Bool)

    /// The filter; nil matches every object.
    package private(set) var predicate: QueryPredicate?
    /// The values of the filter's `%@`, `$n` and `%K` placeholders, by index.
    package private(set) var arguments: [StoreValue]
    /// Sort keys, most significant first. Sorting is stable and puts nulls first when ascending
    /// (last when descending), as in Realm; strings sort by their UTF-8 bytes.
    package var sortDescriptors: [SortDescriptor] = []
    /// Key paths (through to-one links only) whose combined values must be unique among the
    /// results; the first object of each combination in result order (after sorting) is kept.
    package var distinctKeyPaths: [String] = []
    /// At most this many results, the first in result order (after sorting and distinct); nil
    /// for no limit.
    package var limit: Int? = nil
    /// A mismatch between a piece of the filter and the arguments passed with it, reported when
    /// the query is evaluated (combining methods do not throw).
    private var argumentProblem: StoreQueryError?
    /// Where the candidate objects come from: the whole table (the default) or one object's
    /// collection property (``restricted(to:)``).
    package private(set) var source: StoreQuerySource = .table

    /// Predicates nested deeper than this (AND, OR and NOT levels) are rejected rather than risk
    /// exhausting the stack; the parser's limit (``ParsedQuery/maximumNestingDepth``) is lower.
    package static let maximumDepth = 1000

    /// A query that matches every object, in key order.
    package init() {
        self.predicate = nil
        self.arguments = []
    }

    /// A query with an already parsed (or hand-built) predicate.
    ///
    /// ```swift
    /// let q = StoreQuery(predicate: try ParsedQuery.parse("age > %@").predicate, arguments: [.int(3)])
    /// ```
    ///
    /// - Parameters:
    ///   - predicate: The filter; nil matches every object.
    ///   - arguments: One value per placeholder, by index. A count that does not match the
    ///     placeholders is reported as ``StoreQueryError/wrongArgumentCount(expected:given:)`` when
    ///     the query is evaluated.
    package init(predicate: QueryPredicate?, arguments: [StoreValue] = []) {
        self.init()
        if let predicate { self = filtered(by: predicate, arguments: arguments) }
    }

    /// A query with a filter string, parsed now.
    ///
    /// ```swift
    /// let q = try StoreQuery("name BEGINSWITH[c] %@ AND age >= 2", arguments: [.string("r")])
    /// ```
    ///
    /// - Parameters:
    ///   - filter: The filter, in the language of Docs/QueryLanguage.md.
    ///   - arguments: One value per placeholder.
    /// - Throws: ``StoreQueryError/syntax(_:)`` for text that does not parse, and for an argument
    ///   count that does not match the placeholders.
    package init(_ filter: String, arguments: [StoreValue] = []) throws(StoreQueryError) {
        self = try StoreQuery().filtered(filter, arguments: arguments)
    }

    // MARK: Combining

    /// This query with `predicate` ANDed to its filter.
    ///
    /// The placeholders of `predicate` refer to `arguments` (index 0 is the first of them); they
    /// are renumbered to follow this query's arguments.
    ///
    /// ```swift
    /// let adults = StoreQuery().filtered(by: try ParsedQuery.parse("age >= %@").predicate, arguments: [.int(18)])
    /// let named = adults.filtered(by: try ParsedQuery.parse("name == %@").predicate, arguments: [.string("Ann")])
    /// // named.predicate: age >= $0 AND name == $1; named.arguments: [18, "Ann"]
    /// ```
    ///
    /// - Parameters:
    ///   - predicate: The filter to add.
    ///   - arguments: The values of its placeholders. A count that does not match is reported
    ///     as ``StoreQueryError/wrongArgumentCount(expected:given:)`` when the query is evaluated.
    /// - Returns: The combined query; sort descriptors and distinct key paths are kept.
    package func filtered(by predicate: QueryPredicate, arguments: [StoreValue] = []) -> StoreQuery {
        var result = self
        let needed = StoreQuery.argumentCount(predicate)
        if needed != arguments.count, result.argumentProblem == nil {
            result.argumentProblem = .wrongArgumentCount(expected: needed, given: arguments.count)
        }
        let shifted = StoreQuery.shiftArguments(predicate, by: self.arguments.count)
        result.arguments.append(contentsOf: arguments)
        switch (self.predicate, shifted) {
        case (nil, _):
            result.predicate = shifted
        case (.and(let a)?, .and(let b)):
            result.predicate = .and(a + b)
        case (.and(let a)?, _):
            result.predicate = .and(a + [shifted])
        case (let existing?, .and(let b)):
            result.predicate = .and([existing] + b)
        case (let existing?, _):
            result.predicate = .and([existing, shifted])
        }
        return result
    }

    /// This query with a filter string ANDed to its filter.
    ///
    /// ```swift
    /// let q = try StoreQuery().filtered("age > %@", arguments: [.int(3)]).filtered("ANY dogs.name == 'Rex'")
    /// ```
    ///
    /// - Throws: ``StoreQueryError/syntax(_:)`` for text that does not parse, and for an argument
    ///   count that does not match the placeholders.
    package func filtered(_ filter: String, arguments: [StoreValue] = []) throws(StoreQueryError) -> StoreQuery {
        do {
            let parsed = try ParsedQuery.parse(filter)
            try parsed.validateArgumentCount(arguments.count)
            return filtered(by: parsed.predicate, arguments: arguments).ordered(by: parsed.ordering)
        } catch {
            throw .syntax(error)
        }
    }

    /// This query sorted by `keyPath` first, with the existing sort descriptors breaking ties (as
    /// when sorting the sorted results again).
    ///
    /// ```swift
    /// let q = StoreQuery().sorted(by: "age", ascending: false).sorted(by: "owner.name")
    /// // sortDescriptors: [("owner.name", true), ("age", false)]
    /// ```
    package func sorted(by keyPath: String, ascending: Bool = true) -> StoreQuery {
        sorted(by: [(keyPath, ascending)])
    }

    /// This query sorted by `descriptors` (most significant first), with the existing sort
    /// descriptors breaking ties.
    package func sorted(by descriptors: [SortDescriptor]) -> StoreQuery {
        var result = self
        result.sortDescriptors = descriptors + sortDescriptors
        result.refuseOrderingAfterLimit("sorting")
        return result
    }

    /// Records, for evaluation, that sorting or distinct was added after a limit: the engine
    /// applies the limit last, so it would pick other objects than the ones the limit kept.
    private mutating func refuseOrderingAfterLimit(_ what: String) {
        guard limit != nil, argumentProblem == nil else { return }
        argumentProblem = .unsupported(
            "\(what) after LIMIT: the limit applies last; write SORT and DISTINCT before LIMIT in the query, or sort the limited objects in Swift"
        )
    }

    /// This query keeping only the first object (in result order) of each combination of values
    /// of `keyPaths`. Replaces earlier distinct key paths.
    ///
    /// ```swift
    /// let oldestPerOwner = StoreQuery().sorted(by: "age", ascending: false).distinct(by: ["owner"])
    /// ```
    package func distinct(by keyPaths: [String]) -> StoreQuery {
        var result = self
        result.distinctKeyPaths = keyPaths
        result.refuseOrderingAfterLimit("distinct")
        return result
    }

    /// This query over the objects of `source` only. Results of a collection source keep the
    /// collection's order (and repeated elements) until sorted.
    ///
    /// ```swift
    /// let q = StoreQuery("age > 3").restricted(to: .collection(ownerTable: "Person", ownerKey: 7, column: "dogs"))
    /// ```
    package func restricted(to source: StoreQuerySource) -> StoreQuery {
        var result = self
        result.source = source
        return result
    }

    // MARK: Evaluating

    /// The keys of the objects of `table` that match, in result order.
    ///
    /// Binds the query to `table` (and, for key paths through links, to the tables in
    /// `txn.tables`), then reads the candidate rows: those an index lookup returns when the
    /// filter is, or ANDs, an equality (or `IN`) on an indexed or primary-key property, otherwise
    /// every row. Comparisons of a plain fixed-width property with a constant run without
    /// building values per row.
    ///
    /// ```swift
    /// let txn = StoreTransaction(read: try db.beginRead())
    /// txn.tables = tables
    /// let keys = try StoreQuery("age > 50").evaluate(in: txn, table: people)
    /// ```
    ///
    /// - Parameters:
    ///   - txn: The transaction to read; its `tables` must hold every table a key path links to.
    ///   - table: The table to query.
    /// - Returns: Object keys: in key order, or sorted by ``sortDescriptors``; then de-duplicated
    ///   by ``distinctKeyPaths``.
    /// - Throws: ``StoreQueryError`` when the query does not fit the schema or its arguments (see
    ///   its table of cases); storage errors from reading the transaction.
    package func evaluate(in txn: StoreTransaction, table: StoreTable) throws -> [Int64] {
        let prepared = try prepare(txn, table)
        var keys: [Int64]
        if let candidates = try source.candidates(in: txn) {
            keys = try prepared.run(restrictedTo: candidates)
        } else {
            keys = try prepared.run()
        }
        if let limit, keys.count > limit { keys.removeLast(keys.count - limit) }
        return keys
    }

    /// Calls `body` with the row of each matching object, in key order, without collecting keys:
    /// for aggregates (count, sum, min, max, average). Sort descriptors and distinct key paths
    /// are ignored; use ``evaluate(in:table:)`` when they matter.
    /// - Throws: as ``evaluate(in:table:)``, and what `body` throws.
    package func forEachMatch(in txn: StoreTransaction, table: StoreTable, _ body: (RowReader) throws -> Void) throws {
        if limit != nil {
            // Which objects are within the limit depends on the result order: take the keys.
            for key in try evaluate(in: txn, table: table) {
                if let row = try txn.row(table, key: key) { try body(row) }
            }
            return
        }
        let prepared = try prepare(txn, table)
        guard let candidates = try source.candidates(in: txn) else { return try prepared.forEachMatch(body) }
        try prepared.forEachMatch(restrictedTo: candidates, body)
    }

    /// The sum of column `column` (an `Int` or `Double` column) over the matching objects,
    /// computed from the rows' bytes when the query is a single fixed-width comparison or matches
    /// everything (for a query restricted to a collection, when the collection is large enough
    /// to scan the table beside it; repeated elements add each time); nil when it needs the general path (``forEachMatch(in:table:_:)``). Sorting and
    /// distinct are ignored. `sawValue` tells whether any non-null value was added. Integers add
    /// with wrapping, doubles in key order, exactly as the general path does.
    /// - Throws: as ``evaluate(in:table:)``.
    package func fastSum(
        in txn: StoreTransaction, table: StoreTable, column: Int
    ) throws -> (ints: Int64, doubles: Double, sawValue: Bool)? {
        guard limit == nil else { return nil }
        let prepared = try prepare(txn, table)
        if let candidates = try source.candidates(in: txn) {
            return try prepared.sum(column: column, restrictedTo: candidates)
        }
        return try prepared.simpleSum(column: column)
    }

    /// The number of matching objects, counted from the rows' bytes without collecting keys,
    /// when the query is a single fixed-width comparison or AND, OR and NOT over such (for a
    /// query restricted to a collection, when the collection is large enough to scan the table
    /// beside it; repeated elements count each time); nil when it needs the general path
    /// (``evaluate(in:table:)``). Distinct key paths are ignored: callers with any count the keys.
    /// - Throws: as ``evaluate(in:table:)``.
    package func fastCount(in txn: StoreTransaction, table: StoreTable) throws -> Int? {
        guard limit == nil else { return nil }
        // Only a single comparison can be simple: anything else is not prepared here (the
        // caller's general path prepares it once).
        switch predicate {
        case .comparison?, .and?, .or?, .not?: break
        default: return nil
        }
        let prepared = try prepare(txn, table)
        if let candidates = try source.candidates(in: txn) { return try prepared.count(restrictedTo: candidates) }
        guard prepared.probes == nil, case .test(let test) = prepared.predicate else { return nil }
        return try prepared.simpleCount(test)
    }

    /// How ``evaluate(in:table:)`` would find the objects: by index or by scan, and how many
    /// comparisons run on the fixed-width fast path. Binds the query (so it throws the same
    /// errors) but reads no rows.
    ///
    /// ```swift
    /// let plan = try StoreQuery("name == 'Rex' AND age > 3").explain(in: txn, table: dogs)
    /// // plan.access == .index(columns: ["name"], lookups: 1)
    /// print(plan)  // index lookup on Dog.name (1 value), then 2 fast and 0 general comparisons per candidate
    /// ```
    ///
    /// - Throws: ``StoreQueryError`` as for ``evaluate(in:table:)``.
    package func explain(in txn: StoreTransaction, table: StoreTable) throws(StoreQueryError) -> StoreQueryPlan {
        try prepare(txn, table).plan
    }

    /// Binds and compiles the query.
    func prepare(_ txn: StoreTransaction, _ table: StoreTable) throws(StoreQueryError) -> PreparedQuery {
        if let argumentProblem { throw argumentProblem }
        let compiler = QueryCompiler(txn: txn, table: table, arguments: arguments)
        var compiled = CompiledPredicate.constant(true)
        var probes: [IndexProbe]? = nil
        if let predicate {
            let needed = StoreQuery.argumentCount(predicate)
            guard needed <= arguments.count else { throw .wrongArgumentCount(expected: needed, given: arguments.count) }
            compiled = try compiler.compile(predicate)
            if case .test = compiled { probes = compiler.indexProbes(predicate) }
        }
        var sortKeys: [(value: (RowReader) throws -> StoreValue, ascending: Bool)] = []
        for descriptor in sortDescriptors {
            sortKeys.append((try compiler.sortValue(descriptor.keyPath), descriptor.ascending))
        }
        var distinctKeys: [(RowReader) throws -> StoreValue] = []
        for keyPath in distinctKeyPaths {
            distinctKeys.append(try compiler.sortValue(keyPath))
        }
        let access: StoreQueryPlan.Access
        switch (compiled, probes) {
        case (.constant(false), _): access = .none
        case (_, let probes?):
            access = .index(
                columns: probes.map { table.columns[$0.column].name },
                lookups: probes.reduce(0) { $0 + $1.values.count })
        default: access = .scan
        }
        let plan = StoreQueryPlan(
            table: table.name, access: access, fastComparisons: compiler.fastComparisons,
            generalComparisons: compiler.generalComparisons,
            sortKeys: sortKeys.count, distinctKeys: distinctKeys.count)
        var prepared = PreparedQuery(
            txn: txn, table: table, predicate: compiled, probes: probes, sortKeys: sortKeys,
            distinctKeys: distinctKeys, plan: plan)
        // The whole query is one fixed-width comparison: scans read it from the rows' bytes.
        if case .comparison? = predicate, compiler.fastComparisons == 1, compiler.generalComparisons == 0, probes == nil
        {
            prepared.simple = compiler.simple
        }
        // AND, OR and NOT over such comparisons: scans combine per-object match bytes.
        if let predicate, prepared.simple == nil, case .test = compiled, probes == nil,
            compiler.generalComparisons == 0,
            compiler.fastComparisons >= 1
        {
            prepared.compound = try QueryCompiler(txn: txn, table: table, arguments: arguments).simplePredicate(
                predicate)
        }
        return prepared
    }

    // MARK: Arguments

    /// The number of arguments `predicate` needs: one more than its largest placeholder index.
    static func argumentCount(_ predicate: QueryPredicate) -> Int {
        var count = 0
        func visit(_ operand: QueryOperand) {
            switch operand {
            case .argument(let i), .keyPathArgument(let i): count = max(count, i + 1)
            case .list(let elements): elements.forEach(visit)
            case .subqueryCount(let subquery): count = max(count, argumentCount(subquery.predicate))
            case .keyPath, .literal: break
            }
        }
        var stack = [predicate]
        while let p = stack.popLast() {
            switch p {
            case .comparison(let c): visit(c.left); visit(c.right)
            case .and(let children), .or(let children): stack.append(contentsOf: children)
            case .not(let inner): stack.append(inner)
            case .truePredicate, .falsePredicate: break
            }
        }
        return count
    }

    /// `predicate` with every placeholder index increased by `offset`.
    static func shiftArguments(_ predicate: QueryPredicate, by offset: Int) -> QueryPredicate {
        guard offset != 0 else { return predicate }
        func shift(_ operand: QueryOperand) -> QueryOperand {
            switch operand {
            case .argument(let i): return .argument(index: i + offset)
            case .keyPathArgument(let i): return .keyPathArgument(index: i + offset)
            case .list(let elements): return .list(elements.map(shift))
            case .subqueryCount(var subquery):
                subquery.predicate = shiftArguments(subquery.predicate, by: offset)
                return .subqueryCount(subquery)
            case .keyPath, .literal: return operand
            }
        }
        func shift(_ p: QueryPredicate) -> QueryPredicate {
            switch p {
            case .comparison(var c):
                c.left = shift(c.left)
                c.right = shift(c.right)
                return .comparison(c)
            case .and(let children): return .and(children.map(shift))
            case .or(let children): return .or(children.map(shift))
            case .not(let inner): return .not(shift(inner))
            case .truePredicate, .falsePredicate: return p
            }
        }
        return shift(predicate)
    }
}
