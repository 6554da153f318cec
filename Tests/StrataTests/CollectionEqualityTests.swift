import Foundation
import Strata
import XCTest

/// `==` of collections, as RealmSwift has it: the same collection, not equal elements.
final class CollectionEqualityTests: SeedTestCase {
    func testManagedListsAreEqualWhenTheyAreTheSamePropertyOfTheSameObject() throws {
        let realm = try open()
        try realm.write {
            realm.add(Person(value: ["id": 1, "dogs": [Dog(value: ["name": "A"])]]))
            realm.add(Person(value: ["id": 2, "dogs": [Dog(value: ["name": "A"])]]))
        }
        let ann = try XCTUnwrap(realm.object(ofType: Person.self, forPrimaryKey: 1))
        let annAgain = try XCTUnwrap(realm.objects(Person.self).where { $0.id == 1 }.first)
        let bob = try XCTUnwrap(realm.object(ofType: Person.self, forPrimaryKey: 2))
        XCTAssertTrue(ann.dogs == annAgain.dogs, "two reads of one list")
        XCTAssertFalse(ann.dogs == bob.dogs, "lists of two objects, even with equal elements")
        XCTAssertFalse(ann.dogs == ann.dogs.freeze(), "a frozen list belongs to another realm")
        XCTAssertFalse(ann.dogs == List<Dog>(), "managed and unmanaged")
    }

    func testUnmanagedListsAndSetsCompareTheirElements() {
        XCTAssertTrue(List([1, 2]) == List([1, 2]))
        XCTAssertFalse(List([1, 2]) == List([2, 1]))
        let a = MutableSet<String>()
        a.insert(objectsIn: ["x", "y"])
        let b = MutableSet<String>()
        b.insert(objectsIn: ["y", "x"])
        XCTAssertTrue(a == b)
        b.insert("z")
        XCTAssertFalse(a == b)
    }

    func testResultsAreEqualOnlyToThemselves() throws {
        let realm = try open()
        let dogs = realm.objects(Dog.self)
        let copy = dogs
        XCTAssertTrue(dogs == copy, "a copy of one Results value")
        XCTAssertFalse(dogs == realm.objects(Dog.self), "another query of the same objects")
        XCTAssertFalse(dogs == dogs.filter("age > 1"))
    }

    func testSetsAndLinkingObjectsOfTheSameObjectAreEqual() throws {
        let realm = try open()
        try realm.write {
            realm.add(Scoreboard(value: ["id": 1, "levels": [1]]))
            realm.add(Scoreboard(value: ["id": 2, "levels": [1]]))
            realm.add(Person(value: ["id": 1, "dogs": [Dog()]]))
        }
        let one = try XCTUnwrap(realm.object(ofType: Scoreboard.self, forPrimaryKey: 1))
        let two = try XCTUnwrap(realm.object(ofType: Scoreboard.self, forPrimaryKey: 2))
        XCTAssertTrue(one.levels == one.levels)
        XCTAssertFalse(one.levels == two.levels)
        let dog = try XCTUnwrap(realm.objects(Dog.self).first)
        let sameDog = try XCTUnwrap(realm.objects(Dog.self).first)
        XCTAssertTrue(dog.owners == sameDog.owners)
        XCTAssertTrue(AnyRealmCollection(one.levels) == AnyRealmCollection(one.levels))
        XCTAssertFalse(AnyRealmCollection(one.levels) == AnyRealmCollection(two.levels))
        XCTAssertFalse(
            AnyRealmCollection(one.levels) == AnyRealmCollection(one.levels.sorted(ascending: true)),
            "a set and results of it")
    }
}
