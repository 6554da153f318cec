import StrataQuery
import XCTest

/// Key paths, collection operators (@count ... @avg), quantifiers, and the rejected extensions.
final class KeyPathTests: XCTestCase {
    func testSimpleAndDottedKeyPaths() {
        assertParses("name == 'Rex'", cmp(kp("name"), .equal, str("Rex")))
        assertParses("owner.name == 'Ann'", cmp(kp("owner.name"), .equal, str("Ann")))
        assertParses("owner . address.city == 'Oslo'", cmp(kp("owner.address.city"), .equal, str("Oslo")))
        assertParses("_id == 1", cmp(kp("_id"), .equal, int(1)))
        assertParses("name2 == 1", cmp(kp("name2"), .equal, int(1)))
        assertParses("名前 == 'ポチ'", cmp(kp("名前"), .equal, str("ポチ")))
    }

    func testKeywordsAreOrdinaryNamesAfterADot() {
        assertParses("owner.in == 1", cmp(kp("owner.in"), .equal, int(1)))
        assertParses(
            "a.AND == 1 AND b.not == 2", .and([cmp(kp("a.AND"), .equal, int(1)), cmp(kp("b.not"), .equal, int(2))]))
    }

    func testNamesThatOnlyStartLikeKeywordsAreKeyPaths() {
        assertParses("android == 1", cmp(kp("android"), .equal, int(1)))
        assertParses("nullable == true", cmp(kp("nullable"), .equal, bool(true)))
        assertParses("anyone > 2", cmp(kp("anyone"), .greaterThan, int(2)))
    }

    func testCountAndSize() {
        assertParses("dogs.@count > 1", cmp(kp("dogs", .count), .greaterThan, int(1)))
        assertParses("name.@size == 3", cmp(kp("name", .size), .equal, int(3)))
        assertParses("owner.dogs.@COUNT == 0", cmp(kp("owner.dogs", .count), .equal, int(0)))
    }

    func testMinMaxSumAvgWithAndWithoutAProperty() {
        assertParses("dogs.@avg.age >= 4", cmp(kp("dogs", .avg("age")), .greaterThanOrEqual, int(4)))
        assertParses("dogs.@min.age < 2", cmp(kp("dogs", .min("age")), .lessThan, int(2)))
        assertParses("dogs.@max.age > 10", cmp(kp("dogs", .max("age")), .greaterThan, int(10)))
        assertParses("dogs.@sum.weight == 3.5", cmp(kp("dogs", .sum("weight")), .equal, dbl(3.5)))
        assertParses("scores.@max > 90", cmp(kp("scores", .max(nil)), .greaterThan, int(90)))
        assertParses("scores.@avg BETWEEN {1, 2}", cmp(kp("scores", .avg(nil)), .between, .list([int(1), int(2)])))
    }

    func testAggregateMisuseIsRejected() {
        XCTAssertEqual(parseError("dogs.@count.age > 1")?.column, 12)
        XCTAssertEqual(parseError("dogs.@avg.owner.age > 1")?.column, 16)
        XCTAssertEqual(
            parseError("@count > 1")?.expected, "expected a collection property before '@count', e.g. dogs.@count")
        XCTAssertEqual(parseError("dogs.@avg. > 1")?.column, 12)
        let unknown = parseError("dogs.@median.age > 1")
        XCTAssertEqual(unknown?.kind, .unsupported)
        XCTAssertEqual(unknown?.found, "@median")
    }

    func testQuantifiers() {
        assertParses("ANY dogs.name == 'Rex'", cmp(kp("dogs.name"), .equal, str("Rex"), [], .any))
        assertParses("SOME dogs.name == 'Rex'", cmp(kp("dogs.name"), .equal, str("Rex"), [], .any))
        assertParses("all dogs.age > 1", cmp(kp("dogs.age"), .greaterThan, int(1), [], .all))
        assertParses(
            "NONE dogs.name CONTAINS[cd] 'x'",
            cmp(kp("dogs.name"), .contains, str("x"), [.caseInsensitive, .diacriticInsensitive], .noElement))
        assertParses("ANY %K == 1", cmp(.keyPathArgument(index: 0), .equal, int(1), [], .any))
        assertParses("NOT ANY dogs.age > 3", .not(cmp(kp("dogs.age"), .greaterThan, int(3), [], .any)))
    }

    func testQuantifierMustBeFollowedByAKeyPath() {
        XCTAssertEqual(
            parseError("ANY 3 == dogs.age")?.expected, "expected a key path after 'ANY', e.g. ANY dogs.name == 'Rex'")
        XCTAssertEqual(parseError("any 'x' == name")?.column, 5)
        XCTAssertEqual(parseError("ANY ANY dogs.age > 1")?.found, "ANY")
        XCTAssertEqual(
            parseError("3 == ANY dogs.age")?.expected,
            "expected a value; ANY, ALL, NONE and SOME go once, at the start of a comparison: ANY dogs.name == 'Rex'")
    }

    func testBacklinksParseAsKeyPathComponents() {
        assertParses(
            "@links.Person.dogs.@count > 0",
            cmp(.keyPath(["@links", "Person", "dogs"], aggregate: .count), .greaterThan, int(0)))
        assertParses(
            "ANY @links.Person.dogs.name == 'x'",
            cmp(kp("@links.Person.dogs.name"), .equal, str("x"), [], .any))
        assertParses("owner.@links.Person.dogs == nil", cmp(kp("owner.@links.Person.dogs"), .equal, null))
        assertParses("@links.@count == 0", cmp(.keyPath(["@links"], aggregate: .count), .equal, int(0)))
        XCTAssertEqual(parseError("@links.Person > 0")?.column, 15)
        XCTAssertEqual(parseError("@links.@max > 0")?.kind, .unsupported)
    }

    func testSubscriptsAndFunctionsAreRejected() {
        XCTAssertEqual(parseError("dogs[0].age > 1")?.column, 5)
        XCTAssertEqual(parseError("SORT(age ASC)")?.found, "SORT")
        XCTAssertEqual(parseError("lower(name) == 'x'")?.column, 6)
    }
}
