import StrataQuery
import StrataTestSupport
import XCTest

@testable import StrataCore

/// Counting and summing a query restricted to a large collection from the rows' bytes: the count
/// agrees with the keys the general path returns, the sum with what it adds (bit for bit) (repeated elements counted each time, deleted objects and
/// objects outside the collection not at all), and `KeyWeights` counts each key's occurrences
/// with its direct table and with binary search.
final class RestrictedCountTests: QueryTestCase {
    let dogs = StoreTable(
        name: "Dog",
        columns: [
            StoreColumn(name: "age", type: .int),
            StoreColumn(name: "weight", type: .double),
            StoreColumn(name: "name", type: .string),
        ])
    let kennels = StoreTable(
        name: "Kennel",
        columns: [StoreColumn(name: "dogs", type: .link, collection: .list, targetTable: "Dog")])

    func testRestrictedFastCountAgreesWithTheRestrictedKeys() throws {
        try create(dogs, kennels)
        var rng = SeededRandom(seed: 77)
        let d = try insert(
            dogs,
            (0..<6_000).map { _ in
                [.int(Int64(rng.below(20))), .double(Double(rng.below(100)) / 4), .string("d\(rng.below(9))")]
            })
        var elements: [StoreValue] = []
        for _ in 0..<4_500 { elements.append(.link(d[rng.below(d.count)])) }
        let k = try insert(kennels, [[.list(elements)]])
        // Deleting dogs takes them out of the list too; the count follows the list as it is now.
        try write { txn in
            for i in stride(from: 0, to: d.count, by: 97) { _ = try txn.delete(dogs, key: d[i]) }
        }
        let source = StoreQuerySource.collection(ownerTable: "Kennel", ownerKey: k[0], column: "dogs")
        var fast = 0
        for filter in [
            "age > 10", "age == 3", "weight <= 12.5", "age > 4 AND weight < 20", "age < 3 OR age > 17",
            "NOT (age BETWEEN {5, 9})", "FALSEPREDICATE", "name == 'd3'", "name BEGINSWITH 'd'",
        ] {
            let query = try StoreQuery(filter).restricted(to: source)
            let keys = try read { try query.evaluate(in: $0, table: dogs) }
            let count = try read { try query.fastCount(in: $0, table: dogs) }
            if let count {
                fast += 1
                XCTAssertEqual(count, keys.count, filter)
            }
        }
        // age > 10, age == 3, weight <= 12.5 and the OR of two int comparisons take the byte path
        // (the others take the general path, as they do on Results).
        XCTAssertEqual(fast, 4, "the fixed-width filters are counted from the bytes")
        // A short list is read one element at a time: no byte-level count.
        let short = try insert(kennels, [[.list(Array(elements.prefix(10)))]])
        let shortQuery = try StoreQuery("age > 10").restricted(
            to: .collection(ownerTable: "Kennel", ownerKey: short[0], column: "dogs"))
        XCTAssertNil(try read { try shortQuery.fastCount(in: $0, table: dogs) })
    }

    func testRestrictedFastSumAddsWhatTheGeneralPathAdds() throws {
        let dogs = StoreTable(
            name: "Dog",
            columns: [
                StoreColumn(name: "age", type: .int), StoreColumn(name: "weight", type: .double, isNullable: true),
                StoreColumn(name: "name", type: .string),
            ])
        try create(dogs, kennels)
        var rng = SeededRandom(seed: 79)
        let d = try insert(
            dogs,
            (0..<6_000).map { i in
                // Every 13th dog has no weight (null): skipped, as the general path skips it.
                [.int(Int64(rng.below(20))), i % 13 == 0 ? .null : .double(Double(rng.below(1_000)) / 7), .string("d")]
            })
        var elements: [StoreValue] = []
        for _ in 0..<4_500 { elements.append(.link(d[rng.below(d.count)])) }
        let k = try insert(kennels, [[.list(elements)]])
        try write { txn in
            for i in stride(from: 0, to: d.count, by: 89) { _ = try txn.delete(dogs, key: d[i]) }
        }
        let source = StoreQuerySource.collection(ownerTable: "Kennel", ownerKey: k[0], column: "dogs")
        for filter in [
            "age > 10", "age == 3", "weight <= 50.5", "age < 3 OR age > 17", "TRUEPREDICATE", "FALSEPREDICATE",
        ] {
            let query = try StoreQuery(filter).restricted(to: source)
            for (column, isInt) in [(0, true), (1, false)] {
                var ints: Int64 = 0
                var doubles = 0.0
                var saw = false
                try read { txn in
                    try query.forEachMatch(in: txn, table: dogs) { row in
                        if isInt, let v = row.int(column) {
                            ints &+= v
                            saw = true
                        } else if !isInt, let v = row.double(column) {
                            doubles += v
                            saw = true
                        }
                    }
                }
                let fast = try read { try query.fastSum(in: $0, table: dogs, column: column) }
                guard let fast else { return XCTFail("\(filter): no byte-level sum for a large list") }
                XCTAssertEqual(fast.ints, ints, filter)
                XCTAssertEqual(fast.doubles.bitPattern, doubles.bitPattern, "\(filter): \(fast.doubles) vs \(doubles)")
                XCTAssertEqual(fast.sawValue, saw, filter)
            }
        }
        // A short list is read one element at a time: no byte-level sum.
        let short = try insert(kennels, [[.list(Array(elements.prefix(10)))]])
        let shortQuery = try StoreQuery("age > 10").restricted(
            to: .collection(ownerTable: "Kennel", ownerKey: short[0], column: "dogs"))
        XCTAssertNil(try read { try shortQuery.fastSum(in: $0, table: dogs, column: 0) })
    }

    func testKeyWeightsCountEachKeysOccurrences() {
        var rng = SeededRandom(seed: 78)
        for round in 0..<30 {
            let spread = [1, 3, 9, 1 << 20][round % 4]
            let base = Int64(rng.below(1_000)) - 500
            let candidates = (0..<(1 + rng.below(3_000))).map { _ in base + Int64(rng.below(500 * spread)) }
            var expected: [Int64: UInt32] = [:]
            for key in candidates { expected[key, default: 0] += 1 }
            let weights = KeyWeights(candidates)
            for key in Set(candidates).union([base - 1, base + Int64(500 * spread), .min, .max]) {
                XCTAssertEqual(weights.weight(of: key), expected[key] ?? 0, "round \(round), key \(key)")
            }
        }
        XCTAssertEqual(KeyWeights([]).weight(of: 0), 0)
        XCTAssertEqual(KeyWeights([.min, .max, .max]).weight(of: .max), 2)
        // More than 255 of one key: the table widens, the run of bytes is no longer offered.
        let heavy = KeyWeights(Array(repeating: 5, count: 300) + [6, 9])
        XCTAssertEqual(heavy.weight(of: 5), 300)
        XCTAssertEqual(heavy.weight(of: 9), 1)
        XCTAssertNil(heavy.byteRun(from: 5, count: 2))
        // A run is offered only inside the table.
        let light = KeyWeights([10, 11, 11, 13])
        XCTAssertEqual(
            light.byteRun(from: 10, count: 4).map { Array(UnsafeBufferPointer(start: $0, count: 4)) }, [1, 2, 0, 1])
        XCTAssertNil(light.byteRun(from: 11, count: 4))
        XCTAssertNil(light.byteRun(from: 9, count: 2))
    }
}
