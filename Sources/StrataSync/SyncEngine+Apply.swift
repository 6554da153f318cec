import Foundation
import Strata
import StrataCore

// Applying what a download pass read to the local file.
extension SyncEngine {
    // MARK: Applying downloads (on the worker queue, inside a write)

    /// Merges one write or delete from the server into the local object.
    func applyRemote(
        _ txn: StoreTransaction, _ t: SyncTable, key keyText: String, write: [String: SyncRecord<StoreValue>.Field]?,
        delete: SyncClock?
    ) throws {
        guard let pk = t.keyValue(keyText) else { return }
        let key = try txn.objectKey(t.store, primaryKey: pk)
        var clocks = SyncLocalStore.Clocks(key: keyText, fields: [:])
        var record = SyncRecord<StoreValue>.absent
        record.tombstone = try SyncLocalStore.tombstone(txn, table: t.name, key: keyText)
        var unresolved: [String: StoreValue] = [:]
        if let key, let row = try txn.row(t.store, key: key) {
            clocks = try SyncLocalStore.clocks(txn, table: t.name, key: key) ?? clocks
            record.alive = true
            if t.hasLinks { unresolved = try SyncLinks.unresolved(txn, t, key: key) }
            for f in t.fields {
                // Links compare in wire form: the server's value where a target is missing here.
                var v = row.value(f.column)
                if f.target != nil { v = try unresolved[f.name] ?? SyncLinks.wire(txn, f, v, tables) }
                // An embedded field compares in wire form, read from its rows: only when the
                // incoming write names it (a field it does not name keeps its value either way,
                // so its local form stands in), or under a delete, which may reset any field.
                if f.embedded != nil, delete != nil || write?[f.name] != nil {
                    var roundings: [SyncEmbedded.Rounding] = []  // stored values are rounded already
                    v = try SyncEmbedded.wire(txn, f, v, &roundings)
                }
                record.fields[f.name] = .init(value: v, clock: clocks.fields[f.name] ?? .zero)
            }
        }
        let before = record
        if let write { record.applyWrite(write, defaults: t.defaults) }
        if let delete { record.applyDelete(delete, defaults: t.defaults) }
        guard record != before else { return }
        if record.tombstone != before.tombstone {
            try SyncLocalStore.setTombstone(txn, table: t.name, key: keyText, record.tombstone)
        }
        switch (before.alive, record.alive, key) {
        case (true, true, let key?):
            for f in t.fields {
                guard let new = record.fields[f.name], let old = before.fields[f.name] else { continue }
                if new.value != old.value {
                    // An embedded object changes in place where it can (`SyncEmbedded.replacement`).
                    let local =
                        if f.embedded != nil, let current = try txn.row(t.store, key: key)?.value(f.column) {
                            try SyncEmbedded.replacement(txn, f, current: current, to: new.value)
                        } else {
                            try localValue(txn, f, new.value, &unresolved)
                        }
                    if let local { _ = try txn.set(t.store, key: key, column: f.column, to: local) }
                }
                clocks.fields[f.name] = new.clock
            }
            try SyncLocalStore.setClocks(txn, table: t.name, key: key, clocks)
            if t.hasLinks { try SyncLinks.setUnresolved(txn, t, key: key, unresolved) }
        case (false, true, _):
            var values = t.store.columns.map(\.defaultValue)
            values[t.primaryKeyColumn] = pk
            clocks.fields = [:]
            unresolved = [:]
            for f in t.fields {
                let v = record.fields[f.name] ?? .init(value: f.defaultValue, clock: record.tombstone)
                values[f.column] = try localValue(txn, f, v.value, &unresolved)
                clocks.fields[f.name] = v.clock
            }
            let newKey = try txn.insert(into: t.store, values: values)
            try SyncLocalStore.setClocks(txn, table: t.name, key: newKey, clocks)
            if t.hasLinks { try SyncLinks.setUnresolved(txn, t, key: newKey, unresolved) }
        case (true, false, let key?):
            try txn.delete(t.store, key: key)
            try SyncLocalStore.removeClocks(txn, table: t.name, key: key)
            if t.hasLinks { try SyncLinks.setUnresolved(txn, t, key: key, [:]) }
        default:
            break
        }
    }

    /// `value` (wire form) of field `f` in local form; a link whose target is missing is left
    /// out locally and its server value kept in `unresolved`.
    func localValue(
        _ txn: StoreTransaction, _ f: SyncTable.Field, _ value: StoreValue, _ unresolved: inout [String: StoreValue]
    ) throws -> StoreValue {
        if f.embedded != nil { return try SyncEmbedded.local(txn, f, value) }
        guard f.target != nil else { return value }
        let (local, resolved) = try SyncLinks.local(txn, f, value, tables)
        unresolved[f.name] = resolved ? nil : value
        return local
    }

    /// Sets the links that were waiting for targets that are in the file now (downloaded in
    /// this pass, or subscribed since).
    func resolveWaitingLinks(_ txn: StoreTransaction) throws {
        for t in tables.values where t.hasLinks && !t.isAsymmetric {
            var keys: [Int64] = []
            try txn.forEach(tree: SyncLinks.unresolvedTree(t.name)) { k, _ in
                if let key = SyncLocalStore.objectKey(k) { keys.append(key) }
                return true
            }
            for key in keys {
                var waiting = try SyncLinks.unresolved(txn, t, key: key)
                guard try txn.row(t.store, key: key) != nil else {
                    try SyncLinks.setUnresolved(txn, t, key: key, [:])
                    continue
                }
                var changed = false
                for (name, value) in waiting {
                    guard let i = t.fieldIndex[name] else { continue }
                    let f = t.fields[i]
                    let (local, resolved) = try SyncLinks.local(txn, f, value, tables)
                    let current = try txn.row(t.store, key: key)?.value(f.column)
                    if current != local { _ = try txn.set(t.store, key: key, column: f.column, to: local) }
                    if resolved {
                        waiting[name] = nil
                        changed = true
                    }
                }
                if changed { try SyncLinks.setUnresolved(txn, t, key: key, waiting) }
            }
        }
    }

    /// Removes an object that matches no subscription from the file, without a tombstone and
    /// without an outbox entry: it leaves this device only. Its clocks go with it, so if it
    /// comes back (a later subscription, or a change on the server that makes it match) it
    /// downloads whole.
    func removeLocally(_ txn: StoreTransaction, _ t: SyncTable, key keyText: String) throws {
        guard let pk = t.keyValue(keyText), let key = try txn.objectKey(t.store, primaryKey: pk) else { return }
        // Links to it from objects that stay keep their server value, unresolved, so the link
        // comes back with the object and a local edit of a list of links does not drop it.
        for link in try txn.allBacklinks(to: t.store, key: key) {
            guard let origin = tables[link.table], let i = origin.fieldIndex[link.column],
                let row = try txn.row(origin.store, key: link.key)
            else { continue }
            let f = origin.fields[i]
            var waiting = try SyncLinks.unresolved(txn, origin, key: link.key)
            if waiting[f.name] == nil {
                waiting[f.name] = try SyncLinks.wire(txn, f, row.value(f.column), tables)
                try SyncLinks.setUnresolved(txn, origin, key: link.key, waiting)
            }
        }
        try txn.delete(t.store, key: key)
        try SyncLocalStore.removeClocks(txn, table: t.name, key: key)
        if t.hasLinks { try SyncLinks.setUnresolved(txn, t, key: key, [:]) }
    }
}
