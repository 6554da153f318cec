import Foundation
import Strata
import XCTest

/// Freezing and thawing embedded objects, and `realm.freeze(_:)` / `realm.thaw(_:)`.
final class EmbeddedObjectFreezeTests: SeedTestCase {
    private func seeded() throws -> Realm {
        let realm = try open()
        try realm.write {
            realm.add(Contact(value: ["id": 1, "name": "Ann", "address": ["street": "Main St", "city": "Oslo"]]))
        }
        return realm
    }

    func testFrozenEmbeddedObjectKeepsItsValuesAcrossLaterWritesAndThreads() throws {
        let realm = try seeded()
        let contact = try XCTUnwrap(realm.object(ofType: Contact.self, forPrimaryKey: 1))
        let address = try XCTUnwrap(contact.address)
        XCTAssertFalse(address.isFrozen)
        let frozen = address.freeze()
        XCTAssertTrue(frozen.isFrozen)
        try realm.write { contact.address?.city = "Bergen" }
        XCTAssertEqual(frozen.city, "Oslo")
        XCTAssertEqual(address.city, "Bergen")
        nonisolated(unsafe) let shared = frozen
        let read = Locked("")
        let done = DispatchSemaphore(value: 0)
        Thread {
            read.value = shared.street
            done.signal()
        }.start()
        done.wait()
        XCTAssertEqual(read.value, "Main St")
    }

    func testThawedEmbeddedObjectReadsTheNewestVersion() throws {
        let realm = try seeded()
        let contact = try XCTUnwrap(realm.object(ofType: Contact.self, forPrimaryKey: 1))
        let frozen = try XCTUnwrap(contact.address).freeze()
        try realm.write { contact.address?.city = "Bergen" }
        let thawed = try XCTUnwrap(frozen.thaw())
        XCTAssertFalse(thawed.isFrozen)
        XCTAssertEqual(thawed.city, "Bergen")
        try realm.write { thawed.city = "Tromso" }
        XCTAssertEqual(contact.address?.city, "Tromso")
    }

    /// As in RealmSwift, thawing does not refresh the calling thread's realm: an object (or
    /// embedded object) frozen at a newer version thaws into the live realm's version, and reads
    /// the newer values once that realm refreshes.
    func testThawingANewerFrozenObjectDoesNotRefreshTheLiveRealm() throws {
        let realm = try seeded()
        let contact = try XCTUnwrap(realm.object(ofType: Contact.self, forPrimaryKey: 1))
        XCTAssertEqual(contact.address?.city, "Oslo")
        let configuration = realm.configuration
        let frozen = onNewThread { () -> Unchecked<(Contact, PostalAddress)> in
            let other = try! Realm(configuration: configuration)
            let c = other.object(ofType: Contact.self, forPrimaryKey: 1)!
            try! other.write {
                c.name = "Bo"
                c.address!.city = "Bergen"
            }
            return Unchecked((c.freeze(), c.address!.freeze()))
        }.value
        XCTAssertEqual(frozen.0.name, "Bo")
        XCTAssertEqual(frozen.1.city, "Bergen")
        let thawedContact = try XCTUnwrap(frozen.0.thaw())
        let thawedAddress = try XCTUnwrap(frozen.1.thaw())
        XCTAssertEqual(thawedContact.name, "Ann", "the live realm has not refreshed")
        XCTAssertEqual(thawedAddress.city, "Oslo", "the live realm has not refreshed")
        XCTAssertEqual(contact.name, "Ann")
        realm.refresh()
        XCTAssertEqual(thawedContact.name, "Bo")
        XCTAssertEqual(thawedAddress.city, "Bergen")
    }

    func testUnmanagedEmbeddedObjectsCannotBeFrozenOrThawed() {
        let address = PostalAddress(value: ["Main St"])
        XCTAssertFalse(address.isFrozen)
        _ = address.freeze()
        XCTAssertNil(address.thaw())
        XCTAssertEqual(
            takeViolations(),
            [
                "Unmanaged objects cannot be frozen. Add the object to a realm first.",
                "Unmanaged objects cannot be thawed.",
            ])
    }

    func testRealmFreezesAndThawsObjectsAndCollections() throws {
        let realm = try seeded()
        let contact = try XCTUnwrap(realm.object(ofType: Contact.self, forPrimaryKey: 1))
        let frozenContact = realm.freeze(contact)
        let frozenAddress = realm.freeze(try XCTUnwrap(contact.address))
        let frozenResults = realm.freeze(realm.objects(Contact.self))
        let frozenTags = realm.freeze(contact.tags)
        XCTAssertTrue(frozenContact.isFrozen)
        XCTAssertTrue(frozenAddress.isFrozen)
        XCTAssertTrue(frozenResults.isFrozen)
        XCTAssertTrue(frozenTags.isFrozen)
        try realm.write {
            contact.name = "Annie"
            contact.tags.append("new")
            realm.add(Contact(value: [2]))
        }
        XCTAssertEqual(frozenContact.name, "Ann")
        XCTAssertEqual(frozenResults.count, 1)
        XCTAssertEqual(frozenTags.count, 0)
        XCTAssertEqual(realm.thaw(frozenContact)?.name, "Annie")
        XCTAssertEqual(realm.thaw(frozenAddress)?.city, "Oslo")
    }
}
