import Foundation
import Strata
import StrataTestSupport
import XCTest

/// Comparisons of two properties of one object in `where { }` agree with the string form
/// (`priority > score`) and with Swift's evaluation.
final class QueryPropertyComparisonTests: SeedTestCase {
    func testTwoPropertiesOfOneObject() throws {
        let realm = try open()
        try realm.write {
            for (priority, score, status, title) in [
                (1, 0.5, "a", "a"), (2, 2.0, "b", "c"), (3, 7.5, "open", "open"), (9, 1.0, "x", "y"),
            ] {
                let item = Item()
                item._id = ObjectId.generate()
                item.priority = priority
                item.score = score
                item.status = status
                item.title = title
                realm.add(item)
            }
        }
        let items = realm.objects(Item.self)
        XCTAssertEqual(items.where { $0.status == $0.title }.map(\.priority), [1, 3])
        XCTAssertEqual(items.where { $0.status != $0.title }.map(\.priority), [2, 9])
        XCTAssertEqual(items.where { $0.status < $0.title }.map(\.priority), [2, 9])
        XCTAssertEqual(items.filter("status == title").map(\.priority), [1, 3])
        XCTAssertEqual(items.filter("priority > score").map(\.priority), [1, 9])
        XCTAssertEqual(items.filter("priority <= score").map(\.priority), [2, 3])
    }
}
