import Foundation
import PostgresNIO
import Strata
import StrataSync

// strata-bench sync: issue 25's benchmark of StrataSync, as JSON lines (one per step). It starts
// its own PostgreSQL (SyncBenchServer: loopback, fsync and synchronous_commit on) and stops it at
// the end. Objects are SyncBenchPerson (an Int primary key, a name, an age, a score), N = 100,000
// by default.
//   fsync_probe               the disk's limit under both engines: 4 KiB append + fdatasync
//   postgres_insert_baseline  (step `upload`) the N rows as bare batched INSERTs through
//                             postgres-nio into a plain table of the same columns: one
//                             `INSERT ... SELECT FROM unnest($1::bigint[], ...)` of --batch rows
//                             per statement, in transactions of the size the sync uploader's are
//   sync_upload               (step `upload`) N objects committed to a synced realm in commits of
//                             --batch objects, then `syncSession.wait(for: .upload)`, then
//                             `SELECT count(*)` checks that PostgreSQL holds N: per_sec from the
//                             first commit until the wait returns; `ratio` = per_sec / baseline's
//   sync_latency              (step `latency`) two replicas of one database in this process: A
//                             commits one new object at a time (--samples, 20 ms apart), B's
//                             Results observer (delivering on a queue) reports it: from the start
//                             of A's commit to the delivery in which B sees it; p50, p99, mean
//   sync_initial_download     (step `download`) a fresh replica of the upload step's database,
//                             `Realm(configuration:actor:downloadBeforeOpen: .always)`, until it
//                             returns holding the N objects (counted)

/// The baseline's rows per server transaction: fixed, so that the reference does not move when
/// the uploader's batches change size (they were 5,000 objects when the baseline was written,
/// then 10,000, now 25,000: `SyncEngine.batchObjects`).
let baselineRowsPerTransaction = 5_000

let syncBenchLogger: Logger = {
    var l = Logger(label: "strata-bench.sync")
    l.logLevel = .critical
    return l
}()

/// Runs `body` in a detached task and blocks the calling thread until it ends (the benchmark's
/// steps run on the main thread, which turns no run loop and so cannot host the main actor);
/// fails after `timeout` seconds.
func blockingAwait<T: Sendable>(
    _ what: String, timeout: Double = 600, _ body: @escaping @Sendable () async throws -> T
) throws -> T {
    let done = DispatchSemaphore(value: 0)
    nonisolated(unsafe) var result: Result<T, Error>? = nil
    Task.detached {
        do { result = .success(try await body()) } catch { result = .failure(error) }
        done.signal()
    }
    if done.wait(timeout: .now() + timeout) == .timedOut {
        throw BenchError("\(what) did not end within \(Int(timeout)) s")
    }
    return try result!.get()
}

/// Runs `sql` on `connection`; returns the first column of each row, as text.
@discardableResult
func syncBenchQuery(_ connection: PostgresConnection, _ sql: String) throws -> [String] {
    try blockingAwait("\(sql.prefix(60))") {
        var out: [String] = []
        for try await row in try await connection.query(PostgresQuery(unsafeSQL: sql), logger: syncBenchLogger) {
            out.append(try row.decode(String.self))
        }
        return out
    }
}

/// The next transaction id the server will assign: the difference of two readings counts the
/// transactions that wrote in between (readers get none).
func serverNextXid(_ connection: PostgresConnection) throws -> Int {
    Int(try syncBenchQuery(connection, "SELECT pg_snapshot_xmax(pg_current_snapshot())::text").first ?? "") ?? 0
}

/// A synced configuration of the realm file at `path`, for `database` of `server`; its session's
/// errors go to `errors`.
func syncBenchConfiguration(
    _ server: SyncBenchServer, database: String, path: String, errors: SyncBenchErrors
) -> Realm.Configuration {
    var c = Realm.Configuration(fileURL: URL(fileURLWithPath: path), objectTypes: [SyncBenchPerson.self])
    c.syncConfiguration = SyncConfiguration(
        host: "127.0.0.1", port: server.port, database: database, user: server.user,
        errorHandler: { error, _ in errors.record(error) })
    return c
}

/// Commits objects `ids` to `realm`, `batch` per write transaction (durable commits).
func commitSyncPersons(_ realm: Realm, _ ids: Range<Int>, batch: Int) throws {
    var id = ids.lowerBound
    while id < ids.upperBound {
        let end = min(ids.upperBound, id + batch)
        try realm.write {
            for i in id..<end { realm.add(makeSyncPerson(i)) }
        }
        id = end
    }
}

/// W1's person `id` as a new unmanaged object.
func makeSyncPerson(_ id: Int) -> SyncBenchPerson {
    let p = SyncBenchPerson()
    p.id = id
    p.name = "person-\(id)"
    p.age = id % 100
    p.score = Double(id) * 0.5
    return p
}

/// Opens a synced realm and waits for its first download pass (connected, server tables made).
func openSynced(_ configuration: Realm.Configuration) throws -> (Realm, SyncSession) {
    let realm = try Realm(configuration: configuration)
    guard let session = realm.syncSession else { throw BenchError("the realm has no sync session") }
    try blockingAwait("the first download pass", timeout: 120) { try await session.wait(for: .download) }
    return (realm, session)
}

func runSync(_ args: Args) throws {
    let n = CommandLine.arguments.contains("--n") ? args.n : 100_000
    let batch = max(1, args.batch)
    let dir = (args.dir ?? NSTemporaryDirectory()) + "/strata-bench-sync-\(getpid())"
    try? FileManager.default.removeItem(atPath: dir)
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: dir) }

    let server = try SyncBenchServer(options: args.pgOptions)
    var sessions: [SyncSession] = []
    defer {
        for s in sessions { s.suspend() }
        if let logPath = args.pgLog { try? server.log.write(toFile: logPath, atomically: true, encoding: .utf8) }
        server.stop()
    }
    try server.createDatabase("bench")
    try server.createDatabase("bench_latency")
    let settings = PostgresConnection.Configuration(
        host: "127.0.0.1", port: server.port, username: server.user, password: nil, database: "bench", tls: .disable)
    let sql = try blockingAwait("connecting to PostgreSQL", timeout: 30) {
        try await PostgresConnection.connect(configuration: settings, id: 1, logger: syncBenchLogger)
    }
    defer { _ = try? blockingAwait("closing", timeout: 10) { try await sql.close() } }
    let version = try syncBenchQuery(sql, "SELECT current_setting('server_version')").first ?? "?"
    let fsync = try syncBenchQuery(sql, "SELECT current_setting('fsync')").first ?? "?"
    let syncCommit = try syncBenchQuery(sql, "SELECT current_setting('synchronous_commit')").first ?? "?"
    let serverFields: [String: Any] = [
        "server": "PostgreSQL \(version) on 127.0.0.1, started by the benchmark", "server_fsync": fsync,
        "server_synchronous_commit": syncCommit,
    ]

    if args.wants("fsync_probe") { _ = try fsyncProbe(dir: dir, count: 500) }

    var uploaded = false
    if args.wants("upload") {
        // The baseline: the same rows, bare, in the same run and server.
        let perTransaction = max(batch, baselineRowsPerTransaction / batch * batch)
        let baseline = try runInsertBaseline(sql, n: n, perStatement: batch, perTransaction: perTransaction)
        let baselineRate = Double(n) / baseline.seconds
        emit(
            "postgres_insert_baseline", n: n, seconds: baseline.seconds, fileBytes: baseline.tableBytes,
            extra: serverFields.merging(
                [
                    "engine": "postgres-nio", "rows_per_statement": batch, "rows_per_transaction": perTransaction,
                    "server_write_transactions": baseline.transactions,
                    "insert":
                        "INSERT INTO baseline_person (id, name, age, score) SELECT * FROM unnest($1::bigint[], $2::text[], $3::bigint[], $4::float8[]), arrays as binary binds",
                    "table": "plain: id bigint primary key, name text, age bigint, score double precision",
                    "file_bytes_is": "pg_total_relation_size of the table",
                ],
                uniquingKeysWith: { a, _ in a }))

        // Reference: the same local commits into a realm that does not sync (no outbox, no clocks).
        let plainPath = dir + "/unsynced.realm"
        var unsyncedSeconds = 0.0
        do {
            let plain = try Realm(
                configuration: Realm.Configuration(
                    fileURL: URL(fileURLWithPath: plainPath), objectTypes: [SyncBenchPerson.self]))
            let t0 = now()
            try commitSyncPersons(plain, 0..<n, batch: batch)
            unsyncedSeconds = now() - t0
        }

        let path = dir + "/upload.realm"
        let errors = SyncBenchErrors()
        let (realm, session) = try openSynced(
            syncBenchConfiguration(server, database: "bench", path: path, errors: errors))
        sessions.append(session)
        let xid0 = try serverNextXid(sql)
        let t0 = now()
        try commitSyncPersons(realm, 0..<n, batch: batch)
        let local = now() - t0
        try blockingAwait("wait(for: .upload)") { try await session.wait(for: .upload) }
        let seconds = now() - t0
        let errorFields = errors.fields
        let xid1 = try serverNextXid(sql)
        let held = Int(try syncBenchQuery(sql, "SELECT count(*)::text FROM \"SyncBenchPerson\"").first ?? "") ?? -1
        guard held == n else { throw BenchError("PostgreSQL holds \(held) of the \(n) uploaded objects") }
        let tableBytes =
            Int(try syncBenchQuery(sql, "SELECT pg_total_relation_size('\"SyncBenchPerson\"')::text").first ?? "") ?? 0
        session.suspend()
        uploaded = true
        let rate = Double(n) / seconds
        emit(
            "sync_upload", n: n, seconds: seconds, fileBytes: fileBytes(path),
            extra: serverFields.merging(
                [
                    "objects_per_commit": batch, "local_commits": (n + batch - 1) / batch,
                    "local_commit_seconds": round6(local), "unsynced_local_commit_seconds": round6(unsyncedSeconds),
                    "upload_after_local_seconds": round6(seconds - local), "server_rows": held,
                    "server_write_transactions": xid1 - xid0, "server_table_bytes": tableBytes,
                    "baseline_per_sec": baselineRate.rounded(), "ratio": (rate / baselineRate * 1000).rounded() / 1000,
                    "target": "per_sec >= 0.5 x postgres_insert_baseline", "target_met": rate >= 0.5 * baselineRate,
                    "what":
                        "first local commit to syncSession.wait(for: .upload) returning; then SELECT count(*) = n checked",
                ].merging(errorFields, uniquingKeysWith: { a, _ in a }),
                uniquingKeysWith: { a, _ in a }))
    }

    if args.wants("latency") {
        let fields = try runSyncLatency(server, dir: dir, samples: args.samples, sessions: &sessions)
        emit(
            "sync_latency", n: args.samples, seconds: fields.total, fileBytes: fields.fileBytes,
            extra: serverFields.merging(fields.extra, uniquingKeysWith: { _, b in b }))
    }

    if args.wants("download") {
        if !uploaded {
            // The server needs the N objects: upload them untimed.
            let (seed, session) = try openSynced(
                syncBenchConfiguration(server, database: "bench", path: dir + "/seed.realm", errors: SyncBenchErrors()))
            sessions.append(session)
            try commitSyncPersons(seed, 0..<n, batch: batch)
            try blockingAwait("seeding the server") { try await session.wait(for: .upload) }
            session.suspend()
        }
        let held = Int(try syncBenchQuery(sql, "SELECT count(*)::text FROM \"SyncBenchPerson\"").first ?? "") ?? -1
        let path = dir + "/download.realm"
        let errors = SyncBenchErrors()
        let configuration = syncBenchConfiguration(server, database: "bench", path: path, errors: errors)
        let opener = SyncBenchOpener()
        let t0 = now()
        let count = try blockingAwait("Realm(configuration:actor:downloadBeforeOpen: .always)") {
            try await opener.openAndCount(configuration)
        }
        let seconds = now() - t0
        let errorFields = errors.fields
        guard count == held, held == n else {
            throw BenchError("the fresh replica holds \(count) objects, the server \(held), expected \(n)")
        }
        emit(
            "sync_initial_download", n: n, seconds: seconds, fileBytes: fileBytes(path),
            extra: serverFields.merging(
                [
                    "objects_local": count,
                    "what":
                        "fresh file: Realm(configuration:actor:downloadBeforeOpen: .always) until it returns, then objects counted",
                ].merging(errorFields, uniquingKeysWith: { a, _ in a }),
                uniquingKeysWith: { a, _ in a }))
    }
}

/// The baseline's rows as bare batched INSERTs into a new plain table, timed from the first
/// BEGIN to the last COMMIT; the rows' arrays are built before the clock starts.
func runInsertBaseline(
    _ sql: PostgresConnection, n: Int, perStatement: Int, perTransaction: Int
) throws -> (seconds: Double, transactions: Int, tableBytes: Int64) {
    try syncBenchQuery(
        sql,
        "CREATE TABLE baseline_person (id bigint PRIMARY KEY, name text NOT NULL, age bigint NOT NULL, score double precision NOT NULL)"
    )
    struct Rows: Sendable {
        var ids: [Int] = []
        var names: [String] = []
        var ages: [Int] = []
        var scores: [Double] = []
    }
    // Transactions, each a list of statements' rows.
    var transactions: [[Rows]] = []
    for start in stride(from: 0, to: n, by: perTransaction) {
        var statements: [Rows] = []
        let end = min(n, start + perTransaction)
        for s in stride(from: start, to: end, by: perStatement) {
            var r = Rows()
            for id in s..<min(end, s + perStatement) {
                r.ids.append(id)
                r.names.append("person-\(id)")
                r.ages.append(id % 100)
                r.scores.append(Double(id) * 0.5)
            }
            statements.append(r)
        }
        transactions.append(statements)
    }
    let work = transactions
    let xid0 = try serverNextXid(sql)
    let t0 = now()
    try blockingAwait("the baseline inserts") {
        for statements in work {
            try await sql.query("BEGIN", logger: syncBenchLogger)
            for r in statements {
                let rows = try await sql.query(
                    "INSERT INTO baseline_person (id, name, age, score) SELECT * FROM unnest(\(r.ids)::bigint[], \(r.names)::text[], \(r.ages)::bigint[], \(r.scores)::float8[])",
                    logger: syncBenchLogger)
                for try await _ in rows {}
            }
            try await sql.query("COMMIT", logger: syncBenchLogger)
        }
    }
    let seconds = now() - t0
    let xid1 = try serverNextXid(sql)
    let held = Int(try syncBenchQuery(sql, "SELECT count(*)::text FROM baseline_person").first ?? "") ?? -1
    guard held == n else { throw BenchError("the baseline table holds \(held) of \(n) rows") }
    let bytes =
        Int64(try syncBenchQuery(sql, "SELECT pg_total_relation_size('baseline_person')::text").first ?? "") ?? 0
    return (seconds, xid1 - xid0, bytes)
}

/// sync_latency: replica A commits one new object at a time; replica B's observer sees it.
/// Returns the row's seconds (sum of the samples), file size and fields.
func runSyncLatency(
    _ server: SyncBenchServer, dir: String, samples: Int, sessions: inout [SyncSession]
) throws -> (total: Double, fileBytes: Int64, extra: [String: Any]) {
    let errors = SyncBenchErrors()
    let (a, sessionA) = try openSynced(
        syncBenchConfiguration(server, database: "bench_latency", path: dir + "/latency-a.realm", errors: errors))
    sessions.append(sessionA)
    let (b, sessionB) = try openSynced(
        syncBenchConfiguration(server, database: "bench_latency", path: dir + "/latency-b.realm", errors: errors))
    sessions.append(sessionB)
    let arrivals = SyncArrivals()
    let queue = DispatchQueue(label: "strata-bench.sync-latency.observer")
    let token = b.objects(SyncBenchPerson.self).observe(on: queue) { change in
        switch change {
        case .initial: arrivals.recordInitial()
        case .update(let results, _, let insertions, _): arrivals.record(insertions.map { results[$0].id })
        case .error: break
        }
    }
    defer { token.invalidate() }
    guard arrivals.waitForInitial(timeout: 30) else { throw BenchError("replica B's observer never delivered") }
    // The first commits open A's upload connection: not counted.
    let warmup = 10
    let pause: UInt32 = 20_000
    var latencies: [Double] = []
    var commits: [Double] = []
    for i in 0..<(warmup + samples) {
        let id = 1 + i
        let t0 = now()
        try a.write { a.add(makeSyncPerson(id)) }
        let t1 = now()
        guard let t2 = arrivals.wait(for: id, timeout: 30) else {
            throw BenchError("object \(id) committed on replica A did not reach replica B within 30 s")
        }
        if i >= warmup {
            latencies.append(t2 - t0)
            commits.append(t1 - t0)
        }
        usleep(pause)
    }
    let errorFields = errors.fields
    sessionA.suspend()
    sessionB.suspend()
    let total = latencies.reduce(0, +)
    return (
        total, fileBytes(dir + "/latency-b.realm"),
        [
            "p50_seconds": round6(percentile(latencies, 0.5)), "p99_seconds": round6(percentile(latencies, 0.99)),
            "mean_seconds": round6(total / Double(max(1, latencies.count))),
            "min_seconds": round6(latencies.min() ?? 0), "max_seconds": round6(latencies.max() ?? 0),
            "commit_p50_seconds": round6(percentile(commits, 0.5)), "warmup_samples": warmup,
            "pause_ms": Int(pause / 1000), "deliveries": arrivals.updates,
            "target": "p50_seconds < 0.05", "target_met": percentile(latencies, 0.5) < 0.05,
            "what":
                "start of a one-object durable commit on replica A to the delivery (on a queue) of replica B's Results observer showing it; both replicas in this process, each with its own session",
        ].merging(errorFields, uniquingKeysWith: { a, _ in a })
    )
}
