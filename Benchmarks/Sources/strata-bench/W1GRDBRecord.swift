import Foundation
import GRDB

/// W1 on SQLite through GRDB's record API: the object-level peer of the `strata` engine.
///
/// `strata` runs W1 through Strata's object API (`realm.add`, `object(ofType:forPrimaryKey:)`,
/// `where { }` then `count` and `sum`, a property set on a looked-up object). This engine does the
/// same work through GRDB's object API, written the way GRDB's documentation writes it: a
/// `Codable` record type adopting `FetchableRecord` and `PersistableRecord`, `record.insert(db)`,
/// `Record.fetchOne(db, key:)`, a query interface request asked for its count and then for its sum
/// (two questions, as `Results.count` and `Results.sum(ofProperty:)` are), and `record.update(db)`
/// after changing a fetched record. The database, connection and durability are `grdb`'s: one
/// `DatabaseQueue`, WAL, `synchronous = FULL`.
///
/// `grdb` (W1GRDB.swift) stays the SQL-level peer: cached statements, no records, the scan as one
/// SQL statement computing both answers. The ratio targets come from realm-core's
/// figures, which sit at those ratios to this object-level peer (Docs/Performance.md); both
/// peers are measured and printed in every run.
final class GRDBRecordEngine: W1Engine {
    static let name = "grdb-record"
    static let durability = GRDBEngine.durability
    static let fileExtension = GRDBEngine.fileExtension
    static func files(at path: String) -> [String] { GRDBEngine.files(at: path) }

    /// W1's `Person` as a GRDB record.
    struct PersonRecord: Codable, FetchableRecord, PersistableRecord {
        static let databaseTableName = "person"
        var id: Int64
        var name: String
        var age: Int64
        var score: Double
    }

    /// The SQL-level engine opens the file (same configuration, same schema).
    let sql: GRDBEngine
    var dbQueue: DatabaseQueue { sql.dbQueue }

    init(path: String) throws {
        sql = try GRDBEngine(path: path)
    }

    @inline(__always)
    static func record(_ p: Person) -> PersonRecord {
        PersonRecord(id: p.id, name: p.name, age: p.age, score: p.score)
    }

    func bulkInsert(_ people: [Person]) throws {
        try dbQueue.write { db in
            try sql.createSchema(db)
            for p in people { try Self.record(p).insert(db) }
        }
    }

    func insertOne(_ p: Person) throws {
        try dbQueue.write { db in try Self.record(p).insert(db) }
    }

    func pointGets(_ ids: [Int64], into checksum: inout W1Checksum) throws {
        var c = checksum
        try dbQueue.read { db in
            for id in ids {
                guard let p = try PersonRecord.fetchOne(db, key: id) else { throw W1Error.missing("id \(id) missing") }
                c.add(name: p.name, age: p.age)
            }
        }
        checksum = c
    }

    func scanFilter() throws -> (count: Int, scoreSum: Double) {
        try dbQueue.read { db in
            let matches = PersonRecord.filter(Column("age") > 50)
            let count = try matches.fetchCount(db)
            let sum = try matches.select(GRDB.sum(Column("score")), as: Double.self).fetchOne(db) ?? 0
            return (count, sum)
        }
    }

    func updateAges(_ ids: [Int64]) throws {
        try dbQueue.write { db in
            for id in ids {
                guard var p = try PersonRecord.fetchOne(db, key: id) else { throw W1Error.missing("id \(id) missing") }
                p.age += 1
                try p.update(db)
            }
        }
    }

    func readOne(_ id: Int64, into checksum: inout W1Checksum) throws -> Bool {
        let found = try dbQueue.read { db in try PersonRecord.fetchOne(db, key: id) }
        guard let p = found else { return false }
        checksum.add(name: p.name, age: p.age)
        return true
    }

    func notes(for step: W1Step) -> [String: Any] {
        var n = sql.notes(for: step)
        n["sql"] = nil
        n["api"] = "GRDB record API: struct PersonRecord: Codable, FetchableRecord, PersistableRecord"
        switch step {
        case .bulkInsert:
            n["how"] = "one dbQueue.write { for p in people { try PersonRecord(p).insert(db) } }, shuffled id order"
        case .smallTxn: n["how"] = "dbQueue.write { try record.insert(db) } per object"
        case .pointGet: n["how"] = "one dbQueue.read; PersonRecord.fetchOne(db, key: id) per id, reading name and age"
        case .scanFilter:
            n["how"] =
                "let r = PersonRecord.filter(Column(\"age\") > 50); r.fetchCount(db); r.select(sum(Column(\"score\")), as: Double.self).fetchOne(db) (two queries, as Results.count and Results.sum are two)"
        case .update:
            n["how"] =
                "one dbQueue.write; per id: var p = PersonRecord.fetchOne(db, key: id)!; p.age += 1; try p.update(db)"
        case .openFirstRead: n["how"] = "DatabaseQueue(path:) (WAL, synchronous=FULL) + PersonRecord.fetchOne(db, key:)"
        }
        return n
    }

    func afterStep() throws -> [String: Any] { try sql.afterStep() }
    func fileBytes() -> (bytes: Int64, what: String) { sql.fileBytes() }
    func close() throws { try sql.close() }
}
