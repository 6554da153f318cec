import Foundation
import Strata
import StrataTestSupport
import XCTest

@testable import StrataSync

/// Synced realms against a real PostgreSQL server started for this test class.
final class SyncTests: SyncTestCase {
    @MainActor
    func testTwoReplicasEditingDifferentFieldsOfOneObjectConverge() async throws {
        let (server, db) = try freshDatabase()
        let a = try await Realm(configuration: configuration("a", server, db), downloadBeforeOpen: .always)
        let b = try await Realm(configuration: configuration("b", server, db), downloadBeforeOpen: .always)
        try a.write { a.add(SyncDog(value: ["id": 1, "name": "Rex", "age": 3])) }
        try await sync(a, to: [b])
        XCTAssertEqual(b.object(ofType: SyncDog.self, forPrimaryKey: 1)?.name, "Rex")

        // Both offline: A renames, B ages the dog.
        a.syncSession!.suspend()
        b.syncSession!.suspend()
        try a.write { a.object(ofType: SyncDog.self, forPrimaryKey: 1)!.name = "Max" }
        try b.write { b.object(ofType: SyncDog.self, forPrimaryKey: 1)!.age = 4 }
        a.syncSession!.resume()
        b.syncSession!.resume()
        try await sync(a, to: [b])
        try await sync(b, to: [a])
        for r in [a, b] {
            let dog = try XCTUnwrap(r.object(ofType: SyncDog.self, forPrimaryKey: 1))
            XCTAssertEqual(dog.name, "Max")
            XCTAssertEqual(dog.age, 4)
        }
        XCTAssertEqual(
            try server.sql("SELECT name || ',' || age FROM \"SyncDog\" WHERE id = 1", database: db), "Max,4\n")
    }

    /// The same field edited on both replicas while apart ends as the later edit everywhere,
    /// whichever replica uploads first.
    @MainActor
    func testSameFieldConvergesToTheLaterClockInEitherUploadOrder() async throws {
        for laterUploadsFirst in [false, true] {
            let (server, db) = try freshDatabase()
            emptyTemporaryDirectory()
            let a = try await Realm(configuration: configuration("a", server, db), downloadBeforeOpen: .always)
            let b = try await Realm(configuration: configuration("b", server, db), downloadBeforeOpen: .always)
            try a.write { a.add(SyncDog(value: ["id": 7, "name": "Rex", "age": 1])) }
            try await sync(a, to: [b])
            a.syncSession!.suspend()
            b.syncSession!.suspend()
            try a.write { a.object(ofType: SyncDog.self, forPrimaryKey: 7)!.age = 10 }
            try await Task.sleep(nanoseconds: 5_000_000)
            try b.write { b.object(ofType: SyncDog.self, forPrimaryKey: 7)!.age = 20 }  // the later clock
            let order = laterUploadsFirst ? [b, a] : [a, b]
            for r in order {
                r.syncSession!.resume()
                try await wait(r, .upload)
            }
            for r in [a, b] {
                try await wait(r, .download)
                r.refresh()
                XCTAssertEqual(
                    r.object(ofType: SyncDog.self, forPrimaryKey: 7)?.age, 20,
                    "later uploads first: \(laterUploadsFirst)")
            }
            XCTAssertEqual(try server.sql("SELECT age FROM \"SyncDog\" WHERE id = 7", database: db), "20\n")
            await SyncEngine.stopAll()
        }
    }

    /// Rows inserted, updated and deleted with plain SQL reach every replica.
    @MainActor
    func testEditsMadeInPsqlReachBothReplicas() async throws {
        let (server, db) = try freshDatabase()
        let a = try await Realm(configuration: configuration("a", server, db), downloadBeforeOpen: .always)
        let b = try await Realm(configuration: configuration("b", server, db), downloadBeforeOpen: .always)
        try a.write {
            a.add(SyncDog(value: ["id": 1, "name": "Rex", "age": 3]))
            a.add(SyncDog(value: ["id": 2, "name": "Fido", "age": 5]))
        }
        try await sync(a, to: [b])
        try server.sql(
            "INSERT INTO \"SyncDog\" (id, name, age, weight, born) VALUES (3, 'Psql', 9, 12.5, '2024-05-01T10:00:00.123456Z')",
            database: db)
        try server.sql("UPDATE \"SyncDog\" SET age = 30 WHERE id = 1", database: db)
        try server.sql("DELETE FROM \"SyncDog\" WHERE id = 2", database: db)
        for r in [a, b] {
            try await wait(r, .download)
            r.refresh()
            XCTAssertEqual(r.object(ofType: SyncDog.self, forPrimaryKey: 1)?.age, 30)
            XCTAssertEqual(r.object(ofType: SyncDog.self, forPrimaryKey: 1)?.name, "Rex")
            XCTAssertNil(r.object(ofType: SyncDog.self, forPrimaryKey: 2))
            let d = try XCTUnwrap(r.object(ofType: SyncDog.self, forPrimaryKey: 3))
            XCTAssertEqual(d.name, "Psql")
            XCTAssertEqual(d.weight, 12.5)
            XCTAssertEqual(d.born.timeIntervalSince1970, 1_714_557_600.123456, accuracy: 1e-6)
            XCTAssertEqual(r.objects(SyncDog.self).count, 2)
        }
        // A later local edit of a row the server stamped still wins over it.
        try b.write { b.object(ofType: SyncDog.self, forPrimaryKey: 3)!.age = 10 }
        try await sync(b, to: [a])
        XCTAssertEqual(a.object(ofType: SyncDog.self, forPrimaryKey: 3)?.age, 10)
    }

    /// A delete on one replica racing an update on another ends the same on both and on the
    /// server: the later of the two wins.
    @MainActor
    func testDeleteRacingAnUpdateResolvesTheSameEverywhere() async throws {
        for deleteIsLater in [true, false] {
            let (server, db) = try freshDatabase()
            emptyTemporaryDirectory()
            let a = try await Realm(configuration: configuration("a", server, db), downloadBeforeOpen: .always)
            let b = try await Realm(configuration: configuration("b", server, db), downloadBeforeOpen: .always)
            try a.write { a.add(SyncDog(value: ["id": 5, "name": "Rex", "age": 1])) }
            try await sync(a, to: [b])
            a.syncSession!.suspend()
            b.syncSession!.suspend()
            let deleteFirst = !deleteIsLater
            if deleteFirst {
                try a.write { a.delete(a.object(ofType: SyncDog.self, forPrimaryKey: 5)!) }
                try await Task.sleep(nanoseconds: 5_000_000)
                try b.write { b.object(ofType: SyncDog.self, forPrimaryKey: 5)!.age = 2 }
            } else {
                try b.write { b.object(ofType: SyncDog.self, forPrimaryKey: 5)!.age = 2 }
                try await Task.sleep(nanoseconds: 5_000_000)
                try a.write { a.delete(a.object(ofType: SyncDog.self, forPrimaryKey: 5)!) }
            }
            for r in [b, a] {
                r.syncSession!.resume()
                try await wait(r, .upload)
            }
            for r in [a, b] {
                try await wait(r, .download)
                r.refresh()
                let dog = r.object(ofType: SyncDog.self, forPrimaryKey: 5)
                if deleteIsLater {
                    XCTAssertNil(dog)
                } else {
                    // The update came after the delete: the object lives on with the updated
                    // field, every field the delete reset back at its default.
                    XCTAssertEqual(dog?.age, 2)
                    XCTAssertEqual(dog?.name, "")
                }
            }
            let rows = try server.sql("SELECT count(*) FROM \"SyncDog\" WHERE id = 5", database: db)
            XCTAssertEqual(rows, deleteIsLater ? "0\n" : "1\n")
            await SyncEngine.stopAll()
        }
    }

    /// Writes made while the server is down stay in the outbox and upload once it is back.
    @MainActor
    func testWritesWhileTheServerIsDownUploadWhenItReturns() async throws {
        let (server, db) = try freshDatabase()
        let a = try await Realm(configuration: configuration("a", server, db), downloadBeforeOpen: .always)
        try server.pause()
        defer { try? server.start() }
        try a.write {
            for i in 0..<50 { a.add(SyncDog(value: ["id": i, "name": "dog \(i)", "age": i])) }
        }
        XCTAssertEqual(a.objects(SyncDog.self).count, 50)
        try await Task.sleep(nanoseconds: 300_000_000)
        try server.start()
        try await wait(a, .upload)
        XCTAssertEqual(try server.sql("SELECT count(*), sum(age) FROM \"SyncDog\"", database: db), "50|1225\n")
        XCTAssertNotNil(a.syncSession!.lastError, "the lost server was reported")
    }

    /// A replayed batch (the upload's acknowledgement lost) changes nothing on the server.
    @MainActor
    func testAReplayedUploadBatchChangesNothing() async throws {
        let (server, db) = try freshDatabase()
        let a = try await Realm(configuration: configuration("a", server, db), downloadBeforeOpen: .always)
        try a.write { a.add(SyncDog(value: ["id": 1, "name": "Rex", "age": 3])) }
        try await wait(a, .upload)
        let before = try server.sql(
            "SELECT name, age, _strata_clocks::text, _strata_xid::text FROM \"SyncDog\"", database: db)
        // Send the same entry again, as a client that crashed before trimming its outbox would.
        let engine = try XCTUnwrap(SyncEngine.engine(path: a._filePath))
        let clock = SyncClock(time: 1, node: 1)
        let op = SyncOperation(
            table: "SyncDog", key: "1", deleteClock: nil, fields: ["age": .init(value: .int(99), clock: clock)])
        let link = try await SyncServerLink.connect(engine.config)
        let clients = try server.sql("SELECT client || '|' || uploaded FROM strata_clients", database: db)
        let parts = clients.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: "|")
        let uploaded = try await link.upload(
            client: String(parts[0]), entries: [(UInt64(parts[1])!, [op])], tables: engine.tables)
        await link.close()
        XCTAssertEqual(uploaded.held, UInt64(parts[1])!)
        XCTAssertNil(uploaded.newRowsOnly, "the row existed: the batch merged, it did not insert")
        XCTAssertEqual(
            try server.sql("SELECT name, age, _strata_clocks::text, _strata_xid::text FROM \"SyncDog\"", database: db),
            before)
    }

    /// A model that cannot be synced is refused at open with an error naming it.
    @MainActor
    func testAnUnsyncableModelIsRefusedWithAnErrorNamingIt() async throws {
        let (server, db) = try freshDatabase()
        XCTAssertThrowsError(
            try Realm(
                configuration: configuration("l", server, db, types: [SyncYard.self, SyncPlot.self, SyncDog.self]))
        ) {
            error in
            let e = error as? SyncError
            XCTAssertEqual(e?.code, .unsupportedSchema)
            XCTAssertTrue(e?.message.contains("SyncYard.plot.keeper") ?? false, "\(error)")
        }
    }

    /// Values of every synced type survive the round trip through PostgreSQL.
    @MainActor
    func testValuesOfEveryTypeRoundTrip() async throws {
        let (server, db) = try freshDatabase()
        let types: [ObjectBase.Type] = [SyncDog.self, SyncNote.self]
        let a = try await Realm(
            configuration: configuration("a", server, db, types: types), downloadBeforeOpen: .always)
        let b = try await Realm(
            configuration: configuration("b", server, db, types: types), downloadBeforeOpen: .always)
        let tag = UUID()
        let born = Date(timeIntervalSince1970: 1_700_000_000.25)
        try a.write {
            a.add(
                SyncDog(value: [
                    "id": -3, "name": "Ünïcode \"quoted\" \\ \n", "age": Int.max, "weight": -0.5, "born": born,
                ]))
            a.add(SyncNote(value: ["id": "n'1", "text": "x", "tag": tag, "blob": Data([0, 1, 254, 255])]))
        }
        try await sync(a, to: [b])
        let dog = try XCTUnwrap(b.object(ofType: SyncDog.self, forPrimaryKey: -3))
        XCTAssertEqual(dog.name, "Ünïcode \"quoted\" \\ \n")
        XCTAssertEqual(dog.age, Int.max)
        XCTAssertEqual(dog.weight, -0.5)
        XCTAssertEqual(dog.born, born)
        let note = try XCTUnwrap(b.object(ofType: SyncNote.self, forPrimaryKey: "n'1"))
        XCTAssertEqual(note.tag, tag)
        XCTAssertEqual(note.blob, Data([0, 1, 254, 255]))
        try a.write { a.object(ofType: SyncNote.self, forPrimaryKey: "n'1")!.tag = nil }
        try await sync(a, to: [b])
        XCTAssertNil(b.object(ofType: SyncNote.self, forPrimaryKey: "n'1")?.tag)
    }

    /// Lists, sets and maps sync as one jsonb value each: they round-trip (dates at whole
    /// microseconds, Data, nil elements, unicode keys), SQL edits of them reach the replicas,
    /// and two replicas editing different collections of one object both keep their edits while
    /// edits of the same collection resolve to the later one, whole.
    @MainActor
    func testCollectionsSyncAsJSONValues() async throws {
        let (server, db) = try freshDatabase()
        let a = try await Realm(
            configuration: configuration("a", server, db, types: [SyncBag.self]), downloadBeforeOpen: .always)
        let b = try await Realm(
            configuration: configuration("b", server, db, types: [SyncBag.self]), downloadBeforeOpen: .always)
        let day = Date(timeIntervalSince1970: 1_700_000_000.123456)
        try a.write {
            let bag = SyncBag()
            bag.id = 1
            bag.tags.append(objectsIn: ["a", "b\"quoted\"", "ü"])
            bag.scores.insert(objectsIn: [3, 1, 2])
            bag.days.append(objectsIn: [day, Date(timeIntervalSince1970: -86_400.5)])
            bag.labels["colour"] = "red"
            bag.labels["ключ"] = .some(nil)
            bag.blobs.append(Data([0, 255]))
            bag.weights.append(objectsIn: [1.5, nil, -0.0])
            a.add(bag)
        }
        try await sync(a, to: [b])
        let bag = try XCTUnwrap(b.object(ofType: SyncBag.self, forPrimaryKey: 1))
        XCTAssertEqual(Array(bag.tags), ["a", "b\"quoted\"", "ü"])
        XCTAssertEqual(Set(bag.scores), [1, 2, 3])
        XCTAssertEqual(Array(bag.days), Array(a.object(ofType: SyncBag.self, forPrimaryKey: 1)!.days))
        XCTAssertEqual(bag.days.first?.timeIntervalSince1970 ?? 0, 1_700_000_000.123456, accuracy: 1e-6)
        XCTAssertEqual(bag.labels["colour"], .some("red"))
        XCTAssertEqual(bag.labels.count, 2)
        XCTAssertEqual(Array(bag.blobs), [Data([0, 255])])
        XCTAssertEqual(Array(bag.weights), [1.5, nil, -0.0])
        XCTAssertEqual(
            try server.sql("SELECT tags::text || ' ' || labels::text FROM \"SyncBag\" WHERE id = 1", database: db),
            "[\"a\", \"b\\\"quoted\\\"\", \"ü\"] {\"colour\": \"red\", \"ключ\": null}\n")

        // An edit in SQL.
        try server.sql("UPDATE \"SyncBag\" SET tags = '[\"from sql\"]' WHERE id = 1", database: db)
        for r in [a, b] {
            try await wait(r, .download)
            r.refresh()
            XCTAssertEqual(Array(r.object(ofType: SyncBag.self, forPrimaryKey: 1)!.tags), ["from sql"])
        }

        // Apart: A edits the tags and the scores, B the scores (later) and the labels.
        a.syncSession!.suspend()
        b.syncSession!.suspend()
        try a.write {
            let bag = a.object(ofType: SyncBag.self, forPrimaryKey: 1)!
            bag.tags.append("from a")
            bag.scores.insert(10)
        }
        try await Task.sleep(nanoseconds: 5_000_000)
        try b.write {
            let bag = b.object(ofType: SyncBag.self, forPrimaryKey: 1)!
            bag.scores.remove(1)
            bag.labels["colour"] = "blue"
        }
        a.syncSession!.resume()
        b.syncSession!.resume()
        try await sync(a, to: [b])
        try await sync(b, to: [a])
        for r in [a, b] {
            let bag = try XCTUnwrap(r.object(ofType: SyncBag.self, forPrimaryKey: 1))
            XCTAssertEqual(Array(bag.tags), ["from sql", "from a"])
            XCTAssertEqual(Set(bag.scores), [2, 3], "the later edit of the set wins whole")
            XCTAssertEqual(bag.labels["colour"], .some("blue"))
        }
        XCTAssertEqual(
            try server.sql("SELECT scores::text FROM \"SyncBag\" WHERE id = 1", database: db).contains("10"), false)
    }

    /// Values PostgreSQL cannot store fail the local write with an error naming the property,
    /// instead of committing and then stalling the upload queue; the session goes on.
    @MainActor
    func testValuesPostgresCannotStoreFailTheWriteAndTheQueueGoesOn() async throws {
        let (server, db) = try freshDatabase()
        let types: [ObjectBase.Type] = [SyncDog.self, SyncNote.self, SyncBag.self]
        let a = try await Realm(
            configuration: configuration("a", server, db, types: types), downloadBeforeOpen: .always)
        let refused: [(String, () -> Void)] = [
            ("SyncDog.name", { a.add(SyncDog(value: ["id": 1, "name": "a\u{0}b"])) }),
            ("SyncNote.id", { a.add(SyncNote(value: ["id": "k\u{0}"])) }),
            ("SyncDog.born", { a.add(SyncDog(value: ["id": 2, "born": Date(timeIntervalSince1970: 1e13)])) }),
            (
                "SyncBag.labels",
                {
                    let bag = SyncBag()
                    bag.id = 3
                    bag.labels["k\u{0}"] = "v"
                    a.add(bag)
                }
            ),
        ]
        for (property, write) in refused {
            XCTAssertThrowsError(try a.write { write() }, property) { error in
                XCTAssertTrue(
                    "\(error)".contains(property) && "\(error)".contains("PostgreSQL cannot store"), "\(error)")
            }
            XCTAssertFalse(a.isInWriteTransaction)
        }
        XCTAssertEqual(a.objects(SyncDog.self).count, 0)
        try a.write { a.add(SyncDog(value: ["id": 4, "name": "fine", "born": Date(timeIntervalSince1970: -1e10)])) }
        try await wait(a, .upload)
        XCTAssertEqual(try server.sql("SELECT name FROM \"SyncDog\"", database: db), "fine\n")
    }

    /// SQL writes the replicas could not read are refused by the server (an ObjectId that is
    /// not 24 hex digits, an infinite date); an ObjectId written in uppercase is stored lowered.
    @MainActor
    func testSQLWritesTheReplicasCouldNotReadAreRefused() async throws {
        let (server, db) = try freshDatabase()
        let a = try await Realm(
            configuration: configuration("a", server, db, types: [SyncDog.self, SyncReading.self]),
            downloadBeforeOpen: .always)
        try a.write { a.add(SyncDog(value: ["id": 1, "name": "Rex"])) }
        try await wait(a, .upload)
        try server.sql(
            "INSERT INTO \"SyncReading\" (id, sensor, value) VALUES ('ABCDEFABCDEFABCDEFABCDEF', 's', 1)", database: db)
        XCTAssertEqual(try server.sql("SELECT id FROM \"SyncReading\"", database: db), "abcdefabcdefabcdefabcdef\n")
        XCTAssertThrowsError(
            try server.sql("INSERT INTO \"SyncReading\" (id, sensor, value) VALUES ('xyz', 's', 1)", database: db))
        XCTAssertThrowsError(try server.sql("UPDATE \"SyncDog\" SET born = 'infinity' WHERE id = 1", database: db))
        try server.sql("UPDATE \"SyncDog\" SET name = 'Max' WHERE id = 1", database: db)
        try await wait(a, .download)
        a.refresh()
        XCTAssertEqual(a.object(ofType: SyncDog.self, forPrimaryKey: 1)?.name, "Max")
    }

    /// A migration commits outside the outbox; the next synced open uploads what it changed:
    /// every field of every object (the migration's values, with new clocks) and tombstones for
    /// the objects it deleted. Another replica ends with the migrated data.
    @MainActor
    func testAMigrationsChangesUploadAtTheNextSyncedOpen() async throws {
        let (server, db) = try freshDatabase()
        do {
            let a = try await Realm(configuration: configuration("a", server, db), downloadBeforeOpen: .always)
            try a.write { for i in 1...3 { a.add(SyncDog(value: ["id": i, "name": "dog\(i)", "age": i])) } }
            try await wait(a, .upload)
        }
        await SyncEngine.stopAll()
        var migrated = configuration("a", server, db)
        migrated.schemaVersion = 2
        migrated.migrationBlock = { migration, _ in
            migration.enumerateObjects(ofType: SyncDog.className()) { old, new in
                guard let old, let new else { return }
                if (old["id"] as? Int) == 3 {
                    migration.delete(new)
                } else {
                    new["name"] = (old["name"] as! String).uppercased()
                }
            }
        }
        let a = try await Realm(configuration: migrated, downloadBeforeOpen: .never)
        try await wait(a, .upload)
        XCTAssertEqual(
            try server.sql("SELECT string_agg(id || '=' || name, ',' ORDER BY id) FROM \"SyncDog\"", database: db),
            "1=DOG1,2=DOG2\n")
        let b = try await Realm(configuration: configuration("b", server, db), downloadBeforeOpen: .always)
        XCTAssertEqual(b.objects(SyncDog.self).sorted(byKeyPath: "id").map(\.id), [1, 2])
        XCTAssertEqual(b.objects(SyncDog.self).sorted(byKeyPath: "id").map(\.name), ["DOG1", "DOG2"])
        // Opened again without a migration: nothing more is queued.
        await SyncEngine.stopAll()
        let again = try await Realm(configuration: migrated, downloadBeforeOpen: .never)
        XCTAssertEqual(try SyncLocalStore.lastOutboxSeq(again._storeTransaction), 0)
    }

    /// A trigger dropped on the server (the recorded fingerprint still current) is created
    /// again by the next replica that connects: SQL deletes leave tombstones again.
    @MainActor
    func testATriggerDroppedOnTheServerIsCreatedAgainByTheNextReplica() async throws {
        let (server, db) = try freshDatabase()
        let a = try await Realm(configuration: configuration("a", server, db), downloadBeforeOpen: .always)
        try a.write { a.add(SyncDog(value: ["id": 1, "name": "Rex"])) }
        try await wait(a, .upload)
        try server.sql("DROP TRIGGER strata_delete ON \"SyncDog\"", database: db)
        // The fingerprint still says the schema is current; the missing trigger does not.
        let b = try await Realm(configuration: configuration("b", server, db), downloadBeforeOpen: .always)
        XCTAssertEqual(b.objects(SyncDog.self).count, 1)
        try server.sql("DELETE FROM \"SyncDog\" WHERE id = 1", database: db)
        XCTAssertEqual(
            try server.sql("SELECT count(*) FROM strata_tombstones WHERE tbl = 'SyncDog' AND pk = '1'", database: db),
            "1\n", "the delete in SQL left no tombstone")
        for r in [a, b] {
            try await wait(r, .download)
            r.refresh()
            XCTAssertNil(r.object(ofType: SyncDog.self, forPrimaryKey: 1))
        }
    }

    /// A replica whose schema the server has already takes no lock on the synced tables when
    /// it connects: it opens and downloads while another session holds a lock that any DDL
    /// would wait for (three loops each running DDL deadlocked with a first download pass).
    @MainActor
    func testAConnectingReplicaRunsNoDDLWhenTheSchemaIsCurrent() async throws {
        let (server, db) = try freshDatabase()
        let a = try await Realm(configuration: configuration("a", server, db), downloadBeforeOpen: .always)
        try a.write { a.add(SyncDog(value: ["id": 1, "name": "Rex"])) }
        try await wait(a, .upload)
        let holder = try server.sqlInBackground(
            "BEGIN; LOCK TABLE \"SyncDog\" IN ACCESS SHARE MODE; SELECT pg_sleep(60); COMMIT;", database: db)
        defer {
            kill(holder, SIGKILL)
            var status: Int32 = 0
            waitpid(holder, &status, 0)
        }
        // Wait until the lock is held.
        for _ in 0..<200 {
            let held = try server.sql(
                "SELECT count(*) FROM pg_locks l JOIN pg_class c ON c.oid = l.relation WHERE c.relname = 'SyncDog' AND l.mode = 'AccessShareLock' AND l.granted",
                database: db)
            if held != "0\n" { break }
            try await Task.sleep(nanoseconds: 20_000_000)
        }
        let b = try await Realm(configuration: configuration("b", server, db), downloadBeforeOpen: .never)
        try await wait(b, .download, seconds: 20)
        b.refresh()
        XCTAssertEqual(b.objects(SyncDog.self).count, 1)
    }

    /// A synced file opened for writing without its sync configuration is refused (its commits
    /// would never reach the server); read-only is allowed.
    @MainActor
    func testASyncedFileOpenedWithoutItsSyncConfigurationIsRefused() async throws {
        let (server, db) = try freshDatabase()
        let synced = configuration("a", server, db)
        do {
            let a = try await Realm(configuration: synced, downloadBeforeOpen: .always)
            try a.write { a.add(SyncDog(value: ["id": 1, "name": "Rex", "age": 3])) }
            try await wait(a, .upload)
        }
        await SyncEngine.stopAll()
        var local = synced
        local.syncConfiguration = nil
        XCTAssertThrowsError(try Realm(configuration: local)) { error in
            XCTAssertTrue("\(error)".contains("is a synced realm"), "\(error)")
        }
        local.readOnly = true
        XCTAssertEqual(try Realm(configuration: local).objects(SyncDog.self).count, 1)
    }
    /// Asymmetric objects reach PostgreSQL and are not kept on the device; a realm that does not
    /// sync refuses them.
    @MainActor
    func testAsymmetricObjectsReachPostgresAndLeaveTheDevice() async throws {
        let (server, db) = try freshDatabase()
        let types: [ObjectBase.Type] = [SyncDog.self, SyncReading.self]
        let a = try await Realm(
            configuration: configuration("a", server, db, types: types), downloadBeforeOpen: .always)
        let b = try await Realm(
            configuration: configuration("b", server, db, types: types), downloadBeforeOpen: .always)
        try a.write {
            for i in 0..<10 {
                a.create(
                    SyncReading.self, value: ["id": ObjectId.generate(), "sensor": "s\(i % 2)", "value": Double(i)])
            }
            a.add(SyncDog(value: ["id": 1, "name": "Rex", "age": 3]))
        }
        XCTAssertEqual(a.dynamicObjects("SyncReading").count, 0, "not kept on the device")
        try await sync(a, to: [b])
        XCTAssertEqual(try server.sql("SELECT count(*), sum(value) FROM \"SyncReading\"", database: db), "10|45\n")
        XCTAssertEqual(b.dynamicObjects("SyncReading").count, 0, "never downloaded")
        XCTAssertEqual(b.objects(SyncDog.self).count, 1)

        var local = Realm.Configuration(
            fileURL: temporaryDirectory.appendingPathComponent("local.realm"), objectTypes: types)
        local.syncConfiguration = nil
        let l = try Realm(configuration: local)
        XCTAssertThrowsError(
            try l.write { l.create(SyncReading.self, value: ["id": ObjectId.generate(), "sensor": "x", "value": 1.0]) }
        ) {
            XCTAssertTrue("\($0)".contains("does not sync"), "\($0)")
        }
    }
    /// An object deleted and created again under the same String primary key in one transaction
    /// (a new object key) ends alive with the new values everywhere; a date before 1970 keeps its
    /// value through the server.
    @MainActor
    func testDeleteAndCreateAgainInOneWriteAndDatesBefore1970() async throws {
        let (server, db) = try freshDatabase()
        let types: [ObjectBase.Type] = [SyncDog.self, SyncNote.self]
        let a = try await Realm(
            configuration: configuration("a", server, db, types: types), downloadBeforeOpen: .always)
        let b = try await Realm(
            configuration: configuration("b", server, db, types: types), downloadBeforeOpen: .always)
        try a.write { a.add(SyncNote(value: ["id": "k", "text": "first"])) }
        try await sync(a, to: [b])
        try a.write {
            a.delete(a.object(ofType: SyncNote.self, forPrimaryKey: "k")!)
            a.add(SyncNote(value: ["id": "k", "text": "second"]))
        }
        let old = Date(timeIntervalSince1970: -1_234_567.891234)
        try a.write { a.add(SyncDog(value: ["id": 1, "name": "Old", "born": old])) }
        try await sync(a, to: [b])
        try await wait(a, .download)
        a.refresh()
        for r in [a, b] {
            XCTAssertEqual(r.object(ofType: SyncNote.self, forPrimaryKey: "k")?.text, "second")
            XCTAssertEqual(r.object(ofType: SyncDog.self, forPrimaryKey: 1)?.born, old)
        }
        XCTAssertEqual(try server.sql("SELECT text FROM \"SyncNote\"", database: db), "second\n")
        XCTAssertEqual(
            try server.sql(
                "SELECT to_char(born AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS.US') FROM \"SyncDog\"", database: db),
            "1969-12-17 17:03:52.108766\n")
    }
    /// Objects a file held before it was first opened with sync are uploaded, and deleting one
    /// afterwards (String primary key) reaches the server.
    @MainActor
    func testObjectsFromBeforeSyncIsTurnedOnAreUploaded() async throws {
        let (server, db) = try freshDatabase()
        let types: [ObjectBase.Type] = [SyncDog.self, SyncNote.self]
        var local = configuration("a", server, db, types: types)
        local.syncConfiguration = nil
        do {
            let l = try Realm(configuration: local)
            try l.write {
                l.add(SyncDog(value: ["id": 1, "name": "Old", "age": 9]))
                l.add(SyncNote(value: ["id": "x", "text": "kept"]))
                l.add(SyncNote(value: ["id": "y", "text": "deleted later"]))
            }
        }
        let a = try await Realm(
            configuration: configuration("a", server, db, types: types), downloadBeforeOpen: .always)
        try await wait(a, .upload)
        XCTAssertEqual(try server.sql("SELECT name || age FROM \"SyncDog\"", database: db), "Old9\n")
        XCTAssertEqual(
            try server.sql("SELECT string_agg(id || text, ',' ORDER BY id) FROM \"SyncNote\"", database: db),
            "xkept,ydeleted later\n")
        try a.write { a.delete(a.object(ofType: SyncNote.self, forPrimaryKey: "y")!) }
        try await wait(a, .upload)
        XCTAssertEqual(try server.sql("SELECT string_agg(id, ',') FROM \"SyncNote\"", database: db), "x\n")
    }
}
