import StrataQuery
import XCTest

/// oid(...), uuid(...), T<seconds>:<nanoseconds>, YYYY-MM-DD@HH:MM:SS[:nanos], B64"...", inf, nan,
/// and @type, as realm-core's query language writes them.
final class TypedLiteralTests: XCTestCase {
    func value(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> QueryLiteral? {
        guard let query = parsed("x == \(text)", file: file, line: line),
            case .comparison(let c) = query.predicate, case .literal(let literal) = c.right
        else { return nil }
        return literal
    }

    func testObjectIdsAndUUIDs() {
        XCTAssertEqual(
            value("oid(507f1f77bcf86cd799439011)"),
            .objectId([0x50, 0x7f, 0x1f, 0x77, 0xbc, 0xf8, 0x6c, 0xd7, 0x99, 0x43, 0x90, 0x11]))
        XCTAssertEqual(
            value("uuid(137ECC3B-1b8a-4c2a-9d3e-7a1b2c3d4e5f)"),
            .uuid([0x13, 0x7e, 0xcc, 0x3b, 0x1b, 0x8a, 0x4c, 0x2a, 0x9d, 0x3e, 0x7a, 0x1b, 0x2c, 0x3d, 0x4e, 0x5f]))
        XCTAssertEqual(parseError("x == oid(507f1f77bcf86cd79943901)")?.kind, .invalidNumber)
        XCTAssertEqual(parseError("x == oid(507f1f77bcf86cd79943901)")?.column, 6)
        XCTAssertEqual(parseError("x == uuid(137ecc3b1b8a4c2a9d3e7a1b2c3d4e5f)")?.kind, .invalidNumber)
        // Without the parenthesis they are ordinary names.
        assertParses("oid == 1", cmp(kp("oid"), .equal, int(1)))
    }

    func testTimestamps() {
        XCTAssertEqual(value("T1700000000:5"), .timestamp(seconds: 1_700_000_000, nanoseconds: 5))
        XCTAssertEqual(value("T-3:-5"), .timestamp(seconds: -3, nanoseconds: -5))
        XCTAssertEqual(value("2023-11-14@22:13:20"), .timestamp(seconds: 1_700_000_000, nanoseconds: 0))
        XCTAssertEqual(value("2023-11-14T22:13:20:5"), .timestamp(seconds: 1_700_000_000, nanoseconds: 5))
        XCTAssertEqual(value("1970-01-01@00:00:00"), .timestamp(seconds: 0, nanoseconds: 0))
        XCTAssertEqual(value("2000-02-29@00:00:00"), .timestamp(seconds: 951_782_400, nanoseconds: 0))
        // Before 1970 both parts carry the sign: 1969-12-31 23:59:59.25 is -0.75 s.
        XCTAssertEqual(value("1969-12-31@23:59:59:250000000"), .timestamp(seconds: 0, nanoseconds: -750_000_000))
        XCTAssertEqual(parseError("x == 2023-02-29@00:00:00")?.kind, .invalidNumber)
        XCTAssertEqual(parseError("x == 2023-11-14@25:00:00")?.column, 6)
        XCTAssertEqual(parseError("x == T1:-5")?.kind, .invalidNumber)
        XCTAssertEqual(parseError("x == T1:1000000000")?.kind, .invalidNumber)
        assertParses("Tom == 1", cmp(kp("Tom"), .equal, int(1)))
        assertParses("T1 == 1", cmp(kp("T1"), .equal, int(1)))
    }

    func testBase64Data() {
        XCTAssertEqual(value("B64\"aGVsbG8=\""), .data(Array("hello".utf8)))
        XCTAssertEqual(value("B64\"\""), .data([]))
        XCTAssertEqual(value("B64\"aGk\""), .data(Array("hi".utf8)))
        XCTAssertEqual(parseError("x == B64\"a*b=\"")?.kind, .invalidNumber)
        XCTAssertEqual(parseError("x == B64\"aGk=")?.kind, .unterminatedString)
    }

    func testInfinityAndNaN() {
        XCTAssertEqual(value("inf"), .double(.infinity))
        XCTAssertEqual(value("-Infinity"), .double(-.infinity))
        guard case .double(let nan)? = value("NaN") else { return XCTFail("nan is a double") }
        XCTAssertTrue(nan.isNaN)
    }

    func testTypedConstantsPrintBackAsWritten() {
        for text in [
            "a == oid(507f1f77bcf86cd799439011)", "a == uuid(137ecc3b-1b8a-4c2a-9d3e-7a1b2c3d4e5f)",
            "a == T-3:-5 OR a > T1700000000:5", "a == B64\"aGVsbG8=\" OR a == B64\"aGk=\" OR a == B64\"\"",
            "a < inf AND a > -inf", "value.@type == 'int|double'",
        ] {
            guard let first = parsed(text) else { continue }
            XCTAssertEqual(first.description, text)
            XCTAssertEqual(parsed(first.description)?.predicate, first.predicate, text)
        }
    }

    func testTypeParsesAsAnAggregate() {
        assertParses("value.@type == 'int'", cmp(kp("value", .type), .equal, str("int")))
        assertParses("ANY things.@TYPE != 'null'", cmp(kp("things", .type), .notEqual, str("null"), [], .any))
        XCTAssertEqual(parseError("value.@type.x == 'int'")?.column, 12)
    }
}
