import Foundation
import Strata
import XCTest

/// `where { }` on a map of objects (`Map<String, Dog?>`): the closure's `$0` is the optional
/// object, its members the object's properties, and the store runs the query over the objects
/// the map's values link to (in key order, nil values skipped), as the string form does.
final class MapOfObjectsWhereTests: SeedTestCase {
    private func addBoard(_ realm: Realm) throws -> Map<String, Dog?> {
        try realm.write {
            let board = Scoreboard(value: ["id": 1])
            board.pets["rex"] = Dog(value: ["name": "Rex", "age": 7])
            board.pets["bo"] = Dog(value: ["name": "Bo", "age": 2])
            board.pets["ann"] = Dog(value: ["name": "Ann", "age": 4, "favoriteToy": DogToy(value: ["name": "Ball"])])
            board.pets["none"] = .some(nil)
            realm.add(board)
            realm.add(Dog(value: ["name": "Stray", "age": 9]))
        }
        return try XCTUnwrap(realm.object(ofType: Scoreboard.self, forPrimaryKey: 1)).pets
    }

    func testWhereOnAMapOfObjectsComparesTheObjectsProperties() throws {
        let realm = try open()
        let pets = try addBoard(realm)
        let older: Results<Dog?> = pets.where { $0.age > 1 }
        XCTAssertEqual(older.map { $0?.name }, ["Ann", "Bo", "Rex"], "key order; the nil value and the stray skipped")
        XCTAssertEqual(pets.where { $0.age > 3 && $0.name != "Rex" }.map { $0?.name }, ["Ann"])
        XCTAssertEqual(pets.where { $0.name.starts(with: "B") }.count, 1)
        XCTAssertEqual(pets.where { $0.favoriteToy.name == "Ball" }.first??.name, "Ann", "through a link")
        XCTAssertEqual(pets.where { $0.age.contains(2...4) }.sum(ofProperty: "age") as Int, 6)
        XCTAssertEqual(pets.where { $0.age >= 4 }.sorted(byKeyPath: "age").map { $0?.age }, [4, 7])
        try realm.write { pets["zed"] = Dog(value: ["name": "Zed", "age": 5]) }
        XCTAssertEqual(older.count, 4, "live: follows the map")
    }

    func testWhereOnAMapOfObjectsMatchesItsStringForm() throws {
        let realm = try open()
        let pets = try addBoard(realm)
        for (closure, format) in [(3, "age > 3"), (6, "age > 6"), (100, "age > 100")] {
            XCTAssertEqual(
                pets.where { $0.age > closure }.map { $0?.name }, pets.filter(format).map { $0?.name }, format)
        }
    }
}
