import StrataStorage

// Bulk maintenance for schema changes and migrations: raw puts, row replacement without index
// upkeep, and rebuilding index and backlink trees from the rows.

extension StoreTransaction {
    /// Stores `value` under `key` in tree `name` (write transactions only).
    public func putRaw(_ key: [UInt8], _ value: [UInt8], tree name: String) throws {
        guard let w = write, let h = try writeTree(name, create: true) else { return }
        _ = try w.put(key, value, in: h)
    }

    /// Writes the row of object `key` from `values` without touching indexes or backlinks; a
    /// migration calls `rebuildIndexes` and `rebuildBacklinks` afterwards.
    public func replaceRow(_ table: CoreTable, key: Int64, values: [CoreValue]) throws {
        guard let w = write, let h = try writeTree(table.objectTree, create: true) else { return }
        let row = try RowEncoder.encode(values, table: table)
        var kb = objectKeyBytes(key)
        try withUnsafeBytes(of: &kb) { k in try row.withUnsafeBytes { _ = try w.put(k, $0, in: h) } }
    }

    /// Rebuilds the index trees of `columns` (and, with `primaryKey`, the primary-key tree) of
    /// `table` from its rows.
    public func rebuildIndexes(_ table: CoreTable, columns: [Int], primaryKey: Bool = false) throws {
        guard let w = write else { return }
        for c in columns { try w.dropTree(table.indexTree(c)) }
        if primaryKey { try w.dropTree(table.primaryKeyTree) }
        resetTreeCache()
        var entries: [(Int, [UInt8])] = []
        var pks: [([UInt8], Int64)] = []
        try forEachRow(table) { row in
            for c in columns where table.columns[c].hasIndexTree {
                entries.append((c, IndexKey.entry(row.value(c), objectKey: UInt64(bitPattern: row.key) ^ 0x8000_0000_0000_0000)))
            }
            if primaryKey, let pk = table.primaryKeyColumn, !table.primaryKeyIsObjectKey {
                pks.append((IndexKey.encode(row.value(pk)), row.key))
            }
            return true
        }
        for (c, e) in entries { try putRaw(e, [], tree: table.indexTree(c)) }
        var seen: Set<[UInt8]> = []
        for (k, key) in pks {
            guard seen.insert(k).inserted else {
                throw CoreError.duplicatePrimaryKey(table: table.name, column: table.columns[table.primaryKeyColumn!].name, value: "\(row: k)")
            }
            try putRaw(k, withUnsafeBytes(of: UInt64(bitPattern: key).littleEndian) { Array($0) }, tree: table.primaryKeyTree)
        }
    }

    /// Drops every backlink tree and rebuilds them from the link columns of `tables`.
    public func rebuildBacklinks(_ tables: [CoreTable]) throws {
        guard let w = write else { return }
        for n in try w.treeNames() where n.hasPrefix("b:") { try w.dropTree(n) }
        resetTreeCache()
        for t in tables {
            let linkColumns = t.columns.indices.filter { t.columns[$0].type == .link }
            guard !linkColumns.isEmpty else { continue }
            var pending: [(Int, Int64, CoreValue)] = []
            try forEachRow(t) { row in
                for c in linkColumns { pending.append((c, row.key, row.value(c))) }
                return true
            }
            for (c, key, value) in pending { try addLinksForRebuild(t, column: c, key: key, value: value) }
        }
    }
}

extension String.StringInterpolation {
    mutating func appendInterpolation(row bytes: [UInt8]) {
        appendLiteral(bytes.map { String($0, radix: 16) }.joined(separator: " "))
    }
}
