import Foundation
import Strata
import StrataTestSupport
import XCTest

/// Map properties in queries: `labels['color']` (the value for one key, nil when absent),
/// `@keys`, `@values`, in the string form and in `where { }`, checked against Swift's evaluation.
final class QueryMapTests: SeedTestCase {
    func testMapSubscriptsKeysAndValues() throws {
        let realm = try open()
        let rows: [[String: String]] = [
            ["color": "blue", "size": "L"], ["color": "red"], ["shape": "blue"], [:],
        ]
        try realm.write {
            for (i, labels) in rows.enumerated() {
                let item = Item()
                item._id = ObjectId.generate()
                item.priority = i
                for (k, v) in labels { item.labels[k] = v }
                realm.add(item)
            }
        }
        let items = realm.objects(Item.self)
        func expected(_ test: ([String: String]) -> Bool) -> [Int] {
            rows.enumerated().filter { test($0.element) }.map(\.offset)
        }
        XCTAssertEqual(items.filter("labels['color'] == 'blue'").map(\.priority), expected { $0["color"] == "blue" })
        XCTAssertEqual(items.filter("labels['color'] != 'blue'").map(\.priority), expected { $0["color"] != "blue" })
        XCTAssertEqual(items.filter("labels['color'] == nil").map(\.priority), expected { $0["color"] == nil })
        XCTAssertEqual(items.filter("labels[%@] BEGINSWITH 'r'", "x").count, 0, "a placeholder is not a key")
        XCTAssertEqual(takeViolations().count, 1)
        XCTAssertEqual(items.filter("labels.@keys == 'shape'").map(\.priority), expected { $0["shape"] != nil })
        XCTAssertEqual(
            items.filter("ANY labels.@values == 'blue'").map(\.priority), expected { $0.values.contains("blue") })
        XCTAssertEqual(items.filter("labels.@count == 0").map(\.priority), expected { $0.isEmpty })

        XCTAssertEqual(items.where { $0.labels["color"] == "blue" }.map(\.priority), expected { $0["color"] == "blue" })
        XCTAssertEqual(items.where { $0.labels["size"] == nil }.map(\.priority), expected { $0["size"] == nil })
        XCTAssertEqual(items.where { $0.labels.keys == "color" }.map(\.priority), expected { $0["color"] != nil })
        XCTAssertEqual(
            items.where { $0.labels.values.starts(with: "b") }.map(\.priority),
            expected { $0.values.contains { $0.hasPrefix("b") } })
        XCTAssertEqual(
            items.where { $0.labels.contains("red") }.map(\.priority), expected { $0.values.contains("red") })

        XCTAssertThrowsError(try items.checkedFilter("priority['x'] == 1")) { error in
            XCTAssertTrue("\(error)".contains("not a map"), "\(error)")
        }
        XCTAssertThrowsError(try items.checkedFilter("labels[0] == 'x'")) { error in
            XCTAssertTrue("\(error)".contains("column 7"), "\(error)")
        }
    }
}
