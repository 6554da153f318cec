import StrataQuery
import XCTest

/// `%@`, `$n` and `%K`: their indices, the argument count, and the argument-count check.
final class PlaceholderTests: XCTestCase {
    func testPositionalPlaceholdersAreNumberedInReadingOrder() {
        guard let query = parsed("age > %@ AND name BEGINSWITH[c] %@") else { return }
        XCTAssertEqual(
            query.predicate,
            .and([
                cmp(kp("age"), .greaterThan, arg(0)),
                cmp(kp("name"), .beginsWith, arg(1), .caseInsensitive),
            ]))
        XCTAssertEqual(query.argumentCount, 2)
        XCTAssertEqual(query.placeholders.map(\.offset), [6, 32])
    }

    func testKeyPathPlaceholderTakesTheNextPositionalIndex() {
        guard let query = parsed("%K == %@ OR ANY %K IN %@") else { return }
        XCTAssertEqual(
            query.predicate,
            .or([
                cmp(.keyPathArgument(index: 0), .equal, arg(1)),
                cmp(.keyPathArgument(index: 2), .in, arg(3), [], .any),
            ]))
        XCTAssertEqual(query.argumentCount, 4)
        XCTAssertEqual(query.placeholders.map(\.text), ["%K", "%@", "%K", "%@"])
    }

    func testExplicitIndicesMayRepeatAndSkip() {
        guard let query = parsed("age > $1 AND age < $1 OR name == $0") else { return }
        XCTAssertEqual(
            query.predicate,
            .or([
                .and([cmp(kp("age"), .greaterThan, arg(1)), cmp(kp("age"), .lessThan, arg(1))]),
                cmp(kp("name"), .equal, arg(0)),
            ]))
        XCTAssertEqual(query.argumentCount, 2)
        XCTAssertEqual(parsed("age > $3")?.argumentCount, 4)
    }

    func testPlaceholdersInListsAreCounted() {
        guard let query = parsed("age BETWEEN {%@, %@} AND name IN {'Rex', %@}") else { return }
        XCTAssertEqual(query.argumentCount, 3)
        XCTAssertEqual(
            query.predicate,
            .and([
                cmp(kp("age"), .between, .list([arg(0), arg(1)])),
                cmp(kp("name"), .in, .list([str("Rex"), arg(2)])),
            ]))
    }

    func testQueryWithoutPlaceholdersExpectsNoArguments() {
        XCTAssertEqual(parsed("name == 'Rex'")?.argumentCount, 0)
        XCTAssertEqual(parsed("TRUEPREDICATE")?.argumentCount, 0)
    }

    func testMixingPositionalAndExplicitPlaceholdersIsRejected() {
        let error = parseError("age > %@ AND name == $0")
        XCTAssertEqual(error?.kind, .mixedPlaceholders)
        XCTAssertEqual(error?.column, 22)
        XCTAssertEqual(
            error?.description,
            "Unexpected '$0' at column 22 in \"age > %@ AND name == $0\": expected the same kind of placeholder as the '%@' at column 7; use either %@ and %K (numbered in order) or $0, $1, ... in one query, not both"
        )
        XCTAssertEqual(parseError("age > $0 AND %K == 1")?.found, "%K")
    }

    func testArgumentCountCheckAcceptsTheRightCount() {
        XCTAssertNoThrow(try ParsedQuery.parse("age > %@ AND name == %@").validateArgumentCount(2))
        XCTAssertNoThrow(try ParsedQuery.parse("name == 'Rex'").validateArgumentCount(0))
    }

    func testTooFewArgumentsNameTheFirstPlaceholderWithoutOne() throws {
        let query = try ParsedQuery.parse("age > %@ AND name == %@")
        do {
            try query.validateArgumentCount(1)
            XCTFail("expected an error")
        } catch {
            XCTAssertEqual(error.kind, .wrongArgumentCount(expected: 2, given: 1))
            XCTAssertEqual(error.column, 22)
            XCTAssertEqual(
                error.description,
                "filter expects 2 arguments, got 1 for \"age > %@ AND name == %@\": nothing is passed for the %@ at column 22"
            )
        }
    }

    func testTooManyArgumentsSaySoAndWhatToDo() throws {
        do {
            try ParsedQuery.parse("age > %@").validateArgumentCount(3)
            XCTFail("expected an error")
        } catch {
            XCTAssertEqual(
                error.description,
                "filter expects 1 argument, got 3 for \"age > %@\": pass one argument for each placeholder, or remove the extra arguments"
            )
        }
        do {
            try ParsedQuery.parse("age > 3").validateArgumentCount(1)
            XCTFail("expected an error")
        } catch {
            XCTAssertEqual(error.kind, .wrongArgumentCount(expected: 0, given: 1))
        }
    }

    func testUnsupportedFormatSpecifiersSuggestPercentAt() {
        for specifier in ["%d", "%f", "%s", "%i", "%k"] {
            let error = parseError("age > \(specifier)")
            XCTAssertEqual(error?.kind, .unsupported, specifier)
            XCTAssertEqual(error?.found, specifier)
            XCTAssertEqual(error?.column, 7)
        }
    }

    func testKeyPathPlaceholderCannotBeExtendedWithADot() {
        let error = parseError("%K.@count > 2")
        XCTAssertEqual(error?.found, ".")
        XCTAssertEqual(error?.column, 3)
    }
}
