import StrataQuery
import XCTest

/// Every error message, with its kind, offending text and column. The messages are the contract
/// users see; Docs/QueryLanguage.md quotes them.
final class QueryParseErrorTests: XCTestCase {
    private let value = "(a number, a string in quotes, %@, or a property name)"
    private let operators = "(==, !=, <, <=, >, >=, BEGINSWITH, ENDSWITH, CONTAINS, LIKE, IN or BETWEEN)"

    private func assertError(
        _ text: String, _ kind: QueryParseError.Kind, found: String, column: Int, _ message: String,
        file: StaticString = #filePath, line: UInt = #line
    ) {
        guard let error = parseError(text, file: file, line: line) else { return }
        XCTAssertEqual(error.kind, kind, text, file: file, line: line)
        XCTAssertEqual(error.found, found, text, file: file, line: line)
        XCTAssertEqual(error.column, column, text, file: file, line: line)
        XCTAssertEqual(error.offset, column - 1, text, file: file, line: line)
        XCTAssertEqual(error.query, text, file: file, line: line)
        XCTAssertEqual(error.description, message, file: file, line: line)
    }

    func testMissingValueAfterAnOperator() {
        assertError(
            "age > AND name == 'x'", .unexpectedToken, found: "AND", column: 7,
            "Unexpected 'AND' at column 7 in \"age > AND name == 'x'\": expected a value after '>' \(value)")
        assertError(
            "age >", .unexpectedEnd, found: "", column: 6,
            "Unexpected end of query at column 6 in \"age >\": expected a value after '>' \(value)")
        assertError(
            "name BEGINSWITH[c]", .unexpectedEnd, found: "", column: 19,
            "Unexpected end of query at column 19 in \"name BEGINSWITH[c]\": expected a value after 'BEGINSWITH[c]' \(value)"
        )
        assertError(
            "age > (3)", .unexpectedToken, found: "(", column: 7,
            "Unexpected '(' at column 7 in \"age > (3)\": expected a value after '>' \(value); parentheses group comparisons, not values"
        )
    }

    func testMissingComparison() {
        assertError(
            "", .unexpectedEnd, found: "", column: 1,
            "Unexpected end of query at column 1 in \"\": expected a comparison such as name == 'Rex' (or TRUEPREDICATE to match every object)"
        )
        assertError(
            "== 3", .unexpectedToken, found: "==", column: 1,
            "Unexpected '==' at column 1 in \"== 3\": expected a comparison such as name == 'Rex' (or TRUEPREDICATE to match every object)"
        )
        assertError(
            "name == 'Rex' AND", .unexpectedEnd, found: "", column: 18,
            "Unexpected end of query at column 18 in \"name == 'Rex' AND\": expected a comparison after 'AND', e.g. age > 3"
        )
        assertError(
            "a == 1 OR OR b == 2", .unexpectedToken, found: "OR", column: 11,
            "Unexpected 'OR' at column 11 in \"a == 1 OR OR b == 2\": expected a comparison after 'OR', e.g. age > 3")
        assertError(
            "NOT", .unexpectedEnd, found: "", column: 4,
            "Unexpected end of query at column 4 in \"NOT\": expected a comparison after 'NOT', e.g. age > 3")
    }

    func testMissingOperator() {
        assertError(
            "isGood", .unexpectedEnd, found: "", column: 7,
            "Unexpected end of query at column 7 in \"isGood\": expected an operator after 'isGood' \(operators); for a Bool property write isGood == true"
        )
        assertError(
            "age 3", .unexpectedToken, found: "3", column: 5,
            "Unexpected '3' at column 5 in \"age 3\": expected an operator after 'age' \(operators)")
        assertError(
            "name NOT IN {1}", .unexpectedToken, found: "NOT", column: 6,
            "Unexpected 'NOT' at column 6 in \"name NOT IN {1}\": expected an operator after 'name'; to negate a comparison put NOT in front of it: NOT (name IN {'Rex', 'Maui'})"
        )
        assertError(
            "name[c] == 'x'", .unexpectedToken, found: "[", column: 5,
            "Unexpected '[' at column 5 in \"name[c] == 'x'\": expected an operator after 'name'; modifiers such as [c] go right after the operator (name ==[c] 'rex'), and subscripts such as dogs[0] are not supported"
        )
    }

    func testJunkAfterAComparisonAndUnbalancedParentheses() {
        assertError(
            "name == 'Rex' age > 3", .unexpectedToken, found: "age", column: 15,
            "Unexpected 'age' at column 15 in \"name == 'Rex' age > 3\": expected AND, OR or the end of the query; join comparisons with AND or OR"
        )
        assertError(
            "(age > 3", .unexpectedEnd, found: "", column: 9,
            "Unexpected end of query at column 9 in \"(age > 3\": expected AND, OR or ')' to close the '(' at column 1")
        assertError(
            "age > 3)", .unexpectedToken, found: ")", column: 8,
            "Unexpected ')' at column 8 in \"age > 3)\": expected the end of the query; this ')' has no matching '('")
    }

    func testStringLiteralErrors() {
        assertError(
            "name == 'Rex", .unterminatedString, found: "'", column: 9,
            "Unterminated string at column 9 in \"name == 'Rex\": expected a closing ' at the end of the string; write \\' for a quote inside it"
        )
        assertError(
            #"name == "Rex\"#, .unterminatedString, found: "\"", column: 9,
            #"Unterminated string at column 9 in "name == "Rex\": expected a closing " at the end of the string; write \" for a quote inside it"#
        )
        assertError(
            #"name == 'a\qb'"#, .invalidEscape, found: #"\q"#, column: 11,
            #"Invalid escape '\q' at column 11 in "name == 'a\qb'": expected one of \\ \' \" \n \t \r \0 \uXXXX after a backslash; write \\ for a backslash"#
        )
        assertError(
            #"name == '\u12'"#, .invalidEscape, found: #"\u12"#, column: 10,
            #"Invalid escape '\u12' at column 10 in "name == '\u12'": expected four hexadecimal digits naming a Unicode scalar after \u, e.g. \u00E9"#
        )
        XCTAssertEqual(parseError(#"name == '\uD800'"#)?.kind, .invalidEscape, "a lone surrogate is no scalar")
    }

    func testNumberErrors() {
        assertError(
            "age > 0x", .invalidNumber, found: "0x", column: 7,
            "Invalid number '0x' at column 7 in \"age > 0x\": expected hexadecimal digits after '0x', e.g. 0x1F")
        assertError(
            "age > 12abc", .invalidNumber, found: "12abc", column: 7,
            "Invalid number '12abc' at column 7 in \"age > 12abc\": expected a number such as 42, -7, 0x1F, 1.5 or 2e3; property names cannot start with a digit"
        )
        assertError(
            "age > 1e", .invalidNumber, found: "1e", column: 7,
            "Invalid number '1e' at column 7 in \"age > 1e\": expected digits after the exponent, e.g. 2e3 or 1.5e-2")
        assertError(
            "age > 99999999999999999999", .invalidNumber, found: "99999999999999999999", column: 7,
            "Invalid number '99999999999999999999' at column 7 in \"age > 99999999999999999999\": expected an integer between -9223372036854775808 and 9223372036854775807; write a floating-point literal such as 1e20 for larger values"
        )
        assertError(
            "age > 9223372036854775808", .invalidNumber, found: "9223372036854775808", column: 7,
            "Invalid number '9223372036854775808' at column 7 in \"age > 9223372036854775808\": expected an integer between -9223372036854775808 and 9223372036854775807; write a floating-point literal such as 1e20 for larger values"
        )
        assertError(
            "age == -x", .unexpectedToken, found: "x", column: 9,
            "Unexpected 'x' at column 9 in \"age == -x\": expected a number after '-'")
    }

    func testInvalidCharacters() {
        assertError(
            "age # 3", .invalidCharacter, found: "#", column: 5,
            "Unexpected '#' at column 5 in \"age # 3\": expected a property name, a value, an operator or a parenthesis; '#' has no meaning in a query"
        )
        assertError(
            "age > 3 & name == 'x'", .invalidCharacter, found: "&", column: 9,
            "Unexpected '&' at column 9 in \"age > 3 & name == 'x'\": expected && or AND; a single '&' is not an operator"
        )
        assertError(
            "a == 1 | b == 2", .invalidCharacter, found: "|", column: 8,
            "Unexpected '|' at column 8 in \"a == 1 | b == 2\": expected || or OR; a single '|' is not an operator")
        assertError(
            "age > $", .invalidCharacter, found: "$", column: 7,
            "Unexpected '$' at column 7 in \"age > $\": expected an argument number after '$', e.g. $0")
    }

    func testModifierErrors() {
        assertError(
            "name ==[x] 'a'", .unexpectedToken, found: "x", column: 9,
            "Unexpected 'x' at column 9 in \"name ==[x] 'a'\": expected c (case-insensitive), d (diacritic-insensitive) or cd inside '[...]' after '==', e.g. ==[c]"
        )
        assertError(
            "name ==[cc] 'a'", .unexpectedToken, found: "cc", column: 9,
            "Unexpected 'cc' at column 9 in \"name ==[cc] 'a'\": expected c (case-insensitive), d (diacritic-insensitive) or cd inside '[...]' after '==', e.g. ==[c]"
        )
        assertError(
            "name ==[c 'a'", .unexpectedToken, found: "'a'", column: 11,
            "Unexpected string 'a' at column 11 in \"name ==[c 'a'\": expected ']' to close '[c'")
        assertError(
            "age <[c] 3", .unexpectedToken, found: "[c]", column: 6,
            "Unexpected '[c]' at column 6 in \"age <[c] 3\": [c] can only follow ==, !=, BEGINSWITH, ENDSWITH, CONTAINS or LIKE; remove it after '<'"
        )
    }

    func testListAndOperandShapeErrors() {
        assertError(
            "name IN 'x'", .unexpectedToken, found: "'x'", column: 9,
            "Unexpected string 'x' at column 9 in \"name IN 'x'\": expected a list in braces, %@ or a list property after IN, e.g. name IN {'Rex', 'Maui'}"
        )
        assertError(
            "name == {1, 2}", .unexpectedToken, found: "{", column: 9,
            "Unexpected '{' at column 9 in \"name == {1, 2}\": expected a single value after '=='; a list in braces can only follow IN or BETWEEN"
        )
        assertError(
            "{1} == name", .unexpectedToken, found: "{", column: 1,
            "Unexpected '{' at column 1 in \"{1} == name\": expected a property name before the operator; a list in braces can only follow IN or BETWEEN"
        )
        assertError(
            "name IN {owner}", .unexpectedToken, found: "owner", column: 10,
            "Unexpected 'owner' at column 10 in \"name IN {owner}\": expected a constant or %@ in the list that starts at column 9; property names cannot appear in {...}"
        )
        assertError(
            "age IN {1 2}", .unexpectedToken, found: "2", column: 11,
            "Unexpected '2' at column 11 in \"age IN {1 2}\": expected ',' or '}' in the list that starts at column 8")
        assertError(
            "age IN {1,}", .unexpectedToken, found: "}", column: 11,
            "Unexpected '}' at column 11 in \"age IN {1,}\": expected a value in the list that starts at column 8 (a number, a string in quotes, true, false, nil or %@)"
        )
        assertError(
            "age BETWEEN {1, 2, 3}", .unexpectedToken, found: "{", column: 13,
            "Unexpected '{' at column 13 in \"age BETWEEN {1, 2, 3}\": expected exactly two values after BETWEEN, e.g. age BETWEEN {1, 5}; found 3"
        )
        assertError(
            "owner. == 1", .unexpectedToken, found: "==", column: 8,
            "Unexpected '==' at column 8 in \"owner. == 1\": expected a property name after 'owner.'")
        assertError(
            "dogs.@count.age > 1", .unexpectedToken, found: ".", column: 12,
            "Unexpected '.' at column 12 in \"dogs.@count.age > 1\": expected an operator after 'dogs.@count'; nothing can follow @count, e.g. dogs.@count > 2"
        )
        assertError(
            "dogs.@avg.owner.age > 1", .unexpectedToken, found: ".", column: 16,
            "Unexpected '.' at column 16 in \"dogs.@avg.owner.age > 1\": expected an operator after 'dogs.@avg.owner'; @avg takes a single property of the elements, e.g. dogs.@avg.age"
        )
    }

    func testUnsupportedFeatures() {
        assertError(
            "@links.Person.dogs.@median > 0", .unsupported, found: "@median", column: 20,
            "Unsupported '@median' at column 20 in \"@links.Person.dogs.@median > 0\": expected one of the collection operators @count, @size, @min, @max, @sum, @avg, @keys, @values, @type or @links; @median is not supported"
        )
        assertError(
            "name MATCHES 'R.*'", .unsupported, found: "MATCHES", column: 6,
            "Unsupported 'MATCHES' at column 6 in \"name MATCHES 'R.*'\": regular expressions are not supported; use LIKE with * and ? wildcards, or BEGINSWITH, ENDSWITH or CONTAINS"
        )
        assertError(
            "age > %d", .unsupported, found: "%d", column: 7,
            "Unsupported '%d' at column 7 in \"age > %d\": format specifiers other than %@ and %K are not supported; write %@ for every value argument and %K for a key path argument"
        )
        assertError(
            "age > $minAge", .unsupported, found: "$minAge", column: 7,
            "Unsupported '$minAge' at column 7 in \"age > $minAge\": named variables such as $minAge only name the element inside SUBQUERY(collection, $minAge, ...); write $0, $1, ... for arguments by position"
        )
        assertError(
            "dogs.@median > 1", .unsupported, found: "@median", column: 6,
            "Unsupported '@median' at column 6 in \"dogs.@median > 1\": expected one of the collection operators @count, @size, @min, @max, @sum, @avg, @keys, @values, @type or @links; @median is not supported"
        )
        assertError(
            "age > 1 LIMIT(2) SORT(age ASC)", .unsupported, found: "SORT", column: 18,
            "Unsupported 'SORT' at column 18 in \"age > 1 LIMIT(2) SORT(age ASC)\": expected SORT, then DISTINCT, then LIMIT, each once (SORT may repeat); reorder the clauses"
        )
    }

    func testColumnsCountCharactersAndLines() {
        assertError(
            "名前 > AND", .unexpectedToken, found: "AND", column: 6,
            "Unexpected 'AND' at column 6 in \"名前 > AND\": expected a value after '>' \(value)")
        // The flag is two Unicode scalars but one Character.
        XCTAssertEqual(parseError("'🇳🇴' == AND")?.column, 8)
        guard let error = parseError("name == 'Rex'\nAND age >") else { return }
        XCTAssertEqual(error.line, 2)
        XCTAssertEqual(error.column, 10)
        XCTAssertEqual(error.offset, 23)
        XCTAssertEqual(
            error.description,
            "Unexpected end of query at line 2, column 10 in \"name == 'Rex'\nAND age >\": expected a value after '>' \(value)"
        )
    }

    func testTheLeftmostErrorWinsOverALaterLexicalError() {
        // The syntax error at column 7 comes before the unterminated string at column 11.
        XCTAssertEqual(parseError("age > AND 'x")?.column, 7)
        XCTAssertEqual(parseError("age > 3 AND 'x")?.kind, .unterminatedString)
    }
}
