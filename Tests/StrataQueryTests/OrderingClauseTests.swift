import StrataQuery
import XCTest

/// `SORT(...)`, `DISTINCT(...)` and `LIMIT(n)` after a filter parse into ordering clauses, in the
/// order written; malformed or out-of-order clauses are refused at their column.
final class OrderingClauseTests: XCTestCase {
    func testClausesParseInOrder() throws {
        let query = try ParsedQuery.parse(
            "age > 3 SORT(name ASC, owner.age DESCENDING) SORT(age desc) DISTINCT(name, owner.name) LIMIT(10)")
        XCTAssertEqual(query.predicate, cmp(kp("age"), .greaterThan, int(3)))
        XCTAssertEqual(
            query.ordering,
            [
                .sort([
                    QuerySortKey(keyPath: "name", ascending: true),
                    QuerySortKey(keyPath: "owner.age", ascending: false),
                ]),
                .sort([QuerySortKey(keyPath: "age", ascending: false)]),
                .distinct(["name", "owner.name"]),
                .limit(10),
            ])
        XCTAssertEqual(try ParsedQuery.parse("TRUEPREDICATE LIMIT(0)").ordering, [.limit(0)])
        XCTAssertEqual(try ParsedQuery.parse("age > 3").ordering, [])
    }

    func testMalformedClausesAreRefusedAtTheirColumn() {
        let cases: [(String, Int, String)] = [
            ("age > 3 SORT(name)", 18, "expected ASC or DESC after 'name' in SORT(...)"),
            ("age > 3 SORT name ASC", 14, "expected '(' after SORT"),
            ("age > 3 LIMIT(-1)", 15, "expected a whole number of results in LIMIT(...), e.g. LIMIT(10)"),
            ("age > 3 LIMIT(2.5)", 15, "expected a whole number of results in LIMIT(...), e.g. LIMIT(10)"),
            ("age > 3 DISTINCT()", 18, "expected a property name in DISTINCT(...), e.g. DISTINCT(name)"),
            ("age > 3 DISTINCT(name", 22, "expected ')' to close DISTINCT(...)"),
            (
                "age > 3 LIMIT(1) LIMIT(2)", 18,
                "expected SORT, then DISTINCT, then LIMIT, each once (SORT may repeat); reorder the clauses"
            ),
            (
                "age > 3 DISTINCT(a) SORT(a ASC)", 21,
                "expected SORT, then DISTINCT, then LIMIT, each once (SORT may repeat); reorder the clauses"
            ),
            (
                "age > 3 LIMIT(1) AND age < 5", 18,
                "expected SORT, DISTINCT, LIMIT or the end of the query; the filter comes before them"
            ),
            ("age > 3 SORT(dogs.@count ASC)", 14, "expected a property name, not an aggregate, in SORT(...)"),
        ]
        for (text, column, expected) in cases {
            guard let error = parseError(text) else { continue }
            XCTAssertEqual(error.column, column, text)
            XCTAssertTrue(error.description.hasSuffix(expected), "\(text): \(error.description)")
        }
    }
}
