import Foundation
import Strata
import StrataTestSupport
import XCTest

/// `Map.merge` and `object(forKey:)` on unmanaged and managed maps.
final class MapMergeTests: SeedTestCase {
    func testMergeCombinesExistingKeysAndAddsNewOnes() throws {
        let realm = try open()
        let item = Item()
        item._id = ObjectId.generate()
        item.labels["color"] = "red"
        item.labels["size"] = "L"
        item.labels.merge(["color": "blue", "shape": "round"]) { current, _ in current }
        XCTAssertEqual(item.labels.object(forKey: "color"), "red", "unmanaged: combine kept the current value")
        XCTAssertEqual(item.labels.object(forKey: "shape"), "round")
        try realm.write { realm.add(item) }
        try realm.write {
            item.labels.merge([(key: "size", value: "XL"), (key: "weight", value: "2kg")]) { _, new in new }
        }
        let stored = try XCTUnwrap(realm.objects(Item.self).first)
        XCTAssertEqual(
            Dictionary(uniqueKeysWithValues: stored.labels.map { ($0.key, $0.value) }),
            ["color": "red", "size": "XL", "shape": "round", "weight": "2kg"])
        XCTAssertNil(stored.labels.object(forKey: "missing"))

        struct Refused: Error {}
        try realm.write {
            XCTAssertThrowsError(try item.labels.merge(["color": "green"]) { _, _ in throw Refused() })
        }
        XCTAssertEqual(stored.labels["color"], "red", "a throwing combine changes nothing")
        item.labels.merge(["late": "x"]) { a, _ in a }
        XCTAssertEqual(takeViolations(), ["Cannot modify managed objects outside of a write transaction."])
        XCTAssertNil(stored.labels["late"])
    }
}
