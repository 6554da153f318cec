import StrataStorage
import StrataQuery

// A query that is one comparison of an `Int` or `Double` column with a constant (`age > 50`) is
// evaluated on each cluster's column array during the tree walk: no row reader, no closure
// call per object for the test, and (for `sum`) no value boxed per object. This is what scans
// and aggregates over large tables mostly run. A cluster written before the column existed goes
// through the compiled test, so results are exactly the general path's.
//
// Measured (W1 scan_filter): see Docs/Performance.md.

/// The comparison a query reduced to, when it is `column op constant` on an `Int` or `Double` column.
struct SimpleComparison {
    enum Constant {
        case int(Int64)
        case double(Double)
    }
    let column: Int
    let op: QueryOperator
    let constant: Constant
}

/// Where one `Int` or `Double` column's values for the objects of one cluster are.
struct ColumnArray {
    let base: UnsafeRawPointer
    /// Offset of the null bitmap, or -1 when the cluster has no nulls in the column.
    let nulls: Int
    /// Offset of the first value (for an `Int` column: of the first delta, after the base).
    let values: Int
    let width: Int
    let intBase: Int64

    /// Column `c` of `view`, when the cluster stores it (nil: written before the column existed).
    @inline(__always)
    init?(_ view: ClusterView, column c: Int, isInt: Bool) {
        guard c < view.columnCount, let base = view.bytes.baseAddress else { return nil }
        let (offset, width, hasNulls) = ClusterFormat.descriptor(base, c)
        self.base = base
        self.width = width
        nulls = hasNulls ? offset : -1
        let start = offset + (hasNulls ? (view.count + 7) >> 3 : 0)
        if isInt {
            intBase = Int64(littleEndian: base.loadUnaligned(fromByteOffset: start, as: Int64.self))
            values = start + 8
        } else {
            intBase = 0
            values = start
        }
    }

    @inline(__always)
    func isNull(_ i: Int) -> Bool {
        nulls >= 0 && base.load(fromByteOffset: nulls + i >> 3, as: UInt8.self) & (1 << UInt8(i & 7)) != 0
    }

    @inline(__always)
    func int(_ i: Int) -> Int64 {
        intBase &+ Int64(bitPattern: clusterLoad(base, values + i * width, width))
    }

    @inline(__always)
    func double(_ i: Int) -> Double {
        Double(bitPattern: UInt64(littleEndian: base.loadUnaligned(fromByteOffset: values + i * 8, as: UInt64.self)))
    }
}

/// Starts loading column `c`'s area in cluster `v` (see `prefetchForRead`), so that a scan can ask
/// for the next cluster's values while it works on this one. Reads the cluster's header and the
/// column's descriptor without checking them beyond staying inside `v`: a hint only.
@inline(__always)
func prefetchColumn(_ v: UnsafeRawBufferPointer, _ c: Int) {
    guard let base = v.baseAddress, ClusterFormat.headerSize + (c + 1) * ClusterFormat.descriptorSize <= v.count,
          c < Int(UInt16(littleEndian: base.loadUnaligned(fromByteOffset: 2, as: UInt16.self))) else { return }
    let m = Int(UInt16(littleEndian: base.loadUnaligned(as: UInt16.self)))
    let (offset, width, nulls) = ClusterFormat.descriptor(base, c)
    guard offset < v.count else { return }
    // Null bitmap, an `Int` column's 8-byte base, then the values.
    let bytes = (nulls ? (m + 7) >> 3 : 0) + 8 + m * width
    prefetchForRead(base + offset, bytes: min(bytes, v.count - offset))
}

/// Whether column `c` of `table` can be read as a `ColumnArray`: a plain `Int` (not the object
/// key) or `Double` column.
func isSimpleColumn(_ table: CoreTable, _ c: Int) -> Bool {
    let col = table.columns[c]
    guard c != table.layout.keyColumn, col.collection == .none else { return false }
    return (col.type == .int && table.layout.clusterKinds[c] == .int) || (col.type == .double && table.layout.clusterKinds[c] == .fixed)
}

extension QueryCompiler {
    /// The simple form of `path op constant` when it has one (see `SimpleComparison`).
    func simpleComparison(_ path: QueryPath, _ op: QueryOperator, _ options: QueryStringOptions, _ constant: CoreValue) -> SimpleComparison? {
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

/// What a simple scan does with the objects that match.
protocol SimpleScanSink {
    /// A column the sink reads besides the compared one (checked in each cluster before use).
    var readsColumn: Int? { get }
    /// Called before the matches of each cluster.
    mutating func begin(_ view: ClusterView)
    /// Object `i` of the cluster matches.
    mutating func take(_ i: Int, _ view: ClusterView)
    /// A matching object that went through the compiled test (its cluster predates a column).
    mutating func take(_ row: RowReader)
    /// Takes each object `i < m` of the cluster for which `matches(i)`. Sinks that can add a
    /// match without a branch (a count, a sum) do, so that a filter matching half the objects
    /// at random costs no mispredicted branch per object.
    mutating func takeMatches<M: RowMatcher>(_ m: Int, _ view: ClusterView, where matches: M)
}

extension SimpleScanSink {
    @inline(__always)
    mutating func takeMatches<M: RowMatcher>(_ m: Int, _ view: ClusterView, where matches: M) {
        for i in 0..<m where matches(i) { take(i, view) }
    }
}

/// The test of object `i` of a cluster, as a concrete type per form of the test, so that the
/// loops taking it are specialised for it (and, written as `while` loops over narrow
/// comparisons, vectorised: `for i in 0..<m`, or a comparison widened to `Int64`, kept the
/// compiler from it).
protocol RowMatcher {
    func callAsFunction(_ i: Int) -> Bool
}

/// Every object, or none (an `Int` column whose values all equal the cluster's base, or a
/// constant beyond the range of the deltas).
struct ConstantMatcher: RowMatcher {
    let all: Bool
    @inline(__always) func callAsFunction(_ i: Int) -> Bool { all }
}

/// `delta op b` for deltas of one byte (`Int` columns without nulls; see `withMatches`), compared
/// in the deltas' own width.
struct Delta8Matcher<Op: QueryComparisonOperator>: RowMatcher {
    let p: UnsafeRawPointer
    let b: UInt8
    @inline(__always) func callAsFunction(_ i: Int) -> Bool { Op.test(p.load(fromByteOffset: i, as: UInt8.self), b) }
}

/// `delta op b` for deltas of two bytes.
struct Delta16Matcher<Op: QueryComparisonOperator>: RowMatcher {
    let p: UnsafeRawPointer
    let b: UInt16
    @inline(__always) func callAsFunction(_ i: Int) -> Bool {
        Op.test(UInt16(littleEndian: p.loadUnaligned(fromByteOffset: 2 * i, as: UInt16.self)), b)
    }
}

/// `delta op b` for deltas of four bytes.
struct Delta32Matcher<Op: QueryComparisonOperator>: RowMatcher {
    let p: UnsafeRawPointer
    let b: UInt32
    @inline(__always) func callAsFunction(_ i: Int) -> Bool {
        Op.test(UInt32(littleEndian: p.loadUnaligned(fromByteOffset: 4 * i, as: UInt32.self)), b)
    }
}

/// `value op k` on the decoded value, with `Op.unordered` for a null when the cluster has nulls.
struct ValueMatcher<V: SimpleColumnValue, Op: QueryComparisonOperator>: RowMatcher {
    let column: ColumnArray
    let k: V
    @inline(__always) func callAsFunction(_ i: Int) -> Bool {
        column.isNull(i) ? Op.unordered : Op.test(V.load(column, i), k)
    }
}

/// `value op k` on the decoded value, for a cluster without nulls in the column.
struct NonNullValueMatcher<V: SimpleColumnValue, Op: QueryComparisonOperator>: RowMatcher {
    let column: ColumnArray
    let k: V
    @inline(__always) func callAsFunction(_ i: Int) -> Bool { Op.test(V.load(column, i), k) }
}

/// The compound scan's match bytes.
struct MaskMatcher: RowMatcher {
    let mask: UnsafeMutablePointer<UInt8>
    @inline(__always) func callAsFunction(_ i: Int) -> Bool { mask[i] != 0 }
}

/// What `withMatches` hands the test to: a sink's `takeMatches`, or the compound scan's fill.
protocol MatchConsumer {
    mutating func consume<M: RowMatcher>(_ matches: M)
}

/// Counts the matching objects.
struct SimpleCountSink: SimpleScanSink {
    var readsColumn: Int? { nil }
    var count = 0
    @inline(__always) mutating func begin(_ view: ClusterView) {}
    @inline(__always) mutating func take(_ i: Int, _ view: ClusterView) { count &+= 1 }
    mutating func take(_ row: RowReader) { count &+= 1 }
    @inline(__always)
    mutating func takeMatches<M: RowMatcher>(_ m: Int, _ view: ClusterView, where matches: M) {
        // 32-bit lanes: with an `Int` sum the vector loop took 4 objects per step, not 8.
        var n: UInt32 = 0
        var i = 0
        while i < m {
            n &+= matches(i) ? 1 : 0
            i &+= 1
        }
        count &+= Int(n)
    }
}

/// Collects the keys of the matching objects.
struct SimpleKeysSink: SimpleScanSink {
    var readsColumn: Int? { nil }
    var keys: [Int64] = []
    @inline(__always) mutating func begin(_ view: ClusterView) {}
    @inline(__always) mutating func take(_ i: Int, _ view: ClusterView) { keys.append(view.key(at: i)) }
    mutating func take(_ row: RowReader) { keys.append(row.key) }
}

/// Sums an `Int` or `Double` column of the matching objects, as the general path does:
/// integers with wrapping, doubles in key order, nulls skipped.
struct SimpleSumSink: SimpleScanSink {
    var readsColumn: Int? { column }
    let table: CoreTable
    let column: Int
    let isInt: Bool
    var target: ColumnArray?
    var ints: Int64 = 0
    var doubles = 0.0
    var sawValue = false

    /// Room for one match byte per object of a cluster (at most `UInt16.max`), owned by the
    /// caller.
    let matchBytes: UnsafeMutablePointer<UInt8>

    init(table: CoreTable, column: Int, matchBytes: UnsafeMutablePointer<UInt8>) {
        self.table = table
        self.column = column
        self.matchBytes = matchBytes
        isInt = table.columns[column].type == .int
    }

    /// Capacity `matchBytes` must have.
    static let matchByteCapacity = Int(UInt16.max) + 1

    /// This cluster's `Double` column has no nulls: `take` reads `doubleBase` directly.
    var plainDoubles = false
    var doubleBase = UnsafeRawPointer(bitPattern: 8)!

    @inline(__always)
    mutating func begin(_ view: ClusterView) {
        target = ColumnArray(view, column: column, isInt: isInt)
        plainDoubles = false
        if !isInt, let t = target, t.nulls < 0 {
            plainDoubles = true
            doubleBase = t.base + t.values
        }
    }

    @inline(__always)
    mutating func take(_ i: Int, _ view: ClusterView) {
        if plainDoubles {
            doubles += Double(bitPattern: UInt64(littleEndian: doubleBase.loadUnaligned(fromByteOffset: 8 * i, as: UInt64.self)))
            sawValue = true
            return
        }
        guard let t = target else {
            // A cluster without the column: every object has the column's default (0, or null).
            if !table.columns[column].isNullable { sawValue = true }
            return
        }
        if t.isNull(i) { return }
        sawValue = true
        if isInt { ints &+= t.int(i) } else { doubles += t.double(i) }
    }

    @inline(__always)
    mutating func takeMatches<M: RowMatcher>(_ m: Int, _ view: ClusterView, where matches: M) {
        guard plainDoubles else {
            for i in 0..<m where matches(i) { take(i, view) }
            return
        }
        // Adding +0.0 for an object that does not match leaves the sum's bits as skipping it
        // would (the sum starts at +0.0, so it is never -0.0), in the same order. Two passes:
        // the match bytes (a loop the compiler vectorises), then the sum, each value masked by
        // its byte. In one pass the compiler turned `hit ? v : 0` back into a branch per
        // object, mispredicted on every other object of a filter matching half of them at random.
        // A cluster holds at most `UInt16.max` objects (its count is a u16), so `m` fits.
        let bytes = matchBytes
        var fill = MaskFill(out: bytes, m: m)
        fill.consume(matches)
        var sum = doubles
        var any: UInt8 = 0
        var i = 0
        while i < m {
            let raw = UInt64(littleEndian: doubleBase.loadUnaligned(fromByteOffset: i &<< 3, as: UInt64.self))
            let hit = bytes[i]
            sum += Double(bitPattern: raw & (0 &- UInt64(hit)))
            any |= hit
            i &+= 1
        }
        doubles = sum
        if any != 0 { sawValue = true }
    }

    mutating func take(_ row: RowReader) {
        if isInt {
            if let i = row.int(column) { ints &+= i; sawValue = true }
        } else if let d = row.double(column) {
            doubles += d
            sawValue = true
        }
    }
}

/// A column value as the simple scan compares it.
protocol SimpleColumnValue: Comparable {
    static var isInt: Bool { get }
    static func load(_ a: ColumnArray, _ i: Int) -> Self
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
func withMatches<V: SimpleColumnValue, Op: QueryComparisonOperator, C: MatchConsumer>(_ column: ColumnArray, _ k: V, _: Op.Type,
                                                                                     _ consumer: inout C) {
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
func withMatches<V: SimpleColumnValue, Op: QueryComparisonOperator, C: MatchConsumer>(_ view: ClusterView, column c: Int, _ k: V, _: Op.Type,
                                                                                     _ consumer: inout C) -> Bool {
    guard let column = ColumnArray(view, column: c, isInt: V.isInt) else { return false }
    withMatches(column, k, Op.self, &consumer)
    return true
}

/// Writes a cluster's test into match bytes (1 or 0 per object): the compound scan's masks and
/// the `Double` sum's first pass.
struct MaskFill: MatchConsumer {
    let out: UnsafeMutablePointer<UInt8>
    let m: Int
    @inline(__always) mutating func consume<M: RowMatcher>(_ matches: M) {
        var i = 0
        while i < m {
            out[i] = matches(i) ? 1 : 0
            i &+= 1
        }
    }
}

/// Passes a cluster's test to a sink's `takeMatches`.
struct SinkConsumer<S: SimpleScanSink>: MatchConsumer {
    let sink: UnsafeMutablePointer<S>
    let view: ClusterView
    @inline(__always) mutating func consume<M: RowMatcher>(_ matches: M) {
        sink.pointee.takeMatches(view.count, view, where: matches)
    }
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
        try forEachScannedCluster(columns: columns) { v, view in
            sink.pointee.begin(view)
            var consumer = SinkConsumer(sink: sink, view: view)
            if !withMatches(simple, view, &consumer) { try takeByTest(v, test, &reader, sink) }
        }
        return true
    }

    /// Calls `body` with each cluster of the table in key order, checked for `columns` (see
    /// `scanView`), after asking for the next cluster's areas of those columns (`prefetchColumn`).
    @inline(__always)
    func forEachScannedCluster(columns: [Int], _ body: (UnsafeRawBufferPointer, ClusterView) throws -> Void) throws {
        try txn.forEachLeaf(tree: table.objectTree) { leaf in
            leaf.prefetchCells()
            for e in 0..<leaf.count {
                let (_, v) = try leaf.inlineEntry(e) ?? leaf.entry(e)
                if e + 1 < leaf.count, let (_, next) = leaf.inlineEntry(e + 1) {
                    for c in columns { prefetchColumn(next, c) }
                }
                try body(v, try scanView(v, columns))
            }
            return true
        }
    }

    /// Cluster `v` with the columns a scan reads checked (a full check of every column would cost
    /// a pass over each variable-width column's offsets).
    /// - Throws: `CoreError.corrupt` when the cluster is corrupt.
    @inline(__always)
    private func scanView(_ v: UnsafeRawBufferPointer, _ columns: [Int]) throws -> ClusterView {
        guard let view = ClusterView(v, table: table, checkColumns: false),
              columns.allSatisfy({ view.fits(column: $0, table: table) }) else {
            return try txn.clusterView(v, table)  // throws the corruption error
        }
        return view
    }

    /// Offers each object of cluster `v` to `sink` through the compiled test: the way for a
    /// cluster written before one of the compared columns existed.
    func takeByTest<S: SimpleScanSink>(_ v: UnsafeRawBufferPointer, _ test: QueryRowTest, _ reader: inout RowReader,
                                       _ sink: UnsafeMutablePointer<S>) throws {
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
    private func withSink<S: SimpleScanSink, R>(_ initial: S, _ body: (UnsafeMutablePointer<S>) throws -> R) rethrows -> R {
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
                try forEachScannedCluster(columns: [column]) { _, view in
                    sink.pointee.begin(view)
                    sink.pointee.takeMatches(view.count, view, where: ConstantMatcher(all: true))
                }
            case .test(let test):
                guard try simpleScan(test, into: sink) else { return nil }
            }
            return (sink.pointee.ints, sink.pointee.doubles, sink.pointee.sawValue)
        }
    }
}
