@_spi(StrataEngine) import StrataStorage
import StrataQuery

// A query that is one comparison of an `Int` or `Double` column with a constant (`age > 50`) is
// evaluated on each cluster's column array during the tree walk: no row reader, no closure
// call per object for the test, and (for `sum`) no value boxed per object. This is what scans
// and aggregates over large tables mostly run. A cluster written before the column existed goes
// through the compiled test, so results are exactly the general path's.
//
// Measured (`strata-bench w1` scan_filter): see Docs/Performance.md.

/// Starts loading column `c`'s area in cluster `v` (see `prefetchForRead`), so that a scan can ask
/// for the next cluster's values while it works on this one. Reads the cluster's header and the
/// column's descriptor without checking them beyond staying inside `v`: a hint only.
@inline(__always)
func prefetchColumn(_ v: UnsafeRawBufferPointer, _ c: Int) {
    guard let base = v.baseAddress, ClusterFormat.headerSize + (c + 1) * ClusterFormat.descriptorSize <= v.count,
        c < Int(UInt16(littleEndian: base.loadUnaligned(fromByteOffset: 2, as: UInt16.self)))
    else { return }
    let m = Int(UInt16(littleEndian: base.loadUnaligned(as: UInt16.self)))
    let (offset, width, nulls) = ClusterFormat.descriptor(base, c)
    guard offset < v.count else { return }
    // Null bitmap, an `Int` column's 8-byte base, then the values.
    let bytes = (nulls ? (m + 7) >> 3 : 0) + 8 + m * width
    prefetchForRead(base + offset, bytes: min(bytes, v.count - offset))
}

/// Whether column `c` of `table` can be read as a `ColumnArray`: a plain `Int` (not the object
/// key) or `Double` column.
func isSimpleColumn(_ table: StoreTable, _ c: Int) -> Bool {
    let col = table.columns[c]
    guard c != table.layout.keyColumn, col.collection == .none else { return false }
    return (col.type == .int && table.layout.clusterKinds[c] == .int)
        || (col.type == .double && table.layout.clusterKinds[c] == .fixed)
}

extension QueryCompiler {
    /// The simple form of `path op constant` when it has one (see `SimpleComparison`).
    func simpleComparison(
        _ path: QueryPath, _ op: QueryOperator, _ options: QueryStringOptions, _ constant: StoreValue
    ) -> SimpleComparison? {
        guard let c = path.directColumn, options.isEmpty, isSimpleColumn(table, c) else { return nil }
        switch op {
        case .equal, .notEqual, .lessThan, .lessThanOrEqual, .greaterThan, .greaterThanOrEqual: break
        default: return nil
        }
        switch (table.columns[c].type, constant) {
        case (.int, .int(let k)): return SimpleComparison(column: c, op: op, constant: .int(k))
        case (.double, .double(let d)): return SimpleComparison(column: c, op: op, constant: .double(d))
        default: return nil
        }
    }
}

extension Int64: SimpleColumnValue {
    static var isInt: Bool { true }
    @inline(__always) static func load(_ a: ColumnArray, _ i: Int) -> Int64 { a.int(i) }
}

extension Double: SimpleColumnValue {
    static var isInt: Bool { false }
    @inline(__always) static func load(_ a: ColumnArray, _ i: Int) -> Double { a.double(i) }
}

/// Hands `consumer` the test of object `i` of a cluster for `column op k`, in its cheapest form:
/// for an `Int` column without nulls stored in 0-4 bytes, `base + d op k` is `d op (k - base)`,
/// one comparison of the stored delta per object in the delta's width; otherwise the value, and
/// `Op.unordered` for a null. The single-comparison scan hands the test to its sink, the compound
/// scan writes it into match bytes.
@inline(__always)
func withMatches<V: SimpleColumnValue, Op: QueryComparisonOperator, C: MatchConsumer>(
    _ column: ColumnArray, _ k: V, _: Op.Type,
    _ consumer: inout C
) {
    if V.isInt, column.nulls < 0, column.width <= 4, let intConstant = k as? Int64 {
        let (t, overflow) = intConstant.subtractingReportingOverflow(column.intBase)
        if !overflow {
            let p = column.base + column.values
            // Deltas are unsigned and below 2^(8 * width): against a `t` outside that range
            // every delta compares as 0 does (all of them below `t`, or all above).
            let width = column.width
            if width == 0 || t < 0 || t > (Int64(1) << (8 * width)) - 1 {
                consumer.consume(ConstantMatcher(all: Op.test(Int64(0), t)))
                return
            }
            switch width {
            case 1: consumer.consume(Delta8Matcher<Op>(p: p, b: UInt8(t)))
            case 2: consumer.consume(Delta16Matcher<Op>(p: p, b: UInt16(t)))
            default: consumer.consume(Delta32Matcher<Op>(p: p, b: UInt32(t)))
            }
            return
        }
    }
    if column.nulls < 0 {
        consumer.consume(NonNullValueMatcher<V, Op>(column: column, k: k))
    } else {
        consumer.consume(ValueMatcher<V, Op>(column: column, k: k))
    }
}

/// `withMatches` for comparison `s` on the cluster `view`, with a loop specialised for each
/// operator and constant type; false (and nothing consumed) when the cluster predates the column.
/// Shared by the single-comparison scan and the compound scan's match bytes.
@inline(__always)
func withMatches<C: MatchConsumer>(_ s: SimpleComparison, _ view: ClusterView, _ consumer: inout C) -> Bool {
    @inline(__always)
    func run<V: SimpleColumnValue, Op: QueryComparisonOperator>(_ k: V, _: Op.Type) -> Bool {
        withMatches(view, column: s.column, k, Op.self, &consumer)
    }
    switch (s.op, s.constant) {
    case (.equal, .int(let k)): return run(k, QueryOpEqual.self)
    case (.equal, .double(let d)): return run(d, QueryOpEqual.self)
    case (.notEqual, .int(let k)): return run(k, QueryOpNotEqual.self)
    case (.notEqual, .double(let d)): return run(d, QueryOpNotEqual.self)
    case (.lessThan, .int(let k)): return run(k, QueryOpLess.self)
    case (.lessThan, .double(let d)): return run(d, QueryOpLess.self)
    case (.lessThanOrEqual, .int(let k)): return run(k, QueryOpLessOrEqual.self)
    case (.lessThanOrEqual, .double(let d)): return run(d, QueryOpLessOrEqual.self)
    case (.greaterThan, .int(let k)): return run(k, QueryOpGreater.self)
    case (.greaterThan, .double(let d)): return run(d, QueryOpGreater.self)
    case (.greaterThanOrEqual, .int(let k)): return run(k, QueryOpGreaterOrEqual.self)
    case (.greaterThanOrEqual, .double(let d)): return run(d, QueryOpGreaterOrEqual.self)
    default:
        // `QueryCompiler.simpleComparison` only makes the six orderings above.
        preconditionFailure("simple comparison with operator \(s.op)")
    }
}

/// `withMatches` on column `c` of `view`; false when the cluster predates the column.
@inline(__always)
func withMatches<V: SimpleColumnValue, Op: QueryComparisonOperator, C: MatchConsumer>(
    _ view: ClusterView, column c: Int, _ k: V, _: Op.Type,
    _ consumer: inout C
) -> Bool {
    guard let column = ColumnArray(view, column: c, isInt: V.isInt) else { return false }
    withMatches(column, k, Op.self, &consumer)
    return true
}

extension PreparedQuery {
    /// Runs the scan of a `SimpleComparison` query into `sink` (kept behind a pointer: a closure
    /// mutating a captured value paid a dynamic exclusivity check per object). False when the
    /// query is not simple.
    func simpleScan<S: SimpleScanSink>(_ test: QueryRowTest, into sink: UnsafeMutablePointer<S>) throws -> Bool {
        if simple == nil, let compound {
            try maskScan(compound, test, into: sink)
            return true
        }
        guard let simple, isSimpleColumn(table, simple.column) else { return false }
        var reader = RowReader(table: table)
        let columns = [simple.column] + (sink.pointee.readsColumn.map { [$0] } ?? [])
        func run<V: SimpleColumnValue, Op: QueryComparisonOperator>(_ k: V, _: Op.Type) throws {
            var visitor = SimpleScanVisitor<S, V, Op>(column: simple.column, k: k, sink: sink)
            try forEachScannedCluster(columns: columns, &visitor) { v in try takeByTest(v, test, &reader, sink) }
        }
        switch (simple.op, simple.constant) {
        case (.equal, .int(let k)): try run(k, QueryOpEqual.self)
        case (.equal, .double(let d)): try run(d, QueryOpEqual.self)
        case (.notEqual, .int(let k)): try run(k, QueryOpNotEqual.self)
        case (.notEqual, .double(let d)): try run(d, QueryOpNotEqual.self)
        case (.lessThan, .int(let k)): try run(k, QueryOpLess.self)
        case (.lessThan, .double(let d)): try run(d, QueryOpLess.self)
        case (.lessThanOrEqual, .int(let k)): try run(k, QueryOpLessOrEqual.self)
        case (.lessThanOrEqual, .double(let d)): try run(d, QueryOpLessOrEqual.self)
        case (.greaterThan, .int(let k)): try run(k, QueryOpGreater.self)
        case (.greaterThan, .double(let d)): try run(d, QueryOpGreater.self)
        case (.greaterThanOrEqual, .int(let k)): try run(k, QueryOpGreaterOrEqual.self)
        case (.greaterThanOrEqual, .double(let d)): try run(d, QueryOpGreaterOrEqual.self)
        default:
            // `QueryCompiler.simpleComparison` only makes the six orderings above.
            preconditionFailure("simple comparison with operator \(simple.op)")
        }
        return true
    }

    /// `forEachScannedCluster` with a closure as the visitor (see `ClosureClusterVisitor`).
    func forEachScannedCluster(
        columns: [Int], visiting body: (ClusterView) -> Bool,
        fallback: (UnsafeRawBufferPointer) throws -> Void = { _ in }
    ) throws {
        try withoutActuallyEscaping(body) { body in
            var visitor = ClosureClusterVisitor(body: body)
            try forEachScannedCluster(columns: columns, &visitor, fallback: fallback)
        }
    }

    /// Calls `visitor` with each cluster of the table in key order, checked for `columns`, after
    /// asking for the next cluster's areas of those columns (`prefetchColumn`); a cluster the
    /// visitor declines goes to `fallback`. Neither may keep anything of the cluster past its
    /// call (the leaf may be in a buffer the walk reuses: `StoreTransaction.forEachLeaf(tree:
    /// passing:_:)`); the sinks keep keys, counts and sums.
    ///
    /// Only the columns the scan reads are checked (a full check of every column would cost a
    /// pass over each variable-width column's offsets); a cluster that fails the check is
    /// checked in full, which throws `StoreError.corrupt`.
    @inline(__always)
    func forEachScannedCluster<B: ScannedClusterVisitor>(
        columns: [Int], _ visitor: inout B, fallback: (UnsafeRawBufferPointer) throws -> Void
    ) throws {
        let table = self.table
        let scanned = columns.map { ScannedColumn(table, $0) }
        try txn.forEachLeaf(tree: table.objectTree, passing: true) { leaf in
            leaf.prefetchCells()
            let count = leaf.count
            // Each entry is located once: the entry located for the prefetch is the next
            // iteration's (nil when its cell is not inline or fails the check: `entry` then reads
            // the overflow run or throws).
            var next = count > 0 ? leaf.inlineEntry(0) : nil
            for e in 0..<count {
                let (_, v) = try next ?? leaf.entry(e)
                next = e &+ 1 < count ? leaf.inlineEntry(e &+ 1) : nil
                if let (_, n) = next {
                    for c in scanned { prefetchColumn(n, c.index) }
                }
                var view = ClusterView(v, table: table, checkColumns: false)
                if let checked = view {
                    for c in scanned where !checked.fits(c) {
                        view = nil
                        break
                    }
                }
                if !visitor.visit(try view ?? txn.clusterView(v, table)) { try fallback(v) }
            }
            return true
        }
    }

    /// Offers each object of cluster `v` to `sink` through the compiled test: the way for a
    /// cluster written before one of the compared columns existed.
    func takeByTest<S: SimpleScanSink>(
        _ v: UnsafeRawBufferPointer, _ test: QueryRowTest, _ reader: inout RowReader,
        _ sink: UnsafeMutablePointer<S>
    ) throws {
        let full = try txn.clusterView(v, table)
        for p in 0..<full.count {
            reader.move(to: full, position: p, key: full.key(at: p))
            if try test(reader) { sink.pointee.take(reader) }
        }
    }

    /// The matching keys of a query without sorting, distinct or index probes, when its test is
    /// a `SimpleComparison`; nil when it is not.
    func simpleKeys(_ test: QueryRowTest) throws -> [Int64]? {
        try withSink(SimpleKeysSink()) { sink in try simpleScan(test, into: sink) ? sink.pointee.keys : nil }
    }

    /// The number of matching objects of a query without index probes, when its test is a
    /// `SimpleComparison`; nil when it is not.
    func simpleCount(_ test: QueryRowTest) throws -> Int? {
        try withSink(SimpleCountSink()) { sink in try simpleScan(test, into: sink) ? sink.pointee.count : nil }
    }

    /// Runs `body` with `initial` behind a pointer (see `simpleScan`).
    private func withSink<S: SimpleScanSink, R>(
        _ initial: S, _ body: (UnsafeMutablePointer<S>) throws -> R
    ) rethrows -> R {
        let sink = UnsafeMutablePointer<S>.allocate(capacity: 1)
        sink.initialize(to: initial)
        defer {
            sink.deinitialize(count: 1)
            sink.deallocate()
        }
        return try body(sink)
    }

    /// The sum of column `column` over the matching objects, read from the clusters' column
    /// arrays, when the query is a `SimpleComparison` or matches everything and the column is a
    /// plain `Int` or `Double`; nil otherwise. `sawValue` tells whether any non-null value was added.
    func simpleSum(column: Int) throws -> (ints: Int64, doubles: Double, sawValue: Bool)? {
        guard probes == nil, isSimpleColumn(table, column) else { return nil }
        let matchBytes = UnsafeMutablePointer<UInt8>.allocate(capacity: SimpleSumSink.matchByteCapacity)
        defer { matchBytes.deallocate() }
        return try withSink(SimpleSumSink(table: table, column: column, matchBytes: matchBytes)) { sink in
            switch predicate {
            case .constant(false):
                break
            case .constant(true):
                try forEachScannedCluster(columns: [column]) { view in
                    sink.pointee.begin(view)
                    sink.pointee.takeMatches(view.count, view, where: ConstantMatcher(all: true))
                    return true
                }
            case .test(let test):
                guard try simpleScan(test, into: sink) else { return nil }
            }
            return (sink.pointee.ints, sink.pointee.doubles, sink.pointee.sawValue)
        }
    }
}
