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
    let queue: DispatchQueue
    nonisolated(unsafe) var workerRealm: Realm?
    let readerQueue = DispatchQueue(label: "io.strata.sync.reader")
    nonisolated(unsafe) var readerRealm: Realm?
    let lock = NSLock()
    var clock: HybridLogicalClock?
    var running = false
    /// Counts `start()`s: a loop runs while the engine runs and its generation is current.
    var generation = 0
    var tasks: [Task<Void, Never>] = []
    var links: [SyncServerLink] = []
    let uploadSignal = SyncSignal()
    let downloadSignal = SyncSignal()
    /// Waits for the outbox sequence number on the server.
    let uploads = SyncWaiters()
    /// Waits for download passes (numbered from 1 by `passesStarted`).
    let downloads = SyncWaiters()
    /// Waits for the subscription version a download pass applied.
    let subscriptionVersions = SyncWaiters()
    /// Reaches 1 at the engine's first `start()`: a wait that comes while the first opener of
    /// the file is still preparing it (another thread's open) waits for that instead of failing.
    let firstStart = SyncWaiters()
    /// Progress notifications.
    let progress = SyncProgressNotifier()
    var passesStarted: UInt64 = 0
    /// The server transactions of this replica's upload batches that wrote only new objects, as
    /// this replica holds them: download passes do not read them back (kept until a pass's
    /// position passes them; after a restart they are read once, which changes nothing).
    var ownNewRows: Set<UInt64> = []
    var rowsDownloadedValue = 0
    /// The rows download passes have read from the server (tests).
    package var rowsDownloaded: Int { lock.withLock { rowsDownloadedValue } }
    /// The subscription set being changed by an `update` block, with its thread and its first
    /// error.
    var draft: (list: SyncSubscriptionList, thread: pthread_t, error: SyncError?)?
    /// The error of the last download pass that applied a new subscription set, or of a misuse
    /// of the set (a change outside `update`).
    var subscriptionError: SyncError?
    /// Held by the `update` block running (one per file at a time).
    let updateGate = DispatchSemaphore(value: 1)
    /// The server schema's preparation: one per engine, which every loop's first connection
    /// awaits (three loops preparing at once deadlocked with each other's first download pass);
    /// nil until started, and again after it failed or the server lost the schema.
    var schemaTask: Task<Void, Error>?
    /// Set when the server lost part of the schema: the next preparation runs all of it, even
    /// if the recorded fingerprint matches.
    var schemaForced = false
    var stateValue: SyncSession.State = .inactive
    var connectionStateValue: SyncSession.ConnectionState = .disconnected
    var lastErrorValue: Error?
    /// How many errors `report` has given the app: a wait that began at one count sees a later
    /// error by the count (`AsyncOpen`).
    var reportedErrorsValue = 0
    var sessionValue: SyncSession?

    /// Whether the engine syncs.
    var state: SyncSession.State { lock.withLock { stateValue } }
    /// The connection's state.
    var connectionState: SyncSession.ConnectionState { lock.withLock { connectionStateValue } }
    /// The last error met.
    var lastError: Error? { lock.withLock { lastErrorValue } }
    /// The number of errors reported so far, and the last of them.
    var reportedErrors: (count: Int, last: Error?) { lock.withLock { (reportedErrorsValue, lastErrorValue) } }
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

    static let registryLock = NSLock()
    nonisolated(unsafe) static var registry: [String: SyncEngine] = [:]

    init(
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
            // An embedded type syncs inside the objects that hold it (`SyncEmbedded`).
            guard let st = txn.tables[name], !st.isEmbedded else { continue }
            tables[name] = try SyncTable(st, isAsymmetric: asymmetric.contains(name), synced: synced, all: txn.tables)
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
            e.firstStart.failAll(error, close: true)
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
    func enqueueUnsynced(_ realm: Realm) throws {
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
            let ops = SyncOperation.Entry()
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
                    if let key = SyncLocalStore.objectKey(k), let record = SyncLocalStore.decodeClocks([UInt8](v)) {
                        gone.append((key, record.key))
                    }
                    return true
                }
                for (key, keyText) in gone where try txn.row(t.store, key: key) == nil {
                    try SyncLocalStore.removeClocks(txn, table: name, key: key)
                    try SyncLocalStore.setTombstone(txn, table: name, key: keyText, deleteClock)
                    ops.appendDelete(t, key: keyText, clock: deleteClock)
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
                    try captureWrite(txn, t, key: key, columns: columns, clock: c, into: ops)
                }
            }
            try SyncLocalStore.setMeta(txn, "schema", version)
            guard !ops.isEmpty else { return }
            try SyncLocalStore.appendOutbox(txn, ops)
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

    // MARK: The worker realm

    /// Runs `body` with the engine's own realm on its queue.
    func onWorker<T: Sendable>(_ body: @escaping @Sendable (Realm) throws -> T) async throws -> T {
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
    func syncWrite(_ realm: Realm, _ body: (StoreTransaction) throws -> Void) throws {
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
        defer { firstStart.advance(to: 1) }
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

    func isCurrent(_ gen: Int) -> Bool { lock.withLock { running && generation == gen } }

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

    func connect() async throws -> SyncServerLink {
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

    func drop(_ link: SyncServerLink) async {
        lock.withLock { links.removeAll { $0 === link } }
        await link.close()
    }

    /// Reports `error` (not a cancellation) to the app; fatal ones fail the waits.
    func report(_ error: Error, _ gen: Int) {
        guard !(error is CancellationError), isCurrent(gen) else { return }
        let sqlState = (error as? SyncError)?.sqlState
        lock.withLock {
            lastErrorValue = error
            reportedErrorsValue += 1
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

    func backoff(_ attempt: Int) async {
        let seconds = min(5.0, 0.05 * pow(2.0, Double(min(attempt, 8))))
        try? await Task.sleep(nanoseconds: UInt64(seconds * 1e9))
    }

    func clientID() async throws -> String {
        if let id = config.clientID { return id }
        let node = try await onWorker { realm -> UInt64 in
            if let n = try SyncLocalStore.meta(realm._storeTransaction, "node") { return n }
            var made: UInt64 = 0
            try self.syncWrite(realm) { txn in made = try self.ensureClock(txn).node }
            return made
        }
        return "node-" + String(node, radix: 16)
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

    func markUploaded(_ seq: UInt64) { uploads.advance(to: seq) }

    func completePass(_ pass: UInt64) { downloads.advance(to: pass) }

    /// Ends the waits with `error`; with `close` (the loops stopped), also those that register
    /// before the next `start()`.
    func failWaiters(_ error: Error, close: Bool = false) {
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
    /// Throws unless the session is active; first waits for the engine's first start (another
    /// thread may be opening the file and preparing its sync state right now).
    func requireActive(_ what: String) async throws {
        if state != .active { try await firstStart.wait(for: 1) }
        guard state == .active else {
            throw SyncError(.connection, "The sync session is not active: resume() it before \(what).")
        }
    }

    func waitForDownload() async throws {
        let target = lock.withLock { passesStarted + 1 }
        try await downloads.wait(for: target) { downloadSignal.fire() }
    }
}
