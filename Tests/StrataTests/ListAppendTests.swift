import Foundation
import Strata
import XCTest

/// Appending to a managed `List`: each append stores the list as before plus the new elements,
/// keeps backlinks counted, adds unmanaged objects, and reads back right within the same write.
final class ListAppendTests: SeedTestCase {
    func testAppendsOneByOneInOneWriteReadBackInOrderWithBacklinks() throws {
        let realm = try open()
        let person = Person(value: ["id": 1, "name": "Ann"])
        try realm.write { realm.add(person) }
        let rex = Dog(value: ["name": "rex"])
        try realm.write {
            realm.add(rex)
            for i in 0..<200 {
                person.dogs.append(i % 50 == 0 ? rex : Dog(value: ["name": "d\(i)"]))
                // Read between appends: the list the next append starts from.
                XCTAssertEqual(person.dogs.count, i + 1)
                XCTAssertEqual(person.dogs.last?.name, i % 50 == 0 ? "rex" : "d\(i)")
            }
        }
        let reread = try XCTUnwrap(realm.object(ofType: Person.self, forPrimaryKey: 1))
        let expected = (0..<200).map { $0 % 50 == 0 ? "rex" : "d\($0)" }
        XCTAssertEqual(reread.dogs.map(\.name), expected)
        XCTAssertEqual(realm.objects(Dog.self).count, 197, "196 new dogs and rex, added once")
        XCTAssertEqual(rex.owners.count, 1, "rex appears four times in one person's list")
        XCTAssertEqual(reread.dogs.where { $0.name == "rex" }.count, 4)
        try realm.write { reread.dogs.removeAll() }
        XCTAssertEqual(rex.owners.count, 0)
    }

    func testAppendingContentsOfMixesManagedAndNewObjects() throws {
        let realm = try open()
        let person = Person(value: ["id": 2])
        let old = Dog(value: ["name": "old"])
        try realm.write { realm.add([person, old] as [Object]) }
        try realm.write {
            person.dogs.append(objectsIn: [old, Dog(value: ["name": "new"]), old])
            person.dogs.append(objectsIn: [Dog]())
        }
        XCTAssertEqual(person.dogs.map(\.name), ["old", "new", "old"])
        XCTAssertEqual(realm.objects(Dog.self).count, 2)
        XCTAssertTrue(person.dogs[0].isSameObject(as: person.dogs[2]))
    }

    func testAppendingToAListOfValuesKeepsEveryValue() throws {
        let realm = try open()
        let item = ValueListHolder()
        try realm.write { realm.add(item) }
        let start = Date(timeIntervalSince1970: 1_700_000_000.25)
        try realm.write {
            for i in 0..<30 {
                item.numbers.append(i * i)
                item.dates.append(start.addingTimeInterval(Double(i)))
                XCTAssertEqual(item.numbers.last, i * i)
                XCTAssertEqual(item.dates.count, i + 1)
            }
        }
        XCTAssertEqual(Array(item.numbers), (0..<30).map { $0 * $0 })
        XCTAssertEqual(Array(item.dates), (0..<30).map { start.addingTimeInterval(Double($0)) })
        XCTAssertEqual(item.numbers.sum(), (0..<30).map { $0 * $0 }.reduce(0, +))
    }

    func testAppendOutsideAWriteOrToADeletedOwnerChangesNothing() throws {
        let realm = try open()
        let person = Person(value: ["id": 3])
        try realm.write { realm.add(person) }
        person.dogs.append(Dog(value: ["name": "outside"]))
        XCTAssertEqual(takeViolations().count, 1)
        XCTAssertEqual(person.dogs.count, 0)
        XCTAssertEqual(realm.objects(Dog.self).count, 0)

        let dogs = person.dogs
        try realm.write {
            realm.delete(person)
            dogs.append(Dog(value: ["name": "orphan"]))
        }
        XCTAssertEqual(takeViolations().count, 1)
        XCTAssertEqual(realm.objects(Dog.self).count, 0)
    }

    func testAppendingAnObjectOfAnotherFileIsRefusedAndLeavesTheListAsItWas() throws {
        let realm = try open()
        let other = try open("other.realm")
        let foreign = Dog(value: ["name": "foreign"])
        try other.write { other.add(foreign) }
        let person = Person(value: ["id": 4])
        person.dogs.append(Dog(value: ["name": "mine"]))
        try realm.write { realm.add(person) }
        XCTAssertThrowsError(try realm.write { person.dogs.append(foreign) }) { error in
            XCTAssertEqual(
                (error as? Realm.Error)?.localizedDescription,
                "Object is already managed by another Realm. Use create instead to copy it into this Realm.")
        }
        XCTAssertEqual(person.dogs.map(\.name), ["mine"])
    }
}

/// Lists of values, for the append tests.
final class ValueListHolder: Object {
    @Persisted var numbers: List<Int>
    @Persisted var dates: List<Date>
}
