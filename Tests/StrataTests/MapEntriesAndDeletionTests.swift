import Foundation
import Strata
import StrataTestSupport
import XCTest

/// `map.asKeyValueSequence()` gives the entries in key order; `realm.delete(map)` deletes the
/// objects a map of objects links to, leaving nil values behind.
final class MapEntriesAndDeletionTests: SeedTestCase {
    func testKeyValueSequenceGivesTheEntriesInKeyOrder() throws {
        let realm = try open()
        try realm.write { realm.add(Scoreboard(value: ["id": 1, "byLevel": ["b": 2, "a": 1, "c": 3]])) }
        let board = try XCTUnwrap(realm.object(ofType: Scoreboard.self, forPrimaryKey: 1))
        var seen: [String] = []
        for (key, value) in board.byLevel.asKeyValueSequence() { seen.append("\(key)=\(value)") }
        XCTAssertEqual(seen, ["a=1", "b=2", "c=3"])
        XCTAssertEqual(board.byLevel.asKeyValueSequence().map(\.value), [1, 2, 3])
        let unmanaged = Map<String, Int>()
        unmanaged["z"] = 26
        XCTAssertEqual(unmanaged.asKeyValueSequence().map(\.key), ["z"])
    }

    func testDeletingAMapDeletesTheObjectsItLinksTo() throws {
        let realm = try open()
        try realm.write {
            let board = Scoreboard(value: ["id": 1])
            board.pets["rex"] = Dog(value: ["name": "Rex"])
            board.pets["bo"] = Dog(value: ["name": "Bo"])
            board.pets["none"] = .some(nil)
            realm.add(board)
            realm.add(Dog(value: ["name": "Stray"]))
        }
        let board = try XCTUnwrap(realm.object(ofType: Scoreboard.self, forPrimaryKey: 1))
        try realm.write { realm.delete(board.pets) }
        XCTAssertEqual(realm.objects(Dog.self).map(\.name), ["Stray"])
        XCTAssertEqual(board.pets.keys, ["bo", "none", "rex"])
        XCTAssertTrue(board.pets.values.allSatisfy { $0 == nil })
    }
}
