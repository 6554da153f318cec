import Foundation
import Strata
import StrataTestSupport
import XCTest

class MapEntryStop: EmbeddedObject {
    @Persisted var name = ""
}

class MapEntryRoute: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var stops: Map<String, MapEntryStop?>
    @Persisted var notes: Map<String, String?>
}

/// Single-key edits of a managed map (`map[key] = value`, `updateValue`, `removeObject(for:)`,
/// assigning nil): each writes one entry; reads in the same write (cached and not) and after the
/// commit see every edit, objects set as values are added, and an embedded object that a set
/// replaces is deleted.
final class MapEntryTests: SeedTestCase {
    func testALoopOfSingleKeyEditsReadsBackAsTheModel() throws {
        let realm = try open()
        try realm.write { realm.add(Scoreboard(value: ["id": 1, "byLevel": ["m": 13]])) }
        let board = try XCTUnwrap(realm.object(ofType: Scoreboard.self, forPrimaryKey: 1))
        var model: [String: Int] = ["m": 13]
        var rng = SeededRandom(seed: 21)
        try realm.write {
            for step in 0..<400 {
                let key = "k\(Int.random(in: 0..<60, using: &rng))"
                switch Int.random(in: 0..<4, using: &rng) {
                case 0:
                    board.byLevel[key] = nil
                    model[key] = nil
                case 1:
                    board.byLevel.removeObject(for: key)
                    model[key] = nil
                case 2:
                    board.byLevel.updateValue(step, forKey: key)
                    model[key] = step
                default:
                    board.byLevel[key] = -step
                    model[key] = -step
                }
                if step % 7 == 0 {
                    XCTAssertEqual(board.byLevel.count, model.count, "step \(step)")
                    XCTAssertEqual(board.byLevel[key], model[key], "step \(step)")
                }
            }
        }
        XCTAssertEqual(board.byLevel.keys, model.keys.sorted())
        XCTAssertEqual(board.byLevel.values, model.keys.sorted().map { model[$0]! })
        let reopened = try XCTUnwrap(try open().object(ofType: Scoreboard.self, forPrimaryKey: 1))
        XCTAssertEqual(
            Dictionary(uniqueKeysWithValues: reopened.byLevel.asKeyValueSequence().map { ($0.key, $0.value) }), model)
    }

    func testOptionalValuesAndObjectValues() throws {
        let realm = try open()
        try realm.write { realm.add(MapEntryRoute(value: ["id": 1])) }
        let route = try XCTUnwrap(realm.object(ofType: MapEntryRoute.self, forPrimaryKey: 1))
        try realm.write {
            route.notes["a"] = "first"
            route.notes["b"] = .some(nil)
            route.notes.updateValue(nil, forKey: "c")
            route.stops["x"] = MapEntryStop(value: ["name": "Harbour"])
            route.stops["y"] = MapEntryStop(value: ["name": "Hill"])
        }
        XCTAssertEqual(route.notes.keys, ["a", "b", "c"], "a nil value is an entry of a map of optionals")
        XCTAssertEqual(route.notes["b"], .some(nil))
        let harbour = try XCTUnwrap(route.stops["x"] ?? nil)
        let hill = try XCTUnwrap(route.stops["y"] ?? nil)
        XCTAssertEqual([harbour.name, hill.name], ["Harbour", "Hill"])
        try realm.write {
            route.stops["x"] = MapEntryStop(value: ["name": "Quay"])
            route.stops["y"] = nil
            route.notes["a"] = nil
        }
        XCTAssertEqual(route.stops.keys, ["x"])
        XCTAssertEqual(route.stops["x"]??.name, "Quay")
        XCTAssertEqual(route.notes.keys, ["b", "c"])
        XCTAssertTrue(harbour.isInvalidated, "the embedded object the set replaced is deleted")
        XCTAssertTrue(hill.isInvalidated, "the embedded object of the removed entry is deleted")
    }

    func testEditsOutsideAWriteAreViolationsAndChangeNothing() throws {
        let realm = try open()
        try realm.write { realm.add(Scoreboard(value: ["id": 1, "byLevel": ["a": 1]])) }
        let board = try XCTUnwrap(realm.object(ofType: Scoreboard.self, forPrimaryKey: 1))
        board.byLevel["b"] = 2
        board.byLevel.removeObject(for: "a")
        XCTAssertEqual(takeViolations().count, 2)
        XCTAssertEqual(board.byLevel.keys, ["a"])
    }
}
