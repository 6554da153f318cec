import Foundation
import XCTest
import StrataQuery
import StrataStorage
@testable import StrataCore

/// Gives each query test its own temporary database, and helpers to create tables, insert rows
/// and run queries in a read transaction.
class QueryTestCase: TemporaryDirectoryTestCase {
    var directory: URL { temporaryDirectory }
    var db: Database!
    /// Every table created so far, by name (set on each transaction so links resolve).
    var tables: [String: StoreTable] = [:]

    override func setUpWithError() throws {
        try super.setUpWithError()
        var options = Database.Options()
        options.mapReserve = 256 << 20
        db = try Database(path: directory.appendingPathComponent("query.strata").path, options: options)
    }

    override func tearDownWithError() throws {
        db?.close()
        db = nil
        try super.tearDownWithError()
    }

    /// Runs `body` in a write transaction and commits it.
    @discardableResult
    func write<T>(_ body: (StoreTransaction) throws -> T) throws -> T {
        let txn = StoreTransaction(write: try db.beginWrite())
        txn.tables = tables
        let result = try body(txn)
        try txn.commit()
        return result
    }

    /// Stores `newTables` in the file.
    func create(_ newTables: StoreTable...) throws {
        for t in newTables { tables[t.name] = t }
        try write { txn in
            for t in newTables { try txn.storeTable(t) }
        }
    }

    /// Inserts `rows` into `table` in one transaction and returns their keys.
    @discardableResult
    func insert(_ table: StoreTable, _ rows: [[StoreValue]]) throws -> [Int64] {
        try write { txn in try rows.map { try txn.insert(into: table, values: $0) } }
    }

    /// Runs `body` in a read transaction with every table known.
    func read<T>(_ body: (StoreTransaction) throws -> T) throws -> T {
        let txn = StoreTransaction(read: try db.beginRead())
        txn.tables = tables
        defer { txn.read?.end() }
        return try body(txn)
    }

    /// The keys `query` returns for `table`.
    func run(_ query: StoreQuery, _ table: StoreTable) throws -> [Int64] {
        try read { try query.evaluate(in: $0, table: table) }
    }

    /// The keys `filter` (with `arguments`) returns for `table`.
    func keys(_ table: StoreTable, _ filter: String, _ arguments: [StoreValue] = []) throws -> [Int64] {
        try run(try StoreQuery(filter, arguments: arguments), table)
    }

    /// The plan of `query` on `table`.
    func plan(_ query: StoreQuery, _ table: StoreTable) throws -> StoreQueryPlan {
        try read { try query.explain(in: $0, table: table) }
    }

    /// The error `query` throws when bound to `table`.
    func queryError(
        _ query: StoreQuery, _ table: StoreTable, file: StaticString = #filePath, line: UInt = #line
    ) throws -> StoreQueryError? {
        try read { txn in
            do {
                _ = try query.evaluate(in: txn, table: table)
                XCTFail("expected a StoreQueryError", file: file, line: line)
                return nil
            } catch let error as StoreQueryError {
                return error
            }
        }
    }
}

/// A date as stored: seconds and nanoseconds since 1970, both with the sign of the whole value.
func date(_ seconds: Double) -> StoreValue {
    let s = seconds.rounded(.towardZero)
    return .timestamp(seconds: Int64(s), nanoseconds: Int32(((seconds - s) * 1e9).rounded()))
}

/// Comparisons, logic, strings and nulls on one table with every fixed-width type, checked
/// against expected keys written out by hand.
final class QueryEngineTests: QueryTestCase {
    // Columns: 0 name, 1 age, 2 weight, 3 nickname?, 4 chip?, 5 isGood, 6 born, 7 height (float), 8 ratio?, 9 photo (data)
    let dogs = StoreTable(
        name: "Dog",
        columns: [
            StoreColumn(name: "name", type: .string),
            StoreColumn(name: "age", type: .int),
            StoreColumn(name: "weight", type: .double),
            StoreColumn(name: "nickname", type: .string, isNullable: true),
            StoreColumn(name: "chip", type: .int, isNullable: true),
            StoreColumn(name: "isGood", type: .bool),
            StoreColumn(name: "born", type: .timestamp),
            StoreColumn(name: "height", type: .float),
            StoreColumn(name: "ratio", type: .double, isNullable: true),
            StoreColumn(name: "photo", type: .data),
        ])
    var k: [Int64] = []

    override func setUpWithError() throws {
        try super.setUpWithError()
        try create(dogs)
        k = try insert(
            dogs,
            [
                [
                    .string("Rex"), .int(3), .double(20.5), .string("Rexy"), .int(100), .bool(true), date(1000),
                    .float(0.5), .double(1.5), .data([1, 2, 3]),
                ],
                [
                    .string("Maui"), .int(7), .double(8), .null, .null, .bool(false), date(-1.5), .float(0.25), .null,
                    .data([]),
                ],
                [
                    .string("rex"), .int(-2), .double(-0.0), .string("Éclair"), .int(-5), .bool(true), date(0),
                    .float(1.5), .double(.nan), .data([2]),
                ],
                [
                    .string("Bella"), .int(Int64.max), .double(1e300), .string("bella"), .int(0), .bool(false),
                    date(-1.2), .float(-1), .double(-2), .data([1, 2]),
                ],
                [
                    .string("Ćiri"), .int(50), .double(50), .string(""), .int(50), .bool(true), date(3600.25),
                    .float(50), .double(0), .data([3, 1, 2, 3]),
                ],
            ])
    }

    func testIntegerComparisons() throws {
        XCTAssertEqual(try keys(dogs, "age > 3"), [k[1], k[3], k[4]])
        XCTAssertEqual(try keys(dogs, "age >= 3"), [k[0], k[1], k[3], k[4]])
        XCTAssertEqual(try keys(dogs, "age < 3"), [k[2]])
        XCTAssertEqual(try keys(dogs, "age <= 3"), [k[0], k[2]])
        XCTAssertEqual(try keys(dogs, "age == 7"), [k[1]])
        XCTAssertEqual(try keys(dogs, "age != 7"), [k[0], k[2], k[3], k[4]])
        XCTAssertEqual(try keys(dogs, "3 < age"), [k[1], k[3], k[4]], "a constant on the left is mirrored")
        XCTAssertEqual(try keys(dogs, "age BETWEEN {3, 50}"), [k[0], k[1], k[4]])
        XCTAssertEqual(try keys(dogs, "age IN {7, -2, 99}"), [k[1], k[2]])
        XCTAssertEqual(try keys(dogs, "age IN %@", [.list([.int(50), .int(3)])]), [k[0], k[4]])
        XCTAssertEqual(try keys(dogs, "age IN {}"), [])
        XCTAssertEqual(try keys(dogs, "age == %@", [.int(Int64.max)]), [k[3]])
    }

    func testIntAndDoubleCompareNumericallyAndExactly() throws {
        XCTAssertEqual(try keys(dogs, "age > 2.5"), [k[0], k[1], k[3], k[4]])
        XCTAssertEqual(try keys(dogs, "age == 3.0"), [k[0]])
        XCTAssertEqual(try keys(dogs, "age == 3.5"), [])
        XCTAssertEqual(try keys(dogs, "age < -1.5"), [k[2]])
        XCTAssertEqual(try keys(dogs, "weight == 8"), [k[1]])
        XCTAssertEqual(try keys(dogs, "weight > 20"), [k[0], k[3], k[4]])
        XCTAssertEqual(try keys(dogs, "weight == 0"), [k[2]], "-0.0 equals 0")
        XCTAssertEqual(try keys(dogs, "weight == age"), [k[4]], "property against property")
        XCTAssertEqual(try keys(dogs, "height > 0.4 AND height < 2"), [k[0], k[2]])
        XCTAssertEqual(try keys(dogs, "height == 0.25"), [k[1]])
        XCTAssertEqual(try keys(dogs, "height == 50"), [k[4]])
        // Int64.max is 2^63 - 1; the double 9223372036854775807.0 is 2^63, which is larger.
        XCTAssertEqual(try keys(dogs, "age == %@", [.double(9_223_372_036_854_775_807.0)]), [])
        XCTAssertEqual(try keys(dogs, "age < %@", [.double(9_223_372_036_854_775_807.0)]), k)
        XCTAssertEqual(try keys(dogs, "age BETWEEN {2.5, 7.0}"), [k[0], k[1]])
    }

    func testNaNEqualsNothingAndNullsMatchOnlyNil() throws {
        XCTAssertEqual(try keys(dogs, "ratio == %@", [.double(.nan)]), [])
        XCTAssertEqual(try keys(dogs, "ratio != 1.5"), [k[1], k[2], k[3], k[4]], "null and NaN are != 1.5")
        XCTAssertEqual(try keys(dogs, "ratio > -5"), [k[0], k[3], k[4]], "null and NaN are unordered")
        XCTAssertEqual(try keys(dogs, "ratio == nil"), [k[1]])
        XCTAssertEqual(try keys(dogs, "ratio != nil"), [k[0], k[2], k[3], k[4]])
        XCTAssertEqual(try keys(dogs, "chip == nil"), [k[1]])
        XCTAssertEqual(try keys(dogs, "chip == NULL OR chip < 0"), [k[1], k[2]])
        XCTAssertEqual(try keys(dogs, "chip != 50"), [k[0], k[1], k[2], k[3]])
        XCTAssertEqual(try keys(dogs, "chip IN {nil, 100}"), [k[0], k[1]])
        XCTAssertEqual(try keys(dogs, "nickname == nil"), [k[1]])
        XCTAssertEqual(
            try keys(dogs, "nickname BEGINSWITH ''"), [k[0], k[2], k[3], k[4]], "null does not begin with anything")
        XCTAssertEqual(try keys(dogs, "nil == chip"), [k[1]])
    }

    func testBoolDateAndData() throws {
        XCTAssertEqual(try keys(dogs, "isGood == true"), [k[0], k[2], k[4]])
        XCTAssertEqual(try keys(dogs, "isGood != true"), [k[1], k[3]])
        XCTAssertEqual(try keys(dogs, "born < %@", [date(-1.3)]), [k[1]], "-1.5 s is before -1.3 s")
        XCTAssertEqual(try keys(dogs, "born < %@", [date(0)]), [k[1], k[3]])
        XCTAssertEqual(try keys(dogs, "born BETWEEN %@", [.list([date(-1.2), date(1000)])]), [k[0], k[2], k[3]])
        XCTAssertEqual(try keys(dogs, "born == %@", [date(3600.25)]), [k[4]])
        XCTAssertEqual(try keys(dogs, "photo == %@", [.data([1, 2])]), [k[3]])
        XCTAssertEqual(try keys(dogs, "photo BEGINSWITH %@", [.data([1, 2])]), [k[0], k[3]])
        XCTAssertEqual(try keys(dogs, "photo ENDSWITH %@", [.data([2, 3])]), [k[0], k[4]])
        XCTAssertEqual(try keys(dogs, "photo CONTAINS %@", [.data([3, 1])]), [k[4]])
        XCTAssertEqual(try keys(dogs, "photo.@count > 1"), [k[0], k[3], k[4]])
        XCTAssertEqual(try keys(dogs, "photo < %@", [.data([2])]), [k[0], k[1], k[3]])
    }

    func testStringOperatorsAndOptions() throws {
        XCTAssertEqual(try keys(dogs, "name == 'Rex'"), [k[0]])
        XCTAssertEqual(try keys(dogs, "name ==[c] 'REX'"), [k[0], k[2]])
        XCTAssertEqual(try keys(dogs, "name !=[c] 'REX'"), [k[1], k[3], k[4]])
        XCTAssertEqual(try keys(dogs, "name BEGINSWITH 'R'"), [k[0]])
        XCTAssertEqual(try keys(dogs, "name BEGINSWITH[c] 'r'"), [k[0], k[2]])
        XCTAssertEqual(try keys(dogs, "name ENDSWITH 'ui'"), [k[1]])
        XCTAssertEqual(try keys(dogs, "name CONTAINS 'e'"), [k[0], k[2], k[3]])
        XCTAssertEqual(try keys(dogs, "name CONTAINS[c] 'E'"), [k[0], k[2], k[3]])
        XCTAssertEqual(try keys(dogs, "name BEGINSWITH 'C'"), [])
        XCTAssertEqual(try keys(dogs, "name BEGINSWITH[d] 'C'"), [k[4]], "[d] ignores the accent of Ć")
        XCTAssertEqual(try keys(dogs, "nickname ==[cd] 'eclair'"), [k[2]])
        XCTAssertEqual(try keys(dogs, "nickname ==[c] 'eclair'"), [])
        XCTAssertEqual(try keys(dogs, "name LIKE 'R?x'"), [k[0]])
        XCTAssertEqual(try keys(dogs, "name LIKE[c] 'r*'"), [k[0], k[2]])
        XCTAssertEqual(try keys(dogs, "name LIKE '*a*'"), [k[1], k[3]])
        XCTAssertEqual(try keys(dogs, "name LIKE '?iri'"), [k[4]], "? matches one scalar, even a non-ASCII one")
        XCTAssertEqual(try keys(dogs, "name LIKE '*'"), k)
        XCTAssertEqual(try keys(dogs, "name IN {'Maui', 'rex'}"), [k[1], k[2]])
        XCTAssertEqual(
            try keys(dogs, "name.@count == 4"), [k[1], k[4]], "@count of a string is its length in characters")
    }

    func testStringsOrderByUTF8Bytes() throws {
        // Uppercase ASCII < lowercase ASCII < non-ASCII (Ć is C4 86 in UTF-8).
        XCTAssertEqual(try keys(dogs, "name < 'a'"), [k[0], k[1], k[3]])
        XCTAssertEqual(try keys(dogs, "name > 'z'"), [k[4]])
        XCTAssertEqual(try keys(dogs, "name >= 'Rex' AND name <= 'rex'"), [k[0], k[2]])
        XCTAssertEqual(try keys(dogs, "name BETWEEN {'M', 'S'}"), [k[0], k[1]])
    }

    func testLogicAndConstants() throws {
        XCTAssertEqual(try keys(dogs, "TRUEPREDICATE"), k)
        XCTAssertEqual(try keys(dogs, "FALSEPREDICATE"), [])
        XCTAssertEqual(try keys(dogs, "NOT FALSEPREDICATE AND age > 40"), [k[3], k[4]])
        XCTAssertEqual(try keys(dogs, "age > 40 OR name == 'Rex'"), [k[0], k[3], k[4]])
        XCTAssertEqual(try keys(dogs, "NOT (age > 40 OR name == 'Rex')"), [k[1], k[2]])
        XCTAssertEqual(try keys(dogs, "age > 2 AND isGood == true AND weight < 30"), [k[0]])
        XCTAssertEqual(try keys(dogs, "age > 2 AND (isGood == false OR FALSEPREDICATE)"), [k[1], k[3]])
        XCTAssertEqual(try keys(dogs, "1 == 1"), k)
        XCTAssertEqual(try keys(dogs, "1 == 2 OR age == 7"), [k[1]])
        XCTAssertEqual(try keys(dogs, "'a' IN {'b', 'a'}"), k)
    }

    func testKeyPathArgumentsAndDollarPlaceholders() throws {
        XCTAssertEqual(try keys(dogs, "%K > %@", [.string("age"), .int(40)]), [k[3], k[4]])
        XCTAssertEqual(try keys(dogs, "$1 == age OR name == $0", [.string("Maui"), .int(3)]), [k[0], k[1]])
    }

    func testFilteredCombinesPredicatesAndRenumbersArguments() throws {
        let q = try StoreQuery("age > %@", arguments: [.int(2)])
            .filtered("isGood == %@", arguments: [.bool(true)])
            .filtered(
                by: .or([.comparison(QueryComparison(.keyPath(["name"]), .equal, .argument(index: 0))), .truePredicate]
                ),
                arguments: [.string("zzz")])
        XCTAssertEqual(q.arguments, [.int(2), .bool(true), .string("zzz")])
        XCTAssertEqual(q.predicate?.description, "age > %@ AND isGood == %@ AND (name == %@ OR TRUEPREDICATE)")
        XCTAssertEqual(try run(q, dogs), [k[0], k[4]])
        XCTAssertEqual(try run(StoreQuery(), dogs), k)
        XCTAssertEqual(try run(StoreQuery(predicate: nil), dogs), k)
    }

    func testWorksInAWriteTransactionBeforeCommit() throws {
        let txn = StoreTransaction(write: try db.beginWrite())
        txn.tables = tables
        let added = try txn.insert(
            into: dogs,
            values: [
                .string("Nova"), .int(60), .double(1), .null, .null, .bool(true), date(1), .float(1), .null, .data([]),
            ])
        try txn.set(dogs, key: k[0], column: 1, to: .int(70))
        XCTAssertEqual(try StoreQuery("age >= 50").evaluate(in: txn, table: dogs), [k[0], k[3], k[4], added])
        txn.write?.abort()
        XCTAssertEqual(try keys(dogs, "age >= 50"), [k[3], k[4]])
    }

    func testFixedWidthComparisonsUseTheFastPath() throws {
        let cases: [(String, [StoreValue], Int, Int)] = [
            ("age > 50", [], 1, 0),
            ("age > 2.5 AND weight <= 3 AND isGood == true AND born < %@ AND height != 1", [date(0)], 5, 0),
            ("chip == nil OR ratio != nil", [], 2, 0),
            ("name == 'Rex' AND name BEGINSWITH 'R' AND photo CONTAINS %@", [.data([1])], 3, 0),
            ("age BETWEEN {1, 2} AND age IN {1, 2, 3}", [], 2, 0),
            ("name ==[c] 'rex'", [], 0, 1),
            ("name LIKE 'R*'", [], 0, 1),
            ("weight == age", [], 0, 1),
        ]
        for (filter, arguments, fast, general) in cases {
            let p = try plan(try StoreQuery(filter, arguments: arguments), dogs)
            XCTAssertEqual(p.access, .scan, filter)
            XCTAssertEqual(p.fastComparisons, fast, filter)
            XCTAssertEqual(p.generalComparisons, general, filter)
        }
        XCTAssertEqual(try plan(StoreQuery("age > 1 AND FALSEPREDICATE"), dogs).access, .none)
        XCTAssertEqual(
            try plan(StoreQuery("age > 50"), dogs).description,
            "scan of Dog, then 1 fast and 0 general comparison per row")
    }

    func testAnyRealmValueComparesByTheKindOfEachValue() throws {
        let things = StoreTable(name: "Thing", columns: [StoreColumn(name: "m", type: .mixed)])
        try create(things)
        let t = try insert(
            things,
            [
                [.int(3)], [.double(3)], [.string("abc")], [.null], [.bool(true)],
                [.typedLink(table: "Dog", key: k[1])], [.double(2.5)], [.string("ABD")],
            ])
        XCTAssertEqual(try keys(things, "m == 3"), [t[0], t[1]], "int and double compare numerically")
        XCTAssertEqual(
            try keys(things, "m > 2"), [t[0], t[1], t[6]], "values of other kinds are not ordered against numbers")
        XCTAssertEqual(try keys(things, "m != 3"), [t[2], t[3], t[4], t[5], t[6], t[7]])
        XCTAssertEqual(try keys(things, "m BEGINSWITH 'ab'"), [t[2]])
        XCTAssertEqual(try keys(things, "m BEGINSWITH[c] 'ab'"), [t[2], t[7]])
        XCTAssertEqual(try keys(things, "m ==[c] 'abd'"), [t[7]])
        XCTAssertEqual(try keys(things, "m == nil"), [t[3]])
        XCTAssertEqual(try keys(things, "m == true"), [t[4]])
        XCTAssertEqual(try keys(things, "m == %@", [.typedLink(table: "Dog", key: k[1])]), [t[5]])
        XCTAssertEqual(try keys(things, "m IN {3, 'abc'}"), [t[0], t[1], t[2]])
        XCTAssertEqual(try keys(things, "m < 'abd'"), [t[2], t[7]])
        XCTAssertEqual(
            try queryError(StoreQuery("m BEGINSWITH 3"), things),
            .typeMismatch(keyPath: "m", type: "AnyRealmValue", found: "int", source: "the constant 3"))
    }

    func testObjectIdUUIDAndDecimal128() throws {
        let ids = StoreTable(
            name: "Ids",
            columns: [
                StoreColumn(name: "oid", type: .objectId),
                StoreColumn(name: "uuid", type: .uuid, isNullable: true),
                StoreColumn(name: "dec", type: .decimal128),
            ])
        try create(ids)
        func bytes(_ n: Int, _ b: UInt8) -> [UInt8] { [UInt8](repeating: 0, count: n - 1) + [b] }
        let t = try insert(
            ids,
            [
                [.objectId(bytes(12, 1)), .uuid(bytes(16, 9)), .decimal128(StoreDecimal(1).bytes)],
                [.objectId(bytes(12, 2)), .null, .decimal128(StoreDecimal(2).bytes)],
                [.objectId(bytes(12, 3)), .uuid(bytes(16, 7)), .decimal128(StoreDecimal(1).bytes)],
            ])
        XCTAssertEqual(try keys(ids, "oid == %@", [.objectId(bytes(12, 2))]), [t[1]])
        XCTAssertEqual(try keys(ids, "oid > %@", [.objectId(bytes(12, 1))]), [t[1], t[2]])
        XCTAssertEqual(try keys(ids, "uuid IN %@", [.list([.uuid(bytes(16, 7)), .null])]), [t[1], t[2]])
        XCTAssertEqual(try keys(ids, "uuid < %@", [.uuid(bytes(16, 8))]), [t[2]])
        XCTAssertEqual(try keys(ids, "dec == %@", [.decimal128(StoreDecimal(1).bytes)]), [t[0], t[2]])
        XCTAssertEqual(try keys(ids, "dec != %@", [.decimal128(StoreDecimal(1).bytes)]), [t[1]])
    }

    /// Rows written before a column was added read as the column's default, in the fast path and
    /// in the general one alike.
    func testRowsWrittenBeforeAColumnWasAddedReadAsTheDefault() throws {
        let old = StoreTable(name: "Cat", columns: [StoreColumn(name: "name", type: .string)])
        try create(old)
        let first = try insert(old, [[.string("Tom")]])[0]
        let new = StoreTable(
            name: "Cat",
            columns: [
                StoreColumn(name: "name", type: .string),
                StoreColumn(name: "lives", type: .int),
                StoreColumn(name: "weight", type: .double, isNullable: true),
                StoreColumn(name: "isFat", type: .bool),
            ])
        try create(new)
        let second = try insert(new, [[.string("Felix"), .int(9), .double(4), .bool(true)]])[0]
        XCTAssertEqual(try keys(new, "lives == 0"), [first])
        XCTAssertEqual(try keys(new, "weight == nil"), [first])
        XCTAssertEqual(try keys(new, "isFat == false"), [first])
        XCTAssertEqual(try keys(new, "lives > 0"), [second])
        XCTAssertEqual(try keys(new, "lives IN {0} AND weight == nil AND isFat != true"), [first])
    }
}
