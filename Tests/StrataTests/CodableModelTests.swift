import Foundation
import Strata
import XCTest

/// Models declared `Codable` decode into unmanaged objects and encode their stored values, also
/// when managed.
final class CodableModelTests: SeedTestCase {
    private let json = """
        {"id": 7, "name": "Rex", "nickname": "R", "toy": {"name": "Ball"}, "collar": {"color": "red"},
         "scores": [3, 1, 2], "toys": [{"name": "Rope"}], "labels": ["good"], "weights": {"jan": 20.5}}
        """

    func testDecodingMakesAnUnmanagedObjectWithNestedObjectsAndCollections() throws {
        let dog = try JSONDecoder().decode(CodableDog.self, from: Data(json.utf8))
        XCTAssertNil(dog.realm)
        XCTAssertEqual(dog.id, 7)
        XCTAssertEqual(dog.name, "Rex")
        XCTAssertEqual(dog.nickname, "R")
        XCTAssertNil(dog.chip, "a missing key leaves the type's default, as in RealmSwift")
        XCTAssertEqual(dog.toy?.name, "Ball")
        XCTAssertEqual(dog.collar?.color, "red")
        XCTAssertEqual(Array(dog.scores), [3, 1, 2])
        XCTAssertEqual(dog.toys.map(\.name), ["Rope"])
        XCTAssertEqual(Array(dog.labels), ["good"])
        XCTAssertEqual(dog.weights["jan"], 20.5)
    }

    func testManagedObjectsEncodeTheirStoredValuesAndRoundTrip() throws {
        let realm = try open()
        try realm.write { realm.add(try JSONDecoder().decode(CodableDog.self, from: Data(json.utf8))) }
        let stored = try XCTUnwrap(realm.object(ofType: CodableDog.self, forPrimaryKey: 7))
        try realm.write {
            stored.name = "Max"
            stored.scores.append(9)
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let data = try encoder.encode(stored)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
        XCTAssertEqual(object["name"] as? String, "Max")
        XCTAssertEqual(object["scores"] as? [Int], [3, 1, 2, 9])
        XCTAssertEqual((object["toy"] as? [String: Any])?["name"] as? String, "Ball")
        XCTAssertNil(object["chip"], "nil values are left out")
        XCTAssertNil((object["toy"] as? [String: Any])?["owners"], "linking objects are not encoded")
        let again = try JSONDecoder().decode(CodableDog.self, from: data)
        XCTAssertEqual(again.name, "Max")
        XCTAssertEqual(Array(again.scores), [3, 1, 2, 9])
        XCTAssertEqual(again.collar?.color, "red")
        XCTAssertEqual(again.weights["jan"], 20.5)
        XCTAssertEqual(again.born.timeIntervalSince1970, stored.born.timeIntervalSince1970, accuracy: 0.001)
    }

    func testResultsEncodeTheirCurrentElementsAsAnArray() throws {
        let realm = try open()
        try realm.write {
            realm.add(CodableDog(value: ["id": 2, "name": "Bo", "scores": [3, 1, 2]]))
            realm.add(CodableDog(value: ["id": 1, "name": "Ann"]))
        }
        let dogs = realm.objects(CodableDog.self).sorted(byKeyPath: "name")
        let decoded = try JSONDecoder().decode([CodableDog].self, from: JSONEncoder().encode(dogs))
        XCTAssertEqual(decoded.map(\.name), ["Ann", "Bo"])
        let scores = try XCTUnwrap(realm.object(ofType: CodableDog.self, forPrimaryKey: 2)).scores
        let sortedScores = try JSONEncoder().encode(scores.sorted(ascending: true))
        XCTAssertEqual(String(decoding: sortedScores, as: UTF8.self), "[1,2,3]")
    }

    func testDecodingAWrongTypeThrowsNamingTheKey() {
        XCTAssertThrowsError(try JSONDecoder().decode(CodableDog.self, from: Data(#"{"id": "seven"}"#.utf8))) {
            error in
            guard case DecodingError.typeMismatch(_, let context) = error else {
                return XCTFail("\(error)")
            }
            XCTAssertEqual(context.codingPath.map(\.stringValue), ["id"])
        }
    }
}
