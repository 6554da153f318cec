import Foundation
import Strata
import XCTest

/// Generic code written against `RealmCollection`, called with each conforming collection.
final class RealmCollectionProtocolTests: SeedTestCase {
    /// The query RealmSwift's generic examples run: filter, sort by name, first.
    private func firstOlderThanOne<C: RealmCollection>(_ dogs: C) -> Dog? where C.Element == Dog {
        dogs.filter("age > 1").sorted(byKeyPath: "name").first
    }

    /// A summary of any collection of dogs through the protocol's requirements only.
    private func summary<C: RealmCollection>(_ dogs: C) -> [String] where C.Element == Dog {
        let names = (dogs.value(forKey: "name") as? [String]) ?? []
        let oldest: Int? = dogs.max(ofProperty: "age")
        let total: Int = dogs.sum(ofProperty: "age")
        let sorted = dogs.sorted(by: [SortDescriptor(keyPath: "age", ascending: false)]).map(\.name)
        let young = dogs.where { $0.age < 3 }.map(\.name)
        let distinctAges = dogs.distinct(by: ["age"]).count
        let position = dogs.first.flatMap { dogs.index(of: $0) }
        let matching = dogs.index(matching: "name == %@", "Bo")
        let picked = dogs.objects(at: IndexSet(integer: 0)).map(\.name)
        return [
            names.joined(separator: ","), "\(oldest ?? -1)", "\(total)", sorted.joined(separator: ","),
            young.joined(separator: ","), "\(distinctAges)", "\(position ?? -1)", "\(matching ?? -1)",
            picked.joined(separator: ","), "\(dogs.count)", "\(dogs.isFrozen)", "\(dogs.realm != nil)",
        ]
    }

    private func total<C: RealmCollection>(_ values: C) -> Int where C.Element == Int {
        values.sum()
    }

    private func seed(_ realm: Realm) throws -> Person {
        try realm.write {
            let person = Person(value: ["id": 1, "name": "Ann"])
            person.dogs.append(objectsIn: [
                Dog(value: ["name": "Rex", "age": 5]), Dog(value: ["name": "Bo", "age": 2]),
                Dog(value: ["name": "Ace", "age": 1]),
            ])
            realm.add(person)
        }
        return try XCTUnwrap(realm.object(ofType: Person.self, forPrimaryKey: 1))
    }

    func testGenericQueryRunsOnEveryCollectionOfObjects() throws {
        let realm = try open()
        let person = try seed(realm)
        let results = realm.objects(Dog.self)
        let rex = try XCTUnwrap(results.where { $0.name == "Rex" }.first)

        XCTAssertEqual(firstOlderThanOne(results)?.name, "Bo")
        XCTAssertEqual(firstOlderThanOne(person.dogs)?.name, "Bo")
        XCTAssertEqual(firstOlderThanOne(AnyRealmCollection(results))?.name, "Bo")
        XCTAssertEqual(firstOlderThanOne(AnyRealmCollection(person.dogs))?.name, "Bo")

        let expected = ["Rex,Bo,Ace", "5", "8", "Rex,Bo,Ace", "Bo,Ace", "3", "0", "1", "Rex", "3", "false", "true"]
        XCTAssertEqual(summary(results), expected)
        XCTAssertEqual(summary(person.dogs), expected)
        XCTAssertEqual(summary(AnyRealmCollection(person.dogs)), expected)
        XCTAssertEqual(summary(AnyRealmCollection(results)), expected)
        XCTAssertEqual(summary(results.freeze()).last, "true")
        XCTAssertEqual(summary(results.freeze())[10], "true")
    }

    func testGenericQueryRunsOnSetsAndLinkingObjects() throws {
        let realm = try open()
        let person = try seed(realm)
        let rex = try XCTUnwrap(person.dogs.first)
        try realm.write {
            realm.add(Person(value: ["id": 2, "name": "Cy", "dogs": [rex]]))
        }
        func ownerNames<C: RealmCollection>(_ people: C) -> [String] where C.Element == Person {
            people.filter("id > 0").sorted(byKeyPath: "name", ascending: false).map(\.name)
        }
        XCTAssertEqual(ownerNames(rex.owners), ["Cy", "Ann"])
        XCTAssertEqual(ownerNames(AnyRealmCollection(rex.owners)), ["Cy", "Ann"])
        XCTAssertEqual(rex.owners.index(of: try XCTUnwrap(realm.object(ofType: Person.self, forPrimaryKey: 2))), 1)

        try realm.write { realm.add(Scoreboard(value: ["id": 1, "scores": [1, 2, 3], "levels": [10, 20]])) }
        let board = try XCTUnwrap(realm.object(ofType: Scoreboard.self, forPrimaryKey: 1))
        XCTAssertEqual(total(board.scores), 6)
        XCTAssertEqual(total(board.levels), 30)
        XCTAssertEqual(total(board.scores.where { $0 > 1 }), 5)
        XCTAssertEqual(total(AnyRealmCollection(board.levels)), 30)
    }

    func testResultsIndexOfFindsAnotherInstanceOfTheSameStoredObject() throws {
        let realm = try open()
        _ = try seed(realm)
        let dogs = realm.objects(Dog.self).sorted(byKeyPath: "name")
        let bo = try XCTUnwrap(realm.objects(Dog.self).where { $0.name == "Bo" }.first)
        XCTAssertEqual(dogs.index(of: bo), 1, "another read of the stored object is found")
        XCTAssertNil(dogs.index(of: Dog()), "an unmanaged object is in no results")
    }
}
