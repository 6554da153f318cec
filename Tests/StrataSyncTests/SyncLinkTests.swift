import Foundation
import Strata
import StrataTestSupport
import XCTest

@testable import StrataSync

/// Links sync as their targets' primary keys; a link whose target is not on the device waits,
/// unresolved, and a device's edit of a list of links keeps the targets it cannot see.
final class SyncLinkTests: SyncTestCase {
    let types: [ObjectBase.Type] = [SyncPerson.self, SyncDog.self]

    func person(_ realm: Realm) -> SyncPerson? {
        realm.refresh()
        return realm.object(ofType: SyncPerson.self, forPrimaryKey: "ann")
    }

    @MainActor
    func testLinksSyncAsPrimaryKeysAndWaitForTargetsOutsideTheSubscriptions() async throws {
        let (server, db) = try freshDatabase()
        let a = try await Realm(
            configuration: configuration("a", server, db, types: types), downloadBeforeOpen: .always)
        let b = try await Realm(
            configuration: configuration("b", server, db, types: types), downloadBeforeOpen: .always)
        try a.write {
            let dogs = (1...3).map { a.create(SyncDog.self, value: ["id": $0, "name": "dog\($0)"]) }
            let ann = a.create(SyncPerson.self, value: ["id": "ann"])
            ann.dog = dogs[0]
            ann.dogs.append(objectsIn: [dogs[1], dogs[2], dogs[0]])
            ann.pets["a"] = dogs[2]
        }
        try await sync(a, to: [b])
        var ann = try XCTUnwrap(person(b))
        XCTAssertEqual(ann.dog?.id, 1)
        XCTAssertEqual(ann.dogs.map(\.id), [2, 3, 1])
        XCTAssertEqual(ann.pets["a"]??.id, 3)
        XCTAssertEqual(
            try server.sql("SELECT dog || '|' || dogs::text || '|' || pets::text FROM \"SyncPerson\"", database: db),
            "1|[2, 3, 1]|{\"a\": 3}\n")

        // A link set in SQL, by key.
        try server.sql("UPDATE \"SyncPerson\" SET dog = 2 WHERE id = 'ann'", database: db)
        try await wait(b, .download)
        XCTAssertEqual(person(b)?.dog?.id, 2)

        // A deleted target leaves every list and map, everywhere.
        try await wait(a, .download)
        try a.write { a.delete(a.object(ofType: SyncDog.self, forPrimaryKey: 3)!) }
        try await sync(a, to: [b])
        ann = try XCTUnwrap(person(b))
        XCTAssertEqual(ann.dogs.map(\.id), [2, 1])
        XCTAssertNil(ann.pets["a"] ?? nil)

        // C sees only dog 1: the others' links wait unresolved.
        var c = configuration("c", server, db, types: types)
        c.syncConfiguration!.initialSubscriptions = {
            $0.append(QuerySubscription<SyncPerson>(), QuerySubscription<SyncDog> { $0.id == 1 || $0.id == 10 })
        }
        let crealm = try await Realm(configuration: c, downloadBeforeOpen: .always)
        ann = try XCTUnwrap(person(crealm))
        XCTAssertNil(ann.dog, "dog 2 is not on C")
        XCTAssertEqual(ann.dogs.map(\.id), [1])

        // C appends a dog of its own: the list it uploads keeps dog 2, which it cannot see.
        try crealm.write {
            let ten = crealm.create(SyncDog.self, value: ["id": 10, "name": "ten"])
            person(crealm)!.dogs.append(ten)
        }
        try await wait(crealm, .upload)
        XCTAssertEqual(
            try server.sql("SELECT dogs::text FROM \"SyncPerson\" WHERE id = 'ann'", database: db), "[1, 10, 2]\n")
        try await sync(crealm, to: [a, b])
        XCTAssertEqual(person(b)?.dogs.map(\.id), [1, 10, 2])

        // Subscribed to every dog: C's waiting links resolve.
        try await crealm.subscriptions.update {
            $0.removeAll(ofType: SyncDog.self)
            $0.append(QuerySubscription<SyncDog>())
        }
        ann = try XCTUnwrap(person(crealm))
        XCTAssertEqual(ann.dog?.id, 2)
        XCTAssertEqual(ann.dogs.map(\.id), [1, 10, 2])

        // Narrowed again: links to dogs that leave C wait, and come back with them.
        try await crealm.subscriptions.update {
            $0.removeAll(ofType: SyncDog.self)
            $0.append(QuerySubscription<SyncDog> { $0.id == 1 })
        }
        ann = try XCTUnwrap(person(crealm))
        XCTAssertNil(ann.dog)
        XCTAssertEqual(ann.dogs.map(\.id), [1])
        try crealm.write { person(crealm)!.dogs.remove(at: 0) }  // C drops dog 1, the one it sees
        try await wait(crealm, .upload)
        XCTAssertEqual(
            try server.sql("SELECT dog || '|' || dogs::text FROM \"SyncPerson\" WHERE id = 'ann'", database: db),
            "2|[10, 2]\n")
        try await crealm.subscriptions.update { $0.append(QuerySubscription<SyncDog>(name: "all")) }
        ann = try XCTUnwrap(person(crealm))
        XCTAssertEqual(ann.dog?.id, 2)
        XCTAssertEqual(ann.dogs.map(\.id), [10, 2])
    }

    @MainActor
    func testALinkToATypeThatDoesNotSyncIsRefused() async throws {
        let (server, db) = try freshDatabase()
        let c = configuration("x", server, db, types: [SyncPerson.self])
        XCTAssertThrowsError(try Realm(configuration: c)) { error in
            XCTAssertTrue("\(error)".contains("SyncPerson.dog"), "\(error)")
        }
    }
}
