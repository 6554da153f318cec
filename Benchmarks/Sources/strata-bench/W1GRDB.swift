import Foundation
import GRDB

/// W1 on SQLite through GRDB, written the way an expert GRDB user writes a fast path:
/// one `DatabaseQueue` (a single connection: the fair peer of one Strata handle in a
/// single-threaded benchmark; a `DatabasePool` adds reader connections that W1 never uses),
/// WAL mode, `synchronous = FULL` (each commit fsyncs the WAL), cached prepared statements with
/// `setUncheckedArguments` + `execute()`, rows read through `Row.fetchCursor` without copying,
/// no Record types on hot loops. The scan is one SQL query.
final class GRDBEngine: W1Engine {
    static let name = "grdb"
    static let durability = "WAL, synchronous=FULL"
    static let fileExtension = "sqlite"
    static func files(at path: String) -> [String] { [path, path + "-wal", path + "-shm"] }

    let dbQueue: DatabaseQueue
    let path: String
    var walBeforeCheckpoint: Int64 = 0

    static let insertSQL = "INSERT INTO person (id, name, age, score) VALUES (?, ?, ?, ?)"
    static let getSQL = "SELECT name, age FROM person WHERE id = ?"
    static let scanSQL = "SELECT COUNT(*), TOTAL(score) FROM person WHERE age > 50"
    static let updateSQL = "UPDATE person SET age = age + 1 WHERE id = ?"

    init(path: String) throws {
        self.path = path
        var config = Configuration()
        // Not `config.journalMode = .wal`: GRDB then sets synchronous = NORMAL after
        // prepareDatabase runs (no fsync per commit). W1 needs a durable commit, so FULL.
        config.prepareDatabase { db in
            let mode = try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL")
            guard mode?.lowercased() == "wal" else {
                throw W1Error.missing("grdb: could not enter WAL mode: \(mode ?? "nil")")
            }
            try db.execute(sql: "PRAGMA synchronous = FULL")
        }
        dbQueue = try DatabaseQueue(path: path, configuration: config)
    }

    func createSchema(_ db: GRDB.Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE IF NOT EXISTS person(id INTEGER PRIMARY KEY, name TEXT NOT NULL, age INTEGER NOT NULL, score REAL NOT NULL)
                """)
    }

    func bulkInsert(_ people: [Person]) throws {
        try dbQueue.write { db in
            try createSchema(db)
            let st = try db.cachedStatement(sql: Self.insertSQL)
            for p in people {
                st.setUncheckedArguments([p.id, p.name, p.age, p.score])
                try st.execute()
            }
        }
    }

    func insertOne(_ p: Person) throws {
        try dbQueue.write { db in
            let st = try db.cachedStatement(sql: Self.insertSQL)
            st.setUncheckedArguments([p.id, p.name, p.age, p.score])
            try st.execute()
        }
    }

    func pointGets(_ ids: [Int64], into checksum: inout W1Checksum) throws {
        var c = checksum
        try dbQueue.read { db in
            let st = try db.cachedStatement(sql: Self.getSQL)
            for id in ids {
                st.setUncheckedArguments([id])
                // The row is a view on the statement, valid while its cursor lives.
                let rows = try Row.fetchCursor(st)
                try withExtendedLifetime(rows) {
                    guard let row = try rows.next() else { throw W1Error.missing("id \(id) missing") }
                    let name: String = row[0]
                    let age: Int64 = row[1]
                    c.add(name: name, age: age)
                }
            }
        }
        checksum = c
    }

    func scanFilter() throws -> (count: Int, scoreSum: Double) {
        try dbQueue.read { db in
            guard let row = try Row.fetchOne(db.cachedStatement(sql: Self.scanSQL)) else {
                throw W1Error.missing("no row")
            }
            return (row[0] as Int, row[1] as Double)
        }
    }

    func updateAges(_ ids: [Int64]) throws {
        try dbQueue.write { db in
            let st = try db.cachedStatement(sql: Self.updateSQL)
            for id in ids {
                st.setUncheckedArguments([id])
                try st.execute()
            }
        }
    }

    func readOne(_ id: Int64, into checksum: inout W1Checksum) throws -> Bool {
        var c = checksum
        let found = try dbQueue.read { db -> Bool in
            let st = try db.cachedStatement(sql: Self.getSQL)
            st.setUncheckedArguments([id])
            let rows = try Row.fetchCursor(st)
            return try withExtendedLifetime(rows) {
                guard let row = try rows.next() else { return false }
                c.add(name: row[0] as String, age: row[1] as Int64)
                return true
            }
        }
        checksum = c
        return found
    }

    func notes(for step: W1Step) -> [String: Any] {
        // Read back, not assumed: the JSON's `durability` must be what SQLite ran with.
        let (mode, sync, version) =
            (try? dbQueue.read { db in
                (
                    try String.fetchOne(db, sql: "PRAGMA journal_mode") ?? "?",
                    try Int.fetchOne(db, sql: "PRAGMA synchronous") ?? -1,
                    try String.fetchOne(db, sql: "SELECT sqlite_version()") ?? "?"
                )
            }) ?? ("?", -1, "?")
        var notes: [String: Any] = [
            "connection": "DatabaseQueue", "sqlite_version": version,
            "journal_mode": mode, "synchronous": sync == 2 ? "FULL" : "\(sync) (NOT FULL)",
        ]
        switch step {
        case .bulkInsert:
            notes["sql"] = Self.insertSQL; notes["how"] = "one dbQueue.write, cached statement, shuffled id order"
        case .smallTxn: notes["sql"] = Self.insertSQL; notes["how"] = "dbQueue.write per object (BEGIN, INSERT, COMMIT)"
        case .pointGet:
            notes["sql"] = Self.getSQL;
            notes["how"] = "one dbQueue.read, cached statement, Row.fetchCursor, name as String"
        case .scanFilter: notes["sql"] = Self.scanSQL; notes["how"] = "one SQL query (count and sum done by SQLite)"
        case .update: notes["sql"] = Self.updateSQL; notes["how"] = "one dbQueue.write, cached statement"
        case .openFirstRead:
            notes["sql"] = Self.getSQL; notes["how"] = "DatabaseQueue(path:) (WAL, synchronous=FULL) + read"
        }
        return notes
    }

    /// Not timed: checkpoint the WAL into the main file and truncate it, so `file_bytes` is the
    /// whole database in one file and the next step starts from a checkpointed database.
    func afterStep() throws -> [String: Any] {
        walBeforeCheckpoint = w1FileSize(path + "-wal")
        try dbQueue.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)")
        }
        return ["wal_bytes_before_checkpoint": walBeforeCheckpoint]
    }

    func fileBytes() -> (bytes: Int64, what: String) {
        (
            w1FileSize(path) + w1FileSize(path + "-wal"),
            "main + -wal after wal_checkpoint(TRUNCATE); -shm not counted"
        )
    }

    func close() throws { try dbQueue.close() }
}
