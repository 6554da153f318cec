import StrataQuery
import StrataStorage
import StrataTestSupport
import XCTest

@testable import StrataCore

/// The candidates of queries restricted to a collection: a read transaction reads a list's keys
/// and weighs them once, and every later query of that list in it reuses them; write
/// transactions and transactions shared by several threads read the list afresh, so every
/// query sees the list as it is.
final class CollectionCandidatesTests: QueryTestCase {
    let dogs = StoreTable(name: "Dog", columns: [StoreColumn(name: "age", type: .int)])
    let kennels = StoreTable(
        name: "Kennel",
        columns: [StoreColumn(name: "dogs", type: .link, collection: .list, targetTable: "Dog")])

    /// 6,000 dogs aged `i % 20`, and a kennel listing 4,000 of them (some twice).
    private func fill() throws -> (dogKeys: [Int64], source: StoreQuerySource, elements: [Int64]) {
        try create(dogs, kennels)
        let d = try insert(dogs, (0..<6_000).map { [.int(Int64($0 % 20))] })
        let elements = (0..<4_000).map { d[($0 * 7) % 3_000] }
        let k = try insert(kennels, [[.list(elements.map { .link($0) })]])
        return (d, .collection(ownerTable: "Kennel", ownerKey: k[0], column: "dogs"), elements)
    }

    private func expectedCount(_ elements: [Int64], _ d: [Int64], where test: (Int) -> Bool) -> Int {
        let ageByKey = Dictionary(uniqueKeysWithValues: d.enumerated().map { ($1, $0 % 20) })
        return elements.filter { test(ageByKey[$0]!) }.count
    }

    func testQueriesOfOneListInAReadTransactionShareItsCandidates() throws {
        let (d, source, elements) = try fill()
        try read { txn in
            let older = try StoreQuery("age > 10").restricted(to: source)
            let count = try XCTUnwrap(try older.fastCount(in: txn, table: dogs), "counted from the bytes")
            XCTAssertEqual(count, expectedCount(elements, d) { $0 > 10 })
            let kept = try XCTUnwrap(txn.collectionCandidates[source], "the read transaction kept the list's keys")
            XCTAssertEqual(kept.keys, elements)

            let young = try StoreQuery("age < 3").restricted(to: source)
            XCTAssertEqual(try young.evaluate(in: txn, table: dogs).count, expectedCount(elements, d) { $0 < 3 })
            var visited = 0
            try young.forEachMatch(in: txn, table: dogs) { _ in visited += 1 }
            XCTAssertEqual(visited, expectedCount(elements, d) { $0 < 3 }, "repeated elements visited each time")
            XCTAssertTrue(txn.collectionCandidates[source] === kept, "later queries reused the same candidates")
            XCTAssertEqual(txn.collectionCandidates.count, 1)
        }
    }

    func testEachReadTransactionReadsTheListAsItsSnapshotHoldsIt() throws {
        let (d, source, elements) = try fill()
        let query = try StoreQuery("age > 10").restricted(to: source)
        XCTAssertEqual(try read { try query.fastCount(in: $0, table: dogs) }, expectedCount(elements, d) { $0 > 10 })
        let shorter = Array(elements.prefix(3_000))
        guard case .collection(_, let owner, _) = source else { return XCTFail("a collection source") }
        try write { txn in _ = try txn.set(kennels, key: owner, column: 0, to: .list(shorter.map { .link($0) })) }
        XCTAssertEqual(try read { try query.fastCount(in: $0, table: dogs) }, expectedCount(shorter, d) { $0 > 10 })
    }

    func testWriteTransactionsReadTheListAfreshAfterEachChange() throws {
        let (d, source, elements) = try fill()
        guard case .collection(_, let owner, _) = source else { return XCTFail("a collection source") }
        let query = try StoreQuery("age > 10").restricted(to: source)
        try write { txn in
            XCTAssertEqual(try query.evaluate(in: txn, table: dogs).count, expectedCount(elements, d) { $0 > 10 })
            let longer = elements + elements.prefix(500)
            _ = try txn.set(kennels, key: owner, column: 0, to: .list(longer.map { .link($0) }))
            XCTAssertEqual(try query.fastCount(in: txn, table: dogs), expectedCount(longer, d) { $0 > 10 })
            XCTAssertEqual(try query.evaluate(in: txn, table: dogs).count, expectedCount(longer, d) { $0 > 10 })
            XCTAssertTrue(txn.collectionCandidates.isEmpty, "a write transaction keeps no candidates")
        }
    }

    func testSharedReadTransactionsKeepNoCandidates() throws {
        let (d, source, elements) = try fill()
        let txn = try StoreTransaction(sharedRead: try db.beginRead())
        txn.tables = tables
        defer { txn.read?.end() }
        let query = try StoreQuery("age > 10").restricted(to: source)
        XCTAssertEqual(try query.evaluate(in: txn, table: dogs).count, expectedCount(elements, d) { $0 > 10 })
        XCTAssertTrue(txn.collectionCandidates.isEmpty, "threads reading it at once would race on them")
    }

    func testAReadTransactionKeepsCandidatesOfABoundedNumberOfCollections() throws {
        try create(dogs, kennels)
        let d = try insert(dogs, (0..<100).map { [.int(Int64($0 % 20))] })
        let owners = try insert(kennels, (0..<20).map { i in [.list(d.prefix(i + 1).map { .link($0) })] })
        try read { txn in
            for (i, owner) in owners.enumerated() {
                let query = try StoreQuery("age >= 0").restricted(
                    to: .collection(ownerTable: "Kennel", ownerKey: owner, column: "dogs"))
                XCTAssertEqual(try query.evaluate(in: txn, table: dogs).count, i + 1)
                XCTAssertLessThanOrEqual(txn.collectionCandidates.count, CollectionCandidates.limit)
            }
        }
    }
}
