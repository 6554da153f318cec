import Foundation
import Strata
import StrataTestSupport
import XCTest

/// `value(forKey:)`, `value(forKeyPath:)` and `setValue(_:forKey:)` on `Results`, `List`,
/// `MutableSet` and `LinkingObjects`.
final class CollectionKeyValueCodingTests: SeedTestCase {
    func testValuesAndBulkUpdates() throws {
        let realm = try open()
        try realm.write {
            let person = Person()
            person.id = 1
            let rex = Dog(value: ["name": "Rex", "age": 3])
            rex.favoriteToy = DogToy(value: ["name": "ball"])
            person.dogs.append(objectsIn: [rex, Dog(value: ["name": "Bo", "age": 5])])
            realm.add(person)
        }
        let dogs = realm.objects(Dog.self)
        XCTAssertEqual(dogs.value(forKey: "name") as? [String], ["Rex", "Bo"])
        let toys = try XCTUnwrap(dogs.value(forKeyPath: "favoriteToy.name") as? [Any])
        XCTAssertEqual(toys.first as? String, "ball")
        XCTAssertTrue(toys.last is NSNull, "a nil link on the way reads as NSNull")

        let young = dogs.where { $0.age < 10 }
        try realm.write { young.setValue(20, forKey: "age") }
        XCTAssertEqual(
            dogs.value(forKey: "age") as? [Int], [20, 20], "every object was set, also once out of the results")
        XCTAssertEqual(young.count, 0)

        let person = try XCTUnwrap(realm.object(ofType: Person.self, forPrimaryKey: 1))
        try realm.write { person.dogs.setValue("Max", forKey: "name") }
        XCTAssertEqual(person.dogs.value(forKey: "name") as? [String], ["Max", "Max"])
        let rex = try XCTUnwrap(dogs.first)
        XCTAssertEqual(rex.owners.value(forKey: "id") as? [Int], [1])

        let unmanaged = List<Dog>()
        unmanaged.append(objectsIn: [Dog(), Dog()])
        unmanaged.setValue(7, forKey: "age")
        XCTAssertEqual(unmanaged.value(forKey: "age") as? [Int], [7, 7])

        dogs.setValue(1, forKey: "age")
        XCTAssertEqual(takeViolations().count, 2, "each object's change outside a write is reported")
        _ = dogs.value(forKey: "weight")
        XCTAssertEqual(takeViolations().count, 2, "an unknown property is reported for each object")
    }
}
