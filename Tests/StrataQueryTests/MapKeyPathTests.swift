import StrataQuery
import XCTest

/// Map subscripts (`labels['color']`), `@keys` and `@values` parse into aggregates of the key path
/// and print back to text that parses to the same predicate.
final class MapKeyPathTests: XCTestCase {
    func testMapOperatorsParseAndRoundTrip() throws {
        assertParses("labels['color'] == 'blue'", cmp(kp("labels", .element("color")), .equal, str("blue")))
        assertParses(
            "owner.labels[\"a b\"] != nil",
            cmp(.keyPath(["owner", "labels"], aggregate: .element("a b")), .notEqual, .literal(.null)))
        assertParses("labels.@keys == 'color'", cmp(kp("labels", .keys), .equal, str("color")))
        assertParses("ANY labels.@values BEGINSWITH 'b'", cmp(kp("labels", .values), .beginsWith, str("b"), [], .any))
        for text in ["labels['color'] == 'blue'", "labels.@keys == 'x'", "ALL labels.@values == 'y'"] {
            let parsed = try ParsedQuery.parse(text)
            XCTAssertEqual(try ParsedQuery.parse(parsed.description).predicate, parsed.predicate, text)
        }
    }

    func testMalformedSubscriptsAreRefused() {
        XCTAssertEqual(parseError("labels['a'].name == 1")?.column, 12)
        XCTAssertEqual(parseError("labels['a' == 1")?.column, 12)
        XCTAssertEqual(parseError("labels.@keys.x == 1")?.column, 13)
        XCTAssertEqual(parseError("dogs[0].age > 1")?.kind, .unsupported)
    }
}
