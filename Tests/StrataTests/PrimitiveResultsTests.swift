import Foundation
import Strata
import XCTest

/// `Results` of values: `sorted(ascending:)`, `distinct()`, `where { $0 > 1 }`,
/// `filter("self > 1")` and the aggregates of lists and sets of values, checked against Swift's
/// own evaluation of the same operations.
final class PrimitiveResultsTests: SeedTestCase {
    private func board(_ realm: Realm, id: Int = 1) throws -> Scoreboard {
        try XCTUnwrap(realm.object(ofType: Scoreboard.self, forPrimaryKey: id))
    }

    func testSortedDistinctFiltersAndAggregatesOfIntListMatchSwift() throws {
        let realm = try open()
        var random = SeededRandom(seed: 21)
        for round in 0..<20 {
            let model = (0..<Int.random(in: 0...40, using: &random)).map { _ in Int.random(in: -20...20, using: &random)
            }
            try realm.write {
                realm.add(Scoreboard(value: ["id": round, "scores": model]), update: .modified)
            }
            let scores = try board(realm, id: round).scores
            let k = Int.random(in: -20...20, using: &random)

            XCTAssertEqual(Array(scores.sorted(ascending: true)), model.sorted(), "round \(round)")
            XCTAssertEqual(Array(scores.sorted(ascending: false)), model.sorted(by: >), "round \(round)")
            XCTAssertEqual(Array(scores.sorted(byKeyPath: "self")), model.sorted(), "round \(round)")
            var seen = Set<Int>()
            XCTAssertEqual(Array(scores.distinct()), model.filter { seen.insert($0).inserted }, "round \(round)")
            XCTAssertEqual(Array(scores.where { $0 > k }), model.filter { $0 > k }, "round \(round)")
            XCTAssertEqual(Array(scores.filter("self <= %@", k)), model.filter { $0 <= k }, "round \(round)")
            XCTAssertEqual(
                Array(scores.filter("self BETWEEN {%@, %@}", k, k + 5)), model.filter { (k...(k + 5)).contains($0) })
            XCTAssertEqual(Array(scores.filter("self IN %@", [k, k + 1])), model.filter { $0 == k || $0 == k + 1 })
            XCTAssertEqual(Array(scores.where { $0 != k && !($0 < 0) }), model.filter { $0 != k && $0 >= 0 })

            XCTAssertEqual(scores.min(), model.min(), "round \(round)")
            XCTAssertEqual(scores.max(), model.max(), "round \(round)")
            XCTAssertEqual(scores.sum(), model.reduce(0, +), "round \(round)")
            let mean: Double? = scores.average()
            XCTAssertEqual(mean, model.isEmpty ? nil : Double(model.reduce(0, +)) / Double(model.count))

            let positive = scores.where { $0 > 0 }
            let expected = model.filter { $0 > 0 }
            XCTAssertEqual(positive.count, expected.count)
            XCTAssertEqual(positive.sum(), expected.reduce(0, +))
            XCTAssertEqual(positive.min(), expected.min())
            XCTAssertEqual(positive.max(), expected.max())
            XCTAssertEqual(positive.sum(ofProperty: "self") as Int, expected.reduce(0, +))
            XCTAssertEqual(Array(positive.sorted(ascending: false).distinct()), Array(Set(expected)).sorted(by: >))
            XCTAssertEqual(
                positive.index(of: expected.last ?? 0), expected.last.flatMap { expected.firstIndex(of: $0) })
        }
    }

    func testResultsOfValuesFollowTheListAsItChanges() throws {
        let realm = try open()
        try realm.write { realm.add(Scoreboard(value: ["id": 1, "scores": [5, 1, 4]])) }
        let board = try board(realm)
        let sorted = board.scores.sorted(ascending: true)
        let big = board.scores.where { $0 >= 4 }
        XCTAssertEqual(Array(sorted), [1, 4, 5])
        XCTAssertEqual(Array(big), [5, 4])

        try realm.write {
            board.scores.append(3)
            board.scores.append(9)
        }
        XCTAssertEqual(Array(sorted), [1, 3, 4, 5, 9], "appends reach sorted results")
        XCTAssertEqual(Array(big), [5, 4, 9])
        XCTAssertEqual(big.sum(), 18)

        try realm.write { board.scores.remove(at: 0) }
        XCTAssertEqual(Array(sorted), [1, 3, 4, 9], "removals reach sorted results")
        XCTAssertEqual(Array(big), [4, 9])
        XCTAssertEqual(big.last, 9)
    }

    func testFrozenResultsOfValuesKeepTheirVersion() throws {
        let realm = try open()
        try realm.write { realm.add(Scoreboard(value: ["id": 1, "scores": [3, 1, 2]])) }
        let board = try board(realm)
        let frozen = board.scores.sorted(ascending: true).freeze()
        XCTAssertTrue(frozen.isFrozen)
        try realm.write { board.scores.append(0) }
        XCTAssertEqual(Array(frozen), [1, 2, 3], "frozen results keep the version they were frozen at")
        XCTAssertEqual(frozen.sum(), 6)
        let thawed = try XCTUnwrap(frozen.thaw())
        XCTAssertFalse(thawed.isFrozen)
        XCTAssertEqual(Array(thawed), [0, 1, 2, 3], "thawed results read the live list")
        let fromOtherThread = DispatchQueue.global().sync { Array(frozen) }
        XCTAssertEqual(fromOtherThread, [1, 2, 3])
    }

    func testResultsOfValuesPassToAnotherThreadByReference() throws {
        let realm = try open()
        try realm.write { realm.add(Scoreboard(value: ["id": 1, "scores": [5, 1, 9, 3, 9], "levels": [4, 2]])) }
        let board = try board(realm)
        let big = board.scores.where { $0 > 2 }.sorted(ascending: false).distinct()
        let levels = board.levels.sorted(ascending: true)
        let bigReference = ThreadSafeReference(to: big)
        let levelsReference = ThreadSafeReference(to: levels)
        let config = self.config()
        let (resolved, afterWrite, resolvedLevels) = DispatchQueue.global().sync {
            () -> ([Int]?, [Int]?, [Int]?) in
            let other = try! Realm(configuration: config)
            guard let results = other.resolve(bigReference) else { return (nil, nil, nil) }
            let before = Array(results)
            // Live on the new thread: the same operations follow the list there.
            try! other.write { other.object(ofType: Scoreboard.self, forPrimaryKey: 1)!.scores.append(7) }
            return (before, Array(results), other.resolve(levelsReference).map(Array.init))
        }
        XCTAssertEqual(resolved, [9, 5, 3])
        XCTAssertEqual(afterWrite, [9, 7, 5, 3])
        XCTAssertEqual(resolvedLevels, [2, 4])
        // The owner deleted before resolving: nil.
        let reference = ThreadSafeReference(to: board.scores.sorted(ascending: true))
        try realm.write { realm.delete(board) }
        let gone = DispatchQueue.global().sync { try! Realm(configuration: config).resolve(reference) == nil }
        XCTAssertTrue(gone)
    }

    func testSetsOfValuesSortFilterAndAggregate() throws {
        let realm = try open()
        try realm.write {
            realm.add(
                Scoreboard(value: ["id": 1, "levels": [7, 2, 9, 4], "words": ["pear", "Apple", "apricot", "fig"]]))
        }
        let board = try board(realm)
        XCTAssertEqual(Array(board.levels.sorted(ascending: true)), [2, 4, 7, 9])
        XCTAssertEqual(Array(board.levels.where { $0 > 3 }.sorted(ascending: false)), [9, 7, 4])
        XCTAssertEqual(board.levels.sum(), 22)
        XCTAssertEqual(board.levels.min(), 2)
        XCTAssertEqual(board.levels.max(), 9)
        XCTAssertEqual(
            Array(board.words.filter("self BEGINSWITH[c] 'a'").sorted(ascending: true)), ["Apple", "apricot"])
        XCTAssertEqual(Array(board.words.where { $0.contains("i") }.sorted(ascending: true)), ["apricot", "fig"])
        XCTAssertEqual(board.words.sorted(ascending: false).first, "pear")
    }

    func testOptionalValuesSortNullsFirstAndAggregatesSkipNulls() throws {
        let realm = try open()
        try realm.write { realm.add(Scoreboard(value: ["id": 1, "maybeScores": [3, nil, 1, nil, 2]])) }
        let scores = try board(realm).maybeScores
        XCTAssertEqual(Array(scores.sorted(ascending: true)), [nil, nil, 1, 2, 3])
        XCTAssertEqual(Array(scores.sorted(ascending: false)), [3, 2, 1, nil, nil])
        XCTAssertEqual(Array(scores.distinct()), [3, nil, 1, 2])
        XCTAssertEqual(Array(scores.where { $0 == nil }), [nil, nil])
        XCTAssertEqual(Array(scores.filter("self != nil")), [3, 1, 2])
        XCTAssertEqual(scores.min(ofProperty: "self") as Int?, 1)
        XCTAssertEqual(scores.max(ofProperty: "self") as Int?, 3)
        XCTAssertEqual(scores.sum(ofProperty: "self") as Int, 6)
        XCTAssertEqual(scores.average(ofProperty: "self") as Double?, 2)
        // RealmSwift's sum() of optionals gives the wrapped type.
        let total: Int = scores.sum()
        XCTAssertEqual(total, 6)
        XCTAssertEqual(scores.where { $0 != 3 }.sum(), 3)
        XCTAssertEqual(List<Int?>([nil, 4, nil]).sum(), 4)
        XCTAssertEqual(List<Int?>().sum(), 0)
    }

    func testDoubleAndDecimalAggregates() throws {
        let realm = try open()
        try realm.write {
            realm.add(
                Scoreboard(value: ["id": 1, "weights": [1.5, 2.25, -0.75], "prices": [Decimal128(1), Decimal128(2)]]))
        }
        let board = try board(realm)
        XCTAssertEqual(board.weights.sum(), 3.0)
        XCTAssertEqual(board.weights.min(), -0.75)
        XCTAssertEqual(board.weights.average(), 1.0 as Double)
        XCTAssertEqual(board.prices.sum(), Decimal128(3))
        XCTAssertEqual(board.prices.average(), Decimal128(1.5))
        XCTAssertEqual(board.weights.where { $0 > 0 }.sum(), 3.75)
    }

    func testAggregatesOfUnmanagedCollectionsOfValues() {
        let scores = List<Int>([4, 8, 6])
        XCTAssertEqual(scores.sum(), 18)
        XCTAssertEqual(scores.min(), 4)
        XCTAssertEqual(scores.max(), 8)
        XCTAssertEqual(scores.average(), 6.0 as Double)
        let empty = MutableSet<Double>()
        XCTAssertNil(empty.max())
        XCTAssertEqual(empty.sum(), 0)
        XCTAssertNil(empty.average() as Double?)
    }

    func testQueryOfValuesNamingAPropertyIsReportedAndCheckedFilterThrows() throws {
        let realm = try open()
        try realm.write { realm.add(Scoreboard(value: ["id": 1, "scores": [1, 2, 3]])) }
        let scores = try board(realm).scores
        let bad = scores.filter("age > 1")
        XCTAssertEqual(bad.count, 0)
        let reported = takeViolations()
        XCTAssertEqual(reported.count, 1)
        XCTAssertTrue(reported.first?.contains("self") ?? false, "the message names self: \(reported)")

        let all = scores.where { $0 > 0 }
        XCTAssertThrowsError(try all.checkedFilter("name == 'x'")) { error in
            XCTAssertEqual((error as? Realm.Error)?.realmCode, .invalidQuery)
        }
        XCTAssertEqual(Array(try all.checkedFilter("self < %@", 3)), [1, 2])

        _ = scores.sorted(byKeyPath: "age")
        XCTAssertEqual(takeViolations().count, 1, "sorting values by a property name is reported")
    }

    func testSortingAnUnmanagedListOfValuesIsReported() {
        let scores = List<Int>([2, 1])
        XCTAssertEqual(scores.sorted(ascending: true).count, 0)
        XCTAssertEqual(
            takeViolations(), ["This method may only be called on RLMArray instances retrieved from an RLMRealm"])
    }

    func testObservedResultsOfValuesReportTheirDiffAndSkipChangesThatLeaveThemAlone() throws {
        let realm = try open()
        try realm.write { realm.add(Scoreboard(value: ["id": 1, "scores": [5, 2, 5]])) }
        let board = try board(realm)
        var events: [String] = []
        let token = board.scores.where { $0 > 3 }.observe { change in
            switch change {
            case .initial(let big): events.append("initial \(Array(big))")
            case .update(let big, let d, let i, let m): events.append("update \(Array(big)) \(d) \(i) \(m)")
            case .error(let e): events.append("error \(e)")
            }
        }
        let deadline = Date(timeIntervalSinceNow: 20)
        func spin(until condition: () -> Bool) {
            while !condition() && Date() < deadline {
                _ = RunLoop.current.run(mode: .default, before: Date(timeIntervalSinceNow: 0.005))
            }
        }
        spin(until: { events.count == 1 })
        try realm.write { board.scores.append(1) }
        try realm.write {
            board.scores.remove(at: 0)
            board.scores.append(7)
        }
        spin(until: { events.count == 2 })
        XCTAssertEqual(
            events, ["initial [5, 5]", "update [5, 7] [1] [1] []"],
            "the second 5 left (index 1 before), 7 arrived; appending 1 changed nothing")
        token.invalidate()
    }

    func testValueForKeySelfGivesTheValues() throws {
        let realm = try open()
        try realm.write { realm.add(Scoreboard(value: ["id": 1, "names": ["b", "a"]])) }
        let names = try board(realm).names
        XCTAssertEqual(names.value(forKey: "self") as? [String], ["b", "a"])
        XCTAssertEqual(names.sorted(ascending: true).value(forKey: "self") as? [String], ["a", "b"])
    }
}
