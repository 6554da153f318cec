import StrataCore

/// An outbox operation as the upload reads it (`SyncOperation.decodeForUpload`): the fields it
/// writes by their index in the table, in the entry's order (the table's, as the capture writes
/// them).
package struct SyncUploadOp: Sendable {
    package struct Write: Sendable {
        package var field: Int
        package var value: StoreValue
        package var clock: SyncClock
    }

    package var table: String
    package var key: String
    package var deleteClock: SyncClock?
    package var writes: [Write]

    package init(table: String, key: String, deleteClock: SyncClock?, writes: [Write]) {
        self.table = table
        self.key = key
        self.deleteClock = deleteClock
        self.writes = writes
    }

    /// `op` (of table `t`) in this form, its fields in the table's order.
    package init(_ op: SyncOperation, _ t: SyncTable) {
        table = t.name
        key = op.key
        deleteClock = op.deleteClock
        writes = t.fields.indices.compactMap { i in
            op.fields[t.fields[i].name].map { Write(field: i, value: $0.value, clock: $0.clock) }
        }
    }

    /// Whether it writes every field of `t`, each once, in the table's order, none at the zero
    /// clock: a new object's first write, as a rule.
    package func writesWhole(_ t: SyncTable) -> Bool {
        guard deleteClock == nil, writes.count == t.fields.count else { return false }
        for (i, w) in writes.enumerated() where w.field != i || w.clock == .zero { return false }
        return true
    }

    /// The operation with its fields by name (the merge's form). Fields are named by `t`, the
    /// table the op was read with.
    package func operation(_ t: SyncTable) -> SyncOperation {
        var fields: [String: SyncRecord<StoreValue>.Field] = [:]
        fields.reserveCapacity(writes.count)
        for w in writes { fields[t.fields[w.field].name] = .init(value: w.value, clock: w.clock) }
        return SyncOperation(table: table, key: key, deleteClock: deleteClock, fields: fields)
    }
}
