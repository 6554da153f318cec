import StrataQuery
import XCTest

/// Every literal form: integers (decimal, hex, signed, limits), doubles, strings and escapes,
/// booleans and null.
final class LiteralTests: XCTestCase {
    private func value(_ literal: String, file: StaticString = #filePath, line: UInt = #line) -> QueryOperand? {
        guard let query = parsed("x == \(literal)", file: file, line: line) else { return nil }
        guard case .comparison(let c) = query.predicate else { return nil }
        return c.right
    }

    func testIntegers() {
        XCTAssertEqual(value("0"), int(0))
        XCTAssertEqual(value("42"), int(42))
        XCTAssertEqual(value("-7"), int(-7))
        XCTAssertEqual(value("- 7"), int(-7))
        XCTAssertEqual(value("007"), int(7))
        XCTAssertEqual(value("9223372036854775807"), int(.max))
        XCTAssertEqual(value("-9223372036854775808"), int(.min))
    }

    func testHexadecimalIntegers() {
        XCTAssertEqual(value("0x1F"), int(31))
        XCTAssertEqual(value("0X1f"), int(31))
        XCTAssertEqual(value("-0xff"), int(-255))
        XCTAssertEqual(value("0x7FFFFFFFFFFFFFFF"), int(.max))
    }

    func testIntegersOutsideInt64AreRejected() {
        for text in [
            "9223372036854775808", "-9223372036854775809", "18446744073709551616", "0x8000000000000000",
            "0x1FFFFFFFFFFFFFFFF",
        ] {
            XCTAssertEqual(parseError("x == \(text)")?.kind, .invalidNumber, text)
        }
    }

    func testFloatingPoint() {
        XCTAssertEqual(value("1.5"), dbl(1.5))
        XCTAssertEqual(value("-2e3"), dbl(-2000))
        XCTAssertEqual(value("2E+3"), dbl(2000))
        XCTAssertEqual(value("1.25e-2"), dbl(0.0125))
        XCTAssertEqual(value("0.1"), dbl(0.1))
        XCTAssertEqual(value("1.7976931348623157e308"), dbl(.greatestFiniteMagnitude))
        XCTAssertEqual(value("1e-400"), dbl(0))
        XCTAssertEqual(parseError("x == 1e400")?.kind, .invalidNumber)
    }

    func testStringsInEitherQuote() {
        XCTAssertEqual(value("'Rex'"), str("Rex"))
        XCTAssertEqual(value("\"Rex\""), str("Rex"))
        XCTAssertEqual(value("''"), str(""))
        XCTAssertEqual(value("\"it's\""), str("it's"))
        XCTAssertEqual(value("'say \"hi\"'"), str("say \"hi\""))
        XCTAssertEqual(value("'  spaced  '"), str("  spaced  "))
        XCTAssertEqual(value("'Zoë 🐕 名前'"), str("Zoë 🐕 名前"))
    }

    func testBackslashEscapes() {
        XCTAssertEqual(value(#"'it\'s'"#), str("it's"))
        XCTAssertEqual(value(#""a\"b""#), str("a\"b"))
        XCTAssertEqual(value(#"'back\\slash'"#), str("back\\slash"))
        XCTAssertEqual(value(#"'a\nb\tc\rd\0e'"#), str("a\nb\tc\rd\0e"))
        XCTAssertEqual(value(#"'caf\u00e9'"#), str("caf\u{E9}"))
        // A combining mark after an escape stays a separate scalar; the string keeps exactly what was written.
        XCTAssertEqual(value("'e\u{301}'"), str("e\u{301}"))
    }

    func testBooleansAndNullInAnyCase() {
        for text in ["true", "TRUE", "True"] { XCTAssertEqual(value(text), bool(true), text) }
        for text in ["false", "FALSE", "fAlSe"] { XCTAssertEqual(value(text), bool(false), text) }
        for text in ["nil", "NIL", "null", "NULL", "Null"] { XCTAssertEqual(value(text), null, text) }
    }

    func testLiteralDescriptions() {
        XCTAssertEqual(QueryLiteral.int(-3).description, "-3")
        XCTAssertEqual(QueryLiteral.double(2000).description, "2000.0")
        XCTAssertEqual(QueryLiteral.string("it's\\\n\u{1}").description, #"'it\'s\\\n\u0001'"#)
        XCTAssertEqual(QueryLiteral.bool(true).description, "true")
        XCTAssertEqual(QueryLiteral.null.description, "nil")
    }
}
