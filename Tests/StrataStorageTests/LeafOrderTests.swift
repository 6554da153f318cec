import Foundation
import XCTest
@_spi(StrataEngine) @testable import StrataStorage

/// Commit step 5 (`orderDirtyLeaves`): after a large commit, the leaves it wrote sit in the file
/// in key order; contents, snapshots, free space and verification are unaffected.
final class LeafOrderTests: StorageTestCase {
    /// The page numbers of `tree`'s leaves, in key order.
    func leafPages(_ r: ReadTransaction, _ tree: Tree) throws -> [UInt32] {
        var pages: [UInt32] = []
        try r.forEachLeaf(in: tree) { leaf in
            pages.append(leaf.page.u32(PageHeader.pageNumber)); return true
        }
        return pages
    }

    func value(_ i: Int, _ round: Int) -> [UInt8] { Array(repeating: UInt8((i &+ round) % 251), count: 20 + i % 40) }

    func testARandomOrderBulkLoadLeavesItsLeavesInKeyOrder() throws {
        for pageSize in [4096, 16384] {
            let db = try open("bulk-\(pageSize).strata", pageSize: pageSize)
            defer { db.close() }
            var rng = SeededRandom(seed: 7)
            var model: [UInt64: [UInt8]] = [:]
            try db.write { txn in
                let t = try txn.openTree("t", create: true)
                let other = try txn.openTree("other", create: true)
                for i in rng.shuffled(Array(0..<20_000)) {
                    try txn.put(key(i), value(i, 0), in: t)
                    model[UInt64(i)] = value(i, 0)
                    if i % 3 == 0 { try txn.put(key(i), [1, 2, 3], in: other) }
                }
            }
            try db.read { r in
                for name in ["t", "other"] {
                    let pages = try leafPages(r, XCTUnwrap(r.tree(named: name)))
                    XCTAssertGreaterThan(pages.count, name == "t" ? 32 : 1, "\(name) has several leaves")
                    XCTAssertEqual(
                        pages, pages.sorted(), "\(name)'s leaves are in key order in the file (page size \(pageSize))")
                }
                XCTAssertEqual(try r.entriesByNumber("t"), model)
            }
            let report = try db.verify()
            XCTAssertEqual(report.leakedPages, [])
        }
    }

    func testReorderingLeavesASnapshotAndTheFreeListIntact() throws {
        let db = try open()
        var rng = SeededRandom(seed: 11)
        try db.write { txn in
            let t = try txn.openTree("t", create: true)
            for i in rng.shuffled(Array(0..<15_000)) { try txn.put(key(i), value(i, 0), in: t) }
        }
        let snapshot = try db.beginRead()
        let before = try snapshot.entriesByNumber("t")
        // A large update in random order copies most leaves and reorders the copies.
        var model = before
        try db.write { txn in
            let t = try txn.openTree("t", create: true)
            for i in rng.shuffled(Array(0..<15_000)).prefix(6_000) {
                try txn.put(key(i), value(i, 1), in: t)
                model[UInt64(i)] = value(i, 1)
            }
            for i in 15_000..<16_000 {
                try txn.put(key(i), value(i, 1), in: t)
                model[UInt64(i)] = value(i, 1)
            }
        }
        XCTAssertEqual(try snapshot.entriesByNumber("t"), before, "the snapshot still reads its version")
        try db.read { r in
            XCTAssertEqual(try r.entriesByNumber("t"), model)
            let pages = try leafPages(r, XCTUnwrap(r.tree(named: "t")))
            // Leaves the update did not copy keep their old (older, lower or higher) pages; the
            // copies it wrote are in key order among themselves.
            let written = pages.filter { p in (try? r.access.page(p).u64(PageHeader.version)) == r.version.rawValue }
            XCTAssertGreaterThan(written.count, 32)
            XCTAssertEqual(written, written.sorted())
        }
        _ = snapshot
        XCTAssertEqual(try db.verify().leakedPages, [])
        db.close()
        let reopened = try open()
        defer { reopened.close() }
        try reopened.read { r in XCTAssertEqual(try r.entriesByNumber("t"), model) }
        XCTAssertEqual(try reopened.verify().leakedPages, [])
    }

    func testAReorderedCommitThatIsAbortedLeavesNothing() throws {
        let db = try open()
        try db.write { txn in
            let t = try txn.openTree("t", create: true)
            for i in 0..<100 { try txn.put(key(i), value(i, 0), in: t) }
        }
        let txn = try db.beginWrite()
        let t = try txn.openTree("t", create: true)
        var rng = SeededRandom(seed: 3)
        for i in rng.shuffled(Array(0..<10_000)) { try txn.put(key(i), value(i, 2), in: t) }
        txn.abort()
        try db.read { r in
            let e = try r.entriesByNumber("t")
            XCTAssertEqual(e.count, 100)
            XCTAssertEqual(e[5], value(5, 0))
        }
        XCTAssertEqual(try db.verify().leakedPages, [])
        db.close()
    }
}
