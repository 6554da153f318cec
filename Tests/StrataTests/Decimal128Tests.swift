import Foundation
import Strata
import XCTest

/// `Decimal128` as RealmSwift has it: initializers, literals, arithmetic, NaN, `min`/`max`,
/// `Codable`, storage and aggregates.
final class Decimal128Tests: SeedTestCase {
    private func d(_ s: String) -> Decimal128 { try! Decimal128(string: s) }

    func testInitializersFromNumbersStringsAndValues() throws {
        XCTAssertEqual(Decimal128(number: 42 as NSNumber), 42)
        XCTAssertEqual(Decimal128(number: 0.25 as NSNumber), d("0.25"))
        XCTAssertEqual(Decimal128(number: UInt64.max as NSNumber).description, "18446744073709551615")
        XCTAssertEqual(Decimal128(value: 7), 7)
        XCTAssertEqual(Decimal128(value: Int8(-3)), -3)
        XCTAssertEqual(Decimal128(value: 1.5), d("1.5"))
        XCTAssertEqual(Decimal128(value: Float(0.5)), d("0.5"))
        XCTAssertEqual(Decimal128(value: "12.50"), d("12.5"))
        XCTAssertEqual(Decimal128(value: Decimal(string: "3.14")!), d("3.14"))
        XCTAssertEqual(Decimal128(value: 8 as NSNumber), 8)
        XCTAssertEqual(Decimal128(exactly: 123), 123)
        XCTAssertTrue(try Decimal128(string: "NaN").isNaN)
        XCTAssertEqual(try Decimal128(string: "-Inf"), -Decimal128.infinity)
    }

    func testValueOfAnUnsupportedTypeIsAViolation() {
        XCTAssertTrue(Decimal128(value: [1, 2]).isNaN)
        XCTAssertEqual(takeViolations().count, 1)
        XCTAssertTrue(Decimal128(value: "twelve").isNaN)
        XCTAssertEqual(takeViolations(), ["'twelve' is not a Decimal128 (Decimal128(value:))."])
    }

    func testDecimalValueConvertsToFoundationDecimal() {
        XCTAssertEqual(d("12.50").decimalValue, Decimal(string: "12.5"))
        XCTAssertEqual(d("-0.001").decimalValue, Decimal(string: "-0.001"))
        XCTAssertTrue(Decimal128.nan.decimalValue.isNaN)
        XCTAssertTrue(d("1E+6000").decimalValue.isNaN, "outside Decimal's range")
    }

    func testStringInitializerThrowsARealmError() {
        XCTAssertThrowsError(try Decimal128(string: "1.2.3")) { error in
            XCTAssertEqual((error as? Realm.Error)?.realmCode, .invalidInput)
            XCTAssertTrue((error as NSError).localizedDescription.contains("'1.2.3'"))
        }
    }

    func testLiterals() {
        let i: Decimal128 = 5
        let f: Decimal128 = 19.99
        let s: Decimal128 = "0.10"
        XCTAssertEqual(i.description, "5")
        XCTAssertEqual(f.description, "19.99")
        XCTAssertEqual(s.description, "0.10")
    }

    func testAdditionAndSubtractionAreExactAndKeepThePreferredExponent() {
        XCTAssertEqual((d("1.10") + d("2.20")).description, "3.30")
        XCTAssertEqual(d("0.1") + d("0.2"), d("0.3"))
        XCTAssertEqual((d("10") - d("0.01")).description, "9.99")
        XCTAssertEqual((d("1") - d("1")).description, "0")
        XCTAssertEqual(d("-5") + d("3"), d("-2"))
        var total: Decimal128 = 0
        for _ in 0..<10 { total += d("0.1") }
        XCTAssertEqual(total, 1, "ten dimes make exactly one")
    }

    func testMultiplicationAndDivision() {
        XCTAssertEqual((d("1.5") * d("2")).description, "3.0")
        XCTAssertEqual((d("6") / d("2")).description, "3")
        XCTAssertEqual(d("1") / d("4"), d("0.25"))
        XCTAssertEqual((d("1") / d("3")).description, "0.3333333333333333333333333333333333")
        XCTAssertEqual((d("2") / d("3")).description, "0.6666666666666666666666666666666667", "rounds half up past 5")
        XCTAssertEqual(d("-7") * d("3"), d("-21"))
        XCTAssertEqual(d("1") / d("300000"), d("0.000003333333333333333333333333333333333"))
    }

    func testRoundingToThirtyFourDigitsIsHalfToEven() {
        let big = d("1234567890123456789012345678901234")  // 34 digits
        XCTAssertEqual((big + d("0.5")).description, "1234567890123456789012345678901234", "tie: keep the even digit")
        XCTAssertEqual((big + d("0.51")).description, "1234567890123456789012345678901235")
        XCTAssertEqual(
            (d("1234567890123456789012345678901235") + d("0.5")).description, "1234567890123456789012345678901236",
            "tie: round the odd digit up")
        XCTAssertEqual(big + d("1E-40"), big, "a far smaller addend only matters for rounding")
    }

    func testNaNInfinitiesAndLimits() {
        XCTAssertTrue((d("0") / d("0")).isNaN)
        XCTAssertTrue((d("0") / d("0")).isSignalingNaN)
        XCTAssertEqual(d("1") / d("0"), .infinity)
        XCTAssertEqual(d("-1") / d("0"), -Decimal128.infinity)
        XCTAssertTrue((Decimal128.infinity - .infinity).isNaN)
        XCTAssertTrue((Decimal128.nan + 1).isNaN)
        XCTAssertEqual(Decimal128.nan, Decimal128.nan, "NaN equals NaN, as in RealmSwift")
        XCTAssertLessThan(Decimal128.nan, Decimal128.min)
        XCTAssertLessThan(Decimal128.min, 0)
        XCTAssertLessThan(Decimal128(0), Decimal128.max)
        XCTAssertEqual(Decimal128.max.description, "9.999999999999999999999999999999999E+6144")
        XCTAssertEqual(Decimal128.min, -Decimal128.max)
        XCTAssertEqual(Decimal128.max + Decimal128.max, .infinity, "overflow is an infinity")
        XCTAssertEqual(d("-2.5").magnitude, d("2.5"))
        XCTAssertEqual(d("1").distance(to: d("3.5")), d("2.5"))
        XCTAssertEqual(d("1").advanced(by: d("0.5")), d("1.5"))
    }

    func testCodableRoundTripsAsAString() throws {
        let values = [d("12.50"), d("-1E+40"), .nan]
        let json = try JSONEncoder().encode(values)
        XCTAssertEqual(String(decoding: json, as: UTF8.self), #"["12.50","-1E+40","NaN"]"#)
        let back = try JSONDecoder().decode([Decimal128].self, from: json)
        XCTAssertEqual(back, values)
        XCTAssertEqual(try JSONDecoder().decode([Decimal128].self, from: Data("[3, 0.5]".utf8)), [3, d("0.5")])
        XCTAssertThrowsError(try JSONDecoder().decode([Decimal128].self, from: Data(#"["abc"]"#.utf8)))
    }

    /// NaN, infinities and ordinary values are stored and read back; sums and averages of a
    /// Decimal128 property are computed in decimal.
    func testStoredValuesReadBackAndAggregate() throws {
        let realm = try open()
        try realm.write {
            // `as [String: Any]`: a literal of strings and decimals would otherwise be inferred as
            // [String: Decimal128] (Decimal128 is ExpressibleByStringLiteral).
            realm.add(Invoice(value: ["customer": "a", "total": d("0.10")] as [String: Any]))
            realm.add(Invoice(value: ["customer": "b", "total": d("0.20")] as [String: Any]))
            realm.add(
                Invoice(value: ["customer": "c", "total": d("1E+10"), "discount": Decimal128.nan] as [String: Any]))
            realm.add(
                Invoice(value: ["customer": "d", "total": d("0"), "discount": -Decimal128.infinity] as [String: Any]))
        }
        let byName = Dictionary(uniqueKeysWithValues: realm.objects(Invoice.self).map { ($0.customer, $0) })
        XCTAssertEqual(byName["a"]?.total.description, "0.10")
        XCTAssertTrue(byName["c"]?.discount?.isNaN ?? false)
        XCTAssertEqual(byName["d"]?.discount, -Decimal128.infinity)
        XCTAssertNil(byName["a"]?.discount)
        let sum: Decimal128 = realm.objects(Invoice.self).sum(ofProperty: "total")
        XCTAssertEqual(sum, d("10000000000.30"))
        let average: Decimal128? = realm.objects(Invoice.self).filter("customer IN %@", ["a", "b"]).average(
            ofProperty: "total")
        XCTAssertEqual(average, d("0.15"))
    }
}
