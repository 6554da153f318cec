import Foundation
import Logging
import PostgresNIO
import StrataCore

/// One connection to the sync server and the statements the engine runs on it: the schema,
/// an upload batch, a download pass.
///
/// ## Concurrency
/// Used by one task at a time (each loop of the engine has its own link).
final class SyncServerLink: @unchecked Sendable {
    let connection: PostgresConnection
    static let logger = Logger(label: "io.strata.sync", factory: { _ in SwiftLogNoOpLogHandler() })
    /// The longest one statement may take before the link is given up.
    static let queryLimit = 60.0
    private static let ids = NSLock()
    private nonisolated(unsafe) static var nextID = 0

    /// The bytes of the server's answers read through `rows` (download progress).
    private(set) var bytesRead: UInt64 = 0
    /// Whether the next upload checks that its new objects' rows are absent before inserting
    /// them (`insertNew`): set by an insert that met one, cleared by the next upload that commits.
    private var guardNewRows = false

    /// The statements in flight that the connection's close ends.
    let closing: SyncDeadline.CloseWatch

    private init(_ c: PostgresConnection) {
        connection = c
        closing = SyncDeadline.CloseWatch(c.closeFuture)
    }

    /// Statements run after the session's settings on every new connection; tests only (a
    /// failing one stands for a server that ends the session during its setup).
    nonisolated(unsafe) static var setupStatementsForTesting: [String] = []

    /// Connects to the server `config` names.
    static func connect(_ config: SyncConfiguration) async throws -> SyncServerLink {
        let id = ids.withLock {
            nextID += 1
            return nextID
        }
        var made: PostgresConnection?
        do {
            let settings = config.connection
            let c = try await SyncDeadline.run(10, "connecting", late: { try? await $0.close() }) {
                try await PostgresConnection.connect(configuration: settings, id: id, logger: logger)
            }
            made = c
            let link = SyncServerLink(c)
            try await link.run("SET TIME ZONE 'UTC'")
            // The subscriptions' string literals double quotes and escape LIKE with a backslash:
            // both need standard strings, whatever the server's default.
            try await link.run("SET standard_conforming_strings = on")
            // Doubles and reals printed in their shortest exact form (the default from PostgreSQL
            // 12 on, unless a role or database sets a lower value: 0 rounds to 15 digits).
            try await link.run("SET extra_float_digits = 3")
            // So that a database administrator (and a test that stalled) can tell the sync
            // sessions apart in pg_stat_activity.
            try await link.run("SET application_name = 'StrataSync'")
            for sql in setupStatementsForTesting { try await link.run(sql) }
            if SyncEngine.tracing {
                let pid = try await link.run("SELECT pg_backend_pid()::text").first?[0] ?? "?"
                link.trace("is backend \(pid)")
            }
            return link
        } catch {
            // A connection whose setup failed is closed, not dropped: dropped open it stayed
            // open until the server ended it, and postgres-nio's debug builds trap on a
            // connection released unclosed (a server stopped during the setup did that to the
            // crash test's child process and, once, to the test process itself).
            if let made { try? await made.close() }
            throw Self.syncError(
                error, "connecting to \(config.host):\(config.port)/\(config.database) as \(config.user)")
        }
    }

    func close() async {
        trace("close")
        try? await connection.close()
        trace("closed")
    }

    /// A bind value: text, an array of texts, or a column of an upload's rows.
    enum Bind {
        case text(String)
        case texts([String])
        case array(SyncArrayBind)
    }

    /// Runs `sql` with `binds`; returns the rows' columns as text (nil for NULL).
    @discardableResult
    func run(_ sql: String, _ binds: [Bind] = []) async throws -> [[String?]] {
        var b = PostgresBindings(capacity: binds.count)
        for x in binds {
            switch x {
            case .text(let s): b.append(s)
            case .texts(let a): b.append(a)
            case .array(let a): try b.append(a)
            }
        }
        let query = PostgresQuery(unsafeSQL: sql, binds: b)
        let connection = self.connection
        let started = SyncEngine.tracing ? DispatchTime.now().uptimeNanoseconds : 0
        trace("> \(sql.prefix(60))")
        defer { trace("< \(sql.prefix(30)) \(Double(DispatchTime.now().uptimeNanoseconds - started) / 1e6) ms") }
        do {
            return try await SyncDeadline.run(Self.queryLimit, "a statement", closing: closing) {
                let rows = try await connection.query(query, logger: Self.logger)
                var out: [[String?]] = []
                for try await row in rows {
                    var r: [String?] = []
                    for cell in row { r.append((try? cell.decode(String?.self)) ?? nil) }
                    out.append(r)
                }
                return out
            }
        } catch {
            trace("! \(sql.prefix(30)) threw \(error)")
            if (error as? SyncError)?.code == .connection, error is SyncError { try? await connection.close() }
            throw Self.syncError(error, "running \(sql.prefix(120))")
        }
    }

    /// How long the server lets a transaction of ours that holds locks (an upload, a schema
    /// change) sit idle between statements before it ends the session
    /// (`idle_in_transaction_session_timeout`, set for that transaction only). Closing the
    /// connection is what normally ends a transaction the session gave up (suspended, a lost
    /// statement), but a socket the process shares with a child it spawned (file descriptors
    /// are inherited, ours are not close-on-exec) stays open while the child lives, and the
    /// server would keep the transaction and its row locks: an SQL writer, or the child itself,
    /// waited for them. Between two statements of ours there are milliseconds of merging.
    static let idleInTransactionLimit = "10s"

    /// With `STRATA_SYNC_TRACE=1`, writes `message` to standard error with the time and the
    /// connection's id (a statement's `>` sent, `<` ended, `!` failed).
    func trace(_ message: @autoclosure () -> String) {
        guard SyncEngine.tracing else { return }
        FileHandle.standardError.write(
            Data("[link \(Date().timeIntervalSince1970)] \(connection.id) \(message())\n".utf8))
    }

    /// Runs a query and returns its rows as JSON objects, aggregated by the server into one
    /// value: one message however many rows, so a server that dies in the middle of a large
    /// result cannot leave the client's row stream half read (postgres-nio stops the process on
    /// rows that arrive after the connection closed while it waits for demand).
    func rows(_ sql: String, _ binds: [Bind] = []) async throws -> [[String: Any]] {
        let text = try await run("SELECT coalesce(json_agg(x), '[]')::text FROM (\(sql)) x", binds).first?[0] ?? "[]"
        bytesRead += UInt64(text.utf8.count)
        guard let rows = try SyncJSON.parse(text) as? [[String: Any]] else {
            throw SyncError(.badServerData, "The server's answer to \(sql.prefix(80)) is not a list of rows.")
        }
        return rows
    }

    /// A `SyncError` for a failure of the server or the connection, with the server's message.
    static func syncError(_ error: Error, _ doing: String) -> Error {
        if error is SyncError { return error }
        guard let p = error as? PSQLError else {
            return SyncError(.connection, "\(doing): \(error)")
        }
        let state = p.serverInfo?[.sqlState] ?? ""
        let message = p.serverInfo?[.message] ?? "\(p.code)"
        switch state {
        case "28P01", "28000", "3D000", "42501":
            return SyncError(
                .authentication,
                "The server refused \(doing): \(message) (SQLSTATE \(state)). Check the user, password and database of the SyncConfiguration."
            )
        case _ where p.code == .server:
            var e = SyncError(.connection, "The server failed \(doing): \(message) (SQLSTATE \(state)).")
            e.sqlState = state
            return e
        default:
            return SyncError(.connection, "Lost the server \(doing): \(p.code). The session reconnects.")
        }
    }

    // MARK: Schema

    /// Creates or updates the server's tables for `tables` and checks their column types.
    /// When the server's schema was last prepared from these very statements (their
    /// fingerprint is recorded per table in `strata_schema`) and the tables have the model's
    /// columns, nothing is run that takes a lock: DDL takes exclusive locks on the synced tables,
    /// which every replica's every connection would otherwise take.
    func prepareSchema(_ tables: [SyncTable], force: Bool = false) async throws {
        let statements = SyncServerSchema.statements(tables)
        let fingerprint = SyncServerSchema.fingerprint(statements)
        if !force, let recorded = try? await run("SELECT tbl, fingerprint FROM strata_schema"),
            tables.allSatisfy({ t in recorded.contains { $0[0] == t.name && $0[1] == fingerprint } }),
            (try? await checkColumns(tables)) != nil, (try? await triggersPresent(tables)) == true
        {
            return
        }
        try await run("BEGIN")
        do {
            try await run(
                "SELECT set_config('idle_in_transaction_session_timeout', $1, true), pg_advisory_xact_lock(hashtext('strata_schema'))",
                [.text(Self.idleInTransactionLimit)])
            for s in statements { try await run(s) }
            try await checkColumns(tables)
            try await run(
                "INSERT INTO strata_schema (tbl, fingerprint) SELECT unnest($1::text[]), $2 ON CONFLICT (tbl) DO UPDATE SET fingerprint = EXCLUDED.fingerprint",
                [.texts(tables.map(\.name)), .text(fingerprint)])
            try await run("COMMIT")
        } catch {
            _ = try? await run("ROLLBACK")
            throw error
        }
    }

    /// Whether every synced table and `strata_tombstones` still have their triggers (a dropped
    /// trigger would let SQL edits go unstamped, or deletes without tombstones, while the
    /// recorded fingerprint says the schema is current).
    private func triggersPresent(_ tables: [SyncTable]) async throws -> Bool {
        let rows = try await run(
            """
            SELECT c.relname::text, count(*)::text FROM pg_trigger g JOIN pg_class c ON c.oid = g.tgrelid
            WHERE NOT g.tgisinternal AND g.tgname IN ('strata_write', 'strata_delete', 'strata_truncate', 'strata_notify', 'strata_xid')
            AND c.relname = ANY($1::text[]) AND c.relnamespace = current_schema()::regnamespace GROUP BY c.relname
            """, [.texts(tables.map(\.name) + ["strata_tombstones"])])
        var counts: [String: String] = [:]
        for r in rows { if let n = r[0] { counts[n] = r[1] } }
        return counts["strata_tombstones"] == "2" && tables.allSatisfy { counts[$0.name] == "4" }
    }

    /// Throws `SyncError.schemaMismatch` unless every table has the model's columns and types.
    private func checkColumns(_ tables: [SyncTable]) async throws {
        for t in tables {
            let cols = try await run(SyncServerSchema.columnsQuery, [.text(t.name)])
            var types: [String: String] = [:]
            for c in cols { if let n = c[0], let ty = c[1] { types[n] = ty } }
            let expected =
                [(t.primaryKeyName, SyncTable.sqlType(t.primaryKeyType))] + t.fields.map { ($0.name, $0.sqlType) }
                + [("_strata_clocks", "jsonb"), ("_strata_clock", "text"), ("_strata_xid", "xid8")]
            for (name, type) in expected where types[name] != type {
                throw SyncError(
                    .schemaMismatch,
                    "The server's table \(t.name) has column \(name) of type \(types[name] ?? "(none)"), the model needs \(type). Change the column with ALTER TABLE, or the model."
                )
            }
        }
    }

    // MARK: Upload

    /// What an upload batch did on the server.
    struct Uploaded {
        /// The newest sequence number the server holds for the client.
        var held: UInt64
        /// The batch's transaction id, when every row it wrote was a new object written as this
        /// replica holds it (nothing merged with the server's rows, no delete): a download of
        /// that transaction's rows would bring back only what the replica has.
        var newRowsOnly: UInt64?
    }

    /// Applies outbox entries (sequence number and operations, in order) in one transaction.
    /// `beforeCommit` learns the transaction's id just before it commits when every row it wrote
    /// was new (`Uploaded.newRowsOnly`): a download pass may start as soon as it commits.
    func upload(
        client: String, entries: [(seq: UInt64, ops: [SyncOperation])], tables: [String: SyncTable],
        beforeCommit: (UInt64) -> Void = { _ in }
    ) async throws -> Uploaded {
        try await upload(
            client: client, plan: SyncUploadPlan(entries: entries, tables: tables), beforeCommit: beforeCommit)
    }

    /// Applies `plan` in one transaction: `BEGIN`, one statement for the client's row, the
    /// settings and the locks, one insert per table of new objects (and the merge's statements
    /// for the rest), `COMMIT`. Each statement is a round trip, which under load costs more
    /// than a small statement's work.
    func upload(
        client: String, plan: SyncUploadPlan, beforeCommit: (UInt64) -> Void = { _ in }
    ) async throws
        -> Uploaded
    {
        try await run("BEGIN")
        do {
            // The client's row, created or locked (another uploader of the same client waits
            // here) and raised to the batch's last entry; then, after that lock (the LATERAL
            // reads the row), transaction-level advisory locks on the hash buckets of every
            // key (256 per table, so a batch of thousands of objects takes at most 256 entries
            // of the server's lock table per table). Row locks cover only rows that exist: two
            // uploaders creating (or reviving) the same object would each merge without seeing
            // the other, and the second would overwrite the first; the bucket locks serialise
            // them, in (table, bucket) order so two batches lock in the same order. And the
            // transaction's settings: the row triggers skip this writer (`strata.applying`), and
            // the server ends the session if it sits idle in the transaction (see
            // `idleInTransactionLimit`).
            //
            // Entries at or below the row's `uploaded` were applied before (a batch whose
            // acknowledgement was lost): applying them again changes nothing (the merge ignores
            // writes it has), so they are not skipped, which keeps a replica whose numbering
            // went back (a restored file, a reused clientID) from losing changes.
            var lockTables: [String] = []
            var lockBuckets = SyncArrayBind(.int8)
            for t in plan.tables {
                lockTables += repeatElement(t.table.name, count: t.buckets.count)
                for b in t.buckets { try lockBuckets.append(.int(Int64(b))) }
            }
            let first = try await run(
                """
                WITH c AS (INSERT INTO strata_clients AS s (client, uploaded) VALUES ($1, $2::bigint)
                    ON CONFLICT (client) DO UPDATE SET uploaded = greatest(s.uploaded, EXCLUDED.uploaded) RETURNING uploaded)
                SELECT c.uploaded::text, pg_current_xact_id()::text,
                    set_config('strata.applying', 'on', true), set_config('idle_in_transaction_session_timeout', $3, true),
                    l.n::text
                FROM c, LATERAL (SELECT count(pg_advisory_xact_lock(hashtext(k.t), k.b)) AS n FROM (
                    SELECT u.t, u.b::int AS b FROM unnest($4::text[], $5::bigint[]) WITH ORDINALITY AS u(t, b, o)
                    WHERE c.uploaded IS NOT NULL ORDER BY u.o) k) l
                """,
                [
                    .text(client), .text(String(plan.last ?? 0)), .text(Self.idleInTransactionLimit),
                    .texts(lockTables), .array(lockBuckets),
                ]
            ).first
            let held = UInt64(first?[0] ?? "0") ?? 0
            let xid = UInt64(first?[1] ?? "")
            var newOnly = plan.last != nil
            for t in plan.tables {
                if try await !apply(t) { newOnly = false }
            }
            if newOnly, let xid { beforeCommit(xid) }
            try await run("COMMIT")
            guardNewRows = false
            return Uploaded(held: held, newRowsOnly: newOnly ? xid : nil)
        } catch {
            trace("transaction failed: \(error)")
            _ = try? await run("ROLLBACK")
            throw error
        }
    }

    /// Writes one table's part of a batch (its keys locked): the new objects inserted, the rest
    /// merged into the server's rows. Returns whether every row it wrote was new.
    private func apply(_ planned: SyncUploadPlan.Table) async throws -> Bool {
        var p = planned
        let t = p.table
        while let oldest = p.oldest, !p.fresh.isEmpty {
            // The new objects, inserted as the batch makes them. That is the merge's result
            // exactly when the server has no row of the key and no tombstone at or above the
            // object's oldest clock: the tombstones are asked for by clock (an index range,
            // usually empty) in the same statement, and if there are some, nothing is inserted
            // and their keys go to the merge.
            let (present, inserted) = try await insertNew(p.fresh, oldest)
            if inserted {
                p.merge += present
                break
            }
            try p.sendToMerge(present)
        }
        if p.merge.isEmpty { return true }
        let keys = Set(p.merge).sorted()
        try await mergeRows(keys, Dictionary(uniqueKeysWithValues: keys.map { ($0, p.ops($0)) }), t)
        return false
    }

    /// Inserts `fresh` (new objects) unless the server has a tombstone of one of them at or above
    /// `oldest`: then it inserts nothing and returns those keys (`inserted` false). (The
    /// advisory locks keep other uploaders' deletes of these keys out until commit.) Otherwise
    /// returns the keys it left out because their rows were there (with `guardNewRows` only).
    ///
    /// The rows are not checked one by one: the server has none of them, and checking that row
    /// by row cost about as much as the insert. When it has one (a batch sent again after its
    /// acknowledgement was lost, two replicas creating one primary key, an SQL insert racing the
    /// upload), the insert fails on the primary key, the transaction is rolled back, and the
    /// batch is sent again (`uploadLoop`) with `guardNewRows` set: then the insert leaves out the
    /// rows present, which go to the merge.
    private func insertNew(
        _ fresh: SyncUploadRows, _ oldest: SyncClock
    ) async throws -> (
        present: Set<String>, inserted: Bool
    ) {
        let t = fresh.table
        let q = SyncTable.quote(t.name)
        let pkColumn = SyncTable.quote(t.primaryKeyName)
        let pkArray = fresh.columns[0].element.sqlArrayType
        let binds: [Bind] =
            [.text(q), .texts(fresh.ownColumnNames), .text(t.name), .text(oldest.text)]
            + fresh.columns.map { .array($0) }
        let guardRows = guardNewRows ? " AND NOT EXISTS (SELECT 1 FROM \(q) r WHERE r.\(pkColumn) = x.c0)" : ""
        let statement = """
            WITH newer AS MATERIALIZED (SELECT pk FROM strata_tombstones WHERE tbl = $3 AND clock COLLATE "C" >= $4
                AND pk IN (SELECT k::text FROM unnest($5::\(pkArray)) AS k)),
            ins AS (INSERT INTO \(q) (\(fresh.columnList)) SELECT \(fresh.selectList) FROM \(fresh.relation(firstBind: 5))
                CROSS JOIN \(fresh.otherColumns(tableBind: 1, namesBind: 2))
                WHERE NOT EXISTS (SELECT 1 FROM newer)\(guardRows)\(guardNewRows ? " RETURNING 1" : ""))
            SELECT (SELECT coalesce(json_agg(pk), '[]') FROM newer)::text\(guardNewRows ? ", (SELECT count(*) FROM ins)::text" : "")
            """
        let result: [String?]
        do {
            result = try await run(statement, binds).first ?? []
        } catch let e as SyncError where e.sqlState == "23505" && !guardNewRows {
            guardNewRows = true
            throw e
        }
        guard let newerKeys = try SyncJSON.parse(result.first.flatMap { $0 } ?? "[]") as? [String] else {
            throw SyncError(.badServerData, "The server's list of \(t.name) tombstones is not a list of keys.")
        }
        if !newerKeys.isEmpty { return (Set(newerKeys), false) }
        if !guardNewRows { return ([], true) }
        if result.count > 1, let inserted = result[1].flatMap({ Int($0) }), inserted == fresh.count {
            return ([], true)
        }
        // The keys whose row this transaction did not write: present, to the merge.
        let present =
            try await run(
                "SELECT coalesce(json_agg(k::text), '[]')::text FROM unnest($1::\(pkArray)) AS k WHERE NOT EXISTS (SELECT 1 FROM \(q) r WHERE r.\(pkColumn) = k AND r._strata_xid = pg_current_xact_id())",
                [.array(fresh.columns[0])]
            ).first?[0] ?? "[]"
        guard let more = try SyncJSON.parse(present) as? [String] else {
            throw SyncError(.badServerData, "The server's list of \(t.name) rows present is not a list of keys.")
        }
        return (Set(more), true)
    }

    /// The slow path of `apply`: reads and locks the rows and tombstones of `keys`, merges their
    /// operations, writes back what changed.
    private func mergeRows(_ keys: [String], _ opsByKey: [String: [SyncOperation]], _ t: SyncTable) async throws {
        var records: [String: SyncRecord<StoreValue>] = [:]
        for k in keys { records[k] = .absent }
        let pkArray = SyncTable.sqlType(t.primaryKeyType) + "[]"
        let found = try await rows(
            "SELECT \(t.selectList) FROM \(SyncTable.quote(t.name)) WHERE \(SyncTable.quote(t.primaryKeyName)) = ANY($1::text[]::\(pkArray)) ORDER BY 1 FOR UPDATE",
            [.texts(keys)])
        for r in found {
            guard let (key, fields) = try Self.decodeRow(r, t) else { continue }
            records[key] = SyncRecord(alive: true, fields: fields, tombstone: .zero)
        }
        let tombs = try await rows(
            "SELECT pk, clock FROM strata_tombstones WHERE tbl = $1 AND pk = ANY($2::text[]) ORDER BY pk FOR UPDATE",
            [.text(t.name), .texts(keys)])
        for r in tombs {
            guard let k = r["pk"] as? String, let c = (r["clock"] as? String).flatMap({ SyncClock(text: $0) }) else {
                continue
            }
            records[k]?.tombstone = c
        }
        let before = records
        for k in keys {
            for op in opsByKey[k] ?? [] {
                if let d = op.deleteClock {
                    records[k]?.applyDelete(d, defaults: t.defaults)
                } else {
                    records[k]?.applyWrite(op.fields, defaults: t.defaults)
                }
            }
        }
        var upserts = SyncUploadRows(t)
        var deletes: [String] = []
        var tombstones: [String] = []
        for k in keys {
            guard let a = before[k], let b = records[k], a != b else { continue }
            if b.tombstone != a.tombstone {
                tombstones.append("{\"pk\":" + SyncTable.jsonString(k) + ",\"clock\":\"" + b.tombstone.text + "\"}")
            }
            if b.alive {
                guard let pk = t.keyValue(k) else { continue }
                try upserts.append(pk: pk, b)
            } else if a.alive {
                deletes.append(k)
            }
        }
        let q = SyncTable.quote(t.name)
        if !deletes.isEmpty {
            try await run(
                "DELETE FROM \(q) WHERE \(SyncTable.quote(t.primaryKeyName)) = ANY($1::text[]::\(pkArray))",
                [.texts(deletes)])
        }
        if !upserts.isEmpty {
            // The uploader's writes skip the row trigger (its WHEN), so the update stamps the
            // transaction itself (an insert takes the column's default).
            let sets =
                (t.fields.map { SyncTable.quote($0.name) + " = EXCLUDED." + SyncTable.quote($0.name) } + [
                    "_strata_clocks = \(q)._strata_clocks || EXCLUDED._strata_clocks",
                    "_strata_xid = pg_current_xact_id()",
                ])
                .joined(separator: ", ")
            try await run(
                "INSERT INTO \(q) (\(upserts.columnList)) SELECT \(upserts.selectList) FROM \(upserts.relation(firstBind: 1)) ON CONFLICT (\(SyncTable.quote(t.primaryKeyName))) DO UPDATE SET \(sets)",
                upserts.columns.map { .array($0) })
        }
        if !tombstones.isEmpty {
            try await run(
                "INSERT INTO strata_tombstones (tbl, pk, clock) SELECT $1, x.pk, x.clock FROM jsonb_to_recordset($2::text::jsonb) AS x(pk text, clock text) ON CONFLICT (tbl, pk) DO UPDATE SET clock = EXCLUDED.clock",
                [.text(t.name), .text("[" + tombstones.joined(separator: ",") + "]")])
        }
    }

    /// A row of `t` in wire form (JSON of `t.selectList`) as its key text and fields with clocks.
    static func decodeRow(
        _ d: [String: Any], _ t: SyncTable
    ) throws -> (String, [String: SyncRecord<StoreValue>.Field])? {
        guard let pk = SyncTable.value(fromJSON: d[t.primaryKeyName], t.primaryKeyType) else {
            throw SyncError(
                .badServerData,
                "A row of \(t.name) on the server has no readable primary key: \(String(describing: d[t.primaryKeyName]))"
            )
        }
        let clocks = d["_strata_clocks"] as? [String: Any] ?? [:]
        // A field `_strata_clocks` does not list was written with the row (`_strata_clock`): a
        // new object's upload, an SQL insert. Neither: never written since the row was made.
        let rowClock = (d["_strata_clock"] as? String).flatMap { SyncClock(text: $0) } ?? .zero
        var fields: [String: SyncRecord<StoreValue>.Field] = [:]
        for f in t.fields {
            guard let v = f.value(fromJSON: d[f.name]) else {
                throw SyncError(
                    .badServerData,
                    "\(t.name).\(f.name) of the row \(SyncTable.keyText(pk)) on the server is not a \(f.type): \(String(describing: d[f.name]))"
                )
            }
            let c = clocks[f.name].map { ($0 as? String).flatMap { SyncClock(text: $0) } ?? .zero } ?? rowClock
            fields[f.name] = .init(value: v, clock: c)
        }
        return (SyncTable.keyText(pk), fields)
    }

    // MARK: Download

    /// What a download pass read: every row version and tombstone written by server
    /// transactions from `position` up to (not including) `next`, the oldest transaction still
    /// running when the pass's snapshot was taken.
    struct Download: Sendable {
        var next: UInt64
        /// The snapshot's end (`pg_snapshot_xmax`): every transaction that had committed when the
        /// pass began is below it. Once the position reaches it, the replica holds all of them.
        var end: UInt64
        var rows: [(table: String, key: String, fields: [String: SyncRecord<StoreValue>.Field])] = []
        var tombstones: [(table: String, key: String, clock: SyncClock)] = []
        /// Objects that changed on the server and match no subscription: they leave the device.
        var leaving: [(table: String, key: String)] = []
    }

    /// Reads what changed on the server since `position` (a transaction id), in one snapshot.
    /// With `conditions` (each table's subscription condition, Docs/Sync.md "Subscriptions"),
    /// rows that match come whole and the others by primary key only, in `leaving`. Rows last
    /// written by the transactions `skipping` are not read (this replica's own uploads of new
    /// objects: it has them).
    func download(
        from position: UInt64, tables: [SyncTable], conditions: [String: String]?, skipping: [UInt64] = []
    ) async throws
        -> Download
    {
        try await run("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
        do {
            let snapshot = try await run(
                "SELECT pg_snapshot_xmin(s)::text, pg_snapshot_xmax(s)::text FROM pg_current_snapshot() s"
            ).first
            let xmin = UInt64(snapshot?[0] ?? "") ?? 0
            var d = Download(next: xmin, end: UInt64(snapshot?[1] ?? "") ?? xmin)
            if xmin > position {
                let from = String(position)
                let to = String(xmin)
                let range = "_strata_xid >= $1::text::xid8 AND _strata_xid < $2::text::xid8"
                for t in tables {
                    let table = SyncTable.quote(t.name)
                    let condition = conditions.map { "coalesce((\($0[t.name] ?? "FALSE")), false)" }
                    let skip = skipping.isEmpty ? "" : " AND _strata_xid <> ALL($3::text[]::xid8[])"
                    let found = try await rows(
                        "SELECT \(t.selectList) FROM \(table) WHERE \(range)\(skip)\(condition.map { " AND " + $0 } ?? "")",
                        [.text(from), .text(to)] + (skipping.isEmpty ? [] : [.texts(skipping.map { String($0) })]))
                    for r in found {
                        guard let (k, f) = try Self.decodeRow(r, t) else { continue }
                        d.rows.append((t.name, k, f))
                    }
                    guard let condition else { continue }
                    let pk = SyncTable.quote(t.primaryKeyName)
                    for r in try await rows(
                        "SELECT \(pk)::text AS pk FROM \(table) WHERE \(range) AND NOT \(condition)",
                        [.text(from), .text(to)])
                    {
                        if let k = r["pk"] as? String { d.leaving.append((t.name, k)) }
                    }
                }
                let names = tables.map(\.name)
                for r in try await rows(
                    "SELECT tbl, pk, clock FROM strata_tombstones WHERE _strata_xid >= $1::text::xid8 AND _strata_xid < $2::text::xid8 AND tbl = ANY($3::text[])",
                    [.text(from), .text(to), .texts(names)])
                {
                    guard let t = r["tbl"] as? String, let k = r["pk"] as? String,
                        let c = (r["clock"] as? String).flatMap({ SyncClock(text: $0) })
                    else { continue }
                    d.tombstones.append((t, k, c))
                }
            }
            try await run("COMMIT")
            return d
        } catch {
            trace("transaction failed: \(error)")
            _ = try? await run("ROLLBACK")
            throw error
        }
    }
}
