import XCTest
import StrataQuery
@testable import StrataCore

/// Sorting (stable, several keys, nulls first ascending, key paths through to-one links) and
/// distinct (first occurrence in result order).
final class QuerySortDistinctTests: QueryTestCase {
    let people = StoreTable(name: "Person", columns: [StoreColumn(name: "name", type: .string)])
    let dogs = StoreTable(
        name: "Dog",
        columns: [
            StoreColumn(name: "name", type: .string),
            StoreColumn(name: "age", type: .int),
            StoreColumn(name: "weight", type: .double, isNullable: true),
            StoreColumn(name: "owner", type: .link, isNullable: true, targetTable: "Person"),
            StoreColumn(name: "toys", type: .string, collection: .list),
        ])
    var p: [Int64] = [], d: [Int64] = []

    override func setUpWithError() throws {
        try super.setUpWithError()
        try create(people, dogs)
        p = try insert(people, [[.string("Zoe")], [.string("Ann")]])
        d = try insert(
            dogs,
            [
                [.string("rex"), .int(3), .double(2), .link(p[0]), .list([])],
                [.string("Bella"), .int(5), .null, .link(p[1]), .list([])],
                [.string("Ćiri"), .int(3), .double(-0.0), .null, .list([])],
                [.string("bella"), .int(5), .double(0), .link(p[0]), .list([])],
                [.string("Max"), .int(1), .null, .link(p[1]), .list([])],
                [.string("Rex"), .int(3), .double(9), .link(p[1]), .list([])],
            ])
    }

    func sorted(_ descriptors: [StoreQuery.SortDescriptor], filter: String? = nil) throws -> [Int64] {
        var query = try filter.map { try StoreQuery($0) } ?? StoreQuery()
        query = query.sorted(by: descriptors)
        return try run(query, dogs)
    }

    func testSortsStablyByOneKey() throws {
        XCTAssertEqual(try sorted([("age", true)]), [d[4], d[0], d[2], d[5], d[1], d[3]])
        XCTAssertEqual(
            try sorted([("age", false)]), [d[1], d[3], d[0], d[2], d[5], d[4]],
            "ties keep key order when descending too")
    }

    func testSortsStringsByUTF8Bytes() throws {
        XCTAssertEqual(try sorted([("name", true)]), [d[1], d[4], d[5], d[3], d[0], d[2]])
        XCTAssertEqual(try sorted([("name", false)]), [d[2], d[0], d[3], d[5], d[4], d[1]])
    }

    func testNullsComeFirstAscendingAndLastDescending() throws {
        XCTAssertEqual(try sorted([("weight", true)]), [d[1], d[4], d[2], d[3], d[0], d[5]], "-0.0 and 0 tie")
        XCTAssertEqual(try sorted([("weight", false)]), [d[5], d[0], d[2], d[3], d[1], d[4]])
    }

    func testSortsBySeveralKeys() throws {
        XCTAssertEqual(try sorted([("age", true), ("name", false)]), [d[4], d[2], d[0], d[5], d[3], d[1]])
        // sorted(by:) again: the new key takes precedence, the old one breaks ties.
        let q = StoreQuery().sorted(by: "name", ascending: false).sorted(by: "age")
        XCTAssertEqual(q.sortDescriptors.map(\.keyPath), ["age", "name"])
        XCTAssertEqual(try run(q, dogs), [d[4], d[2], d[0], d[5], d[3], d[1]])
    }

    func testSortsThroughToOneLinks() throws {
        XCTAssertEqual(try sorted([("owner.name", true), ("age", false)]), [d[2], d[1], d[5], d[4], d[3], d[0]])
        XCTAssertEqual(try sorted([("owner", true)]), [d[2], d[0], d[3], d[1], d[4], d[5]], "links sort by object key")
    }

    func testSortsOnlyTheFilteredObjects() throws {
        XCTAssertEqual(try sorted([("name", true)], filter: "age == 3"), [d[5], d[0], d[2]])
        let plan = try self.plan(try StoreQuery("age == 3").sorted(by: "name").distinct(by: ["owner"]), dogs)
        XCTAssertEqual(
            plan.description,
            "scan of Dog, then 1 fast and 0 general comparison per row; sorted by 1 key; distinct on 1 key path")
    }

    func testDistinctKeepsTheFirstOccurrenceInResultOrder() throws {
        XCTAssertEqual(try run(StoreQuery().distinct(by: ["age"]), dogs), [d[0], d[1], d[4]])
        XCTAssertEqual(try run(StoreQuery().sorted(by: "name").distinct(by: ["age"]), dogs), [d[1], d[4], d[5]])
        XCTAssertEqual(
            try run(StoreQuery().distinct(by: ["owner.name"]), dogs), [d[0], d[1], d[2]], "null is one value")
        XCTAssertEqual(
            try run(StoreQuery().distinct(by: ["owner.name", "age"]), dogs), d,
            "the combination must be unique, not each key path")
        XCTAssertEqual(
            try run(StoreQuery().distinct(by: ["weight"]), dogs), [d[0], d[1], d[2], d[5]],
            "-0.0 and 0 are one value; null is one value")
        XCTAssertEqual(
            try run(try StoreQuery("age > 1").distinct(by: ["owner"]).sorted(by: "age", ascending: false), dogs),
            [d[1], d[3], d[2]], "sorting comes before distinct")
    }
}
