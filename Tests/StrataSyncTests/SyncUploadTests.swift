import Foundation
import Strata
import StrataCore
import StrataTestSupport
import XCTest

@testable import StrataSync

/// The upload's fast path for new objects (inserted as the batch makes them unless the server
/// has a row or a tombstone of them), the outbox's binary entries, skipping a replica's own new
/// objects in its downloads, and what `wait(for: .download)` promises while another server
/// transaction is running.
final class SyncUploadTests: SyncTestCase {
    /// An update made before a delete, uploaded after it, does not bring the object back: the
    /// new-object insert must not pass over the server's tombstone.
    @MainActor
    func testAnUpdateOlderThanTheServersTombstoneDoesNotReviveTheObject() async throws {
        let (server, db) = try freshDatabase()
        let a = try await Realm(configuration: configuration("a", server, db), downloadBeforeOpen: .always)
        let b = try await Realm(configuration: configuration("b", server, db), downloadBeforeOpen: .always)
        try a.write { a.add(SyncDog(value: ["id": 7, "name": "Rex", "age": 1])) }
        try await sync(a, to: [b])
        a.syncSession!.suspend()
        try a.write { a.object(ofType: SyncDog.self, forPrimaryKey: 7)!.age = 2 }
        try await Task.sleep(nanoseconds: 5_000_000)
        try b.write { b.delete(b.object(ofType: SyncDog.self, forPrimaryKey: 7)!) }
        try await wait(b, .upload)
        XCTAssertEqual(try server.sql("SELECT count(*) FROM \"SyncDog\"", database: db), "0\n")
        a.syncSession!.resume()
        try await sync(a, to: [b])
        XCTAssertEqual(try server.sql("SELECT count(*) FROM \"SyncDog\"", database: db), "0\n", "the delete is later")
        XCTAssertNil(a.object(ofType: SyncDog.self, forPrimaryKey: 7))
        XCTAssertNil(b.object(ofType: SyncDog.self, forPrimaryKey: 7))
    }

    /// One commit that creates objects and edits one another replica changed meanwhile: the new
    /// ones are inserted, the edited one merged field by field.
    @MainActor
    func testABatchOfNewAndExistingObjectsInsertsTheNewAndMergesTheRest() async throws {
        let (server, db) = try freshDatabase()
        let a = try await Realm(configuration: configuration("a", server, db), downloadBeforeOpen: .always)
        let b = try await Realm(configuration: configuration("b", server, db), downloadBeforeOpen: .always)
        try a.write { a.add(SyncDog(value: ["id": 1, "name": "Rex", "age": 1])) }
        try await sync(a, to: [b])
        a.syncSession!.suspend()
        try b.write { b.object(ofType: SyncDog.self, forPrimaryKey: 1)!.name = "Max" }
        try await wait(b, .upload)
        try a.write {
            a.object(ofType: SyncDog.self, forPrimaryKey: 1)!.age = 9
            for i in 2...4 { a.add(SyncDog(value: ["id": i, "name": "new \(i)", "age": i])) }
        }
        a.syncSession!.resume()
        try await sync(a, to: [b])
        try await sync(b, to: [a])
        XCTAssertEqual(
            try server.sql(
                "SELECT string_agg(id || ':' || name || ':' || age, ' ' ORDER BY id) FROM \"SyncDog\"", database: db),
            "1:Max:9 2:new 2:2 3:new 3:3 4:new 4:4\n")
        for r in [a, b] {
            XCTAssertEqual(r.object(ofType: SyncDog.self, forPrimaryKey: 1)?.name, "Max")
            XCTAssertEqual(r.object(ofType: SyncDog.self, forPrimaryKey: 1)?.age, 9)
            XCTAssertEqual(r.objects(SyncDog.self).count, 4)
        }
    }

    /// A row an SQL writer inserts while the uploader inserts the same new object (the insert
    /// waits for the writer, then fails on the primary key) is merged when the batch is sent
    /// again, and the session reports no error.
    @MainActor
    func testAnSQLInsertRacingTheUploadOfTheSameNewObjectIsMerged() async throws {
        let (server, db) = try freshDatabase()
        let a = try await Realm(configuration: configuration("a", server, db), downloadBeforeOpen: .always)
        let holder = try server.sqlInBackground(
            "BEGIN; INSERT INTO \"SyncDog\" (id, name, age) VALUES (5, 'from sql', 50); SELECT pg_sleep(2); COMMIT;",
            database: db)
        defer { kill(holder, SIGKILL) }
        try await Task.sleep(nanoseconds: 500_000_000)
        try a.write { a.add(SyncDog(value: ["id": 5, "name": "from a", "age": 1])) }
        try await wait(a, .upload)
        try await wait(a, .download)
        a.refresh()
        // A's write is the later one: its fields win.
        XCTAssertEqual(try server.sql("SELECT name || ',' || age FROM \"SyncDog\"", database: db), "from a,1\n")
        XCTAssertEqual(a.object(ofType: SyncDog.self, forPrimaryKey: 5)?.name, "from a")
        XCTAssertNil(a.syncSession?.lastError, "the retried batch was reported as an error")
    }

    /// A server that holds more of this client than the file does (a file restored from a
    /// backup: its outbox numbers start again below the server's) loses none of the new
    /// entries: each batch trims only what it sent.
    @MainActor
    func testAServerHoldingMoreOfThisClientLosesNoEntry() async throws {
        let (server, db) = try freshDatabase()
        let a = try await Realm(configuration: configuration("a", server, db), downloadBeforeOpen: .always)
        try a.write { a.add(SyncDog(value: ["id": 0, "name": "first"])) }
        try await wait(a, .upload)
        try server.sql("UPDATE strata_clients SET uploaded = 1000000", database: db)
        a.syncSession!.suspend()
        // 600 commits: three batches of at most 256 entries.
        for i in 1...600 { try a.write { a.add(SyncDog(value: ["id": i, "name": "dog \(i)"])) } }
        a.syncSession!.resume()
        try await wait(a, .upload)
        XCTAssertEqual(try server.sql("SELECT count(*) FROM \"SyncDog\"", database: db), "601\n")
    }

    /// A model with nothing but a primary key is refused at open, naming it (such an object
    /// could never exist on the server under the merge rules).
    @MainActor
    func testAModelWithOnlyAPrimaryKeyIsRefused() async throws {
        let (server, db) = try freshDatabase()
        XCTAssertThrowsError(try Realm(configuration: configuration("k", server, db, types: [SyncKeyOnly.self]))) {
            let e = $0 as? SyncError
            XCTAssertEqual(e?.code, .unsupportedSchema)
            XCTAssertTrue(e?.message.contains("'SyncKeyOnly'") ?? false, "\($0)")
        }
    }

    /// Two threads opening one file with `downloadBeforeOpen: .always` at once: the second
    /// finds the engine while the first is still preparing it (here queueing 20,000 objects
    /// written before sync was turned on) and waits for it, instead of failing with "not active".
    @MainActor
    func testTwoOpensAtOnceBothWaitForTheFirstOnesPreparation() async throws {
        let (server, db) = try freshDatabase()
        let synced = configuration("a", server, db)
        var plain = synced
        plain.syncConfiguration = nil
        do {
            let r = try Realm(configuration: plain)
            try r.write { for i in 0..<20_000 { r.add(SyncDog(value: ["id": i, "name": "d"])) } }
        }
        let opener = SyncUploadTestOpener()
        let other = Task { try await opener.openAndCount(synced) }
        try await Task.sleep(nanoseconds: 1_000_000)
        let mine = try await Realm(configuration: synced, downloadBeforeOpen: .always)
        XCTAssertEqual(mine.objects(SyncDog.self).count, 20_000)
        let count = try await other.value
        XCTAssertEqual(count, 20_000)
        try await wait(mine, .upload)
        XCTAssertEqual(try server.sql("SELECT count(*) FROM \"SyncDog\"", database: db), "20000\n")
    }

    /// A replica's uploads of new objects are not downloaded back to it (it holds them); another
    /// replica's are, and so is a row another replica changed after.
    @MainActor
    func testAReplicaDoesNotDownloadItsOwnNewObjects() async throws {
        let (server, db) = try freshDatabase()
        let a = try await Realm(configuration: configuration("a", server, db), downloadBeforeOpen: .always)
        let b = try await Realm(configuration: configuration("b", server, db), downloadBeforeOpen: .always)
        let engineA = try XCTUnwrap(SyncEngine.engine(path: a._filePath))
        let engineB = try XCTUnwrap(SyncEngine.engine(path: b._filePath))
        try a.write {
            for i in 1...20 { a.add(SyncDog(value: ["id": i, "name": "dog \(i)", "age": i])) }
        }
        try await sync(a, to: [b])
        try await wait(a, .download)
        XCTAssertEqual(b.objects(SyncDog.self).count, 20)
        XCTAssertEqual(engineB.rowsDownloaded, 20)
        XCTAssertEqual(engineA.rowsDownloaded, 0, "A's own new objects came back to it")

        try b.write { b.object(ofType: SyncDog.self, forPrimaryKey: 3)!.name = "Three" }
        try await sync(b, to: [a])
        XCTAssertEqual(a.object(ofType: SyncDog.self, forPrimaryKey: 3)?.name, "Three")
        XCTAssertEqual(engineA.rowsDownloaded, 1)
    }

    /// `wait(for: .download)` returns only once the replica holds everything committed on the
    /// server before the call, even while an older server transaction is still running (it
    /// holds the download position back).
    @MainActor
    func testAWaitForDownloadIncludesChangesCommittedBehindARunningTransaction() async throws {
        let (server, db) = try freshDatabase()
        let a = try await Realm(configuration: configuration("a", server, db), downloadBeforeOpen: .always)
        let b = try await Realm(configuration: configuration("b", server, db), downloadBeforeOpen: .always)
        // A transaction that takes an id and stays open for three seconds.
        let holder = try server.sqlInBackground(
            "BEGIN; SELECT pg_current_xact_id(); SELECT pg_sleep(3); COMMIT;", database: db)
        defer { kill(holder, SIGKILL) }
        try await Task.sleep(nanoseconds: 500_000_000)
        try a.write { a.add(SyncDog(value: ["id": 1, "name": "Rex", "age": 1])) }
        try await wait(a, .upload)
        let started = Date()
        try await wait(b, .download)
        b.refresh()
        XCTAssertEqual(b.object(ofType: SyncDog.self, forPrimaryKey: 1)?.name, "Rex")
        XCTAssertGreaterThan(Date().timeIntervalSince(started), 1.0, "the wait ended while the holder ran")
    }

    /// An upload batch's plan: objects written whole (once, or by several operations that add
    /// up to every field) are inserted; a write of some fields, a delete, go to the merge.
    func testTheUploadPlanInsertsObjectsWrittenWholeAndMergesTheRest() throws {
        let realm = try Realm(
            configuration: Realm.Configuration(
                fileURL: temporaryDirectory.appendingPathComponent("plan.realm"), objectTypes: [SyncDog.self]))
        let store = realm._storeTransaction.tables
        let synced = ["SyncDog": store["SyncDog"]!]
        let tables = try synced.mapValues { try SyncTable($0, synced: synced) }
        let dog = tables["SyncDog"]!
        let c1 = SyncClock(time: 0x1000, node: 1)
        let c2 = SyncClock(time: 0x2000, node: 1)
        func whole(_ c: SyncClock) -> [String: SyncRecord<StoreValue>.Field] {
            dog.defaults.mapValues { .init(value: $0, clock: c) }
        }
        let age: [String: SyncRecord<StoreValue>.Field] = ["age": .init(value: .int(7), clock: c2)]
        let entry1 = SyncOperation.Entry()
        entry1.appendWrite(dog, key: "1", fields: whole(c2))
        entry1.appendWrite(dog, key: "2", fields: whole(c1))
        entry1.appendWrite(dog, key: "3", fields: age)
        entry1.appendWrite(dog, key: "4", fields: whole(c1))
        let entry2 = SyncOperation.Entry()
        entry2.appendWrite(dog, key: "2", fields: age)
        entry2.appendDelete(dog, key: "4", clock: c2)
        let plan = try SyncUploadPlan(
            uploadEntries: [
                (1, try SyncOperation.decodeForUpload(entry1.bytes, tables: tables)),
                (2, try SyncOperation.decodeForUpload(entry2.bytes, tables: tables)),
            ], tables: tables)
        let t = try XCTUnwrap(plan.tables.first)
        XCTAssertEqual(plan.last, 2)
        XCTAssertEqual(t.keys, ["1", "2", "3", "4"])
        XCTAssertEqual(t.candidates.map(\.key), ["1", "2"])
        XCTAssertEqual(t.fresh.count, 2)
        XCTAssertEqual(t.merge, ["3", "4"])
        XCTAssertEqual(t.oldest, c1)
        XCTAssertEqual(t.ops("2").count, 2)
        XCTAssertEqual(t.ops("2").last?.fields, age)
        // Object 2 as the two writes make it: age from the later one.
        guard case .record(let r) = t.candidates[1].row else { return XCTFail("object 2 is a merged record") }
        XCTAssertEqual(r.fields["age"], age["age"])
        XCTAssertEqual(r.fields["name"]?.clock, c1)
    }

    /// Outbox entries in the binary form read back as written, with values of every kind; an
    /// entry in the JSON form earlier builds wrote still reads.
    func testOutboxEntriesRoundTripAndTheOlderJSONFormStillReads() throws {
        let realm = try Realm(
            configuration: Realm.Configuration(
                fileURL: temporaryDirectory.appendingPathComponent("codec.realm"),
                objectTypes: [SyncDog.self, SyncBag.self]))
        let store = realm._storeTransaction.tables
        let synced = ["SyncDog": store["SyncDog"]!, "SyncBag": store["SyncBag"]!]
        let tables = try synced.mapValues { try SyncTable($0, synced: synced) }
        let c1 = SyncClock(time: 0x1234_5678_9abc, node: 42)
        let c2 = SyncClock(time: 0x1234_5678_9abd, node: 7)
        let ops = [
            SyncOperation(
                table: "SyncDog", key: "1", deleteClock: nil,
                fields: [
                    "name": .init(value: .string("Rëx \"q\""), clock: c1), "age": .init(value: .int(-3), clock: c1),
                    "weight": .init(value: .null, clock: c2),
                    "born": .init(value: .timestamp(seconds: -86_400, nanoseconds: 123_000), clock: c2),
                ]),
            SyncOperation(table: "SyncDog", key: "2", deleteClock: c2, fields: [:]),
            SyncOperation(
                table: "SyncBag", key: "9", deleteClock: nil,
                fields: [
                    "tags": .init(value: .list([.string("a"), .string("ü")]), clock: c1),
                    "labels": .init(value: .map(["k": .string("v"), "n": .null]), clock: c1),
                    "blobs": .init(value: .list([.data([0, 255])]), clock: c2),
                ]),
        ]
        let entry = SyncOperation.Entry()
        for op in ops {
            if let d = op.deleteClock {
                entry.appendDelete(tables[op.table]!, key: op.key, clock: d)
            } else {
                entry.appendWrite(tables[op.table]!, key: op.key, fields: op.fields)
            }
        }
        XCTAssertEqual(entry.bytes.first, SyncOperation.compactTag)
        XCTAssertEqual(try SyncOperation.count(entry.bytes, tables: tables), 3)
        XCTAssertEqual(try SyncOperation.decode(entry.bytes, tables: tables), ops)
        // The first binary form, which earlier builds wrote, still reads.
        XCTAssertEqual(try SyncOperation.count(firstBinaryForm(ops), tables: tables), 3)
        XCTAssertEqual(try SyncOperation.decode(firstBinaryForm(ops), tables: tables), ops)

        // Writes at one clock: whole (every field, in order) or of some fields. A table's field
        // names are written once, however many changes follow.
        let dog = tables["SyncDog"]!
        let whole = dog.fields.map { $0.defaultValue }
        let one = SyncOperation.Entry()
        for k in 1...3 {
            one.appendWrite(dog, key: "\(k)", written: Array(whole.enumerated().map { ($0, $1) }), clock: c1)
        }
        one.appendWrite(dog, key: "4", written: [(field: 1, value: .int(9))], clock: c2)
        one.appendDelete(dog, key: "5", clock: c2)
        let decoded = try SyncOperation.decodeForUpload(one.bytes, tables: tables)
        XCTAssertEqual(decoded.map(\.key), ["1", "2", "3", "4", "5"])
        XCTAssertTrue(decoded[0...2].allSatisfy { $0.writesWhole(dog) && $0.writes.allSatisfy { $0.clock == c1 } })
        XCTAssertEqual(decoded[0].writes.map(\.value), whole)
        XCTAssertEqual(decoded[3].writes.map(\.field), [1])
        XCTAssertEqual(decoded[3].writes.first?.clock, c2)
        XCTAssertEqual(decoded[4].deleteClock, c2)
        let named = one.bytes.indices.filter { one.bytes[$0...].starts(with: Array("weight".utf8)) }
        XCTAssertEqual(named.count, 1, "the field names are written once")
        // A change before any table item, or a field number past the table's list, is damage.
        var early = one.bytes
        early[5] = SyncOperation.Kind.delete
        XCTAssertThrowsError(try SyncOperation.decode(early, tables: tables))
        // A count in the header below the changes there are would lose the rest: refused.
        var short = one.bytes
        short[1] -= 1
        XCTAssertThrowsError(try SyncOperation.decode(short, tables: tables))
        var shortFirst = firstBinaryForm(ops)
        shortFirst[1] -= 1
        XCTAssertThrowsError(try SyncOperation.decode(shortFirst, tables: tables))

        // A table the model no longer syncs is skipped, and the next table's fields still read.
        let mixed = SyncOperation.Entry()
        mixed.appendWrite(tables["SyncBag"]!, key: "9", fields: ops[2].fields)
        mixed.appendWrite(tables["SyncDog"]!, key: "1", fields: ops[0].fields)
        XCTAssertEqual(try SyncOperation.decode(mixed.bytes, tables: ["SyncDog": tables["SyncDog"]!]), [ops[0]])
        // A damaged entry is refused with an error, not read as fewer changes.
        XCTAssertThrowsError(try SyncOperation.decode(Array(entry.bytes.dropLast(3)), tables: tables))

        let json =
            #"[{"t":"SyncDog","k":"1","f":{"name":["Rex","0000123456789abc.000000000000002a"],"age":[4,"0000123456789abc.000000000000002a"]}},{"t":"SyncDog","k":"2","d":"0000123456789abd.0000000000000007"}]"#
        let old = try SyncOperation.decode(Array(json.utf8), tables: tables)
        XCTAssertEqual(
            old,
            [
                SyncOperation(
                    table: "SyncDog", key: "1", deleteClock: nil,
                    fields: ["name": .init(value: .string("Rex"), clock: c1), "age": .init(value: .int(4), clock: c1)]),
                SyncOperation(table: "SyncDog", key: "2", deleteClock: c2, fields: [:]),
            ])
        XCTAssertEqual(try SyncOperation.count(Array(json.utf8), tables: tables), 2)

        // Values queued before a migration changed a property's type: a number of another width
        // is converted, another kind is dropped (the migration queues the field again).
        let stale = SyncOperation.Entry()
        stale.appendWrite(
            tables["SyncDog"]!, key: "3",
            fields: [
                "name": .init(value: .int(5), clock: c1), "age": .init(value: .double(1.5), clock: c1),
                "weight": .init(value: .int(3), clock: c1),
            ])
        XCTAssertEqual(
            try SyncOperation.decode(stale.bytes, tables: tables),
            [
                SyncOperation(
                    table: "SyncDog", key: "3", deleteClock: nil,
                    fields: ["weight": .init(value: .double(3), clock: c1)])
            ])
    }
}

/// `ops` as an outbox entry in the first binary form (FORMAT.md, "Sync trees": first byte 1),
/// which builds before the compact form wrote: every change names its table, every field its
/// name and clock.
private func firstBinaryForm(_ ops: [SyncOperation]) -> [UInt8] {
    var out: [UInt8] = [SyncOperation.binaryTag]
    func u32(_ v: Int) { withUnsafeBytes(of: UInt32(v).littleEndian) { out += $0 } }
    func string(_ s: String) {
        u32(s.utf8.count)
        out += Array(s.utf8)
    }
    func clock(_ c: SyncClock) { withUnsafeBytes(of: (c.time.littleEndian, c.node.littleEndian)) { out += $0 } }
    u32(ops.count)
    for op in ops {
        out.append(op.deleteClock == nil ? 0 : 1)
        string(op.table)
        string(op.key)
        if let d = op.deleteClock {
            clock(d)
            continue
        }
        u32(op.fields.count)
        for (name, f) in op.fields.sorted(by: { $0.key < $1.key }) {
            string(name)
            clock(f.clock)
            f.value.appendTagged(to: &out)
        }
    }
    return out
}

/// Opens a synced realm on an actor of its own (another thread than the main actor's).
private actor SyncUploadTestOpener {
    func openAndCount(_ configuration: Realm.Configuration) async throws -> Int {
        let realm = try await Realm(configuration: configuration, actor: self, downloadBeforeOpen: .always)
        return realm.objects(SyncDog.self).count
    }
}
