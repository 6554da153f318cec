import Foundation
@_spi(StrataEngine) import StrataStorage

/// The 8-byte storage key of an object key: big-endian with the sign bit flipped, so byte order
/// is numeric order.
@inline(__always)
package func objectKeyBytes(_ key: Int64) -> UInt64 {
    (UInt64(bitPattern: key) ^ 0x8000_0000_0000_0000).bigEndian
}

@inline(__always)
func decodeObjectKey(_ raw: UnsafeRawBufferPointer) -> Int64 {
    Int64(bitPattern: UInt64(bigEndian: raw.loadUnaligned(as: UInt64.self)) ^ 0x8000_0000_0000_0000)
}

/// The object store's view of one storage transaction: rows by key, primary-key lookups, scans,
/// secondary indexes and backlinks; and, in a write transaction, inserts, updates and deletes
/// that keep all of those consistent (Docs/ObjectStore.md).
///
/// ```swift
/// let txn = try StoreTransaction(write: db.beginWrite())
/// let key = try txn.insert(into: people, values: [.int(1), .string("Ann")])
/// try txn.set(people, key: key, column: 1, to: .string("Anna"))
/// try txn.commit()
/// ```
///
/// ## Concurrency
/// Not thread-safe: use it on one thread at a time, like the storage transaction it wraps.
package final class StoreTransaction {
    package let read: ReadTransaction?
    package let write: WriteTransaction?
    // The hot state of this class is used by one thread at a time and never through
    // overlapping accesses: it opts out of the run-time exclusivity check (about 80
    // instructions per access, ~260 per insert in the `strata-bench w1` bulk load, callgrind).
    @exclusivity(unchecked) private var readTrees: [String: Tree?] = [:]
    /// The tree read last: most reads hit one table's tree many times in a row.
    @exclusivity(unchecked) private var lastReadTree: (name: String, tree: Tree?)?
    @exclusivity(unchecked) private var writeTrees: [String: TreeHandle] = [:]
    /// The tree written last: inserts hit one table's tree many times in a row, and comparing a
    /// name with itself is cheaper than hashing it.
    @exclusivity(unchecked) private var lastWriteTree: (name: String, handle: TreeHandle)?
    /// The one before `lastWriteTree` (a commit that alternates between two trees, such as an
    /// object's and its sync clock record's, finds both here).
    @exclusivity(unchecked) private var previousWriteTree: (name: String, handle: TreeHandle)?
    /// Row encodings are built here, reused from insert to insert (an array allocated per row
    /// cost a generic metadata lookup each time).
    @exclusivity(unchecked) var rowBuffer: [UInt8] = []
    /// The cluster being changed (decoded), reused from change to change.
    var clusterEditor: ClusterEditor?
    /// Scratch for an insert that overfills its cluster (room for two clusters), and for the
    /// second cluster of the split that follows; allocated by the first such insert.
    var overfullScratch: UnsafeMutableRawBufferPointer?
    var splitScratch: UnsafeMutableRawBufferPointer?
    /// What the last splice found (see `splice`); instance state, not captured locals, so the
    /// closures that run it allocate nothing.
    @exclusivity(unchecked) var spliceDuplicate = false
    @exclusivity(unchecked) var spliceSecond = 0
    @exclusivity(unchecked) var spliceSecondKey: Int64 = 0
    /// The new object's bytes and the pieces of an in-place insert (`ClusterSplice.insertInPlace`).
    var inPlaceScratch: UnsafeMutableRawBufferPointer?
    @exclusivity(unchecked) var splicePieces: [ClusterSplice.Piece] = []
    /// Inserts done in place in their cluster's reserve, and inserts that rewrote their cluster
    /// (tests check that both paths run).
    @exclusivity(unchecked) var insertsInPlace = 0
    /// Where `touchLines` sums go, so the loads are not optimised away.
    @exclusivity(unchecked) var touchedLines: UInt8 = 0
    @exclusivity(unchecked) var insertsRewritten = 0

    deinit {
        overfullScratch?.deallocate()
        splitScratch?.deallocate()
        inPlaceScratch?.deallocate()
    }
    /// Next object key per table, for tables without an `Int` primary key (flushed at commit).
    private var nextKeys: [String: Int64] = [:]
    /// Bumped on every change, so cached row pointers can tell they are stale.
    @exclusivity(unchecked) package internal(set) var changeCount: UInt64 = 0
    /// Tables known to this transaction, by name (for cascades and link cleanup).
    package var tables: [String: StoreTable] = [:]
    /// For tables whose model stores properties under other names (`propertiesMapping()`): the
    /// stored (column) name of each property by its Swift name. Query key paths name properties
    /// by their Swift names, resolved through this map; a table without an entry has columns
    /// named as its properties. Not stored in the file.
    package var propertyColumns: [String: [String: String]] = [:]
    /// When set, every insert, delete and column write of this transaction is noted in it (for
    /// change notifications; see CommitChanges.swift). Read on every write, so it opts out of the
    /// run-time exclusivity check like the other hot state.
    @exclusivity(unchecked) package var changeRecorder: CommitChanges?
    /// Set by the sync product on the transactions that apply what it downloaded: their changes
    /// are not queued for upload again.
    package var isSyncApply = false

    package init(read: ReadTransaction) {
        self.read = read
        self.write = nil
        self.sharedTrees = nil
    }

    package init(write: WriteTransaction) {
        self.read = nil
        self.write = write
        self.sharedTrees = nil
    }

    /// A read transaction that several threads may use at once (a frozen realm). It looks up
    /// every tree of the snapshot now, so that later reads share immutable handles and take no
    /// lock; set `tables` before the transaction is shared.
    /// - Throws: `StorageError` when the snapshot's catalog cannot be read.
    package init(sharedRead read: ReadTransaction) throws {
        self.read = read
        self.write = nil
        var trees: [String: Tree] = [:]
        for name in try read.treeNames() {
            if let t = try read.tree(named: name) { trees[name] = t }
        }
        self.sharedTrees = trees
    }

    /// The tree holding the schema catalog: table name -> `StoreTable.encoded()`.
    package static let schemaTree = "s:"
    /// The tree holding per-table object-key counters.
    package static let counterTree = "k:"

    // MARK: Trees

    /// Every tree of a snapshot shared by several threads (`init(sharedRead:)`), resolved once;
    /// nil for a transaction of one thread, which looks trees up as it needs them.
    private let sharedTrees: [String: Tree]?

    /// Whether several threads may read this transaction at once (`init(sharedRead:)`).
    var isShared: Bool { sharedTrees != nil }

    /// The candidates of queries restricted to collections, read once per snapshot (see
    /// ``CollectionCandidates``); only a read transaction of one thread keeps them.
    var collectionCandidates: [StoreQuerySource: CollectionCandidates] = [:]

    @inline(__always)
    func readTree(_ name: String) throws -> Tree? {
        if let sharedTrees { return sharedTrees[name] }
        return try cachedReadTree(name)
    }

    private func cachedReadTree(_ name: String) throws -> Tree? {
        if let last = lastReadTree, last.name == name { return last.tree }
        if let cached = readTrees[name] {
            lastReadTree = (name, cached)
            return cached
        }
        let t = try read!.tree(named: name)
        readTrees[name] = t
        return t
    }

    func writeTree(_ name: String, create: Bool) throws -> TreeHandle? {
        if let last = lastWriteTree, last.name == name { return last.handle }
        if let previous = previousWriteTree, previous.name == name {
            previousWriteTree = lastWriteTree
            lastWriteTree = previous
            return previous.handle
        }
        if let h = writeTrees[name] {
            previousWriteTree = lastWriteTree
            lastWriteTree = (name, h)
            return h
        }
        guard let w = write else { return nil }
        if !create, try !w.treeExists(name) { return nil }
        let h = try w.openTree(name, create: true)
        writeTrees[name] = h
        previousWriteTree = lastWriteTree
        lastWriteTree = (name, h)
        return h
    }

    /// Forgets cached tree handles (after a tree was dropped).
    package func resetTreeCache() {
        lastWriteTree = nil
        previousWriteTree = nil
        writeTrees.removeAll()
        readTrees.removeAll()
        lastReadTree = nil
    }

    /// The value under `key` in tree `name`.
    package func get(_ key: UnsafeRawBufferPointer, tree name: String) throws -> UnsafeRawBufferPointer? {
        if let w = write {
            guard let h = try writeTree(name, create: false) else { return nil }
            return try w.get(key, in: h)
        }
        guard let t = try readTree(name) else { return nil }
        return try read!.get(key, in: t)
    }

    /// Sets `key` to `value` in tree `name` (created if missing), in the write transaction.
    package func put(_ key: [UInt8], _ value: [UInt8], tree name: String) throws {
        let w = requireWrite()
        guard let h = try writeTree(name, create: true) else { return }
        _ = try w.put(key, value, in: h)
    }

    /// Sets `key` to `value` in tree `name` (created if missing), in the write transaction; the
    /// bytes are read in place.
    package func put(_ key: UnsafeRawBufferPointer, _ value: UnsafeRawBufferPointer, tree name: String) throws {
        let w = requireWrite()
        guard let h = try writeTree(name, create: true) else { return }
        _ = try w.put(key, value, in: h)
    }

    /// Removes `key` from tree `name`, in the write transaction. Returns whether it was there.
    @discardableResult
    package func remove(_ key: [UInt8], tree name: String) throws -> Bool {
        let w = requireWrite()
        guard let h = try writeTree(name, create: false) else { return false }
        return try w.delete(key, in: h)
    }

    /// The value under `key` in tree `name`, copied.
    package func get(_ key: [UInt8], tree name: String) throws -> [UInt8]? {
        try key.withUnsafeBytes { try get($0, tree: name).map { [UInt8]($0) } }
    }

    /// Calls `body` for entries of tree `name` with key >= `start` in order, until it returns false.
    package func forEach(
        tree name: String, from start: [UInt8]? = nil,
        _ body: (UnsafeRawBufferPointer, UnsafeRawBufferPointer) throws -> Bool
    ) throws {
        if let w = write {
            guard let h = try writeTree(name, create: false) else { return }
            try w.forEach(in: h, from: start, body)
            return
        }
        guard let t = try readTree(name) else { return }
        try read!.forEach(in: t, from: start, body)
    }

    /// Calls `body` with each leaf of tree `name` in key order until it returns false (scans
    /// that loop over a leaf's entries themselves: see `LeafView`). With `passing`, `body`
    /// keeps nothing of a leaf past its call, so that a reader of an encrypted file may open the
    /// leaves into a buffer it reuses (`ReadTransaction.forEachLeaf(in:passing:_:)`).
    package func forEachLeaf(tree name: String, passing: Bool = false, _ body: (LeafView) throws -> Bool) throws {
        if let w = write {
            guard let h = try writeTree(name, create: false) else { return }
            try w.forEachLeaf(in: h, body)
            return
        }
        guard let t = try readTree(name) else { return }
        try read!.forEachLeaf(in: t, passing: passing, body)
    }

    /// Number of entries of tree `name`.
    package func count(tree name: String) throws -> Int {
        if let w = write {
            guard let h = try writeTree(name, create: false) else { return 0 }
            return Int(w.count(h))
        }
        return Int(try readTree(name)?.count ?? 0)
    }

    // MARK: Schema catalog

    /// The tables stored in the file.
    package func storedTables() throws -> [String: StoreTable] {
        var result: [String: StoreTable] = [:]
        try forEach(tree: Self.schemaTree) { k, v in
            let name = String(decoding: k, as: UTF8.self)
            guard let table = StoreTable.decode(name: name, v) else {
                throw StoreError.corrupt("the stored schema of '\(name)' is corrupt or from a newer version of Strata")
            }
            result[name] = table
            return true
        }
        return result
    }

    /// Stores `table`'s schema (write transactions only).
    package func storeTable(_ table: StoreTable) throws {
        let h = try writeTree(Self.schemaTree, create: true)!
        _ = try write!.put(Array(table.name.utf8), table.encoded(), in: h)
        tables[table.name] = table
    }

    /// Removes a table and all its trees (write transactions only).
    package func dropTable(_ name: String) throws {
        guard let w = write else { return }
        let prefixes = ["c:" + name, "o:" + name, "p:" + name, "b:" + name]
        for n in try w.treeNames() where prefixes.contains(n) || n.hasPrefix("i:" + name + ":") {
            try w.dropTree(n)
        }
        if let h = try writeTree(Self.schemaTree, create: false) { _ = try w.delete(Array(name.utf8), in: h) }
        if let h = try writeTree(Self.counterTree, create: false) { _ = try w.delete(Array(name.utf8), in: h) }
        tables[name] = nil
        nextKeys[name] = nil  // or `flush` would write the dropped table's counter back
        resetTreeCache()
        changeCount &+= 1
        changeRecorder?.rewrite(name)
    }

    /// Drops the secondary index tree of one column.
    package func dropTree(_ name: String) throws {
        try write?.dropTree(name)
        resetTreeCache()
        changeCount &+= 1
    }

    // MARK: Reads

    /// The row of object `key`, or nil if there is none.
    /// - Throws: `StoreError.corrupt` when the object's cluster is corrupt.
    /// - Parameter prefetch: for a caller that reads the object's values after other work (a
    ///   lookup by primary key, which makes the managed object first): start loading the lines
    ///   the search and the reads will need as soon as their addresses are known, so that their
    ///   cache misses overlap instead of following one another (Docs/Performance.md,
    ///   "Prefetching a looked-up object's values"; the position is guessed from the next
    ///   cluster's first key when the leaf holds it). Not in a write transaction, where the
    ///   lookup is mostly followed by a change that reads the cluster anyway (W1's update lost
    ///   about 3% to the prefetches' instructions).
    @inline(__always)
    package func row(_ table: StoreTable, key: Int64, prefetch: Bool = false) throws -> RowReader? {
        let prefetch = prefetch && write == nil
        var k = objectKeyBytes(key)
        var guessed = false
        let entry: (key: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer)
        if prefetch {
            guard let e = try withUnsafeBytes(of: &k, { try readFloorAndNextKey($0, tree: table.objectTree) }) else {
                return nil
            }
            // The next cluster's first key bounds this one's keys: guess the position before the
            // cluster's own lines arrive.
            if let next = e.next, next.count == 8 {
                ClusterView.prefetchGuess(e.value, key: key, upper: decodeObjectKey(next), table: table)
                guessed = true
            } else {
                ClusterView.prefetchLastKey(e.value)
            }
            entry = (e.key, e.value)
        } else {
            guard let e = try withUnsafeBytes(of: &k, { try floorEntry($0, tree: table.objectTree) }) else {
                return nil
            }
            // The search reads the last key first, in a line the view's checks do not read.
            ClusterView.prefetchLastKey(e.value)
            entry = e
        }
        // The cluster's extents, then only this object's ranges: a point read need not check
        // every object's offsets.
        guard let view = ClusterView(entry.value, table: table, rising: false) else {
            _ = try clusterView(entry.value, table); return nil
        }
        if prefetch && !guessed { view.prefetchSlots(at: view.likelyPosition(of: key), table: table) }
        let (p, found) = view.position(of: key)
        guard found else { return nil }
        guard view.rangesRise(at: p, table: table) else { _ = try clusterView(entry.value, table); return nil }
        let reader = RowReader(cluster: view, position: p, table: table)
        if prefetch { reader.prefetchValues() }
        return reader
    }

    /// Calls `body` with the row of each object of `keys` (ascending) that exists, in that
    /// order. Keys that fall in one cluster find it once: reading back the objects a commit
    /// inserted (the sync capture) looked each one up from the root before. `body` must not
    /// change the transaction (the rows point into its pages) and keeps nothing of a row past
    /// its call.
    /// - Throws: `StoreError.corrupt` when a cluster is corrupt; what `body` throws.
    package func forEachRow(
        _ table: StoreTable, keys: some Sequence<Int64>, _ body: (inout RowReader) throws -> Void
    ) throws {
        var reader = RowReader(table: table)
        var view: ClusterView?
        var lastKey = Int64.min
        for key in keys {
            if view == nil || key < view!.firstKey || key > lastKey {
                var k = objectKeyBytes(key)
                guard let entry = try withUnsafeBytes(of: &k, { try floorEntry($0, tree: table.objectTree) }) else {
                    view = nil
                    continue
                }
                guard let v = ClusterView(entry.value, table: table, rising: false) else {
                    _ = try clusterView(entry.value, table)
                    view = nil
                    continue
                }
                view = v
                lastKey = v.key(at: v.count - 1)
            }
            let v = view!
            let (p, found) = v.position(of: key)
            guard found else { continue }
            guard v.rangesRise(at: p, table: table) else {
                _ = try clusterView(v.bytes, table)
                continue
            }
            reader.move(to: v, position: p, key: key)
            try body(&reader)
        }
    }

    /// Whether object `key` exists.
    package func exists(_ table: StoreTable, key: Int64) throws -> Bool {
        try row(table, key: key) != nil
    }

    /// The object key an `Int` primary key value is stored under in a table whose primary key is
    /// the object key: the value itself, or `layout.nullKey` for nil in an optional key (and no
    /// key for `Int64.min` there, which stands for nil).
    @inlinable
    package static func objectKey(_ table: StoreTable, forKeyValue value: StoreValue) -> Int64? {
        switch value {
        case .int(let k): return k == table.layout.nullKey ? nil : k
        case .null: return table.layout.nullKey
        default: return nil
        }
    }

    /// The object key of the object whose primary key is `value`, or nil.
    package func objectKey(_ table: StoreTable, primaryKey value: StoreValue) throws -> Int64? {
        if table.primaryKeyIsObjectKey {
            guard let k = Self.objectKey(table, forKeyValue: value) else { return nil }
            return try exists(table, key: k) ? k : nil
        }
        let key = IndexKey.encode(value)
        return try key.withUnsafeBytes { kb in
            try get(kb, tree: table.primaryKeyTree).map {
                Int64(bitPattern: UInt64(littleEndian: $0.loadUnaligned(as: UInt64.self)))
            }
        }
    }

    /// Number of objects in `table`: the sum of its clusters' counts.
    package func count(_ table: StoreTable) throws -> Int {
        var total = 0
        try forEachLeaf(tree: table.objectTree, passing: true) { leaf in
            leaf.prefetchCells()
            for i in 0..<leaf.count {
                let (_, v) = try leaf.inlineEntry(i) ?? leaf.entry(i)
                total += ClusterView.objectCount(v)
            }
            return true
        }
        return total
    }

    /// Calls `body` with each row of `table` in key order until it returns false.
    @inline(__always)
    package func forEachRow(_ table: StoreTable, _ body: (RowReader) throws -> Bool) throws {
        try forEachRowInPlace(table) { (row: inout RowReader) in try body(row) }
    }

    /// `forEachRow` for the query engine's loops: one reader moves from object to object and
    /// reaches `body` in place. Making a reader per object, or passing a copy, retained and
    /// released its table each time (a fifth of a scan's time). With `passing`, `body` keeps
    /// nothing of a row past its call (values it keeps are copies), so that an encrypted file's
    /// leaves may be opened into a buffer the walk reuses (`forEachLeaf(tree:passing:_:)`).
    @inline(__always)
    func forEachRowInPlace(
        _ table: StoreTable, passing: Bool = false, _ body: (inout RowReader) throws -> Bool
    ) throws {
        var reader = RowReader(table: table)
        try forEachLeaf(tree: table.objectTree, passing: passing) { leaf in
            leaf.prefetchCells()
            for i in 0..<leaf.count {
                let (_, v) = try leaf.inlineEntry(i) ?? leaf.entry(i)
                // The rows of a cluster take far longer than loading the next one: ask for all of it.
                if i + 1 < leaf.count, let (_, next) = leaf.inlineEntry(i + 1), let p = next.baseAddress {
                    prefetchForRead(p, bytes: next.count)
                }
                let view = try clusterView(v, table)
                for p in 0..<view.count {
                    reader.move(to: view, position: p, key: view.key(at: p))
                    if try !body(&reader) { return false }
                }
            }
            return true
        }
    }

    /// The keys of objects whose indexed column `column` equals `value`, in key order.
    package func indexLookup(_ table: StoreTable, column: Int, equals value: StoreValue) throws -> [Int64] {
        if table.columns[column].isPrimaryKey {
            return try objectKey(table, primaryKey: value).map { [$0] } ?? []
        }
        let prefix = IndexKey.encode(value)
        var keys: [Int64] = []
        try forEach(tree: table.indexTree(column), from: prefix) { k, _ in
            guard k.count == prefix.count + 8, k.starts(with: prefix) else { return false }
            keys.append(decodeObjectKey(UnsafeRawBufferPointer(rebasing: k[prefix.count...])))
            return true
        }
        return keys
    }

    /// The objects of `originTable` whose column `originColumn` links to object `key` of `table`,
    /// one entry per object, in key order.
    package func backlinks(
        to table: StoreTable, key: Int64, from originTable: String, column originColumn: String
    ) throws -> [Int64] {
        let prefix = backlinkPrefix(key) + Array(originTable.utf8) + [0] + Array(originColumn.utf8) + [0]
        var keys: [Int64] = []
        try forEach(tree: table.backlinkTree, from: prefix) { k, _ in
            guard k.count == prefix.count + 8, k.starts(with: prefix) else { return false }
            keys.append(decodeObjectKey(UnsafeRawBufferPointer(rebasing: k[prefix.count...])))
            return true
        }
        return keys
    }

    /// Every link pointing at object `key` of `table`: (origin table, origin column, origin key).
    package func allBacklinks(to table: StoreTable, key: Int64) throws -> [(table: String, column: String, key: Int64)]
    {
        let prefix = backlinkPrefix(key)
        var result: [(String, String, Int64)] = []
        try forEach(tree: table.backlinkTree, from: prefix) { k, _ in
            guard k.starts(with: prefix) else { return false }
            let rest = Array(k[8...])
            guard let z1 = rest.firstIndex(of: 0), let z2 = rest[(z1 + 1)...].firstIndex(of: 0), rest.count == z2 + 9
            else {
                throw StoreError.corrupt("a backlink entry of '\(table.name)' is corrupt; run Database.verify()")
            }
            let t = String(decoding: rest[..<z1], as: UTF8.self)
            let c = String(decoding: rest[(z1 + 1)..<z2], as: UTF8.self)
            let ok = rest[(z2 + 1)...].withUnsafeBytes { decodeObjectKey($0) }
            result.append((t, c, ok))
            return true
        }
        return result
    }

    private func backlinkPrefix(_ key: Int64) -> [UInt8] {
        withUnsafeBytes(of: objectKeyBytes(key)) { Array($0) }
    }

    private func backlinkKey(target: Int64, originTable: String, column: String, origin: Int64) -> [UInt8] {
        var out = backlinkPrefix(target)
        out.append(contentsOf: originTable.utf8)
        out.append(0)
        out.append(contentsOf: column.utf8)
        out.append(0)
        withUnsafeBytes(of: objectKeyBytes(origin)) { out.append(contentsOf: $0) }
        return out
    }

    // MARK: Writes

    func requireWrite() -> WriteTransaction {
        guard let w = write else { preconditionFailure("StoreTransaction: a write on a read transaction") }
        return w
    }

    /// A new object key for `table` (tables without an `Int` primary key).
    func newKey(_ table: StoreTable) throws -> Int64 {
        if let k = nextKeys[table.name] {
            nextKeys[table.name] = k + 1
            return k
        }
        var next: Int64 = 0
        let name = Array(table.name.utf8)
        if let v = try name.withUnsafeBytes({ try get($0, tree: Self.counterTree) }), v.count == 8 {
            next = Int64(bitPattern: UInt64(littleEndian: v.loadUnaligned(as: UInt64.self)))
        }
        nextKeys[table.name] = next + 1
        return next
    }

    /// Inserts an object with `values` (one per column, in column order; `LinkingObjects` columns
    /// are ignored) and returns its key. Maintains the primary-key tree, indexes and backlinks.
    /// - Throws: `StoreError.duplicatePrimaryKey` if an object with the same primary key exists,
    ///   `.typeMismatch`/`.nullNotAllowed` for values that do not fit their columns.
    @discardableResult
    package func insert(into table: StoreTable, values: [StoreValue]) throws -> Int64 {
        let w = requireWrite()
        for c in table.indexKeyColumns {
            try checkIndexable(table, column: c, values[c])
        }
        let key: Int64
        // An Int primary key is the object key: the row's insert checks for a duplicate itself.
        if let pk = table.primaryKeyColumn {
            let pkValue = values[pk]
            if table.primaryKeyIsObjectKey {
                // One match on the value: this is every insert's path (`strata-bench w1` bulk_insert).
                switch pkValue {
                case .int(let k):
                    if k == table.layout.nullKey {
                        throw StoreError.reservedPrimaryKey(table: table.name, column: table.columns[pk].name)
                    }
                    key = k
                case .null:
                    guard let nullKey = table.layout.nullKey else {
                        throw StoreError.nullNotAllowed(table: table.name, column: table.columns[pk].name)
                    }
                    key = nullKey
                default:
                    throw StoreError.typeMismatch(
                        table: table.name, column: table.columns[pk].name, expected: "int", found: pkValue.kindName)
                }
            } else {
                if try objectKey(table, primaryKey: pkValue) != nil {
                    throw StoreError.duplicatePrimaryKey(
                        table: table.name, column: table.columns[pk].name, value: describe(pkValue))
                }
                key = try newKey(table)
            }
        } else {
            key = try newKey(table)
        }
        try insertObject(table, key: key, values: values)
        if let pk = table.primaryKeyColumn, !table.primaryKeyIsObjectKey {
            let ph = try writeTree(table.primaryKeyTree, create: true)!
            _ = try w.put(
                IndexKey.encode(values[pk]), withUnsafeBytes(of: UInt64(bitPattern: key).littleEndian) { Array($0) },
                in: ph)
        }
        for c in table.indexedColumns {
            try addIndexEntry(table, column: c, value: values[c], key: key)
        }
        for c in table.linkColumns {
            try addLinks(table, column: c, key: key, value: values[c])
        }
        changeCount &+= 1
        changeRecorder?.insert(table.name, key)
        return key
    }

    /// Sets column `column` of object `key` to `value`, keeping indexes and backlinks current.
    /// Rewrites the value in place when it is fixed-width; returns the value it replaced.
    /// - Throws: `StoreError.objectMissing` when the object was deleted, `.typeMismatch`,
    ///   `.nullNotAllowed`, `.primaryKeyChanged`.
    @discardableResult
    package func set(_ table: StoreTable, key: Int64, column: Int, to value: StoreValue) throws -> StoreValue {
        // -0.0 == 0.0, but the sign of a zero is part of the value: write it.
        let zero =
            switch value {
            case .double(let d): d == 0;
            case .float(let f): f == 0;
            default: false
            }
        // A fixed-width column without an index, links or key role (`age += 1`): read the old
        // value and patch the new one in place in a single descent (this took three).
        if table.plainFixed[column], !value.isNull || table.nullable[column] {
            switch try patchObject(table, key: key, column: column, value, keepSignOfZero: zero) {
            case .missing: throw StoreError.objectMissing(table: table.name, key: key)
            case .unchanged(let previous): return previous
            case .patched(let previous):
                changeCount &+= 1
                changeRecorder?.modify(table.name, key, column: column)
                return previous
            case .needsRewrite: break
            }
        }
        let col = table.columns[column]
        guard let old = try row(table, key: key) else { throw StoreError.objectMissing(table: table.name, key: key) }
        let oldValue = old.value(column)
        if oldValue == value, !zero { return oldValue }
        // Realm's primary keys never change; the `p:` tree (or the object key) still holds the old one.
        if col.isPrimaryKey { throw StoreError.primaryKeyChanged(table: table.name, column: col.name) }
        if value.isNull, !col.isNullable, col.type != .mixed, col.collection == .none {
            throw StoreError.nullNotAllowed(table: table.name, column: col.name)
        }
        if col.hasIndexTree { try checkIndexable(table, column: column, value) }
        try rewriteObject(table, key: key) { e, p throws(StoreError) in try e.set(column: column, at: p, to: value) }
        if col.hasIndexTree {
            try removeIndexEntry(table, column: column, value: oldValue, key: key)
            try addIndexEntry(table, column: column, value: value, key: key)
        }
        if col.type == .link {
            try updateLinks(table, column: column, key: key, old: oldValue, new: value)
            try deleteOrphanedEmbedded(col, old: oldValue, new: value)
        }
        changeCount &+= 1
        changeRecorder?.modify(table.name, key, column: column)
        return oldValue
    }

    /// Deletes object `key`: its row, index entries and outgoing backlinks; the embedded objects
    /// it owns; and every link pointing at it (to-one links become null, list and set elements
    /// are removed, map values become null).
    /// - Returns: false if the object did not exist.
    @discardableResult
    package func delete(_ table: StoreTable, key: Int64) throws -> Bool {
        let w = requireWrite()
        guard let r = try row(table, key: key) else { return false }
        let values = r.values()
        // Incoming links first, so the origin rows are rewritten while this object still exists.
        for link in try allBacklinks(to: table, key: key) {
            guard let origin = tables[link.table], let c = origin.columnIndex[link.column] else { continue }
            guard let originRow = try row(origin, key: link.key) else { continue }
            let current = originRow.value(c)
            let updated: StoreValue
            switch current {
            case .link(let k) where k == key: updated = .null
            case .list(let elements): updated = .list(elements.filter { $0 != .link(key) })
            case .map(let entries): updated = .map(entries.mapValues { $0 == .link(key) ? .null : $0 })
            default: updated = current
            }
            if updated != current { try set(origin, key: link.key, column: c, to: updated) }
        }
        if let pk = table.primaryKeyColumn, !table.primaryKeyIsObjectKey,
            let ph = try writeTree(table.primaryKeyTree, create: false)
        {
            _ = try w.delete(IndexKey.encode(values[pk]), in: ph)
        }
        for c in table.indexedColumns {
            try removeIndexEntry(table, column: c, value: values[c], key: key)
        }
        for c in table.linkColumns {
            try removeLinks(table, column: c, key: key, value: values[c])
        }
        try removeObject(table, key: key)
        changeCount &+= 1
        changeRecorder?.delete(table.name, key)
        for c in table.linkColumns {
            try deleteOrphanedEmbedded(table.columns[c], old: values[c], new: .null)
        }
        return true
    }

    /// Deletes every object of `table` (with the same link cleanup as `delete`).
    package func deleteAll(_ table: StoreTable) throws {
        var keys: [Int64] = []
        try forEachRow(table) { r in
            keys.append(r.key); return true
        }
        for k in keys { try delete(table, key: k) }
    }

    /// Persists per-table key counters; call before committing.
    package func flush() throws {
        guard let w = write, !nextKeys.isEmpty else { return }
        let h = try writeTree(Self.counterTree, create: true)!
        for (name, next) in nextKeys {
            _ = try w.put(
                Array(name.utf8), withUnsafeBytes(of: UInt64(bitPattern: next).littleEndian) { Array($0) }, in: h)
        }
    }

    /// Flushes and commits the write transaction.
    @discardableResult
    package func commit(durability: Durability = .full) throws -> VersionID {
        try flush()
        return try requireWrite().commit(durability: durability)
    }

    /// Commits, and begins the next storage write transaction without releasing the writer lock
    /// (`WriteTransaction.commitAndContinue`).
    package func commitAndContinue(durability: Durability = .full) throws -> (VersionID, WriteTransaction) {
        try flush()
        return try requireWrite().commitAndContinue(durability: durability)
    }

    // MARK: Index and link maintenance

    /// Throws before anything is written when `value` is too long to be an index key.
    func checkIndexable(_ table: StoreTable, column: Int, _ value: StoreValue) throws {
        switch value {
        case .string, .data:
            let size = IndexKey.encode(value).count + 8
            let limit = requireWrite().maxKeySize
            if size > limit {
                throw StoreError.valueTooLongForIndex(
                    table: table.name, column: table.columns[column].name, size: size - 8, limit: limit - 8)
            }
        default:
            return
        }
    }

    func addIndexEntry(_ table: StoreTable, column: Int, value: StoreValue, key: Int64) throws {
        let h = try writeTree(table.indexTree(column), create: true)!
        _ = try write!.put(IndexKey.entry(value, objectKey: objectKeyOrder(key)), [], in: h)
    }

    func removeIndexEntry(_ table: StoreTable, column: Int, value: StoreValue, key: Int64) throws {
        guard let h = try writeTree(table.indexTree(column), create: false) else { return }
        _ = try write!.delete(IndexKey.entry(value, objectKey: objectKeyOrder(key)), in: h)
    }

    /// The object key as an unsigned number ordered like the signed key (what index entries end in).
    private func objectKeyOrder(_ key: Int64) -> UInt64 {
        UInt64(bitPattern: key) ^ 0x8000_0000_0000_0000
    }

    private func linkTargets(_ value: StoreValue) -> [Int64] {
        switch value {
        case .link(let k): return [k]
        case .list(let elements): return elements.compactMap { if case .link(let k) = $0 { k } else { nil } }
        case .map(let entries): return entries.values.compactMap { if case .link(let k) = $0 { k } else { nil } }
        default: return []
        }
    }

    func addLinksForRebuild(_ table: StoreTable, column: Int, key: Int64, value: StoreValue) throws {
        try addLinks(table, column: column, key: key, value: value)
    }

    func addLinks(_ table: StoreTable, column: Int, key: Int64, value: StoreValue) throws {
        // No links, no tree: a column may target a table a migration dropped (deleteData).
        guard let target = table.columns[column].targetTable, case let targets = linkTargets(value), !targets.isEmpty
        else { return }
        let h = try writeTree("b:" + target, create: true)!
        for t in targets {
            let bk = backlinkKey(target: t, originTable: table.name, column: table.columns[column].name, origin: key)
            let count =
                try write!.get(bk, in: h).map {
                    UInt32(littleEndian: $0.withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) })
                } ?? 0
            _ = try write!.put(bk, withUnsafeBytes(of: (count + 1).littleEndian) { Array($0) }, in: h)
        }
    }

    func removeLinks(_ table: StoreTable, column: Int, key: Int64, value: StoreValue) throws {
        guard let target = table.columns[column].targetTable, let h = try writeTree("b:" + target, create: false) else {
            return
        }
        for t in linkTargets(value) {
            let bk = backlinkKey(target: t, originTable: table.name, column: table.columns[column].name, origin: key)
            guard let v = try write!.get(bk, in: h) else { continue }
            let count = UInt32(littleEndian: v.withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) })
            if count <= 1 {
                _ = try write!.delete(bk, in: h)
            } else {
                _ = try write!.put(bk, withUnsafeBytes(of: (count - 1).littleEndian) { Array($0) }, in: h)
            }
        }
    }

    /// Moves the backlinks of object `key`'s link column from `old` to `new`, touching only the
    /// targets whose link count changed: appending to a list of n links updates one backlink
    /// entry instead of removing and re-adding n (which made n appends in one write quadratic in
    /// B-tree operations).
    func updateLinks(_ table: StoreTable, column: Int, key: Int64, old: StoreValue, new: StoreValue) throws {
        guard let target = table.columns[column].targetTable else { return }
        let before = linkTargets(old)
        let after = linkTargets(new)
        // A list edit (append, insert, remove, move) keeps most links where they were: only the
        // stretch between the common head and the common tail can change the counts.
        let (removed, added) = Self.differingMiddles(before, after)
        guard !removed.isEmpty || !added.isEmpty else { return }
        var delta: [Int64: Int] = [:]
        for t in removed { delta[t, default: 0] -= 1 }
        for t in added { delta[t, default: 0] += 1 }
        let changed = delta.filter { $0.value != 0 }.sorted { $0.key < $1.key }
        guard !changed.isEmpty,
            let h = try writeTree("b:" + target, create: changed.contains { $0.value > 0 })
        else { return }
        for (t, d) in changed {
            let bk = backlinkKey(target: t, originTable: table.name, column: table.columns[column].name, origin: key)
            let stored =
                try write!.get(bk, in: h).map {
                    Int(UInt32(littleEndian: $0.withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) }))
                } ?? 0
            let count = stored + d
            if count <= 0 {
                if stored > 0 { _ = try write!.delete(bk, in: h) }
            } else {
                _ = try write!.put(bk, withUnsafeBytes(of: UInt32(count).littleEndian) { Array($0) }, in: h)
            }
        }
    }

    /// `old` and `new` without the longest head and then the longest tail they share.
    static func differingMiddles(_ old: [Int64], _ new: [Int64]) -> (ArraySlice<Int64>, ArraySlice<Int64>) {
        let shorter = min(old.count, new.count)
        var head = 0
        while head < shorter, old[head] == new[head] { head += 1 }
        var tail = 0
        while tail < shorter - head, old[old.count - 1 - tail] == new[new.count - 1 - tail] { tail += 1 }
        return (old[head..<(old.count - tail)], new[head..<(new.count - tail)])
    }

    /// Deletes embedded objects that `old` linked to and `new` no longer does (an embedded object
    /// has exactly one owner).
    func deleteOrphanedEmbedded(_ column: StoreColumn, old: StoreValue, new: StoreValue) throws {
        guard let targetName = column.targetTable, let target = tables[targetName], target.isEmbedded else { return }
        let kept = Set(linkTargets(new))
        for k in linkTargets(old) where !kept.contains(k) {
            try delete(target, key: k)
        }
    }

    func describe(_ value: StoreValue) -> String {
        switch value {
        case .int(let i): String(i)
        case .string(let s): s
        case .objectId(let b), .uuid(let b): b.map { String(format: "%02x", $0) }.joined()
        case .null: "null"
        default: value.kindName
        }
    }
}
