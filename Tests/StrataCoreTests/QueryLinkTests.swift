import XCTest
import StrataQuery
@testable import StrataCore

/// Key paths through to-one links, quantifiers over lists of links and of values, collection
/// operators, backlinks, maps, and links compared with object-key arguments.
final class QueryLinkTests: QueryTestCase {
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
            StoreColumn(name: "favoriteToy", type: .link, isNullable: true, targetTable: "DogToy"),
            StoreColumn(name: "toys", type: .link, collection: .list, targetTable: "DogToy"),
            StoreColumn(name: "tags", type: .string, collection: .list),
        ])
    let people = StoreTable(
        name: "Person",
        columns: [
            StoreColumn(name: "name", type: .string, isIndexed: true),
            StoreColumn(name: "age", type: .int),
            StoreColumn(name: "dogs", type: .link, collection: .list, targetTable: "Dog"),
            StoreColumn(name: "scores", type: .int, collection: .list),
            StoreColumn(name: "pets", type: .linkingObjects, targetTable: "Dog", originProperty: "owner"),
            StoreColumn(name: "meta", type: .int, collection: .map),
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
                [
                    .string("Ann"), .int(30), .list([]), .list([.int(1), .int(5), .int(9)]), .null,
                    .map(["a": .int(1), "b": .int(2)]),
                ],
                [.string("Bob"), .int(40), .list([]), .list([]), .null, .map([:])],
                [.string("Cid"), .int(50), .list([]), .list([.int(7), .int(7)]), .null, .map(["x": .int(7)])],
            ])
        d = try insert(
            dogs,
            [
                [
                    .string("Rex"), .int(3), .link(p[0]), .link(t[0]), .list([.link(t[0]), .link(t[1])]),
                    .list([.string("good"), .string("small")]),
                ],
                [.string("Maui"), .int(7), .link(p[0]), .null, .list([]), .list([])],
                [
                    .string("Bella"), .int(5), .link(p[1]), .link(t[2]),
                    .list([.link(t[2]), .link(t[2]), .link(t[0])]), .list([.string("good")]),
                ],
                [.string("Nova"), .int(1), .null, .link(t[1]), .list([.link(t[1])]), .list([.string("tiny")])],
            ])
        try write { txn in
            try txn.set(people, key: p[0], column: 2, to: .list([.link(d[0]), .link(d[1])]))
            try txn.set(people, key: p[1], column: 2, to: .list([.link(d[2])]))
        }
    }

    func testToOneLinkPaths() throws {
        XCTAssertEqual(try keys(dogs, "favoriteToy.name == 'Ball'"), [d[0]])
        XCTAssertEqual(try keys(dogs, "favoriteToy.price < 5"), [d[3]])
        XCTAssertEqual(try keys(dogs, "favoriteToy == nil"), [d[1]])
        XCTAssertEqual(
            try keys(dogs, "favoriteToy.name == nil"), [d[1]], "a null link reads as null at the end of the path")
        XCTAssertEqual(try keys(dogs, "favoriteToy.price != 5"), [d[1], d[2], d[3]])
        XCTAssertEqual(try keys(dogs, "owner.name == 'Ann'"), [d[0], d[1]])
        XCTAssertEqual(try keys(dogs, "owner.age > 35"), [d[2]])
        XCTAssertEqual(try keys(dogs, "owner.name BEGINSWITH[c] 'a' AND age > 5"), [d[1]])
        XCTAssertEqual(try keys(dogs, "age < owner.age"), [d[0], d[1], d[2]])
        XCTAssertEqual(try keys(dogs, "owner.dogs.@count == 2"), [d[0], d[1]])
    }

    func testLinksComparedWithObjectKeyArguments() throws {
        XCTAssertEqual(try keys(dogs, "owner == %@", [.link(p[1])]), [d[2]])
        XCTAssertEqual(try keys(dogs, "owner == %@", [.typedLink(table: "Person", key: p[0])]), [d[0], d[1]])
        XCTAssertEqual(try keys(dogs, "owner != %@", [.link(p[0])]), [d[2], d[3]])
        XCTAssertEqual(try keys(dogs, "owner IN %@", [.list([.link(p[1]), .link(p[2]), .null])]), [d[2], d[3]])
        XCTAssertEqual(try keys(people, "ANY dogs == %@", [.link(d[2])]), [p[1]])
        XCTAssertEqual(try keys(people, "%@ IN dogs", [.link(d[0])]), [p[0]])
        XCTAssertEqual(
            try keys(dogs, "favoriteToy == %@ OR ANY toys == %@", [.link(t[1]), .link(t[2])]), [d[2], d[3]])
    }

    func testQuantifiersOverListsOfLinks() throws {
        XCTAssertEqual(try keys(dogs, "ANY toys.name == 'Ball'"), [d[0], d[2]])
        XCTAssertEqual(try keys(dogs, "toys.name == 'Ball'"), [d[0], d[2]], "a path through a list means ANY")
        XCTAssertEqual(try keys(dogs, "SOME toys.name == 'Ball'"), [d[0], d[2]])
        XCTAssertEqual(try keys(dogs, "ALL toys.price > 3"), [d[1], d[2]], "ALL is true for an empty list")
        XCTAssertEqual(try keys(dogs, "NONE toys.name == 'Bone'"), [d[1], d[2]])
        XCTAssertEqual(try keys(dogs, "NOT (ANY toys.name == 'Bone')"), [d[1], d[2]])
        XCTAssertEqual(try keys(dogs, "ANY toys.price BETWEEN {4, 6}"), [d[0], d[2]])
        XCTAssertEqual(try keys(dogs, "ANY toys.name IN {'Rope', 'Bone'}"), [d[0], d[2], d[3]])
        XCTAssertEqual(try keys(dogs, "ALL toys.name IN {'Rope', 'Ball'}"), [d[1], d[2]])
        XCTAssertEqual(try keys(people, "ANY dogs.name == 'Rex'"), [p[0]])
        XCTAssertEqual(try keys(people, "dogs.age > 4"), [p[0], p[1]])
        XCTAssertEqual(try keys(people, "ALL dogs.age > 4"), [p[1], p[2]])
        XCTAssertEqual(try keys(people, "ANY dogs.toys.name == 'Rope'"), [p[1]], "two collections in one path")
        XCTAssertEqual(try keys(people, "dogs.favoriteToy.name == 'Ball'"), [p[0]])
        XCTAssertEqual(try keys(dogs, "name IN owner.dogs.name"), [d[0], d[1], d[2]])
        XCTAssertEqual(try keys(dogs, "ANY toys.price > age"), [d[0], d[2], d[3]], "a list against a single property")
    }

    func testCollectionOperatorsOnListsOfLinks() throws {
        XCTAssertEqual(try keys(dogs, "toys.@count == 0"), [d[1]])
        XCTAssertEqual(try keys(dogs, "toys.@count > 1"), [d[0], d[2]])
        XCTAssertEqual(try keys(dogs, "toys.@size >= 3"), [d[2]])
        XCTAssertEqual(try keys(dogs, "toys.@sum.price > 7"), [d[0], d[2]])
        XCTAssertEqual(try keys(dogs, "toys.@sum.price == 0"), [d[1]], "@sum of an empty list is 0")
        XCTAssertEqual(try keys(dogs, "toys.@avg.price < 5"), [d[0], d[3]], "@avg of an empty list is null")
        XCTAssertEqual(try keys(dogs, "toys.@avg.price == nil"), [d[1]])
        XCTAssertEqual(try keys(dogs, "toys.@min.price == 2.5"), [d[0], d[3]])
        XCTAssertEqual(try keys(dogs, "toys.@max.price == 10"), [d[2]])
        XCTAssertEqual(try keys(people, "dogs.@count == 0"), [p[2]])
        XCTAssertEqual(try keys(people, "dogs.@avg.age > 4"), [p[0], p[1]])
        XCTAssertEqual(try keys(people, "dogs.@min.age == 5"), [p[1]])
    }

    func testListsOfValues() throws {
        XCTAssertEqual(try keys(people, "ANY scores > 8"), [p[0]])
        XCTAssertEqual(try keys(people, "scores.@sum == 14"), [p[2]])
        XCTAssertEqual(try keys(people, "scores.@max == 9"), [p[0]])
        XCTAssertEqual(try keys(people, "scores.@min == 7"), [p[2]])
        XCTAssertEqual(try keys(people, "scores.@avg == 5"), [p[0]])
        XCTAssertEqual(try keys(people, "scores.@count == 0"), [p[1]])
        XCTAssertEqual(try keys(people, "ALL scores == 7"), [p[1], p[2]])
        XCTAssertEqual(try keys(people, "NONE scores == 7"), [p[0], p[1]])
        XCTAssertEqual(try keys(people, "7 IN scores"), [p[2]])
        XCTAssertEqual(try keys(people, "scores IN {1, 7}"), [p[0], p[2]])
        XCTAssertEqual(try keys(dogs, "ANY tags ==[c] 'GOOD'"), [d[0], d[2]])
        XCTAssertEqual(try keys(dogs, "ANY tags BEGINSWITH 't'"), [d[3]])
        XCTAssertEqual(try keys(dogs, "'good' IN tags"), [d[0], d[2]])
        XCTAssertEqual(try keys(dogs, "tags.@count == 0"), [d[1]])
    }

    func testBacklinksAndMaps() throws {
        XCTAssertEqual(try keys(people, "pets.@count == 2"), [p[0]])
        XCTAssertEqual(try keys(people, "pets.@count == 0"), [p[2]])
        XCTAssertEqual(try keys(people, "ANY pets.name == 'Bella'"), [p[1]])
        XCTAssertEqual(try keys(people, "pets.@max.age == 7"), [p[0]])
        XCTAssertEqual(try keys(people, "ANY pets == %@", [.link(d[1])]), [p[0]])
        XCTAssertEqual(try keys(people, "meta.@count == 2"), [p[0]])
        XCTAssertEqual(try keys(people, "ANY meta == 7"), [p[2]])
        XCTAssertEqual(try keys(people, "meta.@sum > 2"), [p[0], p[2]])
    }

    func testKeyPathArgumentsThroughLinks() throws {
        XCTAssertEqual(try keys(dogs, "%K == %@", [.string("owner.name"), .string("Bob")]), [d[2]])
        XCTAssertEqual(try keys(dogs, "%K > 1", [.string("toys.@count")]), [d[0], d[2]])
        XCTAssertEqual(try keys(dogs, "%K < 5", [.string("toys.@avg.price")]), [d[0], d[3]])
    }

    func testLinkPathsAreGeneralComparisons() throws {
        let p = try plan(try StoreQuery("owner.name == 'Ann' AND age > 2"), dogs)
        XCTAssertEqual(p.fastComparisons, 1)
        XCTAssertEqual(p.generalComparisons, 1)
    }
}
