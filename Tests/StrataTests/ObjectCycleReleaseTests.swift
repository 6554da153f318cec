import Foundation
import Strata
import XCTest

/// Objects that link each other in a cycle are freed once the app drops them: adding them does
/// not keep their unmanaged values (which hold each other) alive.
final class ObjectCycleReleaseTests: SeedTestCase {
    func testAddedCycleOfTwoObjectsIsFreedWhenDropped() throws {
        weak var weak1: CircleNode?
        weak var weak2: CircleNode?
        let realm = try open()
        do {
            let obj1 = CircleNode(value: [])
            let obj2 = CircleNode(value: ["two", obj1, [obj1]])
            obj1.name = "one"
            obj1.obj = obj2
            obj1.array.append(obj2)
            weak1 = obj1
            weak2 = obj2
            try realm.write { realm.add(obj1) }
            XCTAssertEqual(obj1.realm, realm)
            XCTAssertEqual(obj2.realm, realm)
            XCTAssertEqual(obj1.obj?.name, "two")
            XCTAssertEqual(obj2.array.first?.name, "one")
        }
        XCTAssertNil(weak1)
        XCTAssertNil(weak2)
        let one = try XCTUnwrap(realm.objects(CircleNode.self).first { $0.name == "one" })
        XCTAssertEqual(one.obj?.obj?.name, "one")
        XCTAssertEqual(one.array.map(\.name), ["two"])
    }

    func testManagedObjectsReadThroughACycleAreFreedWhenDropped() throws {
        let realm = try open()
        try realm.write {
            let a = CircleNode(value: ["a"])
            let b = CircleNode(value: ["b", a, [a]])
            a.obj = b
            a.array.append(b)
            realm.add(a)
        }
        weak var weakA: CircleNode?
        weak var weakB: CircleNode?
        do {
            let a = try XCTUnwrap(realm.objects(CircleNode.self).first { $0.name == "a" })
            let b = try XCTUnwrap(a.obj)
            XCTAssertEqual(b.array.first?.array.first?.name, "b")
            weakA = a
            weakB = b
        }
        XCTAssertNil(weakA)
        XCTAssertNil(weakB)
    }

    func testAnObjectThatFailsToBeAddedKeepsItsLinks() throws {
        let realm = try open()
        try realm.write { realm.add(Contact(value: [1])) }
        let duplicate = Contact(value: [1, "Ann"])
        duplicate.friends.append(Contact(value: [5, "Bob"]))
        duplicate.address = PostalAddress(value: ["Main St"])
        XCTAssertThrowsError(try realm.write { realm.add(duplicate) })
        XCTAssertNil(duplicate.realm)
        XCTAssertEqual(duplicate.friends.map(\.name), ["Bob"])
        XCTAssertEqual(duplicate.address?.street, "Main St")
    }
}
