import StrataQuery
import XCTest

/// Every operator spelling, every string modifier, IN and BETWEEN, and side normalisation.
final class ComparisonOperatorTests: XCTestCase {
    func testEverySpellingOfTheRelationalOperators() {
        let spellings: [(String, QueryOperator)] = [
            ("==", .equal), ("=", .equal), ("!=", .notEqual), ("<>", .notEqual),
            ("<", .lessThan), ("<=", .lessThanOrEqual), ("=<", .lessThanOrEqual),
            (">", .greaterThan), (">=", .greaterThanOrEqual), ("=>", .greaterThanOrEqual),
        ]
        for (spelling, op) in spellings {
            assertParses("age \(spelling) 3", cmp(kp("age"), op, int(3)))
            assertParses("age\(spelling)3", cmp(kp("age"), op, int(3)))
        }
    }

    func testStringOperatorsWithEveryModifier() {
        let operators: [(String, QueryOperator)] = [
            ("BEGINSWITH", .beginsWith), ("ENDSWITH", .endsWith), ("CONTAINS", .contains), ("LIKE", .like),
            ("==", .equal), ("!=", .notEqual), ("=", .equal), ("<>", .notEqual),
        ]
        let modifiers: [(String, QueryStringOptions)] = [
            ("", []), ("[c]", .caseInsensitive), ("[d]", .diacriticInsensitive),
            ("[cd]", [.caseInsensitive, .diacriticInsensitive]), ("[dc]", [.caseInsensitive, .diacriticInsensitive]),
            ("[C]", .caseInsensitive), (" [ cd ] ", [.caseInsensitive, .diacriticInsensitive]),
        ]
        for (spelling, op) in operators {
            for (modifier, options) in modifiers {
                assertParses("name \(spelling)\(modifier) 'b'", cmp(kp("name"), op, str("b"), options))
            }
        }
    }

    func testStringOperatorKeywordsAreCaseInsensitive() {
        assertParses("name beginswith 'B'", cmp(kp("name"), .beginsWith, str("B")))
        assertParses("name EndsWith 'x'", cmp(kp("name"), .endsWith, str("x")))
        assertParses("name contains[c] 'x'", cmp(kp("name"), .contains, str("x"), .caseInsensitive))
        assertParses("name like 'R?x*'", cmp(kp("name"), .like, str("R?x*")))
    }

    func testLikeKeepsWildcardsInThePattern() {
        assertParses("name LIKE[c] '*ex?'", cmp(kp("name"), .like, str("*ex?"), .caseInsensitive))
    }

    func testModifierOnANonStringOperatorIsRejected() {
        for spelling in ["<", "<=", ">", ">=", "IN", "BETWEEN"] {
            let error = parseError("age \(spelling)[c] 3")
            XCTAssertEqual(error?.kind, .unexpectedToken, spelling)
            XCTAssertEqual(error?.found, "[c]", spelling)
            XCTAssertEqual(error?.column, 5 + spelling.count, spelling)
        }
    }

    func testInWithAListOfConstants() {
        assertParses("name IN {'Rex', 'Maui'}", cmp(kp("name"), .in, .list([str("Rex"), str("Maui")])))
        assertParses(
            "age in {1, -2, 3.5, nil, %@}", cmp(kp("age"), .in, .list([int(1), int(-2), dbl(3.5), null, arg(0)])))
        assertParses("age IN {}", cmp(kp("age"), .in, .list([])))
        assertParses("age IN{ 1 }", cmp(kp("age"), .in, .list([int(1)])))
    }

    func testInWithACollectionArgumentOrAListProperty() {
        assertParses("name IN %@", cmp(kp("name"), .in, arg(0)))
        assertParses("name IN $0", cmp(kp("name"), .in, arg(0)))
        assertParses("'Rex' IN dogs.name", cmp(str("Rex"), .in, kp("dogs.name")))
        assertParses("%@ IN %K", cmp(arg(0), .in, .keyPathArgument(index: 1)))
    }

    func testBetweenTakesExactlyTwoValuesOrAnArgument() {
        assertParses("age BETWEEN {1, 5}", cmp(kp("age"), .between, .list([int(1), int(5)])))
        assertParses("age between {%@, %@}", cmp(kp("age"), .between, .list([arg(0), arg(1)])))
        assertParses("age BETWEEN %@", cmp(kp("age"), .between, arg(0)))
        XCTAssertEqual(
            parseError("age BETWEEN {1}")?.expected,
            "expected exactly two values after BETWEEN, e.g. age BETWEEN {1, 5}; found 1")
        XCTAssertEqual(parseError("age BETWEEN {1, 2, 3}")?.column, 13)
        XCTAssertEqual(
            parseError("age BETWEEN 3")?.expected, "expected {low, high} or %@ after BETWEEN, e.g. age BETWEEN {1, 5}")
    }

    func testConstantOnTheLeftIsMovedToTheRightWithTheOperatorMirrored() {
        assertParses("5 < age", cmp(kp("age"), .greaterThan, int(5)))
        assertParses("5 <= age", cmp(kp("age"), .greaterThanOrEqual, int(5)))
        assertParses("5 > age", cmp(kp("age"), .lessThan, int(5)))
        assertParses("5 >= age", cmp(kp("age"), .lessThanOrEqual, int(5)))
        assertParses("'Rex' ==[c] name", cmp(kp("name"), .equal, str("Rex"), .caseInsensitive))
        assertParses("nil != owner", cmp(kp("owner"), .notEqual, null))
        assertParses("%@ < dogs.@count", cmp(kp("dogs", .count), .greaterThan, arg(0)))
    }

    func testSidesStayAsWrittenWhereSwappingWouldChangeMeaningOrOrder() {
        // String operators cannot be mirrored.
        assertParses("'Rex' BEGINSWITH name", cmp(str("Rex"), .beginsWith, kp("name")))
        // Two key paths, two constants: nothing to normalise.
        assertParses("age > otherAge", cmp(kp("age"), .greaterThan, kp("otherAge")))
        assertParses("1 == 1", cmp(int(1), .equal, int(1)))
        // %K keeps its place so that placeholders stay in reading order.
        assertParses("%@ < %K", cmp(arg(0), .lessThan, .keyPathArgument(index: 1)))
    }

    func testKeyPathOnTheRightOfAComparison() {
        assertParses("owner.name == name", cmp(kp("owner.name"), .equal, kp("name")))
    }
}
