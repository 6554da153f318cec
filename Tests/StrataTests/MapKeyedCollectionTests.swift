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

    func testQueriesOfUnmanagedMapsAndMapsOfObjectsAreReported() throws {
        let unmanaged = Map<String, Int>()
        unmanaged["a"] = 1
        XCTAssertEqual(unmanaged.sum(), 1, "aggregates work without a realm")
        XCTAssertEqual(unmanaged.sorted(ascending: true).count, 0)
        XCTAssertEqual(takeViolations().count, 1)

        let realm = try open()
        try realm.write { realm.add(Scoreboard(value: ["id": 1, "pets": ["rex": Dog(value: ["name": "Rex"])]])) }
        let pets = try board(realm).pets
        XCTAssertEqual(pets.filter("name == 'Rex'").count, 0)
        XCTAssertEqual(takeViolations().count, 1, "a map of objects cannot be queried yet")
    }
}
