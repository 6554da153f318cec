import StrataQuery
import StrataTestSupport
import XCTest

@testable import StrataCore

/// The keys of a query restricted to a large collection, matched against a scan of the table:
/// they come out in the collection's order with its repeated elements, skip deleted objects, and
/// agree with a plain Swift evaluation for every kind of filter (one fixed-width comparison,
/// AND/OR over such, a general comparison, an index lookup), for collections whose keys are
/// dense, cover only the middle of the table, or are sparse. Sums over a collection without
/// repeated elements add what the general path adds, bit for bit.
final class RestrictedOrderTests: QueryTestCase {
    let dogs = StoreTable(
        name: "Dog",
        columns: [
            StoreColumn(name: "age", type: .int),
            StoreColumn(name: "weight", type: .double),
            StoreColumn(name: "name", type: .string),
            StoreColumn(name: "tag", type: .int, isIndexed: true),
        ])
    let kennels = StoreTable(
        name: "Kennel",
        columns: [StoreColumn(name: "dogs", type: .link, collection: .list, targetTable: "Dog")])

    /// What a dog holds, kept in Swift to evaluate filters without the store.
    private struct DogValues {
        var age: Int64
        var weight: Double
        var name: String
        var tag: Int64
    }

    /// The filters checked, each with its Swift evaluation.
    private let filters: [(String, (DogValues) -> Bool)] = [
        ("age > 10", { $0.age > 10 }),
        ("weight <= 12.5", { $0.weight <= 12.5 }),
        ("age > 4 AND weight < 20", { $0.age > 4 && $0.weight < 20 }),
        ("age < 3 OR age > 17", { $0.age < 3 || $0.age > 17 }),
        ("NOT (age BETWEEN {5, 9})", { !($0.age >= 5 && $0.age <= 9) }),
        ("name == 'd3'", { $0.name == "d3" }),
        ("name BEGINSWITH 'd' AND age == 4", { $0.name.hasPrefix("d") && $0.age == 4 }),
        ("tag == 7", { $0.tag == 7 }),
        ("TRUEPREDICATE", { _ in true }),
        ("FALSEPREDICATE", { _ in false }),
    ]

    /// Inserts `count` random dogs and returns their keys and values.
    private func insertDogs(_ count: Int, _ rng: inout SeededRandom) throws -> [Int64: DogValues] {
        let values = (0..<count).map { _ in
            DogValues(
                age: Int64(rng.below(20)), weight: Double(rng.below(100)) / 4, name: "d\(rng.below(9))",
                tag: Int64(rng.below(12)))
        }
        let keys = try insert(
            dogs, values.map { [.int($0.age), .double($0.weight), .string($0.name), .int($0.tag)] })
        return Dictionary(uniqueKeysWithValues: zip(keys, values))
    }

    /// Checks every filter restricted to the list `elements` of a new kennel against the Swift
    /// evaluation over `live` (the dogs not deleted).
    private func checkEveryFilter(
        _ elements: [Int64], _ live: [Int64: DogValues], _ what: String, line: UInt = #line
    ) throws {
        let k = try insert(kennels, [[.list(elements.map { .link($0) })]])
        let source = StoreQuerySource.collection(ownerTable: "Kennel", ownerKey: k[0], column: "dogs")
        try read { txn in
            // The list is one the store matches against a scan (not read element by element).
            let prepared = try StoreQuery("age > 10").prepare(txn, dogs)
            XCTAssertTrue(try prepared.intersects(elements.count), what, line: line)
            for (filter, test) in filters {
                let expected = elements.filter { live[$0].map(test) ?? false }
                let keys = try StoreQuery(filter).restricted(to: source).evaluate(in: txn, table: dogs)
                XCTAssertEqual(keys, expected, "\(what): \(filter)", line: line)
            }
        }
    }

    func testRestrictedKeysFollowTheListOrderWithRepeatsAndDeletions() throws {
        try create(dogs, kennels)
        var rng = SeededRandom(seed: 91)
        var live = try insertDogs(6_000, &rng)
        let all = live.keys.sorted()
        let elements = (0..<4_500).map { _ in all[rng.below(all.count)] }
        try write { txn in
            for i in stride(from: 0, to: all.count, by: 97) {
                _ = try txn.delete(dogs, key: all[i])
                live[all[i]] = nil
            }
        }
        // Deleting a dog removes it from the lists that held it: the kennel's elements are those
        // still alive.
        try checkEveryFilter(elements.filter { live[$0] != nil }, live, "random list with repeats")
        // Elements that name deleted objects are skipped, not matched.
        try checkEveryFilter(elements, live, "list naming deleted dogs")
    }

    func testRestrictedKeysOfAListCoveringTheMiddleOfTheTableFollowItsOrder() throws {
        try create(dogs, kennels)
        var rng = SeededRandom(seed: 92)
        let live = try insertDogs(8_000, &rng)
        let all = live.keys.sorted()
        // Keys 1,500..<6,500 shuffled: the first and last clusters of the table lie partly or
        // wholly outside the list's range of keys.
        var middle = Array(all[1_500..<6_500])
        middle.shuffle(using: &rng)
        try checkEveryFilter(middle, live, "shuffled middle of the table")
        try checkEveryFilter(middle.reversed(), live, "the same reversed")
    }

    func testRestrictedKeysOfASparseListFollowItsOrder() throws {
        try create(dogs, kennels)
        var rng = SeededRandom(seed: 93)
        var live = try insertDogs(21_000, &rng)
        let all = live.keys.sorted()
        // Every tenth dog stays: 2,100 live dogs spread over 21,000 keys.
        try write { txn in
            for (i, key) in all.enumerated() where i % 10 != 0 {
                _ = try txn.delete(dogs, key: key)
                live[key] = nil
            }
        }
        var kept = live.keys.sorted()
        kept.shuffle(using: &rng)
        let elements = kept
        XCTAssertGreaterThan(
            (elements.max() ?? 0) - (elements.min() ?? 0), Int64(elements.count * 8 + 1_024),
            "the list's keys are too spread for a direct table")
        try checkEveryFilter(elements, live, "sparse list")
    }

    func testRestrictedFastSumOfAListWithoutRepeatsAddsWhatTheGeneralPathAdds() throws {
        try create(dogs, kennels)
        var rng = SeededRandom(seed: 94)
        let live = try insertDogs(6_000, &rng)
        var elements = live.keys.sorted()
        elements.shuffle(using: &rng)
        elements.removeLast(1_000)
        let k = try insert(kennels, [[.list(elements.map { .link($0) })]])
        let source = StoreQuerySource.collection(ownerTable: "Kennel", ownerKey: k[0], column: "dogs")
        var summedFromBytes: [String] = []
        for (filter, test) in filters {
            let query = try StoreQuery(filter).restricted(to: source)
            // The general path adds in key order; so must the byte-level sum.
            var expected = 0.0
            for key in elements.sorted() where test(live[key]!) { expected += live[key]!.weight }
            let expectedInts = elements.reduce(Int64(0)) { $0 &+ (test(live[$1]!) ? live[$1]!.age : 0) }
            try read { txn in
                guard let ints = try query.fastSum(in: txn, table: dogs, column: 0),
                    let doubles = try query.fastSum(in: txn, table: dogs, column: 1)
                else {
                    // Filters the byte path does not take (general comparisons, index lookups).
                    return
                }
                XCTAssertEqual(doubles.doubles.bitPattern, expected.bitPattern, "\(filter): \(doubles.doubles)")
                XCTAssertEqual(ints.ints, expectedInts, filter)
                XCTAssertEqual(doubles.sawValue, elements.contains { test(live[$0]!) }, filter)
                summedFromBytes.append(filter)
            }
        }
        // The filters the byte-level paths take (as for Results); the others take the general path.
        XCTAssertEqual(
            summedFromBytes, ["age > 10", "weight <= 12.5", "age < 3 OR age > 17", "TRUEPREDICATE", "FALSEPREDICATE"],
            "filters summed from the rows' bytes")
    }
}
