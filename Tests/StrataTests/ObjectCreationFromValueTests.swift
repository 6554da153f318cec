import Foundation
import Strata
import XCTest

/// `Object(value:)`, `EmbeddedObject(value:)` and `create(_:value:)` with arrays shorter than the
/// property list, empty arrays and nested arrays, and primary keys with defaults.
final class ObjectCreationFromValueTests: SeedTestCase {
    func testShortArraysLeaveTheRemainingPropertiesAtTheirDefaults() {
        let contact = Contact(value: [4, "Ann"])
        XCTAssertEqual(contact.id, 4)
        XCTAssertEqual(contact.name, "Ann")
        XCTAssertEqual(contact.age, 0)
        let empty = Contact(value: [])
        XCTAssertEqual(empty.id, 0)
        XCTAssertEqual(empty.name, "")
    }

    func testNestedArraysMakeLinkedObjectsAndListElements() {
        let first = CircleNode(value: ["a"])
        let second = CircleNode(value: ["b", first, [first, ["c"]]])
        XCTAssertTrue(second.obj === first)
        XCTAssertEqual(second.array.map(\.name), ["a", "c"])
        let contact = Contact(value: [1, "Ann", 30, nil, ["Main St", "Oslo"], ["t"], [[2, "Bob"]]])
        XCTAssertEqual(contact.address?.city, "Oslo")
        XCTAssertEqual(contact.friends.first?.name, "Bob")
    }

    func testTooManyArrayValuesAreAViolationNamingTheCounts() {
        _ = KeyedPet(value: [1, "Rex", "extra"])
        let message = takeViolations().first ?? ""
        XCTAssertTrue(message.contains("more values (3) than properties (2)"), message)
    }

    func testCreateWithArraysStoresThemAndReadsThemBack() throws {
        let realm = try open()
        try realm.write {
            realm.create(Contact.self, value: [1, "Ann"])
            realm.create(Contact.self, value: [2, "Bob", 20, "B", ["Elm St"], [], [[3, "Cy"]]])
        }
        XCTAssertEqual(realm.object(ofType: Contact.self, forPrimaryKey: 1)?.name, "Ann")
        let bob = try XCTUnwrap(realm.object(ofType: Contact.self, forPrimaryKey: 2))
        XCTAssertEqual(bob.address?.street, "Elm St")
        XCTAssertEqual(bob.friends.map(\.name), ["Cy"])
        XCTAssertEqual(realm.objects(Contact.self).count, 3)
    }

    func testCreateWithoutAValueForAPrimaryKeyWithADefaultUsesTheDefault() throws {
        let realm = try open()
        try realm.write { realm.create(DefaultKeyed.self, value: ["count": 2]) }
        XCTAssertEqual(realm.object(ofType: DefaultKeyed.self, forPrimaryKey: "none")?.count, 2)
    }

    func testCreateWithoutAValueForAPrimaryKeyWithoutADefaultFailsTheWrite() throws {
        let realm = try open()
        XCTAssertThrowsError(try realm.write { realm.create(RequiredKeyed.self, value: ["count": 2]) }) { error in
            XCTAssertEqual((error as? Realm.Error)?.realmCode, .missingValue)
            XCTAssertTrue("\(error)".contains("RequiredKeyed.code"), "\(error)")
        }
        XCTAssertEqual(realm.objects(RequiredKeyed.self).count, 0)
    }

    func testEmbeddedObjectsAreMadeFromDictionariesArraysAndObjects() {
        let a = PostalAddress(value: ["street": "Main St", "city": "Oslo"])
        let b = PostalAddress(value: ["Elm St"])
        let c = PostalAddress(value: a)
        XCTAssertEqual([a.street, a.city], ["Main St", "Oslo"])
        XCTAssertEqual([b.street, b.city], ["Elm St", ""])
        XCTAssertEqual([c.street, c.city], ["Main St", "Oslo"])
        XCTAssertFalse(c === a)
    }
}
