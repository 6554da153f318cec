import StrataQuery
import XCTest

// Small builders so that expected ASTs read like the queries they come from.

/// `"owner.name"` -> `.keyPath(["owner", "name"])`.
func kp(_ path: String, _ aggregate: QueryAggregate? = nil) -> QueryOperand {
    .keyPath(path.split(separator: ".").map(String.init), aggregate: aggregate)
}

func int(_ value: Int64) -> QueryOperand { .literal(.int(value)) }
func dbl(_ value: Double) -> QueryOperand { .literal(.double(value)) }
func str(_ value: String) -> QueryOperand { .literal(.string(value)) }
func bool(_ value: Bool) -> QueryOperand { .literal(.bool(value)) }
let null = QueryOperand.literal(.null)
func arg(_ index: Int) -> QueryOperand { .argument(index: index) }

func cmp(
    _ left: QueryOperand, _ op: QueryOperator, _ right: QueryOperand,
    _ options: QueryStringOptions = [], _ quantifier: QueryQuantifier? = nil
) -> QueryPredicate {
    .comparison(QueryComparison(left, op, right, options: options, quantifier: quantifier))
}

/// Parses or fails the test with the parser's message.
func parsed(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> ParsedQuery? {
    do {
        return try ParsedQuery.parse(text)
    } catch {
        XCTFail("\(text) did not parse: \(error)", file: file, line: line)
        return nil
    }
}

/// Asserts that `text` parses to `expected`.
func assertParses(
    _ text: String, _ expected: QueryPredicate, file: StaticString = #filePath, line: UInt = #line
) {
    guard let query = parsed(text, file: file, line: line) else { return }
    XCTAssertEqual(query.predicate, expected, "for \(text)", file: file, line: line)
}

/// The error parsing `text` throws, or a test failure if it parses.
func parseError(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> QueryParseError? {
    do {
        let query = try ParsedQuery.parse(text)
        XCTFail("\(text) parsed as \(query.predicate) but should not", file: file, line: line)
        return nil
    } catch {
        return error
    }
}
