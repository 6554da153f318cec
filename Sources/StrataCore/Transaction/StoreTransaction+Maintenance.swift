import StrataStorage

// Bulk maintenance for schema changes and migrations: raw puts, row replacement without index
// upkeep, and rebuilding index and backlink trees from the rows.

extension StoreTransaction {
    /// Stores `value` under `key` in tree `name` (write transactions only).
    package func putRaw(_ key: [UInt8], _ value: [UInt8], tree name: String) throws {
        guard let w = write, let h = try writeTree(name, create: true) else { return }
        _ = try w.put(key, value, in: h)
    }

    /// Writes object `key` with `values` (inserting it, or replacing all its values) without
    /// touching indexes or backlinks; a migration drops the table's object tree, writes every
    /// object again with this, then calls `rebuildIndexes` and `rebuildBacklinks`.
    package func replaceRow(_ table: StoreTable, key: Int64, values: [StoreValue]) throws {
        guard write != nil else { return }
        if try row(table, key: key) == nil {
            try insertObject(table, key: key, values: values)
            changeRecorder?.insert(table.name, key)
        } else {
            try rewriteObject(table, key: key) { e, p throws(StoreError) in
                for c in values.indices { try e.set(column: c, at: p, to: values[c]) }
            }
            changeRecorder?.modifyAll(table.name, key)
        }
        changeCount &+= 1
    }

    /// Rebuilds the index trees of `columns` (and, with `primaryKey`, the primary-key tree) of
    /// `table` from its rows.
    package func rebuildIndexes(_ table: StoreTable, columns: [Int], primaryKey: Bool = false) throws {
        guard let w = write else { return }
        for c in columns { try w.dropTree(table.indexTree(c)) }
        if primaryKey { try w.dropTree(table.primaryKeyTree) }
        resetTreeCache()
        var entries: [(Int, [UInt8])] = []
        var pks: [([UInt8], Int64)] = []
        try forEachRow(table) { row in
            for c in columns where table.columns[c].hasIndexTree {
                entries.append(
                    (c, IndexKey.entry(row.value(c), objectKey: UInt64(bitPattern: row.key) ^ 0x8000_0000_0000_0000)))
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
                throw StoreError.duplicatePrimaryKey(
                    table: table.name, column: table.columns[table.primaryKeyColumn!].name, value: "\(row: k)")
            }
            try putRaw(
                k, withUnsafeBytes(of: UInt64(bitPattern: key).littleEndian) { Array($0) }, tree: table.primaryKeyTree)
        }
    }

    /// Drops every backlink tree and rebuilds them from the link columns of `tables`.
    package func rebuildBacklinks(_ tables: [StoreTable]) throws {
        guard let w = write else { return }
        for n in try w.treeNames() where n.hasPrefix("b:") { try w.dropTree(n) }
        resetTreeCache()
        for t in tables {
            let linkColumns = t.columns.indices.filter { t.columns[$0].type == .link }
            guard !linkColumns.isEmpty else { continue }
            var pending: [(Int, Int64, StoreValue)] = []
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

extension StoreTransaction {
    /// Whether `table` still has objects in the row format that clusters replaced (a file
    /// written before clusters; FORMAT.md, "Object rows (format 1)").
    package func hasLegacyRows(_ table: StoreTable) throws -> Bool {
        if let w = write { return try w.treeExists(table.legacyRowTree) }
        return try readTree(table.legacyRowTree) != nil
    }

    /// Rewrites the one-row-per-object tree `o:<T>` of `table` as clusters in `c:<T>` and drops
    /// it (write transactions only). Indexes, primary keys and backlinks keep their formats and
    /// are left as they are. Reads the rows in batches, so memory stays bounded.
    package func upgradeLegacyRows(_ table: StoreTable) throws {
        guard let w = write, let old = try writeTree(table.legacyRowTree, create: false) else { return }
        var start: [UInt8]? = nil
        while true {
            var batch: [(Int64, [StoreValue])] = []
            var next: [UInt8]? = nil
            try w.forEach(in: old, from: start) { k, v in
                if batch.count == 4096 { next = Array(k); return false }
                guard k.count == 8 else {
                    throw StoreError.corrupt("a row key of '\(table.name)' is corrupt; run Database.verify()")
                }
                let key = decodeObjectKey(k)
                let n = v.count >= 2 ? Int(UInt16(littleEndian: v.loadUnaligned(as: UInt16.self))) : -1
                guard n >= 0, n <= table.columns.count,
                    RowLayout.header(n) + table.layout.slotSizes[0..<n].reduce(0, +) <= v.count
                else {
                    throw StoreError.corrupt("row \(key) of '\(table.name)' is corrupt; run Database.verify()")
                }
                // Variable-width slots must point inside the row (the reader traps otherwise).
                let header = RowLayout.header(n)
                for c in 0..<n
                where table.layout.variable[c] && table.layout.slotSizes[c] > 0
                    && v[2 + c >> 3] & (1 << UInt8(c & 7)) == 0
                {
                    let s = header + table.layout.slotOffsets[c]
                    let off = Int(UInt32(littleEndian: v.loadUnaligned(fromByteOffset: s, as: UInt32.self)))
                    let len = Int(UInt32(littleEndian: v.loadUnaligned(fromByteOffset: s + 4, as: UInt32.self)))
                    guard off + len <= v.count else {
                        throw StoreError.corrupt("row \(key) of '\(table.name)' is corrupt; run Database.verify()")
                    }
                }
                batch.append((key, LegacyRowReader(bytes: v, table: table, key: key).values()))
                return true
            }
            for (key, values) in batch { try insertObject(table, key: key, values: values) }
            guard let n = next else { break }
            start = n
        }
        try w.dropTree(table.legacyRowTree)
        resetTreeCache()
        changeCount &+= 1
    }
}
