import StrataQuery
import XCTest

/// SUBQUERY(collection, $variable, predicate).@count: its AST, printing, and the errors for
/// variables used outside their subquery.
final class SubqueryParsingTests: XCTestCase {
    func sub(_ collection: String, _ variable: String, _ predicate: QueryPredicate) -> QueryOperand {
        .subqueryCount(
            QuerySubquery(
                collection: collection.split(separator: ".").map(String.init), variable: variable, predicate: predicate)
        )
    }

    func testSubqueryParsesToACountOperand() {
        assertParses(
            "SUBQUERY(dogs, $d, $d.age > 3 AND $d.name BEGINSWITH 'R').@count > 1",
            cmp(
                sub(
                    "dogs", "$d",
                    .and([cmp(kp("$d.age"), .greaterThan, int(3)), cmp(kp("$d.name"), .beginsWith, str("R"))])),
                .greaterThan, int(1)))
        assertParses(
            "subquery(dogs, $dog, $dog.age > %@).@size == %@",
            cmp(sub("dogs", "$dog", cmp(kp("$dog.age"), .greaterThan, arg(0))), .equal, arg(1)))
        // A constant on the left is moved to the right, the operator mirrored.
        assertParses(
            "1 < SUBQUERY(dogs, $d, TRUEPREDICATE).@count",
            cmp(sub("dogs", "$d", .truePredicate), .greaterThan, int(1)))
    }

    func testSubqueriesNestThroughTheEnclosingVariable() {
        assertParses(
            "SUBQUERY(owners, $o, SUBQUERY($o.dogs, $d, ANY $d.toys.price > 3).@count > 0).@count == 2",
            cmp(
                sub(
                    "owners", "$o",
                    cmp(
                        sub("$o.dogs", "$d", cmp(kp("$d.toys.price"), .greaterThan, int(3), [], .any)), .greaterThan,
                        int(0))),
                .equal, int(2)))
    }

    func testSubqueryPrintsBackToTheSamePredicate() {
        for text in [
            "SUBQUERY(dogs, $d, $d.age > 3 AND $d.name BEGINSWITH 'R').@count > 1",
            "SUBQUERY(dogs, $d, SUBQUERY($d.toys, $t, $t.price >= $0).@count > $1).@count == $2",
            "NOT SUBQUERY(@links.Person.dogs, $p, $p.name == 'Ann').@count BETWEEN {1, 2}",
        ] {
            guard let first = parsed(text), let second = parsed(first.description) else { continue }
            XCTAssertEqual(second.predicate, first.predicate, "\(text) printed as \(first.description)")
        }
        XCTAssertEqual(
            parsed("SUBQUERY(dogs,$d,$d.age>3).@size>1")?.description,
            "SUBQUERY(dogs, $d, $d.age > 3).@count > 1")
    }

    func testPlaceholdersInsideASubqueryCount() {
        XCTAssertEqual(parsed("SUBQUERY(dogs, $d, $d.age > %@).@count > %@")?.argumentCount, 2)
        XCTAssertEqual(parsed("SUBQUERY(dogs, $d, $d.age > $2).@count > $0")?.argumentCount, 3)
    }

    func testVariablesOutsideTheirSubqueryAreRefusedAtTheirColumn() {
        let outside = parseError("SUBQUERY(dogs, $d, age > 3).@count > 0")
        XCTAssertEqual(outside?.kind, .unsupported)
        XCTAssertEqual(outside?.column, 20)
        XCTAssertEqual(
            outside?.expected,
            "expected a key path starting with $d inside SUBQUERY(..., $d, ...), e.g. $d.name; the subquery tests the collection's elements, and properties of other objects cannot be used there"
        )
        XCTAssertEqual(parseError("SUBQUERY(dogs, $d, $x.age > 3).@count > 0")?.column, 20)
        XCTAssertEqual(parseError("$d.age > 3")?.kind, .unsupported)
        XCTAssertEqual(
            parseError("SUBQUERY(dogs, $d, SUBQUERY($d.toys, $d, $d.x > 1).@count > 0).@count > 0")?.column, 38)
        XCTAssertEqual(parseError("SUBQUERY(dogs, $d, %K > 1).@count > 0")?.kind, .unsupported)
        XCTAssertEqual(parseError("SUBQUERY(dogs, $d, SUBQUERY(toys, $t, $t.x > 1).@count > 0).@count > 0")?.column, 29)
    }

    func testMalformedSubqueriesNameWhatIsMissing() {
        XCTAssertEqual(
            parseError("SUBQUERY(dogs, $d, $d.age > 3) > 1")?.expected,
            "expected .@count after SUBQUERY(...): a subquery is compared by its number of matching elements, e.g. SUBQUERY(dogs, $d, $d.age > 3).@count > 0"
        )
        XCTAssertEqual(parseError("SUBQUERY(dogs, $d, $d.age > 3).@avg > 1")?.kind, .unsupported)
        XCTAssertEqual(parseError("SUBQUERY(dogs, d, d.age > 3).@count > 1")?.column, 16)
        XCTAssertEqual(parseError("SUBQUERY(dogs $d, $d.age > 3).@count > 1")?.column, 15)
        XCTAssertEqual(parseError("SUBQUERY(dogs, $d, $d.age > 3.@count > 1")?.column, 30)
        XCTAssertEqual(parseError("SUBQUERY(dogs, $d, $d.age > 3 .@count > 1")?.column, 31)
        XCTAssertEqual(parseError("SUBQUERY(dogs.@count, $d, $d.age > 3).@count > 1")?.column, 10)
        XCTAssertEqual(parseError("ANY SUBQUERY(dogs, $d, $d.age > 3).@count > 1")?.column, 5)
        XCTAssertEqual(parseError("name IN {SUBQUERY(dogs, $d, $d.age > 3).@count}")?.column, 10)
    }

    func testSubqueryNestingCountsTowardTheDepthLimit() {
        var text = "$v\(ParsedQuery.maximumNestingDepth - 1).x == 1"
        for i in (0..<ParsedQuery.maximumNestingDepth).reversed() {
            let outer = i == 0 ? "dogs" : "$v\(i - 1).dogs"
            text = "SUBQUERY(\(outer), $v\(i), \(text)).@count > 0"
        }
        XCTAssertNotNil(parsed(text))
        let deeper =
            "SUBQUERY(dogs, $w, \(text.replacingOccurrences(of: "SUBQUERY(dogs, $v0", with: "SUBQUERY($w.dogs, $v0"))).@count > 0"
        XCTAssertEqual(parseError(deeper)?.kind, .nestingTooDeep)
    }
}
