import Foundation
import Strata
import StrataCore

/// The sync of one realm file in this process: captures each local commit's changes into the
/// outbox (in the same commit), uploads the outbox, downloads the server's changes and applies
/// them as local commits (Docs/Sync.md, "The protocol").
///
/// One engine per file path, made by the first synced realm opened on it; it keeps a realm of
/// its own on a private queue for its local reads and writes.
///
/// ## Concurrency
/// Thread-safe: its mutable state is guarded by `lock`; the loops run as tasks; the private
/// realm is used only on `queue`.
final class SyncEngine: RealmCommitObserver, @unchecked Sendable {
    let path: String
    let config: SyncConfiguration
    let realmConfiguration: Realm.Configuration
    let tables: [String: SyncTable]
    private let queue: DispatchQueue
    nonisolated(unsafe) private var workerRealm: Realm?
    private let readerQueue = DispatchQueue(label: "io.strata.sync.reader")
    nonisolated(unsafe) private var readerRealm: Realm?
    private let lock = NSLock()
    private var clock: HybridLogicalClock?
    private var running = false
    /// Counts `start()`s: a loop runs while the engine runs and its generation is current.
    private var generation = 0
    private var tasks: [Task<Void, Never>] = []
    private var links: [SyncServerLink] = []
    private let uploadSignal = SyncSignal()
    private let downloadSignal = SyncSignal()
    /// Waits for the outbox sequence number on the server.
    private let uploads = SyncWaiters()
    /// Waits for download passes (numbered from 1 by `passesStarted`).
    private let downloads = SyncWaiters()
    /// Waits for the subscription version a download pass applied.
    private let subscriptionVersions = SyncWaiters()
    /// Progress notifications.
    private let progress = SyncProgressNotifier()
    private var passesStarted: UInt64 = 0
    /// The server transactions of this replica's upload batches that wrote only new objects, as
    /// this replica holds them: download passes do not read them back (kept until a pass's
    /// position passes them; after a restart they are read once, which changes nothing).
    private var ownNewRows: Set<UInt64> = []
    private var rowsDownloadedValue = 0
    /// The rows download passes have read from the server (tests).
    package var rowsDownloaded: Int { lock.withLock { rowsDownloadedValue } }
    /// The subscription set being changed by an `update` block, with its thread and its first
    /// error.
    private var draft: (list: SyncSubscriptionList, thread: pthread_t, error: SyncError?)?
    /// The error of the last download pass that applied a new subscription set, or of a misuse
    /// of the set (a change outside `update`).
    private var subscriptionError: SyncError?
    /// Held by the `update` block running (one per file at a time).
    private let updateGate = DispatchSemaphore(value: 1)
    /// The server schema's preparation: one per engine, which every loop's first connection
    /// awaits (three loops preparing at once deadlocked with each other's first download pass);
    /// nil until started, and again after it failed or the server lost the schema.
    private var schemaTask: Task<Void, Error>?
    /// Set when the server lost part of the schema: the next preparation runs all of it, even
    /// if the recorded fingerprint matches.
    private var schemaForced = false
    private var stateValue: SyncSession.State = .inactive
    private var connectionStateValue: SyncSession.ConnectionState = .disconnected
    private var lastErrorValue: Error?
    private var sessionValue: SyncSession?

    /// Whether the engine syncs.
    var state: SyncSession.State { lock.withLock { stateValue } }
    /// The connection's state.
    var connectionState: SyncSession.ConnectionState { lock.withLock { connectionStateValue } }
    /// The last error met.
    var lastError: Error? { lock.withLock { lastErrorValue } }
    /// The session object handed out for this engine.
    var session: SyncSession {
        lock.withLock {
            if let s = sessionValue { return s }
            let s = SyncSession(engine: self)
            sessionValue = s
            return s
        }
    }

    /// Set STRATA_SYNC_TRACE=1 to print what the loops do to standard error.
    static let tracing = ProcessInfo.processInfo.environment["STRATA_SYNC_TRACE"] == "1"

    func trace(_ message: @autoclosure () -> String) {
        if Self.tracing { FileHandle.standardError.write(Data("[sync \(path.suffix(12))] \(message())\n".utf8)) }
    }

    private static let registryLock = NSLock()
    private nonisolated(unsafe) static var registry: [String: SyncEngine] = [:]

    private init(
        path: String, config: SyncConfiguration, realmConfiguration: Realm.Configuration, tables: [String: SyncTable]
    ) {
        self.path = path
        self.config = config
        self.realmConfiguration = realmConfiguration
        self.tables = tables
        queue = DispatchQueue(label: "io.strata.sync.engine")
    }

    /// The engine of `path`, if a synced realm of it was opened in this process.
    static func engine(path: String) -> SyncEngine? {
        registryLock.withLock { registry[path] }
    }

    /// Makes (once per file) and starts the engine of a synced realm just opened.
    /// - Throws: `SyncError.unsupportedSchema` naming a model that cannot be synced.
    static func attach(_ realm: Realm, _ config: SyncConfiguration) throws {
        let path = realm._filePath
        if engine(path: path) != nil { return }
        let txn = realm._storeTransaction
        var tables: [String: SyncTable] = [:]
        let types = realm.configuration.objectTypes ?? []
        var asymmetric = Set(types.filter { $0 is AsymmetricObject.Type }.map { $0.className() })
        if types.isEmpty { asymmetric = Set(realm.schema.objectSchema.filter(\.isAsymmetric).map(\.className)) }
        let names = types.isEmpty ? Array(txn.tables.keys) : types.map { $0.className() }
        var synced: [String: StoreTable] = [:]
        for name in names where !asymmetric.contains(name) { synced[name] = txn.tables[name] }
        for name in names {
            guard let st = txn.tables[name] else { continue }
            tables[name] = try SyncTable(st, isAsymmetric: asymmetric.contains(name), synced: synced)
        }
        let created: SyncEngine? = registryLock.withLock {
            if registry[path] != nil { return nil }
            let e = SyncEngine(path: path, config: config, realmConfiguration: realm.configuration, tables: tables)
            registry[path] = e
            // Installed before another thread can see the engine (and return from its own
            // open): no commit of the file can happen uncaptured.
            realm._installCommitObserver(e)
            return e
        }
        guard let e = created else { return }
        do {
            try e.queue.sync {
                if e.workerRealm == nil {
                    e.workerRealm = try Realm(configuration: e.realmConfiguration, queue: e.queue)
                }
                try e.enqueueUnsynced(e.workerRealm!)
                let applied = try SyncLocalStore.meta(e.workerRealm!._storeTransaction, "subv") ?? 0
                e.subscriptionVersions.advance(to: applied)
            }
            if let initial = config.initialSubscriptions {
                let neverSet = try e.subscriptionList().version == 0
                if neverSet || config.rerunOnOpen {
                    try e.beginSubscriptionUpdate()
                    initial(SyncSubscriptionSet(path: path))
                    _ = try e.endSubscriptionUpdate()
                }
            }
        } catch {
            realm._removeCommitObserver(e)
            registryLock.withLock { _ = registry.removeValue(forKey: path) }
            throw error
        }
        e.start()
    }

    /// Queues for upload what changed in the file without passing through the outbox: the
    /// objects a file held before it was first synced (fields without clocks), and whatever a
    /// migration did (it commits outside the commit observer): after a schema version change
    /// every field of every object is queued with a new clock (the migration's values are the
    /// latest writes), and objects a migration deleted get tombstones (clock records whose object
    /// is gone). Downloaded and captured objects have clock records, so with the schema version
    /// unchanged and the counts of objects and clock records equal this does nothing. On the
    /// worker queue.
    private func enqueueUnsynced(_ realm: Realm) throws {
        let read = realm._storeTransaction
        let version = realm.configuration.schemaVersion
        let recorded = try SyncLocalStore.meta(read, "schema")
        let migrated = recorded != nil && recorded != version
        var needed = migrated || recorded == nil
        for t in tables.values where !t.isAsymmetric {
            if try read.count(t.store) != (try read.count(tree: SyncLocalStore.clockTree(t.name))) { needed = true }
        }
        guard needed else { return }
        try syncWrite(realm) { txn in
            let clock = try self.ensureClock(txn)
            let deleteClock = clock.now()
            let c = clock.now()
            var ops = SyncOperation.Entry()
            for name in tables.keys.sorted() {
                let t = tables[name]!
                if t.isAsymmetric { continue }
                var keys: [Int64] = []
                try txn.forEachRow(t.store) { row in
                    keys.append(row.key)
                    return true
                }
                // Clock records of objects that are gone: deleted by a migration.
                var gone: [(Int64, String)] = []
                try txn.forEach(tree: SyncLocalStore.clockTree(name)) { k, v in
                    if let u = SyncLocalStore.readBE(k), let record = SyncLocalStore.decodeClocks([UInt8](v)) {
                        gone.append((Int64(bitPattern: u ^ 0x8000_0000_0000_0000), record.key))
                    }
                    return true
                }
                for (key, keyText) in gone where try txn.row(t.store, key: key) == nil {
                    try SyncLocalStore.removeClocks(txn, table: name, key: key)
                    try SyncLocalStore.setTombstone(txn, table: name, key: keyText, deleteClock)
                    ops.appendDelete(table: name, key: keyText, clock: deleteClock)
                }
                for key in keys {
                    var columns = ColumnSet()
                    if migrated {
                        columns = .all
                    } else {
                        let known = try SyncLocalStore.clocks(txn, table: name, key: key)?.fields ?? [:]
                        for f in t.fields where known[f.name] == nil { columns.insert(f.column) }
                    }
                    if columns.isEmpty { continue }
                    try captureWrite(txn, t, key: key, columns: columns, clock: c, into: &ops)
                }
            }
            try SyncLocalStore.setMeta(txn, "schema", version)
            guard !ops.isEmpty else { return }
            try SyncLocalStore.appendOutbox(txn, ops.bytes)
            try SyncLocalStore.setMeta(txn, "hlc", c.time)
        }
    }

    /// Stops every engine of this process and forgets them (tests, and processes that close
    /// their synced realms for good).
    static func stopAll() async {
        let all = registryLock.withLock {
            defer { registry = [:] }
            return Array(registry.values)
        }
        for e in all { await e.stop(forget: true) }
    }

    // MARK: Capture (in the committing thread, writer lock held)

    /// The clock, made from the file's meta values on first use (inside a write transaction).
    private func ensureClock(_ txn: StoreTransaction) throws -> HybridLogicalClock {
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
                        let v = try SyncLinks.wire(txn, f, f.microseconds(row.value(f.column)), tables)
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
                try captureWrite(txn, t, key: key, columns: .all, clock: c, isNew: true, into: &ops)
            }
            for (key, columns) in changes.modified.sorted(by: { $0.key < $1.key }) {
                try captureWrite(txn, t, key: key, columns: columns, clock: c, into: &ops)
            }
        }
        guard !ops.isEmpty else { return }
        try SyncLocalStore.appendOutbox(txn, ops.bytes)
        try SyncLocalStore.setMeta(txn, "hlc", c.time)
    }

    /// Appends to `entry` the outbox operation for a write of `columns` of object `key`,
    /// stamping their clocks. `isNew`: the object was inserted by this transaction, so it has no
    /// clock record yet (a deleted object's is removed before, in `willCommit`).
    private func captureWrite(
        _ txn: StoreTransaction, _ t: SyncTable, key: Int64, columns: ColumnSet, clock c: SyncClock,
        isNew: Bool = false, into entry: inout SyncOperation.Entry
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
        var written: [(field: Int, value: StoreValue)] = []
        written.reserveCapacity(t.fields.count)
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
            if f.type == .timestamp {
                // PostgreSQL keeps microseconds: every replica keeps what the server keeps.
                let rounded = f.microseconds(v)
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
            try SyncLocalStore.setClocks(txn, t, key: key, keyText: keyText, fields: written.map(\.field), clock: c)
        }
        entry.appendWrite(t, key: keyText, written: written, clock: c)
    }

    func didCommit() {
        uploadSignal.fire()
    }

    // MARK: Applying downloads (on the worker queue, inside a write)

    /// Merges one write or delete from the server into the local object.
    private func applyRemote(
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
                    _ = try txn.set(
                        t.store, key: key, column: f.column, to: try localValue(txn, f, new.value, &unresolved))
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
    private func localValue(
        _ txn: StoreTransaction, _ f: SyncTable.Field, _ value: StoreValue, _ unresolved: inout [String: StoreValue]
    ) throws -> StoreValue {
        guard f.target != nil else { return value }
        let (local, resolved) = try SyncLinks.local(txn, f, value, tables)
        unresolved[f.name] = resolved ? nil : value
        return local
    }

    /// Sets the links that were waiting for targets that are in the file now (downloaded in
    /// this pass, or subscribed since).
    private func resolveWaitingLinks(_ txn: StoreTransaction) throws {
        for t in tables.values where t.hasLinks && !t.isAsymmetric {
            var keys: [Int64] = []
            try txn.forEach(tree: SyncLinks.unresolvedTree(t.name)) { k, _ in
                if let u = SyncLocalStore.readBE(k) { keys.append(Int64(bitPattern: u ^ 0x8000_0000_0000_0000)) }
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
    private func removeLocally(_ txn: StoreTransaction, _ t: SyncTable, key keyText: String) throws {
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

    // MARK: The worker realm

    /// Runs `body` with the engine's own realm on its queue.
    private func onWorker<T: Sendable>(_ body: @escaping @Sendable (Realm) throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { c in
            queue.async { [self] in
                do {
                    if workerRealm == nil { workerRealm = try Realm(configuration: realmConfiguration, queue: queue) }
                    c.resume(returning: try body(workerRealm!))
                } catch {
                    c.resume(throwing: error)
                }
            }
        }
    }

    /// Runs `body` in a write transaction of the engine's realm whose changes are not queued
    /// for upload.
    private func syncWrite(_ realm: Realm, _ body: (StoreTransaction) throws -> Void) throws {
        try realm.write {
            guard let txn = realm._storeWriteTransaction else { return }
            txn.isSyncApply = true
            try body(txn)
        }
    }

    // MARK: Loops

    func start() {
        let gen: Int? = lock.withLock {
            guard !running else { return nil }
            running = true
            stateValue = .active
            generation += 1
            return generation
        }
        guard let gen else { return }
        for w in [uploads, downloads, subscriptionVersions] { w.reopen() }
        let up = Task.detached { [self] in await uploadLoop(gen) }
        let down = Task.detached { [self] in await downloadLoop(gen) }
        let listen = Task.detached { [self] in await listenLoop(gen) }
        lock.withLock { tasks = [up, down, listen] }
        uploadSignal.fire()
        downloadSignal.fire()
    }

    /// Stops the loops and closes the connections; with `forget`, also drops the engine.
    func stop(forget: Bool = false) async {
        let (ts, ls): ([Task<Void, Never>], [SyncServerLink]) = lock.withLock {
            running = false
            stateValue = forget ? .inactive : .paused
            connectionStateValue = .disconnected
            defer {
                tasks = []
                links = []
            }
            return (tasks, links)
        }
        trace("stop: cancelling \(ts.count) tasks, closing \(ls.count) links")
        for t in ts { t.cancel() }
        uploadSignal.fire()
        downloadSignal.fire()
        for l in ls { await l.close() }
        trace("stop: links closed")
        // The loops end at their next step; one stuck in the client library (see SyncDeadline)
        // is left to end on its own rather than holding the stop.
        for (i, t) in ts.enumerated() {
            _ = try? await SyncDeadline.run(5, "stopping") { await t.value }
            trace("stop: task \(i) ended")
        }
        failWaiters(
            SyncError(
                .connection, "The sync session of '\(path)' was stopped before the wait ended. Resume it to go on."),
            close: true)
        if forget {
            let observer = self
            try? await onWorker { realm in
                realm._removeCommitObserver(observer)
                return ()
            }
            queue.sync { workerRealm = nil }
            readerQueue.sync { readerRealm = nil }
        }
    }

    private func isCurrent(_ gen: Int) -> Bool { lock.withLock { running && generation == gen } }

    /// Stops the loops without waiting for them (`SyncSession.suspend()`): each ends at its
    /// next step; a later `start()` begins new ones.
    func suspend() {
        let (ts, ls): ([Task<Void, Never>], [SyncServerLink]) = lock.withLock {
            running = false
            stateValue = .paused
            connectionStateValue = .disconnected
            defer {
                tasks = []
                links = []
            }
            return (tasks, links)
        }
        for t in ts { t.cancel() }
        uploadSignal.fire()
        downloadSignal.fire()
        failWaiters(
            SyncError(
                .connection, "The sync session of '\(path)' was suspended before the wait ended. Resume it to go on."),
            close: true)
        Task.detached { for l in ls { await l.close() } }
    }

    private func connect() async throws -> SyncServerLink {
        lock.withLock { if connectionStateValue == .disconnected { connectionStateValue = .connecting } }
        let link = try await SyncServerLink.connect(config)
        let keep = lock.withLock {
            guard running else { return false }
            links.append(link)
            connectionStateValue = .connected
            return true
        }
        if !keep {
            await link.close()
            throw CancellationError()
        }
        let sorted = Array(tables.values).sorted { $0.name < $1.name }
        let task: Task<Void, Error> = lock.withLock {
            if let t = schemaTask { return t }
            let force = schemaForced
            schemaForced = false
            let t = Task { try await link.prepareSchema(sorted, force: force) }
            schemaTask = t
            return t
        }
        do {
            try await task.value
        } catch {
            lock.withLock { if schemaTask == task { schemaTask = nil } }
            await drop(link)
            throw error
        }
        return link
    }

    private func drop(_ link: SyncServerLink) async {
        lock.withLock { links.removeAll { $0 === link } }
        await link.close()
    }

    /// Reports `error` (not a cancellation) to the app; fatal ones fail the waits.
    private func report(_ error: Error, _ gen: Int) {
        guard !(error is CancellationError), isCurrent(gen) else { return }
        let sqlState = (error as? SyncError)?.sqlState
        lock.withLock {
            lastErrorValue = error
            connectionStateValue = .disconnected
            // A sync table or column missing on the server (dropped, or lost with a restored
            // backup): the next connection creates the schema again.
            if sqlState == "42P01" || sqlState == "42703" || sqlState == "42883" {
                schemaTask = nil
                schemaForced = true
            }
        }
        if let s = error as? SyncError,
            s.code == .authentication || s.code == .schemaMismatch || s.code == .badServerData
        {
            failWaiters(error)
        }
        config.errorHandler?(error, session)
    }

    private func backoff(_ attempt: Int) async {
        let seconds = min(5.0, 0.05 * pow(2.0, Double(min(attempt, 8))))
        try? await Task.sleep(nanoseconds: UInt64(seconds * 1e9))
    }

    private func clientID() async throws -> String {
        if let id = config.clientID { return id }
        let node = try await onWorker { realm -> UInt64 in
            if let n = try SyncLocalStore.meta(realm._storeTransaction, "node") { return n }
            var made: UInt64 = 0
            try self.syncWrite(realm) { txn in made = try self.ensureClock(txn).node }
            return made
        }
        return "node-" + String(node, radix: 16)
    }

    /// One upload batch: outbox entries read and decoded, at most about 5,000 changed objects
    /// (whole entries), with what progress reports need.
    private struct UploadBatch: Sendable {
        var entries: [(seq: UInt64, ops: [SyncOperation])] = []
        var bytes: UInt64 = 0
        /// The newest outbox number the snapshot had (every entry up to it is on the server when
        /// the batch is empty).
        var newest: UInt64 = 0
        /// The bytes of the outbox entries not sent yet (when measured).
        var pending: UInt64 = 0
        var measured = false
    }

    /// Reads and decodes the outbox entries after `seq`.
    private func readBatch(after seq: UInt64) async throws -> UploadBatch {
        let tables = self.tables
        let measure = progress.wantsUpload
        let (raw, newest, pending) = try await onWorker { realm -> ([(UInt64, [UInt8])], UInt64, UInt64) in
            realm.refresh()
            let txn = realm._storeTransaction
            return (
                try SyncLocalStore.outbox(txn, after: seq, limit: 256).map { ($0.seq, $0.json) },
                (try SyncLocalStore.meta(txn, "seq") ?? 1) - 1,
                measure ? try SyncLocalStore.outboxBytes(txn, after: seq) : 0
            )
        }
        var b = UploadBatch(newest: newest, pending: pending, measured: measure)
        var opCount = 0
        for e in raw {
            let count = try SyncOperation.count(e.1, tables: tables)
            if !b.entries.isEmpty && opCount + count > 5_000 { break }
            b.entries.append((e.0, try SyncOperation.decode(e.1, tables: tables)))
            opCount += count
            b.bytes += UInt64(e.1.count)
        }
        return b
    }

    /// Uploads the outbox, batch after batch. The next batch is read and decoded while the
    /// server applies the current one, and the outbox is trimmed behind the uploads (a crash
    /// before a trim replays entries the server has: that changes nothing).
    private func uploadLoop(_ gen: Int) async {
        var link: SyncServerLink?
        var attempt = 0
        while isCurrent(gen) {
            var next: Task<UploadBatch, Error>?
            var trimming: Task<Void, Error>?
            do {
                let client = try await clientID()
                var sent: UInt64 = 0
                while isCurrent(gen) {
                    let b: UploadBatch
                    if let n = next { b = try await n.value } else { b = try await readBatch(after: sent) }
                    next = nil
                    if b.measured { progress.uploadPending(b.pending) }
                    guard let last = b.entries.last?.seq else {
                        // Nothing after the batches sent: every entry up to `newest` is on the server.
                        try await trimming?.value
                        trimming = nil
                        markUploaded(b.newest)
                        break
                    }
                    if link == nil { link = try await connect() }
                    next = Task { try await self.readBatch(after: last) }
                    _ = try await link!.upload(client: client, entries: b.entries, tables: tables) { xid in
                        self.lock.withLock { _ = self.ownNewRows.insert(xid) }
                    }
                    sent = last
                    let before = trimming
                    trimming = Task {
                        try await before?.value
                        try await self.onWorker { realm in
                            // Through `last` only: a server that holds more of this client
                            // (a file restored from a backup, a client id shared) has other
                            // entries under the same numbers, and these are not sent yet.
                            try self.syncWrite(realm) { try SyncLocalStore.trimOutbox($0, through: last) }
                        }
                    }
                    markUploaded(last)
                    progress.uploaded(
                        b.bytes, bytesLeft: b.measured ? (b.pending >= b.bytes ? b.pending - b.bytes : 0) : nil)
                }
                // Stopped: the read and the trims in flight end before the loop does.
                _ = try? await next?.value
                _ = try? await trimming?.value
                attempt = 0
                guard isCurrent(gen) else { break }
                await uploadSignal.wait(timeout: 5)
            } catch {
                trace("upload: \(error)")
                _ = try? await next?.value
                _ = try? await trimming?.value
                if (error as? SyncError)?.sqlState == "23505", attempt < 3 {
                    // An SQL writer inserted one of the batch's new objects between the
                    // insert's check and its write: sent again, the batch merges with that row.
                    attempt += 1
                    continue
                }
                report(error, gen)
                if let l = link { await drop(l) }
                link = nil
                attempt += 1
                await backoff(attempt)
            }
        }
        trace("upload loop ends")
        if let l = link { await drop(l) }
    }

    /// Applies a download pass in one local commit, which also stores the new position and the
    /// subscription version the pass read by.
    private func apply(_ d: SyncServerLink.Download, position: UInt64, subscriptionVersion: UInt64) async throws {
        let tables = self.tables
        try await onWorker { realm in
            try self.syncWrite(realm) { txn in
                let c = try self.ensureClock(txn)
                for t in d.tombstones {
                    guard let table = tables[t.table] else { continue }
                    c.observe(t.clock)
                    try self.applyRemote(txn, table, key: t.key, write: nil, delete: t.clock)
                }
                for r in d.rows {
                    guard let table = tables[r.table] else { continue }
                    for f in r.fields.values { c.observe(f.clock) }
                    try self.applyRemote(txn, table, key: r.key, write: r.fields, delete: nil)
                }
                for l in d.leaving {
                    guard let table = tables[l.table] else { continue }
                    try self.removeLocally(txn, table, key: l.key)
                }
                try self.resolveWaitingLinks(txn)
                try SyncLocalStore.setMeta(txn, "pos", position)
                try SyncLocalStore.setMeta(txn, "subv", subscriptionVersion)
                try SyncLocalStore.setMeta(txn, "hlc", c.lastTime)
            }
        }
    }

    private func downloadLoop(_ gen: Int) async {
        var link: SyncServerLink?
        var attempt = 0
        var newSetPending = false
        // Passes whose snapshot's end the position has not reached yet, with the subscription
        // version each read by: a transaction still running when a pass began holds the
        // position below transactions that had committed, so that pass does not yet hold
        // everything committed before it began, which is what `wait(for: .download)` promises.
        // A server transaction that runs for longer than `coverLimit` (a session left idle in a
        // transaction) would hold every wait: after that long, a pass counts as it did before
        // (applied), and what committed behind that transaction arrives with later passes.
        var uncovered: [(pass: UInt64, end: UInt64, version: UInt64, at: DispatchTime)] = []
        let coverLimit: UInt64 = 5_000_000_000
        while isCurrent(gen) {
            await downloadSignal.wait(timeout: 10)
            guard isCurrent(gen) else { break }
            let pass = lock.withLock {
                passesStarted += 1
                return passesStarted
            }
            do {
                trace("download pass \(pass): connecting")
                if link == nil { link = try await connect() }
                trace("download pass \(pass): reading the position")
                let (position, list, applied) = try await onWorker {
                    realm -> (UInt64, SyncSubscriptionList, UInt64) in
                    realm.refresh()
                    let txn = realm._storeTransaction
                    return (
                        try SyncLocalStore.meta(txn, "pos") ?? 0, try SyncSubscriptionList.read(txn),
                        try SyncLocalStore.meta(txn, "subv") ?? 0
                    )
                }
                // A new subscription set reads every row again: objects it newly matches
                // download, objects it no longer matches leave.
                let newSet = list.version != applied
                newSetPending = newSet
                let conditions = try list.conditions(tables)
                let from = newSet ? 0 : position
                trace("download pass \(pass): from \(from), subscriptions v\(list.version)")
                let bytesBefore = link!.bytesRead
                // This replica's uploads of new objects need not come back (a pass that reads a
                // new subscription set from the start reads them: they may have left the device).
                let skipping = newSet ? [] : lock.withLock { ownNewRows.filter { $0 >= from }.sorted() }
                let d = try await link!.download(
                    from: from, tables: tables.values.filter { !$0.isAsymmetric }, conditions: conditions,
                    skipping: skipping)
                let passBytes = link!.bytesRead - bytesBefore
                lock.withLock { rowsDownloadedValue += d.rows.count }
                trace(
                    "download pass \(pass): \(d.rows.count) rows, \(d.leaving.count) leaving, \(d.tombstones.count) tombstones, next \(d.next)"
                )
                let reached = max(position, d.next)
                if d.next != position || newSet {
                    try await apply(d, position: reached, subscriptionVersion: list.version)
                }
                lock.withLock { ownNewRows = ownNewRows.filter { $0 >= reached } }
                if newSet { lock.withLock { subscriptionError = nil } }
                newSetPending = false
                attempt = 0
                uncovered.append((pass, d.end, list.version, .now()))
                let now = DispatchTime.now().uptimeNanoseconds
                let isCovered = { (u: (pass: UInt64, end: UInt64, version: UInt64, at: DispatchTime)) in
                    u.end <= reached || u.at.uptimeNanoseconds + coverLimit < now
                }
                let covered = uncovered.filter(isCovered)
                uncovered.removeAll(where: isCovered)
                if let last = covered.last {
                    subscriptionVersions.advance(to: last.version)
                    completePass(last.pass)
                }
                progress.downloaded(passBytes, pass: pass)
                if !uncovered.isEmpty && (downloads.hasWaiters || subscriptionVersions.hasWaiters) {
                    // Someone waits for what a running server transaction holds back: look
                    // again soon rather than at the next notification or the timer.
                    try? await Task.sleep(nanoseconds: 25_000_000)
                    downloadSignal.fire()
                }
            } catch {
                trace("download: \(error)")
                if newSetPending, let e = error as? SyncError,
                    e.code == .invalidSubscription
                        || (e.sqlState.map { $0.hasPrefix("42") || $0.hasPrefix("22") } ?? false)
                {
                    lock.withLock { subscriptionError = e }
                    subscriptionVersions.failAll(e)
                    // Every pass reads by the new set until it is replaced: download waits
                    // would never end.
                    downloads.failAll(e)
                }
                report(error, gen)
                if let l = link { await drop(l) }
                link = nil
                attempt += 1
                await backoff(attempt)
                downloadSignal.fire()
            }
        }
        trace("download loop ends")
        if let l = link { await drop(l) }
    }

    private func listenLoop(_ gen: Int) async {
        var attempt = 0
        while isCurrent(gen) {
            var link: SyncServerLink?
            do {
                trace("listen: connecting")
                link = try await connect()
                trace("listen: LISTEN")
                try await link!.connection.listen(on: "strata_changes") { notifications in
                    // Listening now: whatever committed before is caught up by one pass.
                    trace("listen: listening")
                    downloadSignal.fire()
                    for try await _ in notifications {
                        guard isCurrent(gen) else { break }
                        downloadSignal.fire()
                    }
                }
            } catch {
                trace("listen: \(error)")
                report(error, gen)
            }
            if let l = link { await drop(l) }
            attempt += 1
            if isCurrent(gen) { await backoff(attempt) }
        }
        trace("listen loop ends")
    }

    // MARK: Subscriptions

    /// Runs `body` with the engine's realm, refreshed, on its queue, from any thread but that
    /// queue (subscription updates). A caller inside a write transaction of the file is refused:
    /// the engine's write would wait for the lock the caller holds.
    private func onWorkerNow<T>(_ body: (Realm) throws -> T) throws -> T {
        try refuseInsideWrite()
        return try queue.sync {
            if workerRealm == nil { workerRealm = try Realm(configuration: realmConfiguration, queue: queue) }
            workerRealm!.refresh()
            return try body(workerRealm!)
        }
    }

    /// Throws when the calling thread's realm of this file is in a write transaction.
    private func refuseInsideWrite() throws {
        if (try? Realm(configuration: realmConfiguration).isInWriteTransaction) == true {
            throw SyncError(
                .invalidSubscription,
                "Subscriptions cannot be updated inside a write transaction of the realm: update them before or after it."
            )
        }
    }

    /// Runs `body` with a read-only realm of the engine's, refreshed, on a queue of its own
    /// that never writes (so it never waits for the write lock a caller may hold).
    private func onReaderNow<T>(_ body: (Realm) throws -> T) throws -> T {
        try readerQueue.sync {
            if readerRealm == nil { readerRealm = try Realm(configuration: realmConfiguration, queue: readerQueue) }
            readerRealm!.refresh()
            return try body(readerRealm!)
        }
    }

    /// The subscription set the file holds now.
    func subscriptionList() throws -> SyncSubscriptionList {
        try onReaderNow { try SyncSubscriptionList.read($0._storeTransaction) }
    }

    /// Starts an `update` block on this thread: the set's changes go to a draft until
    /// `endSubscriptionUpdate`.
    func beginSubscriptionUpdate() throws {
        let nested = lock.withLock { draft.map { pthread_equal($0.thread, pthread_self()) != 0 } ?? false }
        if nested {
            throw SyncError(
                .invalidSubscription,
                "realm.subscriptions.update was called inside an update block of the same realm: updates do not nest.")
        }
        try refuseInsideWrite()
        // One update at a time per file: another thread's waits for it.
        updateGate.wait()
        do {
            let list = try subscriptionList()
            lock.withLock { draft = (list, pthread_self(), nil) }
        } catch {
            updateGate.signal()
            throw error
        }
    }

    /// Applies `change` to the draft of the `update` running on this thread; outside one,
    /// records the misuse as the set's error (RealmSwift raises an exception there).
    func changeSubscriptions(_ what: String, _ change: (inout SyncSubscriptionList) throws -> Void) {
        lock.withLock {
            guard var d = draft, pthread_equal(d.thread, pthread_self()) != 0 else {
                let e = SyncError(
                    .invalidSubscription,
                    "\(what) was called outside an update block (or from another thread than the one running it): change subscriptions inside realm.subscriptions.update { }."
                )
                // During an update on another thread, that update fails rather than committing
                // without the change; otherwise the set's state reports it.
                if draft != nil {
                    if draft?.error == nil { draft?.error = e }
                } else {
                    subscriptionError = e
                }
                return
            }
            guard d.error == nil else { return }
            do {
                try change(&d.list)
            } catch {
                d.error = (error as? SyncError) ?? SyncSubscriptionSQL.invalid("\(error)")
            }
            draft = d
        }
    }

    /// Ends the `update` running on this thread: commits its set with a new version (the
    /// next download pass reads by it) and returns the version.
    /// - Throws: the first error of the block's changes (nothing is committed then).
    func endSubscriptionUpdate() throws -> UInt64 {
        guard
            let d = lock.withLock({ () -> (list: SyncSubscriptionList, thread: pthread_t, error: SyncError?)? in
                defer { draft = nil }
                return draft
            })
        else { return 0 }
        defer { updateGate.signal() }
        if let e = d.error { throw e }
        let version = try onWorkerNow { realm -> UInt64 in
            var list = try SyncSubscriptionList.read(realm._storeTransaction)
            list.items = d.list.items
            list.version += 1
            let committed = list
            try self.syncWrite(realm) { try committed.write($0) }
            return list.version
        }
        lock.withLock { subscriptionError = nil }
        downloadSignal.fire()
        return version
    }

    /// The synced table of class `name`, or an error saying the realm does not sync it.
    func subscribableTable(_ name: String) throws -> SyncTable {
        guard let t = tables[name], !t.isAsymmetric else {
            throw SyncSubscriptionSQL.invalid(
                "\(name) is not a synced type of this realm\(tables[name]?.isAsymmetric == true ? " (an AsymmetricObject is never downloaded)" : ""); add it to the configuration's objectTypes"
            )
        }
        return t
    }

    /// Where the subscription set stands.
    var subscriptionState: SyncSubscriptionState {
        if let e = lock.withLock({ subscriptionError }) { return .error(e) }
        guard let list = try? subscriptionList() else { return .pending }
        return subscriptionVersions.current >= list.version || list.version == 0 ? .complete : .pending
    }

    /// Returns once a download pass has applied subscription set `version` (or a later one).
    func waitForSubscriptions(_ version: UInt64) async throws {
        guard state == .active else {
            throw SyncError(
                .connection, "The sync session is not active: resume() it before waiting for subscriptions.")
        }
        try await subscriptionVersions.wait(for: version) { downloadSignal.fire() }
    }

    // MARK: Progress

    /// Registers a progress notification (`SyncSession.addProgressNotification`); nil once the
    /// engine has stopped for good.
    func addProgressNotification(
        _ direction: SyncSession.ProgressDirection, _ mode: SyncSession.ProgressMode,
        _ block: @escaping (SyncSession.Progress) -> Void
    ) -> ProgressNotificationToken? {
        guard state != .inactive else { return nil }
        let pending =
            direction == .upload
            ? (try? onReaderNow { try SyncLocalStore.outboxBytes($0._storeTransaction, after: uploads.current) }) ?? 0
            : 0
        let nextPass = lock.withLock { passesStarted + 1 }
        let token = progress.add(direction, mode, block, pendingNow: pending, nextPass: nextPass)
        if direction == .upload { uploadSignal.fire() } else { downloadSignal.fire() }
        return token
    }

    // MARK: Waits

    private func markUploaded(_ seq: UInt64) { uploads.advance(to: seq) }

    private func completePass(_ pass: UInt64) { downloads.advance(to: pass) }

    /// Ends the waits with `error`; with `close` (the loops stopped), also those that register
    /// before the next `start()`.
    private func failWaiters(_ error: Error, close: Bool = false) {
        uploads.failAll(error, close: close)
        downloads.failAll(error, close: close)
        subscriptionVersions.failAll(error, close: close)
    }

    /// Returns once every commit made before the call is on the server. Cancellable.
    func waitForUpload() async throws {
        let target = try await onWorker { realm -> UInt64 in
            realm.refresh()
            return try SyncLocalStore.lastOutboxSeq(realm._storeTransaction)
        }
        if target == 0 { return }
        try await uploads.wait(for: target) { uploadSignal.fire() }
    }

    /// Returns once a download pass that started after the call has been applied locally.
    /// Cancellable.
    func waitForDownload() async throws {
        let target = lock.withLock { passesStarted + 1 }
        try await downloads.wait(for: target) { downloadSignal.fire() }
    }
}
