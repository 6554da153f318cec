import Foundation
import Strata
import StrataTestSupport
import XCTest

/// `contains` and `containsAny(in:)` on list and set properties in `where { }`, for objects and
/// for values, matching the same query written as a string (`ANY tags == ...`, `%@ IN dogs`).
final class QueryCollectionContainsTests: SeedTestCase {
    func testContainsOnListsAndSetsOfObjectsAndValues() throws {
        let realm = try open()
        let rex = Dog(value: ["name": "Rex"])
        let bo = Dog(value: ["name": "Bo"])
        try realm.write {
            for (id, name, dogs) in [(1, "Ann", [rex]), (2, "Bob", [rex, bo]), (3, "Cid", [])] {
                let person = Person()
                person.id = id
                person.name = name
                person.dogs.append(objectsIn: dogs)
                realm.add(person)
            }
            for (i, tags) in [["urgent", "home"], ["work"], []].enumerated() {
                let item = Item()
                item._id = ObjectId.generate()
                item.priority = i
                item.tags.insert(objectsIn: tags)
                realm.add(item)
            }
            let kennel = CollectionKennel()
            kennel.id = 1
            kennel.residents.insert(bo)
            kennel.scores.append(objectsIn: [3, nil, 7])
            realm.add(kennel)
        }
        let people = realm.objects(Person.self)
        XCTAssertEqual(people.where { $0.dogs.contains(rex) }.map(\.name), ["Ann", "Bob"])
        XCTAssertEqual(people.where { $0.dogs.contains(bo) }.map(\.name), ["Bob"])
        XCTAssertEqual(people.where { !$0.dogs.contains(rex) }.map(\.name), ["Cid"])
        XCTAssertEqual(people.where { $0.dogs.containsAny(in: [bo]) }.map(\.name), ["Bob"])
        XCTAssertEqual(people.filter("%@ IN dogs", bo).map(\.name), ["Bob"])

        let items = realm.objects(Item.self)
        XCTAssertEqual(items.where { $0.tags.contains("urgent") }.map(\.priority), [0])
        XCTAssertEqual(items.where { $0.tags.containsAny(in: ["work", "home"]) }.map(\.priority), [0, 1])
        XCTAssertEqual(items.filter("ANY tags == 'work'").map(\.priority), [1])

        let kennels = realm.objects(CollectionKennel.self)
        XCTAssertEqual(kennels.where { $0.residents.contains(bo) }.count, 1)
        XCTAssertEqual(kennels.where { $0.residents.contains(rex) }.count, 0)
        XCTAssertEqual(kennels.where { $0.scores.contains(7) }.count, 1)
        XCTAssertEqual(kennels.where { $0.scores.contains(nil) }.count, 1)
        XCTAssertEqual(kennels.where { $0.scores.containsAny(in: [1, 2]) }.count, 0)
    }
}
