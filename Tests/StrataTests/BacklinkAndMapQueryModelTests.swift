import Foundation
import Strata
import StrataTestSupport
import XCTest

/// An owner of pets, for queries of the objects linking to a pet.
class ModelOwner: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var name = ""
    @Persisted var age = 0
    @Persisted var rating: Double?
    @Persisted var pets: List<ModelPet>
}

/// A pet and the owners whose `pets` list it.
class ModelPet: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted(originProperty: "pets") var owners: LinkingObjects<ModelOwner>
    @Persisted var scores: Map<String, Int>
    @Persisted var weights: Map<String, Double?>
}

/// Random predicates in both query forms over `LinkingObjects` and over the values of `Map`s,
/// checked against a plain Swift evaluation of the same predicate over the collection's
/// elements: matches (in the collection's order), counts, sums, extremes, averages and sorting.
/// One pet is linked from most of the table (the store scans the table beside the backlinks),
/// one from a few owners (read one by one); one map is large, one small.
final class BacklinkAndMapQueryModelTests: SeedTestCase {
    private let names = ["Ann", "Bo", "Cy", "Dee", "Eve", "Flo"]

    private func describe<S: Sequence>(_ owners: S) -> [String] where S.Element == ModelOwner {
        owners.map { "\($0.id)/\($0.name)/\($0.age)" }
    }

    func testLinkingObjectsQueriesAgreeWithSwiftEvaluation() throws {
        let realm = try open()
        var rng = SeededRandom(seed: 4_041)
        try realm.write {
            let popular = realm.create(ModelPet.self, value: ["id": 1])
            let rare = realm.create(ModelPet.self, value: ["id": 2])
            for id in 0..<5_000 {
                let owner = realm.create(
                    ModelOwner.self,
                    value: [
                        "id": id, "name": names[rng.below(names.count)], "age": rng.below(60),
                        "rating": rng.below(5) == 0 ? NSNull() : Double(rng.below(100)) / 8,
                    ])
                // Most owners list the popular pet, some twice (two backlinks, two elements).
                if rng.below(5) != 0 { owner.pets.append(popular) }
                if rng.below(10) == 0 { owner.pets.append(popular) }
                if rng.below(200) == 0 { owner.pets.append(rare) }
            }
        }
        let popular = try XCTUnwrap(realm.object(ofType: ModelPet.self, forPrimaryKey: 1))
        let rare = try XCTUnwrap(realm.object(ofType: ModelPet.self, forPrimaryKey: 2))
        XCTAssertGreaterThan(popular.owners.count, 4_000)
        XCTAssertLessThan(rare.owners.count, 60)

        typealias Case = (
            label: String, format: String, args: [Any], query: (Query<ModelOwner>) -> Query<Bool>,
            swift: (ModelOwner) -> Bool
        )
        for round in 0..<30 {
            let k = rng.below(60)
            let r = Double(rng.below(100)) / 8
            let name = names[rng.below(names.count)]
            let cases: [Case] = [
                ("age > \(k)", "age > %@", [k], { $0.age > k }, { $0.age > k }),
                ("age == \(k)", "age == %@", [k], { $0.age == k }, { $0.age == k }),
                ("rating <= \(r)", "rating <= %@", [r], { $0.rating <= r }, { $0.rating.map { $0 <= r } ?? false }),
                ("rating == nil", "rating == nil", [], { $0.rating == nil }, { $0.rating == nil }),
                ("name == \(name)", "name == %@", [name], { $0.name == name }, { $0.name == name }),
                (
                    "age < \(k) OR name == \(name)", "age < %@ OR name == %@", [k, name],
                    { $0.age < k || $0.name == name }, { $0.age < k || $0.name == name }
                ),
                (
                    "NOT age BETWEEN", "NOT (age BETWEEN {%@, %@})", [k / 2, k], { !$0.age.contains(k / 2...k) },
                    { !(k / 2...k).contains($0.age) }
                ),
            ]
            let c = cases[round % cases.count]
            for (label, pet) in [("popular", popular), ("rare", rare)] {
                let what = "round \(round), \(label), \(c.label)"
                let elements = Array(pet.owners)
                let expected = elements.filter(c.swift)
                let viaFormat = pet.owners.filter(c.format, arguments: c.args)
                let viaWhere = pet.owners.where(c.query)
                XCTAssertEqual(describe(viaFormat), describe(expected), what)
                XCTAssertEqual(describe(viaWhere), describe(expected), what)
                XCTAssertEqual(viaWhere.count, expected.count, what)
                XCTAssertEqual(viaFormat.count, expected.count, what)
                XCTAssertEqual(viaWhere.sum(ofProperty: "age") as Int, expected.reduce(0) { $0 + $1.age }, what)
                XCTAssertEqual(viaFormat.max(ofProperty: "age") as Int?, expected.map(\.age).max(), what)
                XCTAssertEqual(viaWhere.min(ofProperty: "rating") as Double?, expected.compactMap(\.rating).min(), what)
                let ratings = expected.compactMap(\.rating)
                let sum = viaWhere.sum(ofProperty: "rating") as Double
                XCTAssertEqual(sum, ratings.reduce(0, +), accuracy: 1e-6, what)
                let average = viaFormat.average(ofProperty: "age") as Double?
                if expected.isEmpty {
                    XCTAssertNil(average, what)
                } else {
                    XCTAssertEqual(
                        average ?? .nan, Double(expected.reduce(0) { $0 + $1.age }) / Double(expected.count),
                        accuracy: 1e-9, what)
                }
                let sortedExpected = expected.enumerated().sorted {
                    $0.element.age != $1.element.age ? $0.element.age < $1.element.age : $0.offset < $1.offset
                }.map(\.element)
                XCTAssertEqual(describe(viaWhere.sorted(byKeyPath: "age")), describe(sortedExpected), what)
            }
        }
    }

    func testMapValueQueriesAgreeWithSwiftEvaluation() throws {
        let realm = try open()
        var rng = SeededRandom(seed: 4_042)
        try realm.write {
            for (id, size) in [(1, 3_000), (2, 12)] {
                // Built whole: each single-key edit of a map rewrites all of it in the owner's row.
                var scores: [String: Int] = [:]
                var weights: [String: Any] = [:]
                for i in 0..<size {
                    scores["s\(i)"] = rng.below(100) - 20
                    weights["w\(i)"] = rng.below(6) == 0 ? NSNull() : Double(rng.below(400)) / 16
                }
                realm.create(ModelPet.self, value: ["id": id, "scores": scores, "weights": weights])
            }
        }
        for id in [1, 2] {
            let pet = try XCTUnwrap(realm.object(ofType: ModelPet.self, forPrimaryKey: id))
            // A map's values in key order, as its results give them.
            let scores = pet.scores.keys.map { pet.scores[$0]! }
            let weights = pet.weights.keys.map { pet.weights[$0]! }
            if id == 1 {
                XCTAssertGreaterThan(weights.filter { $0 == nil }.count, 100, "the large map holds nil values")
            }
            for round in 0..<20 {
                let k = rng.below(100) - 20
                let w = Double(rng.below(400)) / 16
                let what = "pet \(id), round \(round), k \(k), w \(w)"
                let intCases: [(String, Results<Int>, Results<Int>, [Int])] = [
                    (
                        "self > k", pet.scores.filter("self > %@", k), pet.scores.where { $0 > k },
                        scores.filter { $0 > k }
                    ),
                    (
                        "self == k", pet.scores.filter("self == %@", k), pet.scores.where { $0 == k },
                        scores.filter { $0 == k }
                    ),
                    (
                        "self <= k AND self != 0", pet.scores.filter("self <= %@ AND self != 0", k),
                        pet.scores.where { $0 <= k && $0 != 0 }, scores.filter { $0 <= k && $0 != 0 }
                    ),
                ]
                for (label, viaFormat, viaWhere, expected) in intCases {
                    XCTAssertEqual(Array(viaFormat), expected, "\(what) \(label)")
                    XCTAssertEqual(Array(viaWhere), expected, "\(what) \(label)")
                    XCTAssertEqual(viaWhere.count, expected.count, "\(what) \(label)")
                    XCTAssertEqual(viaWhere.sum(), expected.reduce(0, +), "\(what) \(label)")
                    XCTAssertEqual(viaFormat.min(), expected.min(), "\(what) \(label)")
                    XCTAssertEqual(viaFormat.max(), expected.max(), "\(what) \(label)")
                    XCTAssertEqual(Array(viaWhere.sorted(ascending: false)), expected.sorted(by: >), "\(what) \(label)")
                    var seen = Set<Int>()
                    XCTAssertEqual(
                        Array(viaFormat.distinct()), expected.filter { seen.insert($0).inserted }, "\(what) \(label)")
                }
                let expectedWeights = weights.filter { $0.map { $0 >= w } ?? false }
                let viaFormat = pet.weights.filter("self >= %@", w)
                let viaWhere = pet.weights.where { $0 >= w }
                XCTAssertEqual(Array(viaFormat), expectedWeights, what)
                XCTAssertEqual(Array(viaWhere), expectedWeights, what)
                XCTAssertEqual(
                    viaWhere.sum(ofProperty: "self") as Double, expectedWeights.compactMap { $0 }.reduce(0, +),
                    accuracy: 1e-9, what)
                XCTAssertEqual(pet.weights.filter("self == nil").count, weights.filter { $0 == nil }.count, what)
                XCTAssertEqual(
                    pet.weights.max(ofProperty: "self") as Double?, weights.compactMap { $0 }.max(), what)
            }
            XCTAssertEqual(pet.scores.sum(), scores.reduce(0, +))
            XCTAssertEqual(pet.weights.sum(), weights.compactMap { $0 }.reduce(0, +), accuracy: 1e-9)
            XCTAssertEqual(pet.scores.min(), scores.min())
        }
    }
}
