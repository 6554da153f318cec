import StrataStorage
import StrataQuery

// A query that is one comparison of a fixed-width `Int` or `Double` column with a constant
// (`age > 50`) is evaluated on each row's bytes during the tree walk: no row reader, no closure
// call per row for the test, and (for `sum`) no value boxed per row. This is what scans and
// aggregates over large tables mostly run. Rows written before a column existed (shorter than
// the table's full row) go through the compiled test, so results are exactly the general path's.
//
// Measured (callgrind, W1 scan_filter at N = 200k, `count` then `sum`): see Docs/Performance.md.

/// The comparison a query reduced to, when it is `column op constant` on a fixed-width column.
struct SimpleComparison {
    enum Constant {
        case int(Int64)
        case double(Double)
    }
    let column: Int
    let op: QueryOperator
    let constant: Constant
}

/// A fixed-width 8-byte value read straight from a row's slot.
protocol SimpleSlotValue: Comparable {
    static func load(_ row: UnsafeRawBufferPointer, _ offset: Int) -> Self
}

extension Int64: SimpleSlotValue {
    @inline(__always)
    static func load(_ row: UnsafeRawBufferPointer, _ offset: Int) -> Int64 {
        Int64(littleEndian: row.loadUnaligned(fromByteOffset: offset, as: Int64.self))
    }
}

extension Double: SimpleSlotValue {
    @inline(__always)
    static func load(_ row: UnsafeRawBufferPointer, _ offset: Int) -> Double {
        Double(bitPattern: UInt64(littleEndian: row.loadUnaligned(fromByteOffset: offset, as: UInt64.self)))
    }
}

/// Where an 8-byte `Int` or `Double` column sits in a row that has all of its table's columns.
struct FixedSlot {
    let offset: Int
    let nullByte: Int
    let nullMask: UInt8
    let nullable: Bool
    let columnCount: UInt16
    let minimumLength: Int

    /// nil for columns this path does not read: the `Int` primary key (it has no slot), and
    /// anything but a plain `Int` or `Double` column.
    init?(_ table: CoreTable, column c: Int) {
        let layout = table.layout
        let col = table.columns[c]
        guard c != layout.keyColumn, col.collection == .none, col.type == .int || col.type == .double,
              !layout.variable[c], layout.slotSizes[c] == 8 else { return nil }
        offset = layout.fullHeader + layout.slotOffsets[c]
        nullByte = 2 + c >> 3
        nullMask = 1 << UInt8(c & 7)
        nullable = col.isNullable
        columnCount = UInt16(layout.columnCount)
        minimumLength = offset + 8
    }

    /// Whether `row` has all the table's columns (and room for this slot); if not, the caller
    /// reads it through a `RowReader`.
    @inline(__always)
    func isFull(_ row: UnsafeRawBufferPointer) -> Bool {
        row.count >= minimumLength && UInt16(littleEndian: row.loadUnaligned(as: UInt16.self)) == columnCount
    }

    /// Whether the value is null, in a full row.
    @inline(__always)
    func isNull(_ row: UnsafeRawBufferPointer) -> Bool {
        nullable && row[nullByte] & nullMask != 0
    }
}

extension QueryCompiler {
    /// The simple form of `path op constant` when it has one (see `SimpleComparison`).
    func simpleComparison(_ path: QueryPath, _ op: QueryOperator, _ options: QueryStringOptions, _ constant: CoreValue) -> SimpleComparison? {
        guard let c = path.directColumn, options.isEmpty, FixedSlot(table, column: c) != nil else { return nil }
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

/// What a simple scan does with the rows that match.
protocol SimpleScanSink {
    /// Whether `row`, which has all the table's columns, also has room for what the sink reads.
    func fits(_ row: UnsafeRawBufferPointer) -> Bool
    /// A matching row read from its bytes.
    mutating func take(_ row: UnsafeRawBufferPointer, key: UnsafeRawBufferPointer)
    /// A matching row that went through the compiled test (written before a column existed).
    mutating func take(_ row: RowReader)
}

/// Counts the matching rows.
struct SimpleCountSink: SimpleScanSink {
    var count = 0
    func fits(_ row: UnsafeRawBufferPointer) -> Bool { true }
    mutating func take(_ row: UnsafeRawBufferPointer, key: UnsafeRawBufferPointer) { count &+= 1 }
    mutating func take(_ row: RowReader) { count &+= 1 }
}

/// Collects the keys of the matching rows.
struct SimpleKeysSink: SimpleScanSink {
    var keys: [Int64] = []
    func fits(_ row: UnsafeRawBufferPointer) -> Bool { true }
    mutating func take(_ row: UnsafeRawBufferPointer, key: UnsafeRawBufferPointer) { keys.append(decodeObjectKey(key)) }
    mutating func take(_ row: RowReader) { keys.append(row.key) }
}

/// Sums an `Int` or `Double` column of the matching rows, as the general path does: integers
/// with wrapping, doubles in key order, nulls skipped.
struct SimpleSumSink: SimpleScanSink {
    let target: FixedSlot
    let column: Int
    let isInt: Bool
    var ints: Int64 = 0
    var doubles = 0.0
    var sawValue = false

    func fits(_ row: UnsafeRawBufferPointer) -> Bool { row.count >= target.minimumLength }

    mutating func take(_ row: UnsafeRawBufferPointer, key: UnsafeRawBufferPointer) {
        if target.isNull(row) { return }
        sawValue = true
        if isInt { ints &+= Int64.load(row, target.offset) } else { doubles += Double.load(row, target.offset) }
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

extension PreparedQuery {
    /// Runs the scan of a `SimpleComparison` query into `sink` (kept behind a pointer: a closure
    /// mutating a captured value paid a dynamic exclusivity check per row). False when the query
    /// is not simple.
    func simpleScan<S: SimpleScanSink>(_ test: QueryRowTest, into sink: UnsafeMutablePointer<S>) throws -> Bool {
        guard let simple, let slot = FixedSlot(table, column: simple.column) else { return false }
        func scan<V: SimpleSlotValue, Op: QueryComparisonOperator>(_ k: V, _: Op.Type) throws {
            // A whole leaf per call: the loop over its entries inlines the cell decode, the test
            // and the sink (a closure call per row was a third of the work).
            try txn.forEachLeaf(tree: table.objectTree) { leaf in
                for i in 0..<leaf.count {
                    let (kb, v) = try leaf.inlineEntry(i) ?? leaf.entry(i)
                    if slot.isFull(v), sink.pointee.fits(v) {
                        if slot.isNull(v) ? Op.unordered : Op.test(V.load(v, slot.offset), k) { sink.pointee.take(v, key: kb) }
                    } else {
                        let row = RowReader(bytes: v, table: table, key: decodeObjectKey(kb))
                        if try test(row) { sink.pointee.take(row) }
                    }
                }
                return true
            }
        }
        // Each operator and constant type gets its own specialised loop.
        switch (simple.op, simple.constant) {
        case (.equal, .int(let k)): try scan(k, QueryOpEqual.self)
        case (.equal, .double(let d)): try scan(d, QueryOpEqual.self)
        case (.notEqual, .int(let k)): try scan(k, QueryOpNotEqual.self)
        case (.notEqual, .double(let d)): try scan(d, QueryOpNotEqual.self)
        case (.lessThan, .int(let k)): try scan(k, QueryOpLess.self)
        case (.lessThan, .double(let d)): try scan(d, QueryOpLess.self)
        case (.lessThanOrEqual, .int(let k)): try scan(k, QueryOpLessOrEqual.self)
        case (.lessThanOrEqual, .double(let d)): try scan(d, QueryOpLessOrEqual.self)
        case (.greaterThan, .int(let k)): try scan(k, QueryOpGreater.self)
        case (.greaterThan, .double(let d)): try scan(d, QueryOpGreater.self)
        case (.greaterThanOrEqual, .int(let k)): try scan(k, QueryOpGreaterOrEqual.self)
        case (.greaterThanOrEqual, .double(let d)): try scan(d, QueryOpGreaterOrEqual.self)
        default: return false
        }
        return true
    }

    /// The matching keys of a query without sorting, distinct or index probes, when its test is
    /// a `SimpleComparison`; nil when it is not.
    func simpleKeys(_ test: QueryRowTest) throws -> [Int64]? {
        try withSink(SimpleKeysSink()) { sink in try simpleScan(test, into: sink) ? sink.pointee.keys : nil }
    }

    /// The number of matching rows of a query without index probes, when its test is a
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

    /// The sum of column `column` over the matching rows, read from the rows' bytes, when the
    /// query is a `SimpleComparison` or matches everything and the column is an 8-byte `Int` or
    /// `Double`; nil otherwise. `sawValue` tells whether any non-null value was added.
    func simpleSum(column: Int) throws -> (ints: Int64, doubles: Double, sawValue: Bool)? {
        guard probes == nil, let target = FixedSlot(table, column: column) else { return nil }
        return try withSink(SimpleSumSink(target: target, column: column, isInt: table.columns[column].type == .int)) { sink in
            switch predicate {
            case .constant(false):
                break
            case .constant(true):
                try txn.forEachLeaf(tree: table.objectTree) { leaf in
                    for i in 0..<leaf.count {
                        let (kb, v) = try leaf.inlineEntry(i) ?? leaf.entry(i)
                        if target.isFull(v) {
                            sink.pointee.take(v, key: kb)
                        } else {
                            sink.pointee.take(RowReader(bytes: v, table: table, key: decodeObjectKey(kb)))
                        }
                    }
                    return true
                }
            case .test(let test):
                guard try simpleScan(test, into: sink) else { return nil }
            }
            return (sink.pointee.ints, sink.pointee.doubles, sink.pointee.sawValue)
        }
    }
}
