import Foundation
import Strata
import StrataCore
import XCTest

@testable import StrataSync

/// Embedded objects sync inside their owners: one `jsonb` column per embedded property, the
/// whole object (list, map) one field for conflicts (Docs/Sync.md, "Embedded objects").
final class SyncEmbeddedTests: SyncTestCase {
    private let types: [ObjectBase.Type] = [SyncHouse.self, SyncAddress.self, SyncGeo.self, SyncRoom.self]

    private func house(_ realm: Realm, _ id: Int = 1) -> SyncHouse? {
        realm.refresh()
        return realm.object(ofType: SyncHouse.self, forPrimaryKey: id)
    }

    @MainActor
    private func replicas(_ server: PostgresTestServer, _ db: String) async throws -> (Realm, Realm) {
        let a = try await Realm(
            configuration: configuration("a", server, db, types: types), downloadBeforeOpen: .always)
        let b = try await Realm(
            configuration: configuration("b", server, db, types: types), downloadBeforeOpen: .always)
        return (a, b)
    }

    /// A date with nanoseconds below the microsecond (PostgreSQL keeps microseconds); near 1970,
    /// so that a `Double` of seconds shows them.
    private let built = Date(timeIntervalSince1970: 1_000.123_456_789)

    @MainActor
    func testEmbeddedObjectsRoundTripAsJSONColumns() async throws {
        let (server, db) = try freshDatabase()
        let (a, b) = try await replicas(server, db)
        try a.write {
            a.create(
                SyncHouse.self,
                value: [
                    "id": 1, "note": "n",
                    "address": ["street": "Main", "built": built, "geo": ["lat": 1.5, "lon": -2.25]],
                    "rooms": [["name": "kitchen", "area": 12.5, "tags": ["a", "b"]], ["name": "hall", "area": 3.0]],
                    "annexes": ["east": ["street": "East"], "gone": NSNull()],
                ])
            a.create(SyncHouse.self, value: ["id": 2])
        }
        // The writer keeps what the server keeps: the date at whole microseconds.
        let stored = try XCTUnwrap(house(a)?.address?.built).timeIntervalSince1970
        XCTAssertEqual(stored, 1_000.123_456, accuracy: 1e-7, "unrounded, it is 7.89e-7 above")
        try await sync(a, to: [b])

        for r in [a, b] {
            let h = try XCTUnwrap(house(r))
            XCTAssertEqual(h.note, "n")
            XCTAssertEqual(h.address?.street, "Main")
            XCTAssertEqual(h.address?.built, house(a)?.address?.built)
            XCTAssertEqual(h.address?.geo?.lat, 1.5)
            XCTAssertEqual(h.address?.geo?.lon, -2.25)
            XCTAssertEqual(h.rooms.map(\.name), ["kitchen", "hall"])
            XCTAssertEqual(h.rooms.map(\.area), [12.5, 3.0])
            XCTAssertEqual(Array(h.rooms[0].tags), ["a", "b"])
            XCTAssertEqual(h.annexes["east"]??.street, "East")
            XCTAssertTrue(h.annexes.keys.contains("gone"))
            XCTAssertNil(h.annexes["gone"] ?? nil)
        }
        XCTAssertEqual(
            try server.sql(
                "SELECT address->>'street', address->'geo'->>'lat', jsonb_array_length(rooms), rooms->1->>'name', annexes->'east'->>'street', annexes->'gone' FROM \"SyncHouse\" WHERE id = 1",
                database: db),
            "Main|1.5|2|hall|East|null\n")
        // No embedded object is SQL NULL, as `IS NULL` expects (not JSON `null`).
        XCTAssertEqual(
            try server.sql("SELECT id FROM \"SyncHouse\" WHERE address IS NULL", database: db), "2\n")
    }

    /// An edit inside an embedded object (at any depth, or a list of them) uploads the owner's
    /// property; another replica's edit of another property of the owner is kept beside it.
    @MainActor
    func testAnEditInsideAnEmbeddedObjectReachesTheOtherReplica() async throws {
        let (server, db) = try freshDatabase()
        let (a, b) = try await replicas(server, db)
        try a.write {
            a.create(
                SyncHouse.self,
                value: [
                    "id": 1, "address": ["street": "Main", "geo": ["lat": 1, "lon": 2]], "rooms": [["name": "k"]],
                ])
        }
        try await sync(a, to: [b])

        try a.write {
            let h = house(a)!
            h.address!.geo!.lat = 5
            h.rooms[0].name = "kitchen"
            h.rooms[0].tags.append("sunny")
            h.rooms.append(SyncRoom(value: ["name": "bath", "area": 4.5]))
        }
        try b.write { house(b)!.note = "from b" }
        try await wait(a, .upload)
        try await wait(b, .upload)
        try await sync(a, to: [b])
        try await sync(b, to: [a])

        for r in [a, b] {
            let h = try XCTUnwrap(house(r))
            XCTAssertEqual(h.address?.street, "Main")
            XCTAssertEqual(h.address?.geo?.lat, 5)
            XCTAssertEqual(h.rooms.map(\.name), ["kitchen", "bath"])
            XCTAssertEqual(Array(h.rooms[0].tags), ["sunny"])
            XCTAssertEqual(h.rooms[1].area, 4.5)
            XCTAssertEqual(h.note, "from b")
        }

        // Replacing and removing embedded objects.
        try b.write {
            let h = house(b)!
            h.address = SyncAddress(value: ["street": "New"])
            h.rooms.remove(at: 0)
        }
        try await sync(b, to: [a])
        let h = try XCTUnwrap(house(a))
        XCTAssertEqual(h.address?.street, "New")
        XCTAssertNil(h.address?.geo)
        XCTAssertEqual(h.rooms.map(\.name), ["bath"])

        // Deleting the owner deletes its embedded objects everywhere.
        try a.write { a.delete(house(a)!) }
        try await sync(a, to: [b])
        XCTAssertNil(house(b))
        XCTAssertEqual(try b.dynamicEmbeddedCount("SyncRoom"), 0)
        XCTAssertEqual(try b.dynamicEmbeddedCount("SyncAddress"), 0)
    }

    /// A remote edit inside an embedded object changes it in place on the other replica: an
    /// object held there stays valid (same object, new values) at every depth, as after a local
    /// edit; replacing the object or setting it to nil still makes new rows or deletes them.
    @MainActor
    func testARemoteEditInsideAnEmbeddedObjectKeepsTheObject() async throws {
        let (server, db) = try freshDatabase()
        let (a, b) = try await replicas(server, db)
        try a.write {
            a.create(
                SyncHouse.self, value: ["id": 1, "address": ["street": "Main", "geo": ["lat": 1, "lon": 2]]])
        }
        try await sync(a, to: [b])
        let address = try XCTUnwrap(house(b)?.address)
        let geo = try XCTUnwrap(address.geo)

        try a.write {
            let h = house(a)!
            h.address!.street = "Side"
            h.address!.geo!.lat = 5
        }
        try await sync(a, to: [b])
        b.refresh()
        XCTAssertFalse(address.isInvalidated, "the embedded object was replaced, not edited")
        XCTAssertFalse(geo.isInvalidated, "the nested embedded object was replaced, not edited")
        XCTAssertEqual(address.street, "Side")
        XCTAssertEqual(geo.lat, 5)
        XCTAssertEqual(geo.lon, 2)
        XCTAssertEqual(try b.dynamicEmbeddedCount("SyncAddress"), 1)

        // A new object in its place (a local replacement) and nil still replace and delete.
        try a.write { house(a)!.address = SyncAddress(value: ["street": "New"]) }
        try await sync(a, to: [b])
        b.refresh()
        XCTAssertEqual(house(b)?.address?.street, "New")
        XCTAssertNil(house(b)?.address?.geo)
        try a.write { house(a)!.address = nil }
        try await sync(a, to: [b])
        b.refresh()
        XCTAssertNil(house(b)?.address)
        XCTAssertEqual(try b.dynamicEmbeddedCount("SyncAddress"), 0)
        XCTAssertEqual(try b.dynamicEmbeddedCount("SyncGeo"), 0)
    }

    /// The same embedded property edited on two replicas converges to the later edit, whole.
    @MainActor
    func testTheSameEmbeddedObjectEditedOnTwoReplicasConvergesToTheLaterEdit() async throws {
        let (server, db) = try freshDatabase()
        let (a, b) = try await replicas(server, db)
        try a.write { a.create(SyncHouse.self, value: ["id": 1, "address": ["street": "Main", "geo": ["lat": 1]]]) }
        try await sync(a, to: [b])
        // Apart: neither sees the other's edit before its own.
        a.syncSession?.suspend()
        b.syncSession?.suspend()
        try a.write { house(a)!.address!.street = "from a" }
        try await Task.sleep(nanoseconds: 20_000_000)
        try b.write { house(b)!.address!.geo = nil }
        b.syncSession?.resume()
        try await wait(b, .upload)
        a.syncSession?.resume()
        try await wait(a, .upload)
        try await sync(a, to: [b])
        try await sync(b, to: [a])
        for r in [a, b] {
            let h = try XCTUnwrap(house(r))
            XCTAssertEqual(h.address?.street, "Main", "b's later edit replaces the whole object")
            XCTAssertNil(h.address?.geo)
        }
    }

    /// An SQL edit of the JSON reaches the replicas (missing properties at their defaults); an
    /// edit they could not read is refused by the column's constraint.
    @MainActor
    func testSQLEditsOfEmbeddedObjectsReachTheReplicasAndBadOnesAreRefused() async throws {
        let (server, db) = try freshDatabase()
        let (a, b) = try await replicas(server, db)
        try a.write { a.create(SyncHouse.self, value: ["id": 1, "address": ["street": "Main"]]) }
        try await sync(a, to: [b])

        try server.sql(
            """
            UPDATE "SyncHouse" SET address = '{"street": "SQL", "geo": {"lat": 7}}',
                rooms = '[{"name": "cellar", "tags": ["damp"]}]', annexes = '{"w": {"street": "West"}}'
            """,
            database: db)
        try server.sql(
            "INSERT INTO \"SyncHouse\" (id, address) VALUES (2, '{\"street\": \"Other\", \"extra\": 1}')", database: db)
        try await wait(a, .download)
        try await wait(b, .download)
        for r in [a, b] {
            let h = try XCTUnwrap(house(r))
            XCTAssertEqual(h.address?.street, "SQL")
            XCTAssertEqual(h.address?.geo?.lat, 7)
            XCTAssertEqual(h.address?.geo?.lon, 0)
            XCTAssertNil(h.address?.built)
            XCTAssertEqual(h.rooms.map(\.name), ["cellar"])
            XCTAssertEqual(h.rooms.first?.tags.first, "damp")
            XCTAssertEqual(h.annexes["w"]??.street, "West")
            XCTAssertEqual(house(r, 2)?.address?.street, "Other")
        }

        let bad = [
            "address = '{\"street\": 5}'",
            "address = '[]'",
            "address = '{\"geo\": {\"lat\": \"north\"}}'",
            "address = '{\"built\": \"2020-01-01\"}'",
            "address = '{\"street\": null}'",
            "rooms = '[null]'",
            "rooms = '[{\"tags\": [1]}]'",
            "rooms = '[{\"tags\": \"a\"}]'",
            "rooms = '{}'",
            "annexes = '{\"x\": 1}'",
        ]
        for set in bad {
            do {
                try server.sql("UPDATE \"SyncHouse\" SET \(set) WHERE id = 1", database: db)
                XCTFail("accepted: \(set)")
            } catch {
                XCTAssertTrue("\(error)".contains("violates check constraint \"strata_SyncHouse_"), "\(set): \(error)")
            }
        }
        // Still readable and unchanged after the refusals.
        try await wait(b, .download)
        XCTAssertEqual(house(b)?.address?.street, "SQL")
    }

    /// A subscription cannot compare an embedded object or a property inside one (as Atlas's
    /// flexible sync): refused with the query's error, nothing committed.
    @MainActor
    func testSubscriptionsOnEmbeddedObjectsAreRefused() async throws {
        let (server, db) = try freshDatabase()
        let (a, _) = try await replicas(server, db)
        let cases: [(QuerySubscription<SyncHouse>, String)] = [
            (QuerySubscription<SyncHouse>(where: "address.street == 'Main'"), "embedded objects"),
            (QuerySubscription<SyncHouse>(where: "address == nil"), "'SyncHouse.address' is an embedded object"),
        ]
        for (subscription, mentions) in cases {
            do {
                try await a.subscriptions.update { $0.append(subscription) }
                XCTFail("accepted: \(mentions)")
            } catch let e as SyncError {
                XCTAssertEqual(e.code, .invalidSubscription)
                XCTAssertTrue(e.message.contains(mentions), e.message)
            }
        }
        XCTAssertEqual(a.subscriptions.count, 0)
    }

    /// An embedded type that holds itself (a tree of replies) is refused at open, naming the
    /// path, instead of recursing without end.
    @MainActor
    func testAnEmbeddedTypeHoldingItselfIsRefused() async throws {
        let (server, db) = try freshDatabase()
        XCTAssertThrowsError(
            try Realm(configuration: configuration("t", server, db, types: [SyncThread.self, SyncComment.self]))
        ) { error in
            XCTAssertEqual((error as? SyncError)?.code, .unsupportedSchema)
            XCTAssertTrue("\(error)".contains("'SyncThread.root.replies' holds SyncComment inside itself"), "\(error)")
        }
    }

    /// An asymmetric object's embedded objects go up with it and leave the device with it.
    @MainActor
    func testAnAsymmetricObjectsEmbeddedObjectsUploadAndLeaveTheDevice() async throws {
        let (server, db) = try freshDatabase()
        let a = try await Realm(
            configuration: configuration("a", server, db, types: [SyncSample.self, SyncGeo.self]),
            downloadBeforeOpen: .always)
        try a.write { a.create(SyncSample.self, value: ["id": 1, "at": ["lat": 0.5, "lon": 9]]) }
        XCTAssertEqual(try a.dynamicEmbeddedCount("SyncGeo"), 0)
        try await wait(a, .upload)
        XCTAssertEqual(
            try server.sql("SELECT id, at->>'lat', at->>'lon' FROM \"SyncSample\"", database: db), "1|0.5|9.0\n")
    }
}

extension Realm {
    /// How many objects embedded type `name` has in the file (embedded objects cannot be queried
    /// on their own through the API).
    fileprivate func dynamicEmbeddedCount(_ name: String) throws -> Int {
        let txn = _storeTransaction
        guard let table = txn.tables[name] else { return -1 }
        var n = 0
        try txn.forEachRow(table) { _ in
            n += 1
            return true
        }
        return n
    }
}
