import StrataQuery
import XCTest

@testable import StrataCore

/// SUBQUERY(collection, $x, predicate).@count, @links, @type and typed constants, evaluated by the
/// engine over lists, LinkingObjects and AnyRealmValue columns.
final class QuerySubqueryTests: QueryTestCase {
    let toys = StoreTable(
        name: "DogToy",
        columns: [
            StoreColumn(name: "name", type: .string),
            StoreColumn(name: "price", type: .double),
        ])
    let dogs = StoreTable(
        name: "Dog",
        columns: [
            StoreColumn(name: "name", type: .string),
            StoreColumn(name: "age", type: .int),
            StoreColumn(name: "owner", type: .link, isNullable: true, targetTable: "Person"),
            StoreColumn(name: "toys", type: .link, collection: .list, targetTable: "DogToy"),
            StoreColumn(name: "value", type: .mixed, isNullable: true),
            StoreColumn(name: "born", type: .timestamp, isNullable: true),
            StoreColumn(name: "chip", type: .data, isNullable: true),
            StoreColumn(name: "tag", type: .objectId, isNullable: true),
            StoreColumn(name: "ident", type: .uuid, isNullable: true),
        ])
    let people = StoreTable(
        name: "Person",
        columns: [
            StoreColumn(name: "name", type: .string),
            StoreColumn(name: "dogs", type: .link, collection: .list, targetTable: "Dog"),
            StoreColumn(name: "pets", type: .linkingObjects, targetTable: "Dog", originProperty: "owner"),
            StoreColumn(name: "scores", type: .int, collection: .list),
            StoreColumn(name: "things", type: .mixed, collection: .list),
        ])
    var t: [Int64] = [], p: [Int64] = [], d: [Int64] = []

    override func setUpWithError() throws {
        try super.setUpWithError()
        try create(toys, dogs, people)
        t = try insert(
            toys, [[.string("Ball"), .double(5)], [.string("Bone"), .double(2.5)], [.string("Rope"), .double(10)]])
        p = try insert(
            people,
            [
                [.string("Ann"), .list([]), .null, .list([.int(1), .int(5)]), .list([.int(1), .string("x")])],
                [.string("Bob"), .list([]), .null, .list([]), .list([])],
                [.string("Cid"), .list([]), .null, .list([.int(9)]), .list([.null])],
            ])
        d = try insert(
            dogs,
            [
                [
                    .string("Rex"), .int(5), .link(p[0]), .list([.link(t[0]), .link(t[1])]), .int(3),
                    .timestamp(seconds: 100, nanoseconds: 0), .data([104, 105]),
                    .objectId([0x50, 0x7f, 0x1f, 0x77, 0xbc, 0xf8, 0x6c, 0xd7, 0x99, 0x43, 0x90, 0x11]),
                    .uuid([
                        0x13, 0x7e, 0xcc, 0x3b, 0x1b, 0x8a, 0x4c, 0x2a, 0x9d, 0x3e, 0x7a, 0x1b, 0x2c, 0x3d, 0x4e, 0x5f,
                    ]),
                ],
                [
                    .string("Rudy"), .int(4), .link(p[0]), .list([.link(t[2])]), .double(2.5), .null, .null, .null,
                    .null,
                ],
                [.string("Maui"), .int(7), .link(p[1]), .list([]), .string("x"), .null, .null, .null, .null],
                [
                    .string("Ruff"), .int(2), .null, .list([.link(t[2]), .link(t[2])]), .null, .null, .null, .null,
                    .null,
                ],
            ])
        try write { txn in
            try txn.set(people, key: p[0], column: 1, to: .list([.link(d[0]), .link(d[1]), .link(d[3])]))
            try txn.set(people, key: p[1], column: 1, to: .list([.link(d[2]), .link(d[0])]))
        }
    }

    func error(_ table: StoreTable, _ filter: String, _ arguments: [StoreValue] = []) throws -> StoreQueryError? {
        try queryError(try StoreQuery(filter, arguments: arguments), table)
    }

    // MARK: SUBQUERY

    func testSubqueryCountsTheElementsMatchingEveryComparisonTogether() throws {
        // Ann's dogs: Rex 5, Rudy 4, Ruff 2; Bob's: Maui 7, Rex 5; Cid has none.
        XCTAssertEqual(try keys(people, "SUBQUERY(dogs, $d, $d.age > 3 AND $d.name BEGINSWITH 'R').@count > 1"), [p[0]])
        XCTAssertEqual(
            try keys(people, "SUBQUERY(dogs, $d, $d.age > 3 AND $d.name BEGINSWITH 'R').@count == 1"), [p[1]])
        XCTAssertEqual(
            try keys(people, "SUBQUERY(dogs, $d, $d.age > 3 AND $d.name BEGINSWITH 'R').@count == 0"), [p[2]])
        // ANY with two comparisons matches different dogs: Bob has a dog older than 6 (Maui) and a
        // dog named R... (Rex), but no single dog that is both.
        XCTAssertEqual(try keys(people, "ANY dogs.age > 6 AND ANY dogs.name BEGINSWITH 'R'"), [p[1]])
        XCTAssertEqual(try keys(people, "SUBQUERY(dogs, $d, $d.age > 6 AND $d.name BEGINSWITH 'R').@count > 0"), [])
    }

    func testSubqueryCountComparesWithArgumentsRangesAndEitherSide() throws {
        XCTAssertEqual(
            try keys(people, "SUBQUERY(dogs, $d, $d.age >= $0).@count >= $1", [.int(4), .int(2)]), [p[0], p[1]])
        XCTAssertEqual(try keys(people, "2 <= SUBQUERY(dogs, $d, $d.age >= 4).@count"), [p[0], p[1]])
        XCTAssertEqual(try keys(people, "SUBQUERY(dogs, $d, TRUEPREDICATE).@size BETWEEN {2, 2}"), [p[1]])
        XCTAssertEqual(try keys(people, "SUBQUERY(dogs, $d, $d.age < 3).@count IN {1, 3}"), [p[0]])
        XCTAssertEqual(try keys(people, "SUBQUERY(dogs, $d, FALSEPREDICATE).@count == 0"), [p[0], p[1], p[2]])
        XCTAssertEqual(try keys(people, "NOT (SUBQUERY(dogs, $d, $d.age > 4).@count > 0)"), [p[2]])
    }

    func testSubqueryRunsOverLinkingObjectsAndNests() throws {
        // pets: the dogs whose owner is the person (Ann: Rex, Rudy; Bob: Maui).
        XCTAssertEqual(try keys(people, "SUBQUERY(pets, $p, $p.age < 5).@count == 1"), [p[0]])
        // Dogs with at least one toy costing more than 4, counted per person.
        XCTAssertEqual(
            try keys(people, "SUBQUERY(dogs, $d, SUBQUERY($d.toys, $t, $t.price > 4).@count > 0).@count == 3"), [p[0]])
        XCTAssertEqual(
            try keys(people, "SUBQUERY(dogs, $d, SUBQUERY($d.toys, $t, $t.price > 4).@count == 2).@count == 1"), [p[0]])
        // Paths inside the subquery follow links and collections of the element.
        XCTAssertEqual(try keys(dogs, "SUBQUERY(toys, $t, $t.name == 'Rope').@count == 2"), [d[3]])
        XCTAssertEqual(try keys(people, "SUBQUERY(dogs, $d, ANY $d.toys.name == 'Bone').@count > 0"), [p[0], p[1]])
    }

    func testSubqueryOverAValueOrUnknownCollectionIsATypedError() throws {
        guard case .invalidAggregate(_, "SUBQUERY", _)? = try error(people, "SUBQUERY(scores, $s, $s.x > 1).@count > 0")
        else { return XCTFail("a list of values is not a list of objects") }
        XCTAssertEqual(
            try error(people, "SUBQUERY(cats, $c, $c.age > 1).@count > 0"),
            .unknownProperty(table: "Person", property: "cats", keyPath: "cats"))
        XCTAssertEqual(
            try error(people, "SUBQUERY(dogs, $d, $d.weight > 1).@count > 0"),
            .unknownProperty(table: "Dog", property: "weight", keyPath: "$d.weight"))
        guard case .typeMismatch? = try error(people, "SUBQUERY(dogs, $d, $d.age > 1).@count > 'two'") else {
            return XCTFail("a count compares with numbers")
        }
        guard case .invalidOperator? = try error(people, "SUBQUERY(dogs, $d, $d.age > 1).@count BEGINSWITH 'x'") else {
            return XCTFail("a count takes no string operator")
        }
        // A hand-built subquery whose key path does not start with its variable.
        let stray = QueryPredicate.comparison(
            QueryComparison(
                .subqueryCount(
                    QuerySubquery(
                        collection: ["dogs"], variable: "$d",
                        predicate: .comparison(QueryComparison(.keyPath(["age"]), .greaterThan, .literal(.int(1)))))),
                .greaterThan, .literal(.int(0))))
        guard case .unsupported(let message)? = try queryError(StoreQuery(predicate: stray), people) else {
            return XCTFail("a key path without the variable is refused")
        }
        XCTAssertTrue(message.contains("$d"), message)
    }

    // MARK: @links

    func testLinksFollowsEveryLinkOfOneClassAndPropertyBackwards() throws {
        // Dogs in some person's `dogs` list: Rex (Ann, Bob), Rudy, Maui, Ruff (Ann).
        XCTAssertEqual(try keys(dogs, "@links.Person.dogs.@count == 2"), [d[0]])
        XCTAssertEqual(try keys(dogs, "@links.Person.dogs.name == 'Bob'"), [d[0], d[2]])
        XCTAssertEqual(try keys(dogs, "ALL @links.Person.dogs.name == 'Ann'"), [d[1], d[3]])
        XCTAssertEqual(try keys(dogs, "@links.Person.dogs.@size == 0"), [])
        // Every link of every class: Rex is linked by Ann's and Bob's lists and by nothing else.
        XCTAssertEqual(try keys(dogs, "@links.@count == 2"), [d[0]])
        XCTAssertEqual(try keys(toys, "@links.@count == 0"), [])
        XCTAssertEqual(try keys(toys, "@links.Dog.toys.@count == 1"), [t[0], t[1]])
        // Through a to-one link first, and to-one links backwards (Dog.owner).
        XCTAssertEqual(try keys(people, "@links.Dog.owner.@count == 2"), [p[0]])
        XCTAssertEqual(try keys(dogs, "owner.@links.Dog.owner.@count == 1"), [d[2]])
        XCTAssertEqual(try keys(people, "SUBQUERY(@links.Dog.owner, $o, $o.age > 4).@count == 1"), [p[0], p[1]])
    }

    func testLinksNamingAPropertyThatDoesNotLinkHereIsATypedError() throws {
        guard case .invalidAggregate(_, "@links", _)? = try error(dogs, "@links.Person.name.@count > 0") else {
            return XCTFail("Person.name is not a link")
        }
        guard case .invalidAggregate(_, "@links", _)? = try error(dogs, "@links.DogToy.name.@count > 0") else {
            return XCTFail("DogToy has no link to Dog")
        }
        XCTAssertEqual(
            try error(dogs, "@links.Cat.dogs.@count > 0"),
            .unknownTable(table: "Cat", keyPath: "@links.Cat.dogs.@count"))
        XCTAssertEqual(
            try error(dogs, "@links.Person.cats.@count > 0"),
            .unknownProperty(table: "Person", property: "cats", keyPath: "@links.Person.cats.@count"))
        guard case .invalidAggregate(_, "@max", _)? = try error(dogs, "@links.Person.dogs.@max.age > 0") else {
            return XCTFail("only @count and @size follow @links")
        }
    }

    // MARK: @type

    func testTypeMatchesTheKindOfAnAnyRealmValue() throws {
        // value: Rex int 3, Rudy double 2.5, Maui string, Ruff null.
        XCTAssertEqual(try keys(dogs, "value.@type == 'int'"), [d[0]])
        XCTAssertEqual(try keys(dogs, "value.@type == 'DOUBLE'"), [d[1]])
        XCTAssertEqual(try keys(dogs, "value.@type == 'numeric'"), [d[0], d[1]])
        XCTAssertEqual(try keys(dogs, "value.@type == 'int|string'"), [d[0], d[2]])
        XCTAssertEqual(try keys(dogs, "value.@type == 'null'"), [d[3]])
        XCTAssertEqual(try keys(dogs, "value.@type != 'null'"), [d[0], d[1], d[2]])
        XCTAssertEqual(try keys(dogs, "value.@type IN {'string', 'null'}"), [d[2], d[3]])
        XCTAssertEqual(try keys(dogs, "value.@type == $0", [.string("integer")]), [d[0]])
        // Lists of AnyRealmValue: ANY by default, ALL and NONE as written.
        XCTAssertEqual(try keys(people, "things.@type == 'string'"), [p[0]])
        XCTAssertEqual(try keys(people, "ALL things.@type == 'int'"), [p[1]])
        XCTAssertEqual(try keys(people, "NONE things.@type == 'null'"), [p[0], p[1]])
    }

    func testTypeOnOtherPropertiesOrUnknownNamesIsATypedError() throws {
        guard case .invalidAggregate(_, "@type", _)? = try error(dogs, "age.@type == 'int'") else {
            return XCTFail("@type applies to AnyRealmValue")
        }
        guard case .unsupported(let message)? = try error(dogs, "value.@type == 'integr'") else {
            return XCTFail("an unknown type name is refused")
        }
        XCTAssertTrue(message.contains("numeric"), message)
        guard case .invalidOperator? = try error(dogs, "value.@type > 'int'") else {
            return XCTFail("@type compares with == and != only")
        }
        guard case .typeMismatch? = try error(dogs, "value.@type == 3") else {
            return XCTFail("a type name is a string")
        }
    }

    // MARK: Typed constants

    func testTypedConstantsCompareWithTheirColumns() throws {
        XCTAssertEqual(try keys(dogs, "born == T100:0"), [d[0]])
        XCTAssertEqual(try keys(dogs, "born == 1970-01-01@00:01:40"), [d[0]])
        XCTAssertEqual(try keys(dogs, "born > 1970-01-01T00:01:39:999999999"), [d[0]])
        XCTAssertEqual(try keys(dogs, "born < T100:1"), [d[0]])
        XCTAssertEqual(try keys(dogs, "chip == B64\"aGk=\""), [d[0]])
        XCTAssertEqual(try keys(dogs, "chip BEGINSWITH B64\"aA==\""), [d[0]])
        XCTAssertEqual(try keys(dogs, "value < inf AND value > -infinity"), [d[0], d[1]])
        XCTAssertEqual(try keys(dogs, "value == nan"), [])
        XCTAssertEqual(try keys(dogs, "tag == oid(507f1f77bcf86cd799439011)"), [d[0]])
        XCTAssertEqual(try keys(dogs, "tag != oid(507f1f77bcf86cd799439012)"), [d[0], d[1], d[2], d[3]])
        XCTAssertEqual(try keys(dogs, "ident == uuid(137ECC3B-1B8A-4C2A-9D3E-7A1B2C3D4E5F)"), [d[0]])
        guard case .typeMismatch? = try error(dogs, "born == oid(507f1f77bcf86cd799439011)") else {
            return XCTFail("an ObjectId is not a date")
        }
    }
}
