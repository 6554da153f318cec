import Foundation
import Strata
import StrataTestSupport
import XCTest

/// `sectioned(by:ascending:)` on collections of values: the values sorted, then grouped by the
/// key the block gives; live, frozen and thawed, and observed.
final class SectionedValuesTests: SeedTestCase {
    private func board(_ realm: Realm) throws -> Scoreboard {
        try XCTUnwrap(realm.object(ofType: Scoreboard.self, forPrimaryKey: 1))
    }

    private func contents<K, E>(_ sections: SectionedResults<K, E>) -> [String] {
        sections.map { section in "\(section.key): \(section.map { "\($0)" }.joined(separator: ","))" }
    }

    func testAListOfStringsIsSortedThenGroupedByTheBlocksKey() throws {
        let realm = try open()
        try realm.write {
            realm.add(Scoreboard(value: ["id": 1, "names": ["bob", "ann", "cy", "al", "bea", "ann"]]))
        }
        let names = try board(realm).names
        let byInitial = names.sectioned(by: { String($0.prefix(1)) })
        XCTAssertEqual(byInitial.allKeys, ["a", "b", "c"])
        XCTAssertEqual(contents(byInitial), ["a: al,ann,ann", "b: bea,bob", "c: cy"])
        XCTAssertEqual(byInitial[IndexPath(item: 1, section: 1)], "bob")
        let descending = names.sectioned(by: { $0.count }, ascending: false)
        XCTAssertEqual(contents(descending), ["2: cy,al", "3: bob,bea,ann,ann"])
        try realm.write { names.append("dee") }
        XCTAssertEqual(byInitial.allKeys, ["a", "b", "c", "d"], "live: follows the list")
    }

    func testSetsAndResultsOfValuesSectionAndFreeze() throws {
        let realm = try open()
        try realm.write {
            realm.add(Scoreboard(value: ["id": 1, "levels": [12, 3, 25, 7, 18], "scores": [5, 15, 25]]))
        }
        let board = try board(realm)
        let tens = board.levels.sectioned(by: { $0 / 10 })
        XCTAssertEqual(contents(tens), ["0: 3,7", "1: 12,18", "2: 25"])
        let big = board.scores.where { $0 > 1 }.sectioned(by: { $0 > 10 })
        XCTAssertEqual(contents(big), ["false: 5", "true: 15,25"])
        let frozen = tens.freeze()
        try realm.write { board.levels.insert(1) }
        XCTAssertTrue(frozen.isFrozen)
        XCTAssertEqual(contents(frozen), ["0: 3,7", "1: 12,18", "2: 25"])
        XCTAssertEqual(contents(tens), ["0: 1,3,7", "1: 12,18", "2: 25"])
        XCTAssertEqual(contents(try XCTUnwrap(frozen.thaw())), ["0: 1,3,7", "1: 12,18", "2: 25"])
    }

    func testSectionedValuesReportChanges() throws {
        let realm = try open()
        try realm.write { realm.add(Scoreboard(value: ["id": 1, "scores": [5, 15]])) }
        let board = try board(realm)
        let sections = board.scores.sectioned(by: { $0 / 10 })
        var events: [String] = []
        let token = sections.observe { change in
            switch change {
            case .initial(let s): events.append("initial \(s.allKeys)")
            case .update(let s, _, _, _, _, _): events.append("update \(s.allKeys)")
            }
        }
        spin(until: { events.count == 1 })
        try realm.write { board.scores.append(27) }
        spin(until: { events.count == 2 })
        XCTAssertEqual(events, ["initial [0, 1]", "update [0, 1, 2]"])
        token.invalidate()
    }
}
