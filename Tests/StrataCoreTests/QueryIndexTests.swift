import XCTest
import StrataQuery
@testable import StrataCore

/// The planner answers equalities and `IN` on indexed and primary-key columns from the index,
/// checks the rest of the filter on those rows only, and returns what a scan would.
final class QueryIndexTests: QueryTestCase {
    // 0 id (Int primary key: the object key), 1 name (indexed), 2 email, 3 age (indexed, i % 4),
    // 4 score (indexed double), 5 nick (indexed, optional), 6 isActive (indexed bool)
    let people = StoreTable(
        name: "Person",
        columns: [
            StoreColumn(name: "id", type: .int, isPrimaryKey: true),
            StoreColumn(name: "name", type: .string, isIndexed: true),
            StoreColumn(name: "email", type: .string),
            StoreColumn(name: "age", type: .int, isIndexed: true),
            StoreColumn(name: "score", type: .double, isIndexed: true),
            StoreColumn(name: "nick", type: .string, isNullable: true, isIndexed: true),
            StoreColumn(name: "isActive", type: .bool, isIndexed: true),
        ])
    let tags = StoreTable(
        name: "Tag",
        columns: [
            StoreColumn(name: "code", type: .string, isPrimaryKey: true),
            StoreColumn(name: "uses", type: .int),
        ])

    override func setUpWithError() throws {
        try super.setUpWithError()
        try create(people, tags)
        let names = ["Ann", "Bob", "Cid", "Ann", "Eve", "Bob", "Ann"]
        try insert(
            people,
            names.enumerated().map { i, name in
                [
                    .int(Int64(i * 10)), .string(name), .string("\(name.lowercased())@x"), .int(Int64(i % 4)),
                    .double(Double(i) / 2), i % 2 == 0 ? .null : .string("n\(i)"), .bool(i % 2 == 0),
                ]
            })
        try insert(tags, [[.string("b"), .int(1)], [.string("a"), .int(2)], [.string("c"), .int(3)]])
    }

    func check(
        _ filter: String, _ arguments: [StoreValue] = [], access: StoreQueryPlan.Access, expected: [Int64],
        file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let query = try StoreQuery(filter, arguments: arguments)
        XCTAssertEqual(try plan(query, people).access, access, filter, file: file, line: line)
        XCTAssertEqual(try run(query, people), expected, filter, file: file, line: line)
    }

    func testEqualityOnAnIndexedColumnUsesTheIndex() throws {
        try check("name == 'Ann'", access: .index(columns: ["name"], lookups: 1), expected: [0, 30, 60])
        try check("name == %@", [.string("Bob")], access: .index(columns: ["name"], lookups: 1), expected: [10, 50])
        try check("'Eve' == name", access: .index(columns: ["name"], lookups: 1), expected: [40])
        try check("name == 'Zed'", access: .index(columns: ["name"], lookups: 1), expected: [])
        try check("isActive == true", access: .index(columns: ["isActive"], lookups: 1), expected: [0, 20, 40, 60])
        try check("nick == nil", access: .index(columns: ["nick"], lookups: 1), expected: [0, 20, 40, 60])
        try check("nick == 'n3'", access: .index(columns: ["nick"], lookups: 1), expected: [30])
    }

    func testTheRestOfAnAndIsCheckedOnTheCandidatesOnly() throws {
        try check("age > 0 AND name == 'Ann'", access: .index(columns: ["name"], lookups: 1), expected: [30, 60])
        try check(
            "name == 'Ann' AND email ENDSWITH '@x' AND NOT (age == 0)", access: .index(columns: ["name"], lookups: 1),
            expected: [30, 60])
        let p = try plan(try StoreQuery("age > 0 AND name == 'Ann'"), people)
        XCTAssertEqual(
            p.description, "index lookup on Person.name (1 value), then 2 fast and 0 general comparisons per candidate")
    }

    func testPrimaryKeyLookupsArePreferred() throws {
        try check("id == 30", access: .index(columns: ["id"], lookups: 1), expected: [30])
        try check("id == 35", access: .index(columns: ["id"], lookups: 1), expected: [])
        try check("name == 'Ann' AND id == 60", access: .index(columns: ["id"], lookups: 1), expected: [60])
        try check("name == 'Bob' AND id == 60", access: .index(columns: ["id"], lookups: 1), expected: [])
        let q = try StoreQuery("code == 'a' OR code == 'c'")
        XCTAssertEqual(try plan(q, tags).access, .index(columns: ["code", "code"], lookups: 2))
        XCTAssertEqual(try run(q, tags), [1, 2])
        XCTAssertEqual(try run(try StoreQuery("code == %@ AND uses > 0", arguments: [.string("b")]), tags), [0])
    }

    func testInAndOrBecomeUnionsOfLookupsInKeyOrder() throws {
        try check(
            "name IN {'Eve', 'Ann', 'Eve'}", access: .index(columns: ["name"], lookups: 2), expected: [0, 30, 40, 60])
        try check(
            "name IN %@", [.list([.string("Cid"), .string("Bob")])], access: .index(columns: ["name"], lookups: 2),
            expected: [10, 20, 50])
        try check(
            "name == 'Eve' OR age == 1", access: .index(columns: ["name", "age"], lookups: 2), expected: [10, 40, 50])
        try check(
            "(name == 'Eve' OR id == 10) AND age != 0", access: .index(columns: ["name", "id"], lookups: 2),
            expected: [10])
        try check("name IN {}", access: .none, expected: [])
    }

    func testNumericConstantsAreConvertedToTheColumnsType() throws {
        try check("age == 2.0", access: .index(columns: ["age"], lookups: 1), expected: [20, 60])
        try check("age == 2.5", access: .index(columns: ["age"], lookups: 0), expected: [])
        try check("score == 1", access: .index(columns: ["score"], lookups: 1), expected: [20])
        try check("score == %@", [.float(1.5)], access: .index(columns: ["score"], lookups: 1), expected: [30])
        try check("id == 20.0", access: .index(columns: ["id"], lookups: 1), expected: [20])
    }

    func testPredicatesAnIndexCannotAnswerScan() throws {
        try check("email == 'ann@x'", access: .scan, expected: [0, 30, 60])
        try check("name == 'Ann' OR email == 'bob@x'", access: .scan, expected: [0, 10, 30, 50, 60])
        try check("NOT name == 'Ann'", access: .scan, expected: [10, 20, 40, 50])
        try check("name ==[c] 'ann'", access: .scan, expected: [0, 30, 60])
        try check("name != 'Ann'", access: .scan, expected: [10, 20, 40, 50])
        try check("age >= 2", access: .scan, expected: [20, 30, 60])
    }

    func testTheIndexSeesChangesInTheSameWriteTransaction() throws {
        let txn = StoreTransaction(write: try db.beginWrite())
        txn.tables = tables
        try txn.set(people, key: 10, column: 1, to: .string("Ann"))
        try txn.insert(
            into: people, values: [.int(70), .string("Ann"), .string(""), .int(0), .double(0), .null, .bool(true)])
        try txn.delete(people, key: 0)
        let query = try StoreQuery("name == 'Ann'")
        XCTAssertEqual(try query.explain(in: txn, table: people).access, .index(columns: ["name"], lookups: 1))
        XCTAssertEqual(try query.evaluate(in: txn, table: people), [10, 30, 60, 70])
        txn.write?.abort()
    }
}
