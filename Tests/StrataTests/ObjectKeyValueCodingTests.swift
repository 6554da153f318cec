import Foundation
import Strata
import XCTest

/// `object["name"]`, `value(forKey:)` and `setValue(_:forKey:)` on unmanaged and managed objects.
final class ObjectKeyValueCodingTests: SeedTestCase {
    func testSubscriptReadsAndWritesAnUnmanagedObject() {
        let contact = Contact()
        contact["name"] = "Ann"
        contact["age"] = 31
        contact.setValue(["street": "Main St", "city": "Oslo"], forKey: "address")
        contact["tags"] = ["a", "b"]
        XCTAssertEqual(contact.name, "Ann")
        XCTAssertEqual(contact.age, 31)
        XCTAssertEqual(contact.address?.city, "Oslo")
        XCTAssertEqual(Array(contact.tags), ["a", "b"])
        XCTAssertEqual(contact["name"] as? String, "Ann")
        XCTAssertEqual(contact.value(forKey: "age") as? Int, 31)
        XCTAssertNil(contact["nickname"])
        XCTAssertEqual((contact["address"] as? PostalAddress)?.street, "Main St")
    }

    func testSubscriptWritesAManagedObjectInsideAWriteAndReadsItBack() throws {
        let realm = try open()
        try realm.write { realm.add(Contact(value: ["id": 1, "name": "Ann"])) }
        let contact = try XCTUnwrap(realm.object(ofType: Contact.self, forPrimaryKey: 1))
        try realm.write {
            contact["age"] = 40
            contact.setValue("Annie", forKey: "nickname")
            contact["friends"] = [["id": 2, "name": "Bob"]]
        }
        let again = try XCTUnwrap(realm.object(ofType: Contact.self, forPrimaryKey: 1))
        XCTAssertEqual(again.age, 40)
        XCTAssertEqual(again["nickname"] as? String, "Annie")
        XCTAssertEqual((again["friends"] as? List<Contact>)?.first?.name, "Bob")
        XCTAssertEqual(realm.object(ofType: Contact.self, forPrimaryKey: 2)?.name, "Bob")
        try realm.write { contact["nickname"] = nil }
        XCTAssertNil(again["nickname"])
    }

    func testUnknownNamesAndWritesOutsideATransactionAreViolations() throws {
        let realm = try open()
        try realm.write { realm.add(Contact(value: ["id": 1])) }
        let contact = try XCTUnwrap(realm.object(ofType: Contact.self, forPrimaryKey: 1))
        XCTAssertNil(contact["missing"])
        contact["age"] = 3
        contact["age"] = "three"
        XCTAssertEqual(contact.age, 0)
        let messages = takeViolations()
        XCTAssertEqual(messages.count, 3, "\(messages)")
        XCTAssertTrue(messages[0].contains("Invalid property name 'missing' for class 'Contact'"), messages[0])
        XCTAssertTrue(messages[1].contains("outside of a write transaction"), messages[1])
        XCTAssertTrue(messages[2].contains("Contact.age"), messages[2])
    }

    func testLinkingObjectsCannotBeSetByName() {
        let contact = Contact()
        contact["friendOf"] = []
        XCTAssertTrue(takeViolations().first?.contains("read-only property 'Contact.friendOf'") ?? false)
    }
}
