import Foundation
import Strata
import XCTest

/// `Map` as a `RealmKeyedCollection`: queries, sorting and aggregates of its values, key-value
/// coding by key, and generic code over the protocol.
final class MapKeyedCollectionTests: SeedTestCase {
    private func best<M: RealmKeyedCollection>(_ scores: M) -> Int? where M.Value == Int {
        scores.sorted(ascending: false).first
    }

    private func board(_ realm: Realm) throws -> Scoreboard {
        try XCTUnwrap(realm.object(ofType: Scoreboard.self, forPrimaryKey: 1))
    }

    func testValuesAreQueriedSortedAndAggregatedInKeyOrder() throws {
        let realm = try open()
        try realm.write { realm.add(Scoreboard(value: ["id": 1, "byLevel": ["c": 7, "a": 3, "b": 9, "d": 3]])) }
        let map = try board(realm).byLevel
        XCTAssertEqual(Array(map.where { $0 > 3 }), [9, 7], "values in key order: a 3, b 9, c 7, d 3")
        XCTAssertEqual(Array(map.filter("self == %@", 3)), [3, 3])
        XCTAssertEqual(Array(map.sorted(ascending: true)), [3, 3, 7, 9])
        XCTAssertEqual(Array(map.sorted(byKeyPath: "self", ascending: false)), [9, 7, 3, 3])
        XCTAssertEqual(Array(map.distinct()), [3, 9, 7])
        XCTAssertEqual(map.min(), 3)
        XCTAssertEqual(map.max(), 9)
        XCTAssertEqual(map.sum(), 22)
        XCTAssertEqual(map.average(), 5.5 as Double)
        XCTAssertEqual(map.sum(ofProperty: "self") as Int, 22)
        XCTAssertEqual(best(map), 9)

        let big = map.where { $0 > 5 }
        try realm.write { map["e"] = 11 }
        XCTAssertEqual(Array(big), [9, 7, 11], "the results follow the map")
    }

    func testKeyValueCodingReadsAndWritesByKey() throws {
        let realm = try open()
        try realm.write { realm.add(Scoreboard(value: ["id": 1, "byLevel": ["a": 1]])) }
        let map = try board(realm).byLevel
        XCTAssertEqual(map.value(forKey: "a") as? Int, 1)
        XCTAssertNil(map.value(forKey: "zz"))
        try realm.write {
            map.setValue(5, forKey: "b")
            map.setValue(nil, forKey: "a")
        }
        XCTAssertEqual(map.keys, ["b"])
        XCTAssertEqual(map["b"], 5)
        try realm.write { map.setValue("x", forKey: "c") }
        XCTAssertEqual(takeViolations().count, 1, "a value of another type is reported")
        XCTAssertNil(map["c"])
    }

    func testQueriesOfUnmanagedMapsAreReported() throws {
        let unmanaged = Map<String, Int>()
        unmanaged["a"] = 1
        XCTAssertEqual(unmanaged.sum(), 1, "aggregates work without a realm")
        XCTAssertEqual(unmanaged.sorted(ascending: true).count, 0)
        XCTAssertEqual(takeViolations().count, 1)
    }

    func testMapsOfObjectsAreQueriedSortedAndAggregatedByTheStore() throws {
        let realm = try open()
        try realm.write {
            let board = Scoreboard(value: ["id": 1])
            board.pets["rex"] = Dog(value: ["name": "Rex", "age": 7])
            board.pets["bo"] = Dog(value: ["name": "Bo", "age": 2])
            board.pets["ann"] = Dog(value: ["name": "Ann", "age": 4])
            board.pets["none"] = .some(nil)
            realm.add(board)
            realm.add(Dog(value: ["name": "Stray", "age": 9]))
        }
        let pets = try board(realm).pets
        // Results<Dog?>, in key order, nil values skipped; other dogs are not candidates.
        let older: Results<Dog?> = pets.filter("age > %@", 3)
        XCTAssertEqual(older.map { $0?.name }, ["Ann", "Rex"])
        XCTAssertEqual(pets.filter("age > 100").count, 0)
        XCTAssertEqual(pets.sorted(byKeyPath: "age", ascending: false).map { $0?.name }, ["Rex", "Ann", "Bo"])
        XCTAssertEqual(pets.sum(ofProperty: "age") as Int, 13)
        XCTAssertEqual(pets.max(ofProperty: "age") as Int?, 7)
        XCTAssertEqual(pets.average(ofProperty: "age") as Double?, 13.0 / 3)
        // Live: the results follow the map.
        try realm.write { pets["zed"] = Dog(value: ["name": "Zed", "age": 5]) }
        XCTAssertEqual(older.map { $0?.name }, ["Ann", "Rex", "Zed"])
        try realm.write { pets.removeObject(for: "rex") }
        XCTAssertEqual(older.count, 2)
    }
}
