import StrataCore

/// An upload batch made ready for the server before its transaction begins (the upload loop
/// prepares the next batch while the server applies the current one): per table, the keys in
/// order, the rows of the new objects, and the keys to merge (Docs/Sync.md, "Upload").
struct SyncUploadPlan: Sendable {
    struct Table: Sendable {
        let table: SyncTable
        /// Every key the batch changes, in order (the advisory locks).
        let keys: [String]
        /// Each key's operations, in outbox order.
        let opsByKey: [String: [SyncOperation]]
        /// The objects the batch writes whole and does not delete, with the record the batch
        /// makes of each (the merge's result on a server that has no row of it and no newer
        /// tombstone).
        var candidates: [(key: String, pk: StoreValue, record: SyncRecord<StoreValue>)]
        /// `candidates` as insert rows (new-objects form).
        var fresh: SyncUploadRows
        /// The oldest clock of the candidates' fields: a tombstone at or above it sends its key to
        /// the merge.
        let oldest: SyncClock?
        /// The keys that go to the merge (some fields written, a delete, no readable key).
        var merge: [String]

        /// Moves `keys` (a tombstone at or above `oldest` was found) from the candidates to the
        /// merge, rebuilding the rows.
        mutating func sendToMerge(_ keys: Set<String>) throws {
            candidates.removeAll { keys.contains($0.key) }
            merge += keys
            fresh = SyncUploadRows(table, newObjects: true)
            for c in candidates { try fresh.append(pk: c.pk, c.record) }
        }
    }

    /// The newest outbox number in the batch (nil when it is empty).
    let last: UInt64?
    /// The tables the batch changes, by name (byte order, the advisory locks' order).
    var tables: [Table]

    init(entries: [(seq: UInt64, ops: [SyncOperation])], tables byName: [String: SyncTable]) throws {
        last = entries.last?.seq
        var byTable: [String: [String: [SyncOperation]]] = [:]
        for e in entries {
            for op in e.ops { byTable[op.table, default: [:]][op.key, default: []].append(op) }
        }
        tables = []
        for name in byTable.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
            guard let t = byName[name], let opsByKey = byTable[name] else { continue }
            let keys = opsByKey.keys.sorted()
            var candidates: [(key: String, pk: StoreValue, record: SyncRecord<StoreValue>)] = []
            var fresh = SyncUploadRows(t, newObjects: true)
            var merge: [String] = []
            var oldest: SyncClock?
            for k in keys {
                let kOps = opsByKey[k]!
                var record = SyncRecord<StoreValue>.absent
                if !kOps.contains(where: { $0.deleteClock != nil }) {
                    for op in kOps { record.applyWrite(op.fields, defaults: t.defaults) }
                }
                // Written whole: every field's clock is one of the batch's (above `.zero`). A
                // write of some fields is of an object the server most likely has.
                if record.alive, record.fields.values.allSatisfy({ $0.clock > .zero }), let pk = t.keyValue(k) {
                    candidates.append((k, pk, record))
                    try fresh.append(pk: pk, record)
                    for f in record.fields.values where oldest.map({ f.clock < $0 }) ?? true { oldest = f.clock }
                } else {
                    merge.append(k)
                }
            }
            tables.append(
                Table(
                    table: t, keys: keys, opsByKey: opsByKey, candidates: candidates, fresh: fresh, oldest: oldest,
                    merge: merge))
        }
    }
}
