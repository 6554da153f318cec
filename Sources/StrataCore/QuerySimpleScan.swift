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

extension PreparedQuery {
    /// The matching keys of a query without sorting, distinct or index probes, when its test is
    /// a `SimpleComparison`; nil when it is not.
    func simpleKeys(_ test: QueryRowTest) throws -> [Int64]? {
        guard let simple, let slot = FixedSlot(table, column: simple.column) else { return nil }
        // Appended through a pointer: a closure mutating a captured array paid a dynamic
        // exclusivity check per row.
        let keys = UnsafeMutablePointer<[Int64]>.allocate(capacity: 1)
        keys.initialize(to: [])
        defer {
            keys.deinitialize(count: 1)
            keys.deallocate()
        }
        func scan<V: SimpleSlotValue, Op: QueryComparisonOperator>(_ k: V, _: Op.Type) throws {
            try txn.forEach(tree: table.objectTree) { kb, v in
                if slot.isFull(v) {
                    if slot.isNull(v) ? Op.unordered : Op.test(V.load(v, slot.offset), k) { keys.pointee.append(decodeObjectKey(kb)) }
                } else {
                    let row = RowReader(bytes: v, table: table, key: decodeObjectKey(kb))
                    if try test(row) { keys.pointee.append(row.key) }
                }
                return true
            }
        }
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
        default: return nil
        }
        return keys.pointee
    }

    /// The sum of column `column` over the matching rows, read from the rows' bytes, when the
    /// query is a `SimpleComparison` or matches everything and the column is an 8-byte `Int` or
    /// `Double`; nil otherwise. `sawValue` tells whether any non-null value was added.
    func simpleSum(column: Int) throws -> (ints: Int64, doubles: Double, sawValue: Bool)? {
        guard probes == nil, let target = FixedSlot(table, column: column) else { return nil }
        let isInt = table.columns[column].type == .int
        // Accumulated through a pointer (no exclusivity check per row, as in `simpleKeys`).
        let acc = UnsafeMutablePointer<(ints: Int64, doubles: Double, saw: Bool)>.allocate(capacity: 1)
        acc.initialize(to: (0, 0, false))
        defer { acc.deallocate() }
        @inline(__always) func add(_ v: UnsafeRawBufferPointer) {
            if target.isNull(v) { return }
            acc.pointee.saw = true
            if isInt { acc.pointee.ints &+= Int64.load(v, target.offset) } else { acc.pointee.doubles += Double.load(v, target.offset) }
        }
        @inline(__always) func addSlow(_ row: RowReader) {
            if isInt {
                if let i = row.int(column) { acc.pointee.ints &+= i; acc.pointee.saw = true }
            } else if let d = row.double(column) {
                acc.pointee.doubles += d
                acc.pointee.saw = true
            }
        }
        switch predicate {
        case .constant(false):
            return (0, 0, false)
        case .constant(true):
            try txn.forEach(tree: table.objectTree) { kb, v in
                if target.isFull(v) { add(v) } else { addSlow(RowReader(bytes: v, table: table, key: decodeObjectKey(kb))) }
                return true
            }
        case .test(let test):
            guard let simple, let slot = FixedSlot(table, column: simple.column) else { return nil }
            func scan<V: SimpleSlotValue, Op: QueryComparisonOperator>(_ k: V, _: Op.Type) throws {
                try txn.forEach(tree: table.objectTree) { kb, v in
                    if target.isFull(v), v.count >= slot.minimumLength {
                        if slot.isNull(v) ? Op.unordered : Op.test(V.load(v, slot.offset), k) { add(v) }
                    } else {
                        let row = RowReader(bytes: v, table: table, key: decodeObjectKey(kb))
                        if try test(row) { addSlow(row) }
                    }
                    return true
                }
            }
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
            default: return nil
            }
        }
        return (acc.pointee.ints, acc.pointee.doubles, acc.pointee.saw)
    }
}
