import Foundation
import Strata
import StrataTestSupport
import XCTest

/// Subqueries, aggregates through collections, ranges, `notEquals` and the typed accessors of
/// `AnyRealmValue` in `where { }`, each checked against the string form and against Swift.
final class QuerySubqueryWhereTests: SeedTestCase {
    /// Ann: Rex 5, Rudy 4, Ruff 2; Bob: Maui 7, Rex 5; Cid: none.
    func makeOwners(_ realm: Realm) throws {
        try realm.write {
            let rex = QLPet(value: ["name": "Rex", "age": 5, "weight": 20.5])
            let rudy = QLPet(value: ["name": "Rudy", "age": 4])
            let ruff = QLPet(value: ["name": "Ruff", "age": 2, "weight": 3.0])
            let maui = QLPet(value: ["name": "Maui", "age": 7, "weight": 9.0])
            let owners: [(Int, String, [QLPet], [Int], [String: Double], AnyRealmValue)] = [
                (1, "Ann", [rex, rudy, ruff], [1, 5], ["a": 1.5, "b": 4], .int(3)),
                (2, "Bob", [maui, rex], [], [:], .double(2.5)),
                (3, "Cid", [], [9], ["c": 8], .string("x")),
                (4, "Dee", [], [2, 3, 4], ["d": 2], .none),
            ]
            for (id, name, pets, scores, ratings, value) in owners {
                let owner = QLOwner()
                owner.id = id
                owner.name = name
                owner.nickname = id == 1 ? "annie" : id == 2 ? "BOB" : nil
                owner.rank = id == 4 ? nil : id * 10
                owner.pets.append(objectsIn: pets)
                owner.petSet.insert(objectsIn: pets)
                owner.scores.append(objectsIn: scores)
                for (k, v) in ratings { owner.ratings[k] = v }
                owner.value = value
                realm.add(owner)
            }
        }
    }

    func names(_ results: Results<QLOwner>) -> [String] { results.map(\.name) }

    // MARK: Subqueries

    func testParenthesizedComparisonsCountElementsMatchingAllOfThem() throws {
        let realm = try open()
        try makeOwners(realm)
        let owners = realm.objects(QLOwner.self)
        let both = owners.where { ($0.pets.age > 3 && $0.pets.name.starts(with: "R")).count > 1 }
        XCTAssertEqual(names(both), ["Ann"])
        XCTAssertEqual(
            names(owners.filter("SUBQUERY(pets, $p, $p.age > 3 AND $p.name BEGINSWITH 'R').@count > 1")), ["Ann"])
        let swift = owners.filter { $0.pets.filter { $0.age > 3 && $0.name.hasPrefix("R") }.count > 1 }.map(\.name)
        XCTAssertEqual(names(both), swift)
        XCTAssertEqual(names(owners.where { ($0.pets.age > 3).count == 1 }), [])
        XCTAssertEqual(names(owners.where { ($0.pets.age > 3).count == 2 }), ["Ann", "Bob"])
        XCTAssertEqual(names(owners.where { ($0.petSet.age > 6 || $0.petSet.age < 3).count >= 1 }), ["Ann", "Bob"])
        XCTAssertEqual(names(owners.where { (!($0.pets.age > 3)).count == 0 }), ["Bob", "Cid", "Dee"])
        // One comparison through a set, and a count that goes through no collection (reported).
        XCTAssertEqual(names(owners.where { ($0.petSet.name == "Rex").count == 1 }), ["Ann", "Bob"])
        _ = owners.where { ($0.name == "Ann").count > 0 }
        XCTAssertEqual(takeViolations().count, 1)
    }

    func testWhereOnACollectionPropertyCountsTheMatchingElements() throws {
        let realm = try open()
        try makeOwners(realm)
        let owners = realm.objects(QLOwner.self)
        XCTAssertEqual(
            names(owners.where { $0.pets.where { $0.age > 3 && $0.name.starts(with: "R") }.count > 1 }), ["Ann"])
        XCTAssertEqual(names(owners.where { $0.petSet.where { $0.weight == nil }.count == 1 }), ["Ann"])
        XCTAssertEqual(names(owners.where { $0.pets.where { $0.age > 100 }.count == 0 && $0.id < 3 }), ["Ann", "Bob"])
        // Pets with more than one owner, through LinkingObjects, and nested subqueries.
        let pets = realm.objects(QLPet.self)
        XCTAssertEqual(pets.where { $0.owners.where { $0.name != "Cid" }.count > 1 }.map(\.name), ["Rex"])
        XCTAssertEqual(
            names(owners.where { $0.pets.where { $0.owners.where { $0.name == "Bob" }.count > 0 }.count == 1 }), ["Ann"]
        )
        XCTAssertEqual(names(owners.where { $0.pets.where { ($0.owners.id > 1).count > 0 }.count == 2 }), ["Bob"])
    }

    func testASubqueryMixingCollectionsIsReportedNotRun() throws {
        let realm = try open()
        try makeOwners(realm)
        let owners = realm.objects(QLOwner.self)
        let mixed = owners.where { ($0.pets.age > 3 && $0.petSet.age > 1).count > 0 }
        XCTAssertEqual(mixed.count, owners.count, "the violation's fallback is the unfiltered results")
        let reported = takeViolations()
        XCTAssertEqual(reported.count, 1)
        XCTAssertTrue(reported.first?.contains("(...).count") ?? false, "\(reported)")
    }

    // MARK: Aggregates

    func testAggregatesThroughAListOfObjects() throws {
        let realm = try open()
        try makeOwners(realm)
        let owners = realm.objects(QLOwner.self)
        XCTAssertEqual(names(owners.where { $0.pets.age.avg > 3 }), ["Ann", "Bob"])
        XCTAssertEqual(names(owners.where { $0.pets.age.avg > 4 }), ["Bob"])
        XCTAssertEqual(names(owners.where { $0.pets.age.min >= 4 }), ["Bob"])
        XCTAssertEqual(names(owners.where { $0.pets.age.max < 7 }), ["Ann"])
        XCTAssertEqual(names(owners.where { $0.pets.age.sum == 11 }), ["Ann"])
        XCTAssertEqual(names(owners.where { $0.pets.age.sum == 0 }), ["Cid", "Dee"], "the sum of no values is 0")
        XCTAssertEqual(names(owners.where { $0.petSet.weight.max > 10 }), ["Ann", "Bob"])
        XCTAssertEqual(names(owners.filter("pets.@avg.age > 3")), names(owners.where { $0.pets.age.avg > 3 }))
        let pets = realm.objects(QLPet.self)
        XCTAssertEqual(pets.where { $0.owners.id.max == 2 }.map(\.name), ["Rex", "Maui"])
    }

    func testAggregatesOfValueCollections() throws {
        let realm = try open()
        try makeOwners(realm)
        let owners = realm.objects(QLOwner.self)
        XCTAssertEqual(names(owners.where { $0.scores.max > 4 }), ["Ann", "Cid"])
        XCTAssertEqual(names(owners.where { $0.scores.min == 2 }), ["Dee"])
        XCTAssertEqual(names(owners.where { $0.scores.sum == 9 }), ["Cid", "Dee"])
        XCTAssertEqual(names(owners.where { $0.scores.avg == 3 }), ["Ann", "Dee"])
        XCTAssertEqual(names(owners.where { $0.ratings.max > 4 }), ["Cid"])
        XCTAssertEqual(names(owners.where { $0.ratings.sum < 3 }), ["Bob", "Dee"])
    }

    func testAnAggregateOfAPropertyOutsideACollectionIsReported() throws {
        let realm = try open()
        try makeOwners(realm)
        _ = realm.objects(QLPet.self).where { $0.age.avg > 3 }
        let reported = takeViolations()
        XCTAssertEqual(reported.count, 1)
        XCTAssertTrue(reported.first?.contains(".avg aggregates") ?? false, "\(reported)")
    }

    // MARK: Ranges and notEquals

    func testRangesWithAndWithoutTheUpperBound() throws {
        let realm = try open()
        try makeOwners(realm)
        let pets = realm.objects(QLPet.self)
        XCTAssertEqual(pets.where { $0.age.contains(4..<7) }.map(\.name), ["Rex", "Rudy"])
        XCTAssertEqual(pets.where { $0.age.contains(4...7) }.map(\.name), ["Rex", "Rudy", "Maui"])
        XCTAssertEqual(pets.where { $0.weight.contains(3.0..<20.5) }.map(\.name), ["Ruff", "Maui"])
        XCTAssertEqual(pets.where { $0.weight.contains(3.0...20.5) }.map(\.name), ["Rex", "Ruff", "Maui"])
        let owners = realm.objects(QLOwner.self)
        XCTAssertEqual(names(owners.where { $0.rank.contains(10..<30) }), ["Ann", "Bob"])
        // Every value of the collection in the range (an empty collection is in none).
        XCTAssertEqual(names(owners.where { $0.scores.contains(1..<6) }), ["Ann", "Dee"])
        XCTAssertEqual(names(owners.where { $0.scores.contains(2...4) }), ["Dee"])
        XCTAssertEqual(names(owners.where { $0.ratings.contains(1.0..<4.0) }), ["Dee"])
    }

    func testNotEqualsWithStringOptions() throws {
        let realm = try open()
        try makeOwners(realm)
        let owners = realm.objects(QLOwner.self)
        XCTAssertEqual(
            names(owners.where { $0.name.notEquals("ann", options: .caseInsensitive) }), ["Bob", "Cid", "Dee"])
        XCTAssertEqual(names(owners.where { $0.name.notEquals("ann") }), ["Ann", "Bob", "Cid", "Dee"])
        XCTAssertEqual(
            names(owners.where { $0.nickname.notEquals("bob", options: .caseInsensitive) }), ["Ann", "Cid", "Dee"])
        XCTAssertEqual(names(owners.where { $0.nickname.equals("ANNIE", options: .caseInsensitive) }), ["Ann"])
    }

    // MARK: AnyRealmValue accessors

    func testTypedAccessorsOfAnyRealmValueReadAsInSwift() throws {
        let realm = try open()
        try makeOwners(realm)
        let owners = realm.objects(QLOwner.self)
        // value: Ann .int(3), Bob .double(2.5), Cid .string("x"), Dee .none.
        XCTAssertEqual(names(owners.where { $0.value.intValue > 1 }), ["Ann"])
        XCTAssertEqual(names(owners.where { $0.value.doubleValue > 1 }), ["Bob"])
        XCTAssertEqual(names(owners.where { $0.value.intValue == nil }), ["Bob", "Cid", "Dee"])
        XCTAssertEqual(names(owners.where { $0.value.intValue != nil }), ["Ann"])
        XCTAssertEqual(names(owners.where { $0.value.intValue != 3 }), ["Bob", "Cid", "Dee"])
        XCTAssertEqual(names(owners.where { $0.value.stringValue == "x" }), ["Cid"])
        XCTAssertEqual(names(owners.where { $0.value.stringValue.starts(with: "x") }), ["Cid"])
        let swiftGreater = owners.filter { ($0.value.intValue ?? .min) > 1 }.map(\.name)
        XCTAssertEqual(names(owners.where { $0.value.intValue > 1 }), swiftGreater)
        let swiftNil = owners.filter { $0.value.intValue == nil }.map(\.name)
        XCTAssertEqual(names(owners.where { $0.value.intValue == nil }), swiftNil)
        XCTAssertEqual(names(owners.filter("value.@type == 'int'")), ["Ann"])
    }
}
