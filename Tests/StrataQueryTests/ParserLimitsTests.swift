import Foundation
import StrataQuery
import XCTest

/// Size and depth limits: large inputs stay linear, the deepest accepted query fits a small stack,
/// and Unicode case mapping never turns a property name into a keyword.
final class ParserLimitsTests: XCTestCase {
    func testLongListAndManyPlaceholdersParseQuickly() {
        let list = "age IN {" + (0..<20_000).map(String.init).joined(separator: ", ") + "}"
        let start = Date()
        guard case .comparison(let c)? = parsed(list)?.predicate, case .list(let values) = c.right else {
            return XCTFail("no list")
        }
        XCTAssertEqual(values.count, 20_000)
        XCTAssertEqual(values.last, int(19_999))

        let placeholders = (0..<5_000).map { _ in "age > %@" }.joined(separator: " OR ")
        guard let query = parsed(placeholders) else { return }
        XCTAssertEqual(query.argumentCount, 5_000)
        XCTAssertEqual(query.placeholders.last?.offset, placeholders.count - 2)
        // Quadratic work (a message or offset rebuilt per element) takes minutes here; linear takes well under a second.
        XCTAssertLessThan(Date().timeIntervalSince(start), 20)
    }

    func testDeepestAcceptedQueryFitsOnA512KiBThreadStack() {
        let depth = ParsedQuery.maximumNestingDepth
        let text = String(repeating: "NOT (", count: depth / 2) + "a == 1" + String(repeating: ")", count: depth / 2)
        let done = expectation(description: "parsed on a small stack")
        let result = ResultBox()
        let thread = Thread {
            result.set((try? ParsedQuery.parse(text))?.description)
            done.fulfill()
        }
        // 512 KiB is a secondary thread's default on Apple platforms. A debug build needs ~240 KiB
        // here, a release build ~144 KiB (measured; see `ParseFailure`).
        thread.stackSize = 512 * 1024
        thread.start()
        wait(for: [done], timeout: 30)
        XCTAssertEqual(result.get(), String(repeating: "NOT ", count: depth / 2) + "a == 1")
    }

    func testUnicodeCaseMappingDoesNotMakeKeywords() {
        // "ın" (dotless i) upper-cases to "IN"; "ſ" (long s) to "S".
        assertParses("ın == 1", cmp(kp("ın"), .equal, int(1)))
        XCTAssertEqual(parseError("name beginſwith 'x'")?.found, "beginſwith")
        XCTAssertEqual(parseError("dogs.@count > 1 ſort(age)")?.kind, .unexpectedToken)
    }

    func testOperatorMessageQuotesTheWholeLeftOperand() {
        XCTAssertEqual(
            parseError("owner.isGood")?.expected,
            "expected an operator after 'owner.isGood' (==, !=, <, <=, >, >=, BEGINSWITH, ENDSWITH, CONTAINS, LIKE, IN or BETWEEN); for a Bool property write owner.isGood == true"
        )
        XCTAssertEqual(
            parseError("dogs.@count")?.expected,
            "expected an operator after 'dogs.@count' (==, !=, <, <=, >, >=, BEGINSWITH, ENDSWITH, CONTAINS, LIKE, IN or BETWEEN)"
        )
    }
}

/// A lock-protected slot for handing a value back from a `Thread`.
private final class ResultBox: @unchecked Sendable {
    private let lock = NSLock()
    private var value: String?
    func set(_ newValue: String?) { lock.withLock { value = newValue } }
    func get() -> String? { lock.withLock { value } }
}
