import Foundation
import XCTest
@_spi(StrataEngine) @testable import StrataStorage

/// Commit step 0 (`repackDirtyLeaves`): a large commit packs the leaves it wrote; contents,
/// snapshots, free space and later changes are unaffected.
final class LeafRepackTests: StorageTestCase {
    /// Leaves of `tree` and their average fill (used bytes over the cell area).
    func leafFill(_ r: ReadTransaction, _ tree: Tree) throws -> (leaves: Int, fill: Double) {
        var leaves = 0, used = 0
        try r.forEachLeaf(in: tree) { leaf in
            leaves += 1
            used += Node.usedBytes(leaf.page, pageSize: leaf.pageSize)
            return true
        }
        let capacity = r.access.pageSize - PageHeader.size
        return (leaves, Double(used) / Double(max(1, leaves) * capacity))
    }

    func testARandomOrderBulkLoadIsPackedAndReadsBackExactly() throws {
        for pageSize in [4096, 8192] {
            let db = try open("bulk-\(pageSize).strata", pageSize: pageSize)
            defer { db.close() }
            var rng = SeededRandom(seed: 99)
            var model: [UInt64: [UInt8]] = [:]
            try db.write { txn in
                let t = try txn.openTree("t", create: true)
                for i in rng.shuffled(Array(0..<30_000)) {
                    // Every 211th value is larger than a leaf holds inline (an overflow run).
                    let v = Array(repeating: UInt8(i % 251), count: i % 211 == 0 ? pageSize * 2 : 10 + i % 50)
                    try txn.put(key(i), v, in: t)
                    model[UInt64(i)] = v
                }
            }
            try db.read { r in
                XCTAssertEqual(try r.entriesByNumber("t"), model)
                let (leaves, fill) = try leafFill(r, XCTUnwrap(r.tree(named: "t")))
                XCTAssertGreaterThan(leaves, 40)
                XCTAssertGreaterThan(
                    fill, 0.85,
                    "page size \(pageSize): \(leaves) leaves \(fill) full (random-order splits alone leave ~0.69)")
            }
            let report = try db.verify()
            XCTAssertEqual(report.leakedPages, [], "emptied pages went back to the free list")
            XCTAssertEqual(report.trees["t"], 30_000)
        }
    }

    func testPagesEmptiedByPackingLeaveTheFilesInUseRange() throws {
        let db = try open()
        defer { db.close() }
        var rng = SeededRandom(seed: 21)
        try db.write { txn in
            let t = try txn.openTree("t", create: true)
            for i in rng.shuffled(Array(0..<40_000)) {
                try txn.put(key(i), Array(repeating: UInt8(i % 251), count: 30), in: t)
            }
        }
        let report = try db.verify()
        XCTAssertEqual(report.leakedPages, [])
        // Nodes written last sit at the end of the file; they moved down into the emptied pages.
        XCTAssertLessThan(
            report.freePages, report.pageCount / 50, "\(report.freePages) free of \(report.pageCount) pages in use")
        try db.read { r in
            let (leaves, fill) = try leafFill(r, XCTUnwrap(r.tree(named: "t")))
            XCTAssertGreaterThan(fill, 0.85, "\(leaves) leaves")
            XCTAssertEqual(try r.entriesByNumber("t").count, 40_000)
        }
    }

    func testPackedLeavesTakeLaterChangesAndSnapshotsKeepTheirVersion() throws {
        let db = try open()
        var rng = SeededRandom(seed: 5)
        var model: [UInt64: [UInt8]] = [:]
        try db.write { txn in
            let t = try txn.openTree("t", create: true)
            for i in rng.shuffled(Array(0..<20_000)) {
                try txn.put(key(i * 2), [UInt8(i % 256), 1, 2, 3, 4, 5, 6, 7, 8, 9], in: t)
                model[UInt64(i * 2)] = [UInt8(i % 256), 1, 2, 3, 4, 5, 6, 7, 8, 9]
            }
        }
        let snapshot = try db.beginRead()
        let before = try snapshot.entriesByNumber("t")
        // Small commits into packed leaves: inserts between existing keys (splits), updates that
        // grow values, deletes.
        for round in 0..<200 {
            try db.write { txn in
                let t = try txn.openTree("t", create: true)
                for _ in 0..<5 {
                    let k = UInt64(rng.below(40_000))
                    switch rng.below(3) {
                    case 0, 1:
                        let v = Array(repeating: UInt8(round % 256), count: 5 + rng.below(60))
                        try txn.put(key(Int(k)), v, in: t)
                        model[k] = v
                    default:
                        _ = try txn.delete(key(Int(k)), in: t)
                        model[k] = nil
                    }
                }
            }
        }
        // And one more large commit that rewrites a third of the tree.
        try db.write { txn in
            let t = try txn.openTree("t", create: true)
            for i in rng.shuffled(Array(0..<40_000)).prefix(13_000) {
                let v = Array(repeating: UInt8(i % 7), count: 1 + i % 30)
                try txn.put(key(i), v, in: t)
                model[UInt64(i)] = v
            }
        }
        XCTAssertEqual(try snapshot.entriesByNumber("t"), before, "the snapshot still reads its version")
        try db.read { r in XCTAssertEqual(try r.entriesByNumber("t"), model) }
        _ = snapshot
        XCTAssertEqual(try db.verify().leakedPages, [])
        db.close()
        let reopened = try open()
        defer { reopened.close() }
        try reopened.read { r in XCTAssertEqual(try r.entriesByNumber("t"), model) }
        XCTAssertEqual(try reopened.verify().leakedPages, [])
    }
}
