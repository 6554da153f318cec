import StrataQuery
import XCTest

/// `description` prints canonical query text that parses back to the same predicate.
final class RoundTripTests: XCTestCase {
    static let corpus = [
        "name == 'Rex' AND age > 3",
        "ANY dogs.name BEGINSWITH 'B'",
        "dogs.@count > 1",
        "age BETWEEN {1, 5}",
        "name IN {'Rex', 'Maui'}",
        "5 < age",
        "a == 1 OR b == 2 AND c == 3",
        "(a == 1 OR b == 2) AND NOT (c == 3 OR d == 4)",
        "NOT NOT a == 1",
        "!(a == 1) && b <> 2 || c =< 3",
        "TRUEPREDICATE OR FALSEPREDICATE",
        "name LIKE[cd] '*r?x*' AND name ENDSWITH[d] 'é' AND name CONTAINS[c] \"it's\"",
        "name ==[c] 'back\\\\slash\\n\\t\\u0001'",
        "age >= -9223372036854775808 AND age <= 0x7FFFFFFFFFFFFFFF",
        "weight > -2e3 AND weight < 1.5 AND weight != 0.1 AND weight != 1e300 AND weight != 5e-324",
        "owner == nil AND isGood == true AND isBad == FALSE",
        "age > %@ AND name BEGINSWITH[c] %@",
        "%K == %@ OR ANY %K IN %@",
        "age > $1 AND name == $0",
        "age > $0 AND name == $1",
        "%@ < dogs.@count AND %@ >= dogs.@avg.age",
        "ALL dogs.age > 1 AND NONE dogs.name == 'x' AND SOME scores.@max > 2",
        "dogs.@min.age < 2 OR dogs.@sum.weight > 10 OR name.@size == 0 OR scores.@avg == 1",
        "'Rex' IN dogs.name AND 'R' BEGINSWITH name",
        "age IN {} OR age IN {1, %@, nil, true, 'x', -1.5}",
        "a.in == 1 AND 名前 == 'ポチ'",
    ]

    func testEveryCorpusQueryRoundTrips() {
        for text in Self.corpus {
            guard let first = parsed(text) else { continue }
            let printed = first.description
            guard let second = parsed(printed) else { continue }
            XCTAssertEqual(second.predicate, first.predicate, "\(text) printed as \(printed)")
            XCTAssertEqual(second.argumentCount, first.argumentCount, text)
            XCTAssertEqual(second.description, printed, "printing is a fixed point")
        }
    }

    func testCanonicalText() {
        let expectations = [
            ("name = 'Rex' and age > 3", "name == 'Rex' AND age > 3"),
            ("any dogs.name beginswith[C] \"B\"", "ANY dogs.name BEGINSWITH[c] 'B'"),
            ("some dogs.age => 3", "ANY dogs.age >= 3"),
            ("5 < age", "age > 5"),
            ("(a == 1 || b == 2) && !c == 3", "(a == 1 OR b == 2) AND NOT c == 3"),
            ("a == 1 OR (b == 2 AND c == 3)", "a == 1 OR b == 2 AND c == 3"),
            ("NOT (a == 1 AND b == 2)", "NOT (a == 1 AND b == 2)"),
            ("age between {1,5}", "age BETWEEN {1, 5}"),
            ("x == 0x1F OR x == -2e3 OR x == NULL", "x == 31 OR x == -2000.0 OR x == nil"),
            ("name ==[dc] \"it's\"", #"name ==[cd] 'it\'s'"#),
            ("age > $0 AND age < $1", "age > %@ AND age < %@"),
            ("age > $1 AND age < $0", "age > $1 AND age < $0"),
            ("dogs.@AVG.age > 1", "dogs.@avg.age > 1"),
        ]
        for (text, canonical) in expectations {
            XCTAssertEqual(parsed(text)?.description, canonical, text)
        }
    }

    func testHandBuiltPredicatesPrintSensibly() {
        XCTAssertEqual(QueryPredicate.and([]).description, "TRUEPREDICATE")
        XCTAssertEqual(QueryPredicate.or([]).description, "FALSEPREDICATE")
        XCTAssertEqual(QueryComparison(kp("dogs"), .in, .list([arg(2), int(1)])).description, "dogs IN {$2, 1}")
        XCTAssertEqual(QueryOperand.keyPathArgument(index: 3).description, "%K")
    }
}
