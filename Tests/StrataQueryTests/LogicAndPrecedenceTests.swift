import StrataQuery
import XCTest

/// AND, OR, NOT in both spellings, precedence NOT > AND > OR, parentheses, constant predicates.
final class LogicAndPrecedenceTests: XCTestCase {
    let a = cmp(kp("a"), .equal, int(1))
    let b = cmp(kp("b"), .equal, int(2))
    let c = cmp(kp("c"), .equal, int(3))
    let d = cmp(kp("d"), .equal, int(4))

    func testBothSpellingsOfEachConnective() {
        for and in ["AND", "and", "And", "&&"] {
            assertParses("a == 1 \(and) b == 2", .and([a, b]))
        }
        for or in ["OR", "or", "oR", "||"] {
            assertParses("a == 1 \(or) b == 2", .or([a, b]))
        }
        for not in ["NOT ", "not ", "Not ", "!", "! "] {
            assertParses("\(not)a == 1", .not(a))
        }
        assertParses("a == 1&&b == 2||c == 3", .or([.and([a, b]), c]))
    }

    func testAndBindsTighterThanOr() {
        assertParses("a == 1 OR b == 2 AND c == 3", .or([a, .and([b, c])]))
        assertParses("a == 1 AND b == 2 OR c == 3 AND d == 4", .or([.and([a, b]), .and([c, d])]))
    }

    func testNotBindsTighterThanAnd() {
        assertParses("NOT a == 1 AND b == 2", .and([.not(a), b]))
        assertParses("a == 1 OR NOT b == 2", .or([a, .not(b)]))
        assertParses("NOT NOT a == 1", .not(.not(a)))
        assertParses("!!a == 1", .not(.not(a)))
    }

    func testParenthesesOverridePrecedence() {
        assertParses("(a == 1 OR b == 2) AND c == 3", .and([.or([a, b]), c]))
        assertParses("NOT (a == 1 AND b == 2)", .not(.and([a, b])))
        assertParses("((a == 1))", a)
        assertParses("a == 1 AND (b == 2 OR (c == 3 AND d == 4))", .and([a, .or([b, .and([c, d])])]))
    }

    func testChainsOfTheSameConnectiveAreFlattened() {
        assertParses("a == 1 AND b == 2 AND c == 3", .and([a, b, c]))
        assertParses("a == 1 AND (b == 2 AND c == 3)", .and([a, b, c]))
        assertParses("(a == 1 OR b == 2) OR (c == 3 OR d == 4)", .or([a, b, c, d]))
    }

    func testConstantPredicates() {
        assertParses("TRUEPREDICATE", .truePredicate)
        assertParses("falsepredicate", .falsePredicate)
        assertParses("TRUEPREDICATE AND NOT FALSEPREDICATE", .and([.truePredicate, .not(.falsePredicate)]))
    }

    func testWhitespaceAnywhereBetweenTokens() {
        assertParses("\n\t a\t==\r\n1   AND\u{00A0}b == 2  ", .and([a, b]))
        assertParses("(a==1)AND(b==2)", .and([a, b]))
    }

    func testLongChainsParseWithoutDeepRecursion() {
        let terms = (0..<5_000).map { "a == \($0)" }
        guard let query = parsed(terms.joined(separator: " AND ")) else { return }
        guard case .and(let children) = query.predicate else { return XCTFail("\(query.predicate)") }
        XCTAssertEqual(children.count, 5_000)
        XCTAssertEqual(children.last, cmp(kp("a"), .equal, int(4_999)))
    }

    func testNestingUpToTheLimitParsesAndBeyondItThrows() {
        let depth = ParsedQuery.maximumNestingDepth
        let deepest = String(repeating: "(", count: depth) + "a == 1" + String(repeating: ")", count: depth)
        assertParses(deepest, a)
        let nots = String(repeating: "NOT ", count: depth) + "a == 1"
        XCTAssertNotNil(parsed(nots))

        let tooDeep = String(repeating: "(", count: depth + 1) + "a == 1" + String(repeating: ")", count: depth + 1)
        let error = parseError(tooDeep)
        XCTAssertEqual(error?.kind, .nestingTooDeep)
        XCTAssertEqual(error?.column, depth + 1)
        // Far deeper input is rejected, not a stack overflow.
        XCTAssertEqual(parseError(String(repeating: "!(", count: 100_000))?.kind, .nestingTooDeep)
    }
}
