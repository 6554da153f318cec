import Foundation
import Strata
import XCTest

/// `description` (and `print(object)`) in RealmSwift's layout: the class name, then one
/// `name = value;` line per property, nested objects and collections indented.
final class ObjectDescriptionTests: SeedTestCase {
    func testDescriptionListsEveryPropertyOfAnUnmanagedObject() {
        let contact = Contact(value: ["id": 3, "name": "Ann", "age": 31, "tags": ["x"]])
        contact.address = PostalAddress(value: ["street": "Main St", "city": "Oslo"])
        let expected = """
            Contact {
            \tid = 3;
            \tname = Ann;
            \tage = 31;
            \tnickname = (null);
            \taddress = PostalAddress {
            \t\tstreet = Main St;
            \t\tcity = Oslo;
            \t};
            \ttags = List<String> (
            \t\t[0] x
            \t);
            \tfriends = List<Contact> (
            \t);
            }
            """
        XCTAssertEqual(contact.description, expected)
        XCTAssertEqual("\(contact)", expected)
    }

    func testDescriptionOfAManagedObjectShowsStoredValuesAndStopsAtACycle() throws {
        let realm = try open()
        try realm.write {
            let a = CircleNode(value: ["name": "a"])
            a.obj = a
            realm.add(a)
        }
        let node = try XCTUnwrap(realm.objects(CircleNode.self).first)
        let text = node.description
        XCTAssertTrue(text.hasPrefix("CircleNode {\n\tname = a;\n\tobj = CircleNode {\n\t\tname = a;"), text)
        XCTAssertTrue(text.contains("<Maximum depth exceeded>"), text)
    }
}
