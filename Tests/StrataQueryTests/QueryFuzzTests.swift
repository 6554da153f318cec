import StrataQuery
import StrataTestSupport
import XCTest

/// Random inputs never trap: each either parses (and then round-trips through `description`) or
/// throws `QueryParseError` with an offset inside the query. Seeded, so a failure reproduces.
final class QueryFuzzTests: XCTestCase {

    static let vocabulary = [
        "name", "age", "dogs", "owner", ".", "@count", "@size", "@min", "@max", "@sum", "@avg", "@links", "@foo",
        "==", "=", "!=", "<>", "<", "<=", "=<", ">", ">=", "=>", "BEGINSWITH", "endswith", "CONTAINS", "LIKE",
        "IN", "BETWEEN", "[c]", "[d]", "[cd]", "[", "]", "c", "AND", "&&", "OR", "||", "NOT", "!", "(", ")",
        "{", "}", ",", "ANY", "ALL", "NONE", "SOME", "TRUEPREDICATE", "FALSEPREDICATE", "true", "FALSE", "nil",
        "NULL", "SUBQUERY", "MATCHES", "SORT", "%@", "%K", "%d", "%", "$0", "$1", "$", "$x", "0", "42", "-", "-7",
        "0x1F", "0x", "1.5", "-2e3", "1e", "99999999999999999999", "'Rex'", "\"Maui\"", "'it\\'s'", "'\\q'",
        "'open", "\"", "\\", "#", "&", "|", "é", "\u{301}", "🐕", "\n", "\t", " ",
    ]

    private func check(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> Bool {
        do {
            let query = try ParsedQuery.parse(text)
            let printed = query.description
            let reparsed = try ParsedQuery.parse(printed)
            XCTAssertEqual(
                reparsed.predicate, query.predicate, "\(text.debugDescription) printed as \(printed.debugDescription)",
                file: file, line: line)
            XCTAssertEqual(reparsed.argumentCount, query.argumentCount, text.debugDescription, file: file, line: line)
            return true
        } catch {
            let length = text.count
            XCTAssertTrue(
                (0...length).contains(error.offset), "\(text.debugDescription): offset \(error.offset)", file: file,
                line: line)
            XCTAssertFalse(error.expected.isEmpty, text.debugDescription, file: file, line: line)
            XCTAssertGreaterThanOrEqual(error.column, 1, file: file, line: line)
            return false
        }
    }

    func testRandomBytesNeverTrap() {
        var rng = SeededRandom(seed: 0x5EED_0001)
        for _ in 0..<3_000 {
            let length = Int.random(in: 0...40, using: &rng)
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &rng) }
            _ = check(String(decoding: bytes, as: UTF8.self))
        }
    }

    func testRandomPrintableAsciiNeverTraps() {
        var rng = SeededRandom(seed: 0x5EED_0002)
        for _ in 0..<3_000 {
            let length = Int.random(in: 0...30, using: &rng)
            let scalars = (0..<length).map { _ in Character(Unicode.Scalar(UInt8.random(in: 0x20...0x7E, using: &rng)))
            }
            _ = check(String(scalars))
        }
    }

    func testRandomTokenSoupsNeverTrap() {
        var rng = SeededRandom(seed: 0x5EED_0003)
        var parsedCount = 0
        for _ in 0..<10_000 {
            let length = Int.random(in: 0...12, using: &rng)
            let tokens = (0..<length).map { _ in Self.vocabulary.randomElement(using: &rng) ?? "" }
            let separator = Bool.random(using: &rng) ? " " : ""
            if check(tokens.joined(separator: separator)) { parsedCount += 1 }
        }
        XCTAssertGreaterThan(parsedCount, 0, "the soup should sometimes be a valid query")
    }

    func testMutatedValidQueriesNeverTrap() {
        var rng = SeededRandom(seed: 0x5EED_0004)
        var parsedCount = 0
        let corpus = RoundTripTests.corpus
        for _ in 0..<5_000 {
            var scalars = Array((corpus.randomElement(using: &rng) ?? "").unicodeScalars)
            for _ in 0..<Int.random(in: 1...3, using: &rng) where !scalars.isEmpty {
                let i = Int.random(in: 0..<scalars.count, using: &rng)
                switch Int.random(in: 0..<3, using: &rng) {
                case 0: scalars.remove(at: i)
                case 1: scalars.insert(scalars[Int.random(in: 0..<scalars.count, using: &rng)], at: i)
                default: scalars.swapAt(i, Int.random(in: 0..<scalars.count, using: &rng))
                }
            }
            var view = String.UnicodeScalarView()
            view.append(contentsOf: scalars)
            if check(String(view)) { parsedCount += 1 }
        }
        XCTAssertGreaterThan(parsedCount, 0)
    }
}
