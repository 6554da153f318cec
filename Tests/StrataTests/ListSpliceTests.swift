import Foundation
import Strata
import StrataTestSupport
import XCTest

class SpliceStop: EmbeddedObject {
    @Persisted var name = ""
}

class SpliceRoute: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var stops: List<SpliceStop>
}

/// Edits of a range of a managed list (insert, remove, replace, move, swap, removeFirst/Last,
/// subranges), each written as one edit of that range: reads inside the write (the cached list
/// carried from edit to edit) and after the commit see the model's elements; moving an embedded
/// object keeps it, replacing or removing one deletes it.
final class ListSpliceTests: SeedTestCase {
    func testALoopOfRangeEditsReadsBackAsTheModel() throws {
        let realm = try open()
        try realm.write { realm.add(Scoreboard(value: ["id": 1, "scores": [1, 2, 3]])) }
        let board = try XCTUnwrap(realm.object(ofType: Scoreboard.self, forPrimaryKey: 1))
        var model = [1, 2, 3]
        var rng = SeededRandom(seed: 33)
        try realm.write {
            for step in 0..<500 {
                let list = board.scores
                let n = model.count
                switch Int.random(in: 0..<10, using: &rng) {
                case 0:
                    let i = Int.random(in: 0...n, using: &rng)
                    list.insert(step, at: i)
                    model.insert(step, at: i)
                case 1 where n > 0:
                    let i = Int.random(in: 0..<n, using: &rng)
                    list.remove(at: i)
                    model.remove(at: i)
                case 2 where n > 0:
                    let i = Int.random(in: 0..<n, using: &rng)
                    list.replace(index: i, object: -step)
                    model[i] = -step
                case 3 where n > 0:
                    let (i, j) = (Int.random(in: 0..<n, using: &rng), Int.random(in: 0..<n, using: &rng))
                    list.move(from: i, to: j)
                    model.insert(model.remove(at: i), at: j)
                case 4 where n > 0:
                    let (i, j) = (Int.random(in: 0..<n, using: &rng), Int.random(in: 0..<n, using: &rng))
                    list.swapAt(i, j)
                    model.swapAt(i, j)
                case 5 where n > 0:
                    list.removeLast()
                    model.removeLast()
                case 6 where n > 0:
                    list.removeFirst()
                    model.removeFirst()
                case 7:
                    let lower = Int.random(in: 0...n, using: &rng)
                    let upper = Int.random(in: lower...min(n, lower + 3), using: &rng)
                    list.replaceSubrange(lower..<upper, with: [step, step + 1])
                    model.replaceSubrange(lower..<upper, with: [step, step + 1])
                case 8:
                    let k = Int.random(in: 0...min(n, 2), using: &rng)
                    list.removeLast(k)
                    model.removeLast(k)
                default:
                    list.append(step)
                    model.append(step)
                }
                if step % 5 == 0 { XCTAssertEqual(Array(board.scores), model, "step \(step)") }
            }
        }
        XCTAssertEqual(Array(board.scores), model)
        let reopened = try XCTUnwrap(try open().object(ofType: Scoreboard.self, forPrimaryKey: 1))
        XCTAssertEqual(Array(reopened.scores), model)
    }

    func testMovingAnEmbeddedObjectKeepsItAndReplacingOneDeletesIt() throws {
        let realm = try open()
        try realm.write {
            realm.add(SpliceRoute(value: ["id": 1, "stops": [["name": "a"], ["name": "b"], ["name": "c"]]]))
        }
        let route = try XCTUnwrap(realm.object(ofType: SpliceRoute.self, forPrimaryKey: 1))
        let a = route.stops[0]
        let b = route.stops[1]
        try realm.write {
            route.stops.move(from: 0, to: 2)
            route.stops.swapAt(0, 1)
        }
        XCTAssertEqual(route.stops.map(\.name), ["c", "b", "a"])
        XCTAssertFalse(a.isInvalidated, "a moved embedded object is the same object")
        XCTAssertEqual(a.name, "a")
        try realm.write {
            route.stops.replace(index: 1, object: SpliceStop(value: ["name": "B"]))
            route.stops.insert(SpliceStop(value: ["name": "d"]), at: 0)
        }
        XCTAssertTrue(b.isInvalidated, "the embedded object a replace took out is deleted")
        XCTAssertEqual(route.stops.map(\.name), ["d", "c", "B", "a"])
        try realm.write { route.stops.remove(at: 3) }
        XCTAssertTrue(a.isInvalidated, "a removed embedded object is deleted")
        XCTAssertEqual(route.stops.map(\.name), ["d", "c", "B"])
    }

    func testRangeEditsOutsideTheListAreViolationsAndChangeNothing() throws {
        let realm = try open()
        try realm.write { realm.add(Scoreboard(value: ["id": 1, "scores": [1, 2]])) }
        let board = try XCTUnwrap(realm.object(ofType: Scoreboard.self, forPrimaryKey: 1))
        try realm.write {
            board.scores.insert(9, at: 3)
            board.scores.remove(at: 2)
            board.scores.move(from: 0, to: 2)
            board.scores.removeLast(3)
        }
        XCTAssertEqual(takeViolations().count, 4)
        XCTAssertEqual(Array(board.scores), [1, 2])
    }
}
