import Foundation
import Strata
import XCTest

/// `AnyRealmCollection`: any collection behind one type, reading, querying, freezing and
/// observing through the wrapped one.
final class AnyRealmCollectionTests: SeedTestCase {
    private func spin(until condition: () -> Bool, file: StaticString = #filePath, line: UInt = #line) {
        let deadline = Date(timeIntervalSinceNow: 20)
        while !condition() {
            if Date() > deadline { return XCTFail("timed out", file: file, line: line) }
            _ = RunLoop.current.run(mode: .default, before: Date(timeIntervalSinceNow: 0.005))
        }
    }

    private func seed(_ realm: Realm) throws -> Person {
        try realm.write {
            realm.add(
                Person(value: [
                    "id": 1, "dogs": [Dog(value: ["name": "Rex", "age": 5]), Dog(value: ["name": "Bo", "age": 2])],
                ]))
        }
        return try XCTUnwrap(realm.object(ofType: Person.self, forPrimaryKey: 1))
    }

    func testWrapsEachCollectionAndReadsThroughIt() throws {
        let realm = try open()
        let person = try seed(realm)
        let wrapped: [AnyRealmCollection<Dog>] = [
            AnyRealmCollection(realm.objects(Dog.self)), AnyRealmCollection(person.dogs),
            AnyRealmCollection(AnyRealmCollection(person.dogs)),
        ]
        for dogs in wrapped {
            XCTAssertEqual(dogs.count, 2)
            XCTAssertEqual(dogs.map(\.name), ["Rex", "Bo"])
            XCTAssertEqual(dogs[1].name, "Bo")
            XCTAssertEqual(dogs.sorted(byKeyPath: "age").first?.name, "Bo")
            XCTAssertEqual(dogs.where { $0.age > 3 }.map(\.name), ["Rex"])
            XCTAssertEqual(dogs.index(matching: "age < 3"), 1)
            XCTAssertEqual(dogs.index(matching: { $0.name == "Rex" }), 0)
            XCTAssertEqual(dogs.average(ofProperty: "age") as Double?, 3.5)
            XCTAssertTrue(dogs.realm == realm)
            XCTAssertFalse(dogs.isInvalidated)
            XCTAssertTrue(dogs.description.contains("Dog"), dogs.description)
        }
        let rex = try XCTUnwrap(person.dogs.first)
        let owners = AnyRealmCollection(rex.owners)
        XCTAssertEqual(owners.map(\.id), [1])
    }

    func testFreezeAndThawKeepTheWrappedKind() throws {
        let realm = try open()
        let person = try seed(realm)
        let dogs = AnyRealmCollection(person.dogs)
        let frozen = dogs.freeze()
        XCTAssertTrue(frozen.isFrozen)
        try realm.write { person.dogs.removeAll() }
        XCTAssertEqual(frozen.count, 2, "the frozen list keeps its version")
        XCTAssertEqual(dogs.count, 0)
        let thawed = try XCTUnwrap(frozen.thaw())
        XCTAssertFalse(thawed.isFrozen)
        XCTAssertEqual(thawed.count, 0)
    }

    func testObserveDeliversTheWrappedCollectionsChanges() throws {
        let realm = try open()
        let person = try seed(realm)
        var events: [String] = []
        let token = AnyRealmCollection(person.dogs).observe { change in
            switch change {
            case .initial(let dogs): events.append("initial \(dogs.count)")
            case .update(let dogs, let d, let i, _): events.append("update \(dogs.count) \(d) \(i)")
            case .error(let e): events.append("error \(e)")
            }
        }
        spin(until: { events.count == 1 })
        try realm.write { person.dogs.append(Dog(value: ["name": "Ace"])) }
        spin(until: { events.count == 2 })
        XCTAssertEqual(events, ["initial 2", "update 3 [] [2]"])
        token.invalidate()
    }

    func testObserveDeliversChangesOfWrappedResultsOfValues() throws {
        let realm = try open()
        try realm.write { realm.add(Scoreboard(value: ["id": 1, "scores": [5, 1]])) }
        let board = try XCTUnwrap(realm.object(ofType: Scoreboard.self, forPrimaryKey: 1))
        var events: [String] = []
        let token = AnyRealmCollection(board.scores.sorted(ascending: true)).observe { change in
            switch change {
            case .initial(let scores): events.append("initial \(Array(scores))")
            case .update(let scores, let d, let i, _): events.append("update \(Array(scores)) \(d) \(i)")
            case .error(let e): events.append("error \(e)")
            }
        }
        spin(until: { events.count == 1 })
        try realm.write { board.scores.append(3) }
        spin(until: { events.count == 2 })
        XCTAssertEqual(events, ["initial [1, 5]", "update [1, 3, 5] [] [1]"])
        token.invalidate()
    }
}
