import Foundation
import Strata
import StrataCore
import XCTest

@testable import StrataSync

/// What a local commit leaves in the outbox and the clock records (Docs/Sync.md, "Outbox").
final class SyncCaptureTests: SyncTestCase {
    /// Objects a commit inserts are captured whole: one write per object at the commit's clock
    /// holding the values as the server keeps them (a date at whole microseconds, stored so in
    /// the realm too), the key in its text form (negative and extreme `Int`s, a `String` key),
    /// and a clock record naming the key and every field at that clock. A later edit of every
    /// field (the per-object capture) records the same shape at its own clock.
    @MainActor
    func testInsertedObjectsAreCapturedWholeWithTheirClockRecords() async throws {
        let (server, db) = try freshDatabase()
        let types: [ObjectBase.Type] = [SyncDog.self, SyncNote.self]
        let a = try await Realm(
            configuration: configuration("a", server, db, types: types), downloadBeforeOpen: .always)
        a.syncSession!.suspend()
        let born = Date(timeIntervalSince1970: 1_700_000_000.123_456_7)
        var ids = Array(-2...300).map { $0 * 7 }
        ids += [Int.max, -Int.max]
        try a.write {
            for i in ids {
                a.add(
                    SyncDog(value: [
                        "id": i, "name": i % 2 == 0 ? "dög \(i)" : "", "age": Int.max - abs(i % 1000),
                        "weight": i % 3 == 0 ? nil : Double(i) / 4, "born": born,
                    ]))
            }
            a.add(SyncNote(value: ["id": "ключ \"1\"", "text": "x", "tag": UUID(), "blob": Data([0, 255])]))
        }
        let store = a._storeTransaction.tables
        let synced = ["SyncDog": store["SyncDog"]!, "SyncNote": store["SyncNote"]!]
        let tables = try synced.mapValues { try SyncTable($0, synced: synced) }

        func check(_ txn: StoreTransaction, entry: [UInt8], keys expected: [String]) throws -> SyncClock {
            let ops = try SyncOperation.decodeForUpload(entry, tables: tables)
            XCTAssertEqual(ops.map(\.key), expected)
            let clock = try XCTUnwrap(ops.first?.writes.first?.clock)
            for op in ops {
                let t = try XCTUnwrap(tables[op.table])
                XCTAssertTrue(op.writesWhole(t), "\(op.table) \(op.key) written whole")
                XCTAssertTrue(op.writes.allSatisfy { $0.clock == clock }, "one clock for the commit")
                let objectKey = try XCTUnwrap(txn.objectKey(t.store, primaryKey: try XCTUnwrap(t.keyValue(op.key))))
                let row = try XCTUnwrap(try txn.row(t.store, key: objectKey))
                XCTAssertEqual(op.writes.map(\.value), t.fields.map { row.value($0.column) }, op.key)
                let record = try XCTUnwrap(try SyncLocalStore.clocks(txn, table: t.name, key: objectKey))
                XCTAssertEqual(record.key, op.key)
                XCTAssertEqual(record.fields, Dictionary(uniqueKeysWithValues: t.fields.map { ($0.name, clock) }))
            }
            return clock
        }

        let txn = a._storeTransaction
        let entries = try SyncLocalStore.outbox(txn, limit: 10)
        XCTAssertEqual(entries.count, 1)
        let keys = ids.sorted().map { String($0) } + ["ключ \"1\""]
        let first = try check(txn, entry: try XCTUnwrap(entries.first?.json), keys: keys)
        // Stored as the server keeps it: whole microseconds.
        let stored = try XCTUnwrap(a.object(ofType: SyncDog.self, forPrimaryKey: 7)).born
        XCTAssertEqual(
            stored.timeIntervalSince1970 * 1e6, (stored.timeIntervalSince1970 * 1e6).rounded(), accuracy: 1e-3)
        XCTAssertNotEqual(stored, born)

        try a.write {
            let dog = a.object(ofType: SyncDog.self, forPrimaryKey: 7)!
            dog.name = "seven"
            dog.age = 7
            dog.weight = 1.5
            dog.born = Date(timeIntervalSince1970: 5)
        }
        let later = try SyncLocalStore.outbox(a._storeTransaction, limit: 10)
        XCTAssertEqual(later.count, 2)
        let second = try check(a._storeTransaction, entry: try XCTUnwrap(later.last?.json), keys: ["7"])
        XCTAssertGreaterThan(second, first)
    }

    /// A `String` containing U+0000 in a new object's field or primary key fails the write
    /// with an error naming the property, and commits nothing.
    @MainActor
    func testANewObjectPostgresCannotStoreFailsItsWrite() async throws {
        let (server, db) = try freshDatabase()
        let a = try await Realm(
            configuration: configuration("a", server, db, types: [SyncDog.self, SyncNote.self]),
            downloadBeforeOpen: .always)
        a.syncSession!.suspend()
        XCTAssertThrowsError(
            try a.write {
                a.add(SyncDog(value: ["id": 1, "name": "fine"]))
                a.add(SyncDog(value: ["id": 2, "name": "nul \u{0} here"]))
            }
        ) { error in
            XCTAssertTrue("\(error)".contains("SyncDog.name"), "\(error)")
        }
        XCTAssertThrowsError(try a.write { a.add(SyncNote(value: ["id": "k\u{0}", "text": "x"])) }) { error in
            XCTAssertTrue("\(error)".contains("SyncNote.id"), "\(error)")
        }
        XCTAssertEqual(a.objects(SyncDog.self).count, 0)
        XCTAssertEqual(a.objects(SyncNote.self).count, 0)
        XCTAssertEqual(try SyncLocalStore.outbox(a._storeTransaction, limit: 10).count, 0)
    }
}
