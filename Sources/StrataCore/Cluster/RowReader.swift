import StrataStorage

/// Reads the columns of one object in its cluster, in place (zero copies for fixed-width values).
///
/// ## Concurrency
/// Not `Sendable` in spirit: the bytes point into a transaction's snapshot and are valid only
/// while it is (for a write transaction: until the next change).
package struct RowReader {
    /// The bytes of the object's cluster.
    package private(set) var bytes: UnsafeRawBufferPointer
    /// The object's table. Not retained: whoever made the reader keeps the table alive as long as
    /// the reader is read, as it keeps the snapshot that `bytes` point into (a binding's table,
    /// a transaction's, a compiled query's). A retained table made every copy of a reader (a
    /// point get's row, a cached row, a frozen object's row read by several threads) a reference
    /// count change on an object all readers share: about 160 instructions of W1's point get.
    /// Debug builds hold it `unowned` (safe), so that a reader outliving its table traps there
    /// rather than reading freed memory.
    #if DEBUG
        package unowned let table: StoreTable
    #else
        package unowned(unsafe) let table: StoreTable
    #endif
    /// The object's key.
    package private(set) var key: Int64
    /// The object's position in its cluster.
    package private(set) var position: Int
    /// Objects in the cluster.
    @usableFromInline private(set) var m: Int
    /// Columns stored in the cluster.
    @usableFromInline private(set) var n: Int

    /// A reader of object `position` of a validated cluster.
    init(cluster: ClusterView, position: Int, table: StoreTable) {
        bytes = cluster.bytes
        self.table = table
        self.position = position
        key = cluster.key(at: position)
        m = cluster.count
        n = cluster.columnCount
    }

    /// Columns stored in the object's cluster: columns at or past it (added after the cluster
    /// was written) read their default.
    @inline(__always)
    package var storedColumnCount: Int { n }

    /// A reader that points at nothing yet (scans move it).
    init(table: StoreTable) {
        bytes = UnsafeRawBufferPointer(start: nil, count: 0)
        self.table = table
        key = 0
        position = 0
        m = 0
        n = 0
    }

    /// Points the reader at another object: a scan moves one reader from object to object
    /// (making a reader per object retained and released its table each time).
    @inline(__always)
    mutating func move(to cluster: ClusterView, position: Int, key: Int64) {
        bytes = cluster.bytes
        m = cluster.count
        n = cluster.columnCount
        self.position = position
        self.key = key
    }

    @inline(__always)
    func descriptor(_ c: Int) -> (offset: Int, width: Int, nulls: Bool) {
        ClusterFormat.descriptor(bytes.baseAddress!, c)
    }

    /// Whether column `c` is null (or absent from an older cluster, with a nullable column).
    @inline(__always)
    package func isNull(_ c: Int) -> Bool {
        if c == table.layout.keyColumn { return key == table.layout.nullKey }
        guard c < n else { return table.columns[c].defaultValue.isNull }
        if table.layout.clusterKinds[c] == .none { return true }
        let d = descriptor(c)
        return d.nulls && bytes[d.offset + position >> 3] & (1 << UInt8(position & 7)) != 0
    }

    /// Byte offset of a fixed-width column's value for this object (a stored, non-null column).
    @inline(__always)
    func fixedOffset(_ c: Int) -> Int {
        let d = descriptor(c)
        return d.offset + (d.nulls ? (m + 7) >> 3 : 0) + position * d.width
    }

    /// An `Int`, `link` column's value, nil when null.
    @inline(__always)
    package func int(_ c: Int) -> Int64? {
        if c == table.layout.keyColumn { return key == table.layout.nullKey ? nil : key }
        guard c < n else { return table.columns[c].isNullable ? nil : 0 }
        let d = descriptor(c)
        if d.nulls, bytes[d.offset + position >> 3] & (1 << UInt8(position & 7)) != 0 { return nil }
        let start = d.offset + (d.nulls ? (m + 7) >> 3 : 0)
        let p = bytes.baseAddress!
        let base = Int64(littleEndian: p.loadUnaligned(fromByteOffset: start, as: Int64.self))
        return base &+ Int64(bitPattern: clusterLoad(p, start + 8 + position * d.width, d.width))
    }

    /// A `Double` column's value, nil when null.
    @inline(__always)
    package func double(_ c: Int) -> Double? {
        guard c < n else { return table.columns[c].isNullable ? nil : 0 }
        if isNull(c) { return nil }
        return Double(
            bitPattern: UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: fixedOffset(c), as: UInt64.self)))
    }

    /// The bytes of a `String`, `Data`, `AnyRealmValue` or collection column, nil when null.
    @inline(__always)
    package func variableBytes(_ c: Int) -> UnsafeRawBufferPointer? {
        guard c < n else { return table.columns[c].isNullable ? nil : UnsafeRawBufferPointer(start: nil, count: 0) }
        let d = descriptor(c)
        if d.nulls, bytes[d.offset + position >> 3] & (1 << UInt8(position & 7)) != 0 { return nil }
        let ends = d.offset + (d.nulls ? (m + 7) >> 3 : 0)
        let p = bytes.baseAddress!
        let start = position == 0 ? 0 : Int(clusterLoad(p, ends + (position - 1) * d.width, d.width))
        let end = Int(clusterLoad(p, ends + position * d.width, d.width))
        let data = ends + m * d.width
        return UnsafeRawBufferPointer(rebasing: bytes[(data + start)..<(data + end)])
    }

    /// A `String` column's value, nil when null.
    package func string(_ c: Int) -> String? {
        variableBytes(c).map { String(decoding: $0, as: UTF8.self) }
    }

    /// Column `c`'s value.
    package func value(_ c: Int) -> StoreValue {
        // The table borrowed for the call (its holder keeps it alive, see `table`): read through
        // the unowned reference, each of the layout's arrays below was retained and released.
        Unmanaged.passUnretained(table)._withUnsafeGuaranteedRef { value(c, of: $0) }
    }

    /// `value(_:)` with the reader's table borrowed. Reads the column's kind from the layout's
    /// flat arrays: copying the `StoreColumn` (its name and default value retained and released)
    /// was two thirds of the call, about 230 instructions of every in-place update
    /// (`StoreTransaction.set` reads the old value).
    @inline(__always)
    private func value(_ c: Int, of t: StoreTable) -> StoreValue {
        if c == t.layout.keyColumn { return key == t.layout.nullKey ? .null : .int(key) }
        let kind = t.layout.clusterKinds[c]
        guard kind != .none else { return .null }  // not stored: `LinkingObjects`
        guard c < n else { return t.columns[c].defaultValue }
        let d = descriptor(c)
        if d.nulls, bytes[d.offset + position >> 3] & (1 << UInt8(position & 7)) != 0 { return .null }
        let type = t.layout.types[c]
        switch kind {
        case .variable:
            let v = variableBytes(c)!
            if t.layout.collections[c] != .none || type == .mixed {
                var r = ByteReader(v)
                return ValueCodec.read(&r) ?? t.columns[c].defaultValue
            }
            return type == .string ? .string(String(decoding: v, as: UTF8.self)) : .data(Array(v))
        case .int:
            let v = int(c)!
            return type == .link ? .link(v) : .int(v)
        case .fixed, .none:
            return fixedSlotValue(type, bytes, at: fixedOffset(c))
        }
    }

    /// Asks the processor to start loading this object's stored values (of its first
    /// `ClusterFormat.prefetchedColumns` columns)
    /// into its caches, without reading them: for a lookup whose caller reads the values only
    /// after other work (making the managed object), so that their cache misses overlap that
    /// work instead of following one another. A hint only: it changes no result, and every
    /// address it computes lies inside the cluster (`rangesRise` was checked for this position,
    /// the columns' extents by the view).
    @inline(__always)
    package func prefetchValues() {
        Unmanaged.passUnretained(table)._withUnsafeGuaranteedRef { prefetchValues(of: $0) }
    }

    @inline(__always)
    private func prefetchValues(of t: StoreTable) {
        guard let p = bytes.baseAddress else { return }
        let i = position
        let bitmap = (m + 7) >> 3
        for c in 0..<min(n, ClusterFormat.prefetchedColumns) {
            let kind = t.layout.clusterKinds[c]
            if kind == .none { continue }
            let d = descriptor(c)
            if d.nulls { prefetchForRead(p + d.offset + i >> 3) }
            let start = d.offset + (d.nulls ? bitmap : 0)
            switch kind {
            case .int:
                prefetchForRead(p + start)
                prefetchForRead(p + start + 8 + i * d.width)
            case .fixed:
                prefetchForRead(p + start + i * d.width)
            case .variable:
                let from = i == 0 ? 0 : Int(clusterLoad(p, start + (i - 1) * d.width, d.width))
                let to = Int(clusterLoad(p, start + i * d.width, d.width))
                if to > from { prefetchForRead(p + start + m * d.width + from, bytes: min(to - from, 256)) }
            case .none:
                break
            }
        }
    }

    /// All columns' values, in column order.
    package func values() -> [StoreValue] {
        (0..<table.columns.count).map(value)
    }

    /// A `Bool` column's value, nil when null.
    @inline(__always)
    func queryBool(_ c: Int) -> Bool? {
        guard c < n else { return table.columns[c].isNullable ? nil : false }
        if isNull(c) { return nil }
        return bytes[fixedOffset(c)] != 0
    }

    /// A `Float` column's value, nil when null.
    @inline(__always)
    func queryFloat(_ c: Int) -> Float? {
        guard c < n else { return table.columns[c].isNullable ? nil : 0 }
        if isNull(c) { return nil }
        return Float(
            bitPattern: UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: fixedOffset(c), as: UInt32.self)))
    }

    /// A date column's value, nil when null.
    @inline(__always)
    func queryTimestamp(_ c: Int) -> QueryTimestamp? {
        guard c < n else { return table.columns[c].isNullable ? nil : QueryTimestamp(seconds: 0, nanoseconds: 0) }
        if isNull(c) { return nil }
        let s = fixedOffset(c)
        return QueryTimestamp(
            seconds: Int64(littleEndian: bytes.loadUnaligned(fromByteOffset: s, as: Int64.self)),
            nanoseconds: Int32(littleEndian: bytes.loadUnaligned(fromByteOffset: s + 8, as: Int32.self)))
    }

    /// A link column's target key, nil when null (also for clusters written before the column existed).
    @inline(__always)
    func queryLink(_ c: Int) -> Int64? {
        guard c < n else { return nil }
        return int(c)
    }
}
