import StrataCore

/// An upload batch made ready for the server before its transaction begins (the upload loop
/// prepares the next batch while the server applies the current one): per table, the keys in
/// order, the rows of the new objects, and the keys to merge (Docs/Sync.md, "Upload").
struct SyncUploadPlan: Sendable {
    /// A new object's row as the batch makes it: one write of every field (the usual case,
    /// read as the entry has it), or the record several operations make.
    enum Row: Sendable {
        case writes([SyncUploadOp.Write])
        case record(SyncRecord<StoreValue>)

        /// The oldest clock of the row's fields.
        var oldestClock: SyncClock? {
            switch self {
            case .writes(let w): w.lazy.map(\.clock).min()
            case .record(let r): r.fields.values.lazy.map(\.clock).min()
            }
        }
    }

    struct Table: Sendable {
        let table: SyncTable
        /// Every key the batch changes, in order of first appearance.
        let keys: [String]
        /// The keys' lock buckets (`lockBucket`), each once, in order.
        let buckets: [Int32]
        /// Each key's operations, in outbox order.
        let group: Group
        /// The objects the batch writes whole and does not delete, with the row the batch makes
        /// of each (the merge's result on a server that has no row of it and no newer tombstone).
        var candidates: [(key: String, pk: StoreValue, row: Row)]
        /// `candidates` as insert rows (new-objects form).
        var fresh: SyncUploadRows
        /// The oldest clock of the candidates' fields: a tombstone at or above it sends its key to
        /// the merge.
        let oldest: SyncClock?
        /// The keys that go to the merge (some fields written, a delete, no readable key).
        var merge: [String]

        /// The operations of `key`, in outbox order, in the merge's form.
        func ops(_ key: String) -> [SyncOperation] {
            group.slot[key].map { group.ops($0).map { $0.operation(table) } } ?? []
        }

        /// Moves `keys` (a tombstone at or above `oldest` was found) from the candidates to the
        /// merge, rebuilding the rows.
        mutating func sendToMerge(_ keys: Set<String>) throws {
            candidates.removeAll { keys.contains($0.key) }
            merge += keys
            fresh = SyncUploadRows(table, newObjects: true)
            for c in candidates { try fresh.append(pk: c.pk, c.row) }
        }
    }

    /// One table's operations by key, in outbox order, keys in order of first appearance (most
    /// keys have one operation: it is kept apart from the rare later ones).
    struct Group: Sendable {
        var slot: [String: Int] = [:]
        var first: [SyncUploadOp] = []
        var more: [Int: [SyncUploadOp]] = [:]

        /// Makes room for `n` keys.
        mutating func reserve(_ n: Int) {
            slot.reserveCapacity(n)
            first.reserveCapacity(n)
        }

        mutating func add(_ op: SyncUploadOp) {
            if let i = slot[op.key] {
                more[i, default: []].append(op)
            } else {
                slot[op.key] = first.count
                first.append(op)
            }
        }

        func ops(_ i: Int) -> [SyncUploadOp] { [first[i]] + (more[i] ?? []) }
    }

    /// The bucket of `key` for the uploaders' advisory locks (Docs/Sync.md, "Upload"): the low
    /// 8 bits of the FNV-1a hash of its text. Every uploader must compute it alike; PostgreSQL's
    /// own hash of 5,000 keys per batch cost the lock statement several milliseconds.
    static func lockBucket(_ key: String) -> Int32 {
        var h: UInt32 = 2_166_136_261
        for b in key.utf8 { h = (h ^ UInt32(b)) &* 16_777_619 }
        return Int32(h & 255)
    }

    /// The newest outbox number in the batch (nil when it is empty).
    let last: UInt64?
    /// The tables the batch changes, by name (byte order).
    var tables: [Table]

    init(entries: [(seq: UInt64, ops: [SyncOperation])], tables byName: [String: SyncTable]) throws {
        try self.init(
            uploadEntries: entries.map { e in
                (e.seq, e.ops.compactMap { op in byName[op.table].map { SyncUploadOp(op, $0) } })
            }, tables: byName)
    }

    init(uploadEntries entries: [(seq: UInt64, ops: [SyncUploadOp])], tables byName: [String: SyncTable]) throws {
        last = entries.last?.seq
        // Consecutive operations are mostly of one table: its group is filled in place, and
        // put back when another table's operation comes (a dictionary access per operation
        // cost more than the rest of grouping it).
        var groups: [String: Group] = [:]
        var current = Group()
        var currentName: String?
        let total = entries.reduce(0) { $0 + $1.ops.count }
        for e in entries {
            for op in e.ops {
                if op.table != currentName {
                    if let name = currentName { groups[name] = current }
                    if let g = groups.removeValue(forKey: op.table) {
                        current = g
                    } else {
                        // The first table gets room for every operation (most batches are of
                        // one table); the others grow as they fill.
                        current = Group()
                        if groups.isEmpty && currentName == nil { current.reserve(total) }
                    }
                    currentName = op.table
                }
                current.add(op)
            }
        }
        if let name = currentName { groups[name] = current }
        tables = []
        for name in groups.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
            guard let t = byName[name], let g = groups[name] else { continue }
            var keys: [String] = []
            keys.reserveCapacity(g.first.count)
            var candidates: [(key: String, pk: StoreValue, row: Row)] = []
            candidates.reserveCapacity(g.first.count)
            var fresh = SyncUploadRows(t, newObjects: true)
            var merge: [String] = []
            var oldest: SyncClock?
            for (i, op) in g.first.enumerated() {
                let k = op.key
                keys.append(k)
                // Written whole (every field, each at one of the batch's clocks) and not deleted:
                // a new object, as a rule. A write of some fields is of an object the server most
                // likely has.
                var row: Row?
                if g.more[i] == nil {
                    if op.writesWhole(t) { row = .writes(op.writes) }
                } else {
                    let kOps = g.ops(i)
                    var r = SyncRecord<StoreValue>.absent
                    if !kOps.contains(where: { $0.deleteClock != nil }) {
                        for op in kOps { r.applyWrite(op.operation(t).fields, defaults: t.defaults) }
                    }
                    if r.alive, r.fields.count == t.fields.count,
                        !r.fields.values.contains(where: { $0.clock == .zero })
                    {
                        row = .record(r)
                    }
                }
                if let row, let pk = t.keyValue(k) {
                    candidates.append((k, pk, row))
                    try fresh.append(pk: pk, row)
                    if let c = row.oldestClock, oldest.map({ c < $0 }) ?? true { oldest = c }
                } else {
                    merge.append(k)
                }
            }
            var inBucket = [Bool](repeating: false, count: 256)
            for k in keys { inBucket[Int(Self.lockBucket(k))] = true }
            let buckets = inBucket.indices.filter { inBucket[$0] }.map { Int32($0) }
            tables.append(
                Table(
                    table: t, keys: keys, buckets: buckets, group: g, candidates: candidates, fresh: fresh,
                    oldest: oldest, merge: merge))
        }
    }
}
