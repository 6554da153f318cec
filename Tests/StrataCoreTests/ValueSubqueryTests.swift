import StrataQuery
import XCTest

@testable import StrataCore

/// SUBQUERY over a list, set or map of values: the variable alone is the element, each object
/// counts its values that match, and the counts agree with a plain Swift evaluation.
final class ValueSubqueryTests: QueryTestCase {
    let players = StoreTable(
        name: "Player",
        columns: [
            StoreColumn(name: "scores", type: .int, collection: .list),
            StoreColumn(name: "tags", type: .string, collection: .set),
            StoreColumn(name: "levels", type: .int, collection: .map, isNullable: true),
        ])

    let scores: [[Int64]] = [[5, 12, 18, 30], [1, 2, 3], [11, 19, 15, 11], []]
    let tags: [[String]] = [["red", "Blue"], ["blue"], [], ["green", "BLUE", "teal"]]
    let levels: [[String: Int64?]] = [["a": 4, "b": 9], ["a": 1], ["x": 12, "y": nil, "z": 20], [:]]

    override func setUpWithError() throws {
        try super.setUpWithError()
        try create(players)
        _ = try insert(
            players,
            (0..<scores.count).map { i in
                [
                    .list(scores[i].map { .int($0) }), .list(tags[i].map { .string($0) }),
                    .map(levels[i].mapValues { $0.map { .int($0) } ?? .null }),
                ]
            })
    }

    /// The positions of the players `filter` matches.
    private func matching(_ filter: String, _ arguments: [StoreValue] = []) throws -> [Int] {
        let all = try keys(players, "TRUEPREDICATE")
        return try keys(players, filter, arguments).map { all.firstIndex(of: $0)! }
    }

    private func expected(_ test: (Int) -> Bool) -> [Int] { (0..<scores.count).filter(test) }

    func testSubqueryCountsTheValuesOfAListThatMatch() throws {
        XCTAssertEqual(
            try matching("SUBQUERY(scores, $s, $s > 10 AND $s < 20).@count >= 2"),
            expected { i in scores[i].filter { $0 > 10 && $0 < 20 }.count >= 2 })
        XCTAssertEqual(
            try matching("SUBQUERY(scores, $s, $s BETWEEN {1, 5}).@count == 3"),
            expected { i in scores[i].filter { (1...5).contains($0) }.count == 3 })
        XCTAssertEqual(
            try matching("SUBQUERY(scores, $s, NOT ($s IN {11, 5})).@count > %@", [.int(1)]),
            expected { i in scores[i].filter { ![11, 5].contains($0) }.count > 1 })
        XCTAssertEqual(
            try matching("SUBQUERY(scores, $s, %@ < $s).@count == 0", [.int(4)]),
            expected { i in scores[i].allSatisfy { $0 <= 4 } }, "the variable on the right")
    }

    func testSubqueryOverSetsAndMapsOfValues() throws {
        XCTAssertEqual(
            try matching("SUBQUERY(tags, $t, $t ==[c] 'blue').@count > 0"),
            expected { i in tags[i].contains { $0.lowercased() == "blue" } })
        XCTAssertEqual(
            try matching("SUBQUERY(tags, $t, $t BEGINSWITH 't' OR $t == 'red').@count == 1"),
            expected { i in tags[i].filter { $0.hasPrefix("t") || $0 == "red" }.count == 1 })
        XCTAssertEqual(
            try matching("SUBQUERY(levels, $l, $l > 8).@count == 2"),
            expected { i in levels[i].values.filter { ($0 ?? 0) > 8 }.count == 2 })
        XCTAssertEqual(
            try matching("SUBQUERY(levels, $l, $l == nil).@count == 1"),
            expected { i in levels[i].values.filter { $0 == nil }.count == 1 }, "null values are elements")
    }

    func testKeyPathsOtherThanTheVariableAreTypedErrors() throws {
        guard
            case .invalidAggregate(let keyPath, "SUBQUERY", _)? = try queryError(
                try StoreQuery("SUBQUERY(scores, $s, $s.x > 1).@count > 0"), players)
        else { return XCTFail("values have no properties") }
        XCTAssertEqual(keyPath, "$s.x")
        XCTAssertThrowsError(
            try StoreQuery("SUBQUERY(scores, $s, scores.@count > 1).@count > 0"), "a key path of the object inside")
        let nested = StoreQuery(
            predicate: .comparison(
                QueryComparison(
                    .subqueryCount(
                        QuerySubquery(
                            collection: ["scores"], variable: "$s",
                            predicate: .comparison(
                                QueryComparison(.keyPath(["scores"]), .greaterThan, .literal(.int(1)))))),
                    .greaterThan, .literal(.int(0)))))
        guard case .unsupported(let message)? = try queryError(nested, players) else {
            return XCTFail("a hand-built subquery of values naming the object's property")
        }
        XCTAssertTrue(message.contains("must be $s"), message)
    }
}
