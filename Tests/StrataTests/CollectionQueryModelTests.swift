import Foundation
import Strata
import StrataTestSupport
import XCTest

/// Model-based tests of the query engine beyond lists and sets: random owners holding random pets
/// in lists and sets, numbers in lists, doubles in maps and an `AnyRealmValue`; random predicates
/// with SUBQUERY, aggregates through collections, map values, `@links` and `@type`, in the string
/// form and both `where { }` forms, over `Results` and `LinkingObjects`, each checked against
/// Swift's evaluation of the same predicate over the objects read back.
final class CollectionQueryModelTests: SeedTestCase {
    let petNames = ["Rex", "Rudy", "Maui", "Bo", "Ruff", "Luna"]

    private func makeOwners(_ realm: Realm, _ rng: inout SeededRandom) throws {
        try realm.write {
            var pets: [QLPet] = []
            for _ in 0..<60 {
                let pet = QLPet()
                pet.name = petNames[rng.below(petNames.count)]
                pet.age = rng.below(12)
                pet.weight = rng.below(4) == 0 ? nil : Double(rng.below(40)) / 2
                realm.add(pet)
                pets.append(pet)
            }
            for id in 0..<50 {
                let owner = QLOwner()
                owner.id = id
                owner.name = "o\(id)"
                owner.rank = rng.below(5) == 0 ? nil : rng.below(50)
                for _ in 0..<rng.below(7) { owner.pets.append(pets[rng.below(pets.count)]) }
                for _ in 0..<rng.below(5) { owner.petSet.insert(pets[rng.below(pets.count)]) }
                for _ in 0..<rng.below(5) { owner.scores.append(rng.below(10)) }
                for key in ["a", "b", "c", "d"] where rng.below(2) == 0 {
                    owner.ratings[key] = Double(rng.below(20)) / 2
                }
                switch rng.below(4) {
                case 0: owner.value = .int(rng.below(10))
                case 1: owner.value = .double(Double(rng.below(20)) / 2)
                case 2: owner.value = .string(petNames[rng.below(petNames.count)])
                default: owner.value = .none
                }
                realm.add(owner)
            }
        }
    }

    private typealias Case = (
        label: String, format: String, args: [Any], query: (Query<QLOwner>) -> Query<Bool>,
        swift: (QLOwner) -> Bool
    )

    private static func mean(_ values: [Int]) -> Double? {
        values.isEmpty ? nil : Double(values.reduce(0, +)) / Double(values.count)
    }

    private func ownerCases(_ rng: inout SeededRandom) -> [Case] {
        let k = rng.below(12)
        let m = rng.below(3)
        let w = Double(rng.below(20)) / 2
        let prefix = String(petNames[rng.below(petNames.count)].prefix(1 + rng.below(2)))
        let key = ["a", "b", "c", "d"][rng.below(4)]
        let high = 3 + rng.below(8)
        return [
            (
                "SUBQUERY age > \(k) AND name BEGINSWITH \(prefix), count > \(m)",
                "SUBQUERY(pets, $p, $p.age > %@ AND $p.name BEGINSWITH %@).@count > %@", [k, prefix, m],
                { ($0.pets.age > k && $0.pets.name.starts(with: prefix)).count > m },
                { $0.pets.filter { $0.age > k && $0.name.hasPrefix(prefix) }.count > m }
            ),
            (
                "SUBQUERY set weight nil OR age < \(k), count == \(m)",
                "SUBQUERY(petSet, $p, $p.weight == nil OR $p.age < %@).@count == %@", [k, m],
                { $0.petSet.where { $0.weight == nil || $0.age < k }.count == m },
                { $0.petSet.filter { $0.weight == nil || $0.age < k }.count == m }
            ),
            (
                "NOT SUBQUERY age >= \(k), count > 0 OR rank == nil",
                "NOT SUBQUERY(pets, $p, $p.age >= %@).@count > 0 OR rank == nil", [k],
                { !($0.pets.where { $0.age >= k }.count > 0) || $0.rank == nil },
                { !($0.pets.contains { $0.age >= k }) || $0.rank == nil }
            ),
            (
                "pets avg age > \(k)", "pets.@avg.age > %@", [k], { $0.pets.age.avg > k },
                { (Self.mean($0.pets.map(\.age)) ?? -.infinity) > Double(k) }
            ),
            (
                "pets min age >= \(k)", "pets.@min.age >= %@", [k], { $0.pets.age.min >= k },
                { ($0.pets.map(\.age).min() ?? .min) >= k }
            ),
            (
                "pets max age < \(k)", "pets.@max.age < %@", [k], { $0.pets.age.max < k },
                { ($0.pets.map(\.age).max() ?? .max) < k }
            ),
            (
                "pets sum age > \(k * 2)", "pets.@sum.age > %@", [k * 2], { $0.pets.age.sum > k * 2 },
                { $0.pets.map(\.age).reduce(0, +) > k * 2 }
            ),
            (
                "set max weight > \(w)", "petSet.@max.weight > %@", [w], { $0.petSet.weight.max > w },
                { ($0.petSet.compactMap(\.weight).max() ?? -.infinity) > w }
            ),
            (
                "scores max > \(k)", "scores.@max > %@", [k], { $0.scores.max > k },
                { ($0.scores.max() ?? .min) > k }
            ),
            (
                "scores avg < \(k)", "scores.@avg < %@", [k], { $0.scores.avg < k },
                { (Self.mean(Array($0.scores)) ?? .infinity) < Double(k) }
            ),
            (
                "scores in 2..<\(high)", "scores.@min >= 2 AND scores.@max < %@", [high],
                { $0.scores.contains(2..<high) },
                { !$0.scores.isEmpty && $0.scores.allSatisfy { (2..<high).contains($0) } }
            ),
            (
                "any rating > \(w)", "ANY ratings.@values > %@", [w], { $0.ratings.values > w },
                { $0.ratings.values.contains { $0 > w } }
            ),
            (
                "rating \(key) == nil", "ratings[%K] == nil", [key], { $0.ratings[key] == nil },
                { $0.ratings[key] == nil }
            ),
            (
                "ratings max > \(w)", "ratings.@max > %@", [w], { $0.ratings.max > w },
                { ($0.ratings.values.max() ?? -.infinity) > w }
            ),
            (
                "ratings sum <= \(w)", "ratings.@sum <= %@", [w], { $0.ratings.sum <= w },
                { $0.ratings.values.reduce(0, +) <= w }
            ),
            (
                "value is an int > \(k / 2)", "value.@type == 'int' AND value > %@", [k / 2],
                { $0.value.intValue > k / 2 }, { ($0.value.intValue ?? .min) > k / 2 }
            ),
            (
                "value is a double or null", "value.@type == 'double|null'", [],
                { $0.value.doubleValue != nil || $0.value.intValue == nil && $0.value.stringValue == nil },
                {
                    if case .double = $0.value { return true }
                    if case .none = $0.value { return true }
                    return false
                }
            ),
        ]
    }

    func testOwnerQueriesAgreeWithSwiftEvaluation() throws {
        let realm = try open()
        var rng = SeededRandom(seed: 21)
        try makeOwners(realm, &rng)
        let owners = realm.objects(QLOwner.self)
        let all = Array(owners)
        var matched = 0
        for round in 0..<68 {
            let cases = ownerCases(&rng)
            let c = cases[round % cases.count]
            // `ratings[%K]` is not a map subscript: substitute the key into the text.
            let format = c.format.replacingOccurrences(of: "[%K]", with: "['\(c.args.first ?? "")']")
            let args = c.format.contains("[%K]") ? [] : c.args
            let expected = all.filter(c.swift).map(\.id)
            matched += expected.count
            XCTAssertEqual(owners.filter(format, arguments: args).map(\.id), expected, c.label)
            XCTAssertEqual(owners.where(c.query).map(\.id), expected, c.label)
            XCTAssertEqual(owners.where(c.query).count, expected.count, c.label)
        }
        XCTAssertGreaterThan(matched, 100, "the predicates should match some owners, not only none")
    }

    func testLinkingObjectsQueriesAgreeWithSwiftEvaluation() throws {
        let realm = try open()
        var rng = SeededRandom(seed: 2_121)
        try makeOwners(realm, &rng)
        let owners = Array(realm.objects(QLOwner.self))
        let pets = realm.objects(QLPet.self)
        var checked = 0
        for (index, pet) in pets.enumerated() where index % 3 == 0 {
            let linking = owners.filter { $0.pets.contains(pet) }
            XCTAssertEqual(Array(pet.owners).map(\.id), linking.map(\.id))
            for c in ownerCases(&rng) {
                let format = c.format.replacingOccurrences(of: "[%K]", with: "['\(c.args.first ?? "")']")
                let args = c.format.contains("[%K]") ? [] : c.args
                let expected = linking.filter(c.swift).map(\.id)
                XCTAssertEqual(pet.owners.filter(format, arguments: args).map(\.id), expected, c.label)
                XCTAssertEqual(pet.owners.where(c.query).map(\.id), expected, c.label)
                checked += 1
            }
        }
        // From the pets' side: @links, aggregates and subqueries through LinkingObjects.
        for _ in 0..<12 {
            let k = rng.below(50)
            let m = rng.below(3)
            func linking(_ pet: QLPet) -> [QLOwner] { owners.filter { $0.pets.contains(pet) } }
            XCTAssertEqual(
                pets.filter("@links.QLOwner.pets.@count > %@", m).map(\.name),
                pets.filter { linking($0).count > m }.map(\.name))
            XCTAssertEqual(
                pets.where { $0.owners.rank.max > k }.map(\.name),
                pets.filter { (linking($0).compactMap(\.rank).max() ?? .min) > k }.map(\.name))
            XCTAssertEqual(
                pets.where { ($0.owners.rank < k).count >= m }.map(\.name),
                pets.filter { linking($0).filter { ($0.rank ?? .max) < k }.count >= m }.map(\.name))
            XCTAssertEqual(
                pets.filter("SUBQUERY(owners, $o, $o.rank < %@).@count >= %@", k, m).map(\.name),
                pets.where { ($0.owners.rank < k).count >= m }.map(\.name))
        }
        XCTAssertGreaterThan(checked, 100)
    }
}
