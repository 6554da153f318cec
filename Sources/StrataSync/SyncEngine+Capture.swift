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
        // An embedded object's change is a write of its owner's property that holds it.
        var owners: [String: [Int64: ColumnSet]] = [:]
        for (name, changes) in record.tables where !changes.inserted.isEmpty || !changes.modified.isEmpty {
            guard let st = txn.tables[name], st.isEmbedded else { continue }
            // Inserted and modified rows, each once (without making their union).
            func noteOwner(of key: Int64) throws {
                guard let o = try SyncEmbedded.owner(txn, st, key: key), tables[o.table] != nil else { return }
                owners[o.table, default: [:]][o.key, default: ColumnSet()].insert(o.column)
            }
            for key in changes.inserted { try noteOwner(of: key) }
            for key in changes.modified.keys where !changes.inserted.contains(key) { try noteOwner(of: key) }
        }
        var changed: [(SyncTable, TableChanges)] = []
        for name in tables.keys.sorted() {
            let t = tables[name]!
            var changes = record.tables[name] ?? TableChanges()
            for (key, columns) in owners[name] ?? [:] where !changes.inserted.contains(key) {
                changes.modified[key, default: ColumnSet()].formUnion(columns)
            }
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
        let ops = SyncOperation.Entry()
        var scratch = CaptureScratch()
        for (t, changes) in changed where !t.isAsymmetric {
            for key in changes.deleted.sorted() {
                let old = try SyncLocalStore.clocks(txn, table: t.name, key: key)
                guard let keyText = old?.key ?? (t.store.primaryKeyIsObjectKey ? String(key) : nil) else { continue }
                try SyncLocalStore.removeClocks(txn, table: t.name, key: key)
                if t.hasLinks { try SyncLinks.setUnresolved(txn, t, key: key, [:]) }
                try SyncLocalStore.setTombstone(txn, table: t.name, key: keyText, deleteClock)
                ops.appendDelete(t, key: keyText, clock: deleteClock)
            }
        }
        for (t, changes) in changed {
            if t.isAsymmetric {
                // Write-only: each new object goes to the outbox and leaves the device in the
                // same commit (nothing of it is ever readable here).
                for key in changes.inserted.sorted() {
                    guard let row = try txn.row(t.store, key: key) else { continue }
                    var fields: [String: SyncRecord<StoreValue>.Field] = [:]
                    var roundings: [SyncEmbedded.Rounding] = []  // of rows deleted below: not stored
                    for f in t.fields {
                        let v =
                            f.embedded != nil
                            ? try SyncEmbedded.wire(txn, f, row.value(f.column), &roundings)
                            : try SyncLinks.wire(txn, f, f.asServerKeepsIt(row.value(f.column)), tables)
                        try f.checkStorable(v, table: t.name)
                        fields[f.name] = .init(value: v, clock: c)
                    }
                    let key = SyncTable.keyText(row.value(t.primaryKeyColumn))
                    ops.appendWrite(t, key: key, fields: fields)
                }
                for key in changes.inserted.sorted() { try txn.delete(t.store, key: key) }
                continue
            }
            if t.readsOtherRows {
                for key in changes.inserted.sorted() {
                    try captureWrite(
                        txn, t, key: key, columns: .all, clock: c, isNew: true, into: ops, scratch: &scratch)
                }
            } else {
                try captureNew(txn, t, keys: changes.inserted.sorted(), clock: c, into: ops, scratch: &scratch)
            }
            for (key, columns) in changes.modified.sorted(by: { $0.key < $1.key }) {
                try captureWrite(txn, t, key: key, columns: columns, clock: c, into: ops, scratch: &scratch)
            }
        }
        guard !ops.isEmpty else { return }
        try SyncLocalStore.appendOutbox(txn, ops)
        try SyncLocalStore.setMeta(txn, "hlc", c.time)
    }

    /// Appends to `entry` the outbox operation for a write of `columns` of object `key`,
    /// stamping their clocks. `isNew`: the object was inserted by this transaction, so it has no
    /// clock record yet (a deleted object's is removed before, in `willCommit`).
    func captureWrite(
        _ txn: StoreTransaction, _ t: SyncTable, key: Int64, columns: ColumnSet, clock c: SyncClock,
        isNew: Bool = false, into entry: SyncOperation.Entry
    ) throws {
        var scratch = CaptureScratch()
        try captureWrite(txn, t, key: key, columns: columns, clock: c, isNew: isNew, into: entry, scratch: &scratch)
    }

    /// Buffers `captureWrite` reuses from object to object within a commit (an array allocated
    /// and freed per object cost more than filling it).
    struct CaptureScratch {
        var written: [(field: Int, value: StoreValue)] = []
        var record: [UInt8] = []
        /// `captureNew`'s clock records, being written.
        let records = SyncByteWriter(capacity: 256)
        /// `captureNew`'s objects: key, and where the key text is in the entry.
        var captured: [(key: Int64, textAt: Int, textCount: Int)] = []
        /// `captureNew`'s values to store as the server keeps them.
        var rounded: [(key: Int64, column: Int, value: StoreValue)] = []
    }

    /// Captures the objects `keys` (ascending) of `t`, a table without links, that this
    /// transaction inserted: one whole write each at `clock`, and their clock records. The
    /// same result as `captureWrite(..., columns: .all, isNew: true)` for each, for a third of
    /// its work: the rows are read in place with one lookup per cluster, `Int`, `Double` and
    /// `String` values go from the row to the entry without becoming `StoreValue`s, and every
    /// clock record after the key is the same bytes, made once.
    func captureNew(
        _ txn: StoreTransaction, _ t: SyncTable, keys: [Int64], clock c: SyncClock, into entry: SyncOperation.Entry,
        scratch: inout CaptureScratch
    ) throws {
        guard !keys.isEmpty else { return }
        let w = entry.writer
        var captured = scratch.captured
        var rounded = scratch.rounded
        captured.removeAll(keepingCapacity: true)
        rounded.removeAll(keepingCapacity: true)
        defer {
            scratch.captured = captured
            scratch.rounded = rounded
        }
        let kinds = t.captureKinds
        let columns = t.fieldColumns
        let pkColumn = t.primaryKeyColumn
        let pkIsInt = t.primaryKeyType == .int
        // Reading only: the rows point into the transaction's pages until its next change.
        try txn.forEachRow(t.store, keys: keys) { row in
            entry.section(t)
            w.u8(SyncOperation.Kind.wholeWrite)
            let lengthAt = w.count
            w.u32(0)
            if pkIsInt, pkColumn < row.storedColumnCount || pkColumn == row.table.layout.keyColumn,
                let k = row.int(pkColumn)
            {
                w.decimal(k)
            } else {
                let pk = row.value(pkColumn)
                if case .string(let s) = pk, s.utf8.contains(0) { throw Self.nulInKey(t) }
                var text = SyncTable.keyText(pk)
                text.withUTF8 { w.raw(UnsafeRawBufferPointer($0)) }
            }
            let textCount = w.count - lengthAt - 4
            w.patchU32(UInt32(textCount), at: lengthAt)
            w.clock(c)
            for i in 0..<kinds.count {
                let column = columns[i]
                if column < row.storedColumnCount {
                    switch kinds[i] {
                    case .int:
                        if let v = row.int(column) { w.tagged(2, UInt64(bitPattern: v)) } else { w.u8(0) }
                        continue
                    case .double:
                        if let v = row.double(column) { w.tagged(4, v.bitPattern) } else { w.u8(0) }
                        continue
                    case .string:
                        guard let b = row.variableBytes(column) else {
                            w.u8(0)
                            continue
                        }
                        if b.count > 0, memchr(b.baseAddress!, 0, b.count) != nil {
                            try t.fields[i].checkStorable(row.value(column), table: t.name)
                        }
                        w.u8(5)
                        w.u32(UInt32(b.count))
                        w.raw(b)
                        continue
                    case .other: break
                    }
                }
                let f = t.fields[i]
                var v = row.value(column)
                try f.checkStorable(v, table: t.name)
                if f.serverMayChangeValues {
                    // PostgreSQL keeps microseconds, and a `numeric` without an exponent
                    // (decimals in an AnyRealmValue too): every replica keeps what the server
                    // keeps. Stored after the reads.
                    let r = f.asServerKeepsIt(v)
                    if r != v {
                        rounded.append((row.key, column, r))
                        v = r
                    }
                }
                w.tagged(v)
            }
            entry.end()
            captured.append((row.key, lengthAt + 4, textCount))
        }
        for r in rounded { _ = try txn.set(t.store, key: r.key, column: r.column, to: r.value) }
        // A clock record (FORMAT.md, "Sync trees"): the key text, then every field at `c`.
        let record = scratch.records
        record.removeAll()
        record.u32BE(UInt32(t.fields.count))
        for name in t.clockNameBytes {
            record.raw(name)
            record.u64BE(c.time)
            record.u64BE(c.node)
        }
        let tail = record.count
        for o in captured {
            record.truncate(to: tail)
            record.u32BE(UInt32(o.textCount))
            record.raw(UnsafeRawBufferPointer(start: w.base + o.textAt, count: o.textCount))
            record.repeatBytes(0..<tail)
            try SyncLocalStore.withKeyBytes(o.key) { kb in
                try txn.put(kb, UnsafeRawBufferPointer(rebasing: record.bytes[tail...]), tree: t.clockTreeName)
            }
        }
    }

    static func nulInKey(_ t: SyncTable) -> SyncError {
        SyncError(
            .unsupportedValue,
            "'\(t.name).\(t.primaryKeyName)': PostgreSQL cannot store a primary key containing U+0000, so the write was not committed."
        )
    }

    func captureWrite(
        _ txn: StoreTransaction, _ t: SyncTable, key: Int64, columns: ColumnSet, clock c: SyncClock,
        isNew: Bool = false, into entry: SyncOperation.Entry, scratch: inout CaptureScratch
    ) throws {
        guard let row = try txn.row(t.store, key: key) else { return }
        let pk = row.value(t.primaryKeyColumn)
        if case .string(let s) = pk, s.utf8.contains(0) { throw Self.nulInKey(t) }
        let keyText = SyncTable.keyText(pk)
        var clocks =
            isNew ? nil : try SyncLocalStore.clocks(txn, table: t.name, key: key) ?? .init(key: keyText, fields: [:])
        var written = scratch.written
        scratch.written = []
        written.removeAll(keepingCapacity: true)
        defer { scratch.written = written }
        // Stored values to round to what the server keeps (the object's own and its embedded
        // rows'), written once the reads are done.
        var roundings: [SyncEmbedded.Rounding] = []
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
            if f.embedded != nil {
                // The whole object (list, map), as the server keeps its values.
                let v = try SyncEmbedded.wire(txn, f, row.value(f.column), &roundings)
                try f.checkStorable(v, table: t.name)
                written.append((i, v))
                clocks?.fields[f.name] = c
                continue
            }
            var v = row.value(f.column)
            try f.checkStorable(v, table: t.name)
            if f.serverMayChangeValues {
                // PostgreSQL keeps microseconds, and a `numeric` without an exponent (decimals
                // in an AnyRealmValue too): every replica keeps what the server keeps. Stored
                // after the reads: `row` points into the transaction's pages until its next change.
                let rounded = f.asServerKeepsIt(v)
                if rounded != v {
                    roundings.append(SyncEmbedded.Rounding(table: t.store, key: key, column: f.column, value: rounded))
                    v = rounded
                }
            }
            written.append((i, v))
            clocks?.fields[f.name] = c
        }
        for r in roundings { _ = try txn.set(r.table, key: r.key, column: r.column, to: r.value) }
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
