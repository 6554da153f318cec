import Foundation
import StrataStorage
import StrataTestSupport
import XCTest

@testable import StrataCore

/// `StoreTransaction.forEachRow(_:keys:_:)`: the rows of ascending keys, each cluster found
/// once, give what a point read of each key gives.
final class RowsByKeyTests: CoreTestCase {
    static let t = StoreTable(
        name: "K",
        columns: [
            StoreColumn(name: "id", type: .int, isPrimaryKey: true),
            StoreColumn(name: "s", type: .string),
            StoreColumn(name: "d", type: .double, isNullable: true),
        ])

    func testRowsOfAscendingKeysMatchPointReadsInReadAndWriteTransactions() throws {
        let t = Self.t
        var rng = SeededRandom(seed: 7)
        // Every other key of 0..<20,000, strings of varied lengths: hundreds of clusters.
        try write([t]) { txn in
            for k in stride(from: Int64(0), to: 20_000, by: 2) {
                let s = String(repeating: "x", count: Int.random(in: 0...40, using: &rng)) + "\(k)"
                _ = try txn.insert(into: t, values: [.int(k), .string(s), k % 3 == 0 ? .null : .double(Double(k) / 8)])
            }
        }
        // Present and absent keys, runs within a cluster and jumps across several, both ends.
        var keys: [Int64] = [-5, -1, 0, 1, 2]
        keys += (3...400).map { Int64($0) }
        keys += (0..<300).map { _ in Int64.random(in: 400..<19_990, using: &rng) }
        keys += [19_996, 19_998, 19_999, 20_000, 1 << 40]
        keys = Array(Set(keys)).sorted()

        func check(_ txn: StoreTransaction) throws {
            var seen: [(Int64, [StoreValue])] = []
            try txn.forEachRow(t, keys: keys) { row in seen.append((row.key, row.values())) }
            let expected = try keys.compactMap { k in try txn.row(t, key: k).map { (k, $0.values()) } }
            XCTAssertEqual(seen.map(\.0), expected.map(\.0))
            XCTAssertEqual(seen.map(\.1), expected.map(\.1))
            XCTAssertGreaterThan(seen.count, 300)
            var none = 0
            try txn.forEachRow(t, keys: [Int64]()) { _ in none += 1 }
            try txn.forEachRow(t, keys: [Int64(-3), 1, 20_001]) { _ in none += 1 }
            XCTAssertEqual(none, 0)
        }
        try read([t]) { try check($0) }
        try write([t]) { txn in
            // A write transaction's own changes too.
            _ = try txn.insert(into: t, values: [.int(401), .string("new"), .null])
            try txn.delete(t, key: 402)
            try check(txn)
        }
    }
}
