import Foundation
import Strata
import StrataTestSupport
import XCTest

/// The key-path forms of sorting, distinct and aggregates, and `index(matching:)`, on `Results`
/// and on collections.
final class CollectionKeyPathQueryTests: SeedTestCase {
    func testKeyPathFormsMatchTheirStringForms() throws {
        let realm = try open()
        try realm.write {
            let person = Person()
            person.id = 1
            person.dogs.append(objectsIn: [
                Dog(value: ["name": "Rex", "age": 5]), Dog(value: ["name": "Bo", "age": 2]),
                Dog(value: ["name": "Ada", "age": 8]), Dog(value: ["name": "Bo", "age": 3]),
            ])
            realm.add(person)
        }
        let person = try XCTUnwrap(realm.object(ofType: Person.self, forPrimaryKey: 1))
        let dogs = realm.objects(Dog.self)
        XCTAssertEqual(dogs.sorted(by: \.age).map(\.name), ["Bo", "Bo", "Rex", "Ada"])
        XCTAssertEqual(person.dogs.sorted(by: \.name, ascending: false).map(\.age), [5, 2, 3, 8])
        XCTAssertEqual(person.dogs.distinct(by: [\Dog.name]).map(\.age), [5, 2, 8])
        XCTAssertEqual(dogs.min(of: \.age), 2)
        XCTAssertEqual(person.dogs.max(of: \.name), "Rex")
        XCTAssertEqual(person.dogs.sum(of: \.age), 18)
        XCTAssertEqual(person.dogs.average(of: \.age), 4, "an Int average is rounded toward zero")
        XCTAssertEqual(dogs.where { $0.age > 100 }.average(of: \.age), nil)
        XCTAssertEqual(person.dogs.index(matching: "name == %@", "Ada"), 2)
        XCTAssertEqual(person.dogs.index(matching: { $0.name == "Bo" }), 1)
        XCTAssertEqual(person.dogs.index(matching: { $0.age > 50 }), nil)
        XCTAssertEqual(dogs.sorted(by: \.age).index(matching: { $0.name == "Rex" }), 2)
        let rex = dogs.where { $0.name == "Rex" }.first!
        XCTAssertEqual(rex.owners.index(matching: "id == 1"), 0)
    }
}

extension CollectionKeyPathQueryTests {
    func testSortDescriptorsFromKeyPathsLiteralsAndReversed() throws {
        let realm = try open()
        try realm.write {
            for (name, age) in [("Rex", 5), ("Bo", 2), ("Ada", 8), ("Bo", 3)] {
                realm.add(Dog(value: ["name": name, "age": age]))
            }
        }
        let dogs = realm.objects(Dog.self)
        XCTAssertEqual(dogs.sorted(by: [SortDescriptor(keyPath: \Dog.age)]).map(\.age), [2, 3, 5, 8])
        XCTAssertEqual(
            dogs.sorted(by: ["name", SortDescriptor(keyPath: \Dog.age).reversed()]).map(\.age), [8, 3, 2, 5])
        let descriptor: Strata.SortDescriptor = "age"  // Foundation has a SortDescriptor too, as with RealmSwift
        XCTAssertEqual(descriptor, SortDescriptor(keyPath: "age", ascending: true))
        XCTAssertEqual(descriptor.reversed().ascending, false)
    }
}

extension CollectionKeyPathQueryTests {
    func testObjectsAtIndexes() throws {
        let realm = try open()
        try realm.write {
            let person = Person()
            person.id = 1
            person.dogs.append(objectsIn: ["a", "b", "c", "d"].map { Dog(value: ["name": $0]) })
            realm.add(person)
        }
        let person = try XCTUnwrap(realm.object(ofType: Person.self, forPrimaryKey: 1))
        XCTAssertEqual(person.dogs.objects(at: IndexSet([0, 2])).map(\.name), ["a", "c"])
        XCTAssertEqual(realm.objects(Dog.self).objects(at: IndexSet([3, 1])).map(\.name), ["b", "d"])
        XCTAssertEqual(realm.objects(Dog.self).objects(at: IndexSet()).count, 0)
        XCTAssertEqual(person.dogs.objects(at: IndexSet([1, 4])).count, 0)
        XCTAssertEqual(realm.objects(Dog.self).objects(at: IndexSet([9])).count, 0)
        XCTAssertEqual(takeViolations().count, 2)
    }
}
