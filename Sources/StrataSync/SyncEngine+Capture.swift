import Foundation
import Strata
import StrataCore

// Capture of local commits into the outbox (Docs/Sync.md, "Outbox").
extension SyncEngine {
    // MARK: Capture (in the committing thread, writer lock held)

    /// The clock, made from the file's meta values on first use (inside a write transaction).
    func ensureClock(_ txn: StoreTransaction) throws -> HybridLogicalClock {
        if let c = lock.withLock({ clock }) { return c }
        var node = try SyncLocalStore.meta(txn, "node") ?? 0
        if node == 0 {
            node = UInt64.random(in: 1...UInt64.max)
            try SyncLocalStore.setMeta(txn, "node", node)
        }
        let floor = try SyncLocalStore.meta(txn, "hlc") ?? 0
        return lock.withLock {
            if let c = clock { return c }
            let c = HybridLogicalClock(node: node, floor: floor)
            clock = c
            return c
        }
    }

    func willCommit(_ txn: StoreTransaction) throws {
        guard !txn.isSyncApply, let record = txn.changeRecorder else { return }
        var changed: [(SyncTable, TableChanges)] = []
        for name in tables.keys.sorted() {
            let t = tables[name]!
            var changes = record.tables[name] ?? TableChanges()
            if record.rewrittenTables.contains(name) {
                try txn.forEachRow(t.store) { row in
                    changes.modified[row.key] = .all
                    return true
                }
            }
            if !changes.isEmpty { changed.append((t, changes)) }
        }
        guard !changed.isEmpty else { return }
        let clock = try ensureClock(txn)
        // Another process may have committed to this file with the same node since this one last
        // read the floor: never stamp below what the file has seen.
        if let floor = try SyncLocalStore.meta(txn, "hlc") { clock.observe(SyncClock(time: floor, node: 0)) }
        // Deletes first, with an earlier reading than the writes: an object deleted and created
        // again under the same primary key in one transaction (a new object key when the key is
        // not an Int) is deleted, then written, on every replica.
        let deleteClock = clock.now()
        let c = clock.now()
        var ops = SyncOperation.Entry()
        var scratch = CaptureScratch()
        for (t, changes) in changed where !t.isAsymmetric {
            for key in changes.deleted.sorted() {
                let old = try SyncLocalStore.clocks(txn, table: t.name, key: key)
                guard let keyText = old?.key ?? (t.store.primaryKeyIsObjectKey ? String(key) : nil) else { continue }
                try SyncLocalStore.removeClocks(txn, table: t.name, key: key)
                if t.hasLinks { try SyncLinks.setUnresolved(txn, t, key: key, [:]) }
                try SyncLocalStore.setTombstone(txn, table: t.name, key: keyText, deleteClock)
                ops.appendDelete(table: t.name, key: keyText, clock: deleteClock)
            }
        }
        for (t, changes) in changed {
            if t.isAsymmetric {
                // Write-only: each new object goes to the outbox and leaves the device in the
                // same commit (nothing of it is ever readable here).
                for key in changes.inserted.sorted() {
                    guard let row = try txn.row(t.store, key: key) else { continue }
                    var fields: [String: SyncRecord<StoreValue>.Field] = [:]
                    for f in t.fields {
                        let v = try SyncLinks.wire(txn, f, f.asServerKeepsIt(row.value(f.column)), tables)
                        try f.checkStorable(v, table: t.name)
                        fields[f.name] = .init(value: v, clock: c)
                    }
                    let key = SyncTable.keyText(row.value(t.primaryKeyColumn))
                    ops.appendWrite(t, key: key, fields: fields)
                }
                for key in changes.inserted.sorted() { try txn.delete(t.store, key: key) }
                continue
            }
            for key in changes.inserted.sorted() {
                try captureWrite(txn, t, key: key, columns: .all, clock: c, isNew: true, into: &ops, scratch: &scratch)
            }
            for (key, columns) in changes.modified.sorted(by: { $0.key < $1.key }) {
                try captureWrite(txn, t, key: key, columns: columns, clock: c, into: &ops, scratch: &scratch)
            }
        }
        guard !ops.isEmpty else { return }
        try SyncLocalStore.appendOutbox(txn, ops.bytes)
        try SyncLocalStore.setMeta(txn, "hlc", c.time)
    }

    /// Appends to `entry` the outbox operation for a write of `columns` of object `key`,
    /// stamping their clocks. `isNew`: the object was inserted by this transaction, so it has no
    /// clock record yet (a deleted object's is removed before, in `willCommit`).
    func captureWrite(
        _ txn: StoreTransaction, _ t: SyncTable, key: Int64, columns: ColumnSet, clock c: SyncClock,
        isNew: Bool = false, into entry: inout SyncOperation.Entry
    ) throws {
        var scratch = CaptureScratch()
        try captureWrite(txn, t, key: key, columns: columns, clock: c, isNew: isNew, into: &entry, scratch: &scratch)
    }

    /// Buffers `captureWrite` reuses from object to object within a commit (an array allocated
    /// and freed per object cost more than filling it).
    struct CaptureScratch {
        var written: [(field: Int, value: StoreValue)] = []
        var record: [UInt8] = []
    }

    func captureWrite(
        _ txn: StoreTransaction, _ t: SyncTable, key: Int64, columns: ColumnSet, clock c: SyncClock,
        isNew: Bool = false, into entry: inout SyncOperation.Entry, scratch: inout CaptureScratch
    ) throws {
        guard let row = try txn.row(t.store, key: key) else { return }
        let pk = row.value(t.primaryKeyColumn)
        if case .string(let s) = pk, s.utf8.contains(0) {
            throw SyncError(
                .unsupportedValue,
                "'\(t.name).\(t.primaryKeyName)': PostgreSQL cannot store a primary key containing U+0000, so the write was not committed."
            )
        }
        let keyText = SyncTable.keyText(pk)
        var clocks =
            isNew ? nil : try SyncLocalStore.clocks(txn, table: t.name, key: key) ?? .init(key: keyText, fields: [:])
        var written = scratch.written
        scratch.written = []
        written.removeAll(keepingCapacity: true)
        defer { scratch.written = written }
        var unresolved = t.hasLinks ? try SyncLinks.unresolved(txn, t, key: key) : [:]
        let hadUnresolved = !unresolved.isEmpty
        for (i, f) in t.fields.enumerated() where columns.contains(f.column) {
            if f.target != nil {
                // A link goes up as its target's key; a collection of links keeps the keys the
                // device cannot see; a single link written here replaces the unresolved one.
                let visible = try SyncLinks.wire(txn, f, row.value(f.column), tables)
                let v = try SyncLinks.withHidden(txn, f, visible, unresolved[f.name], tables)
                unresolved[f.name] = !f.isCollection || v == visible ? nil : v
                written.append((i, v))
                clocks?.fields[f.name] = c
                continue
            }
            var v = row.value(f.column)
            try f.checkStorable(v, table: t.name)
            if f.serverMayChangeValues {
                // PostgreSQL keeps microseconds, and a `numeric` without an exponent (decimals
                // in an AnyRealmValue too): every replica keeps what the server keeps.
                let rounded = f.asServerKeepsIt(v)
                if rounded != v {
                    _ = try txn.set(t.store, key: key, column: f.column, to: rounded)
                    v = rounded
                }
            }
            written.append((i, v))
            clocks?.fields[f.name] = c
        }
        if written.isEmpty { return }
        if hadUnresolved { try SyncLinks.setUnresolved(txn, t, key: key, unresolved) }
        if let clocks {
            try SyncLocalStore.setClocks(txn, table: t.name, key: key, clocks)
        } else {
            try SyncLocalStore.setClocks(
                txn, t, key: key, keyText: keyText, fields: written.lazy.map(\.field), clock: c,
                scratch: &scratch.record)
        }
        entry.appendWrite(t, key: keyText, written: written, clock: c)
    }

    func didCommit() {
        uploadSignal.fire()
    }
}
