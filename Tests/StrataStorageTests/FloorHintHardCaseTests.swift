import XCTest
import Foundation
import StrataPOSIX
@_spi(StrataEngine) @testable import StrataStorage

/// The floor hint's hard cases: a `floor` inside a change's
/// body, an edit through a transaction that has committed, and `floor` against a model whose
/// separators are prefixes.
final class FloorHintHardCaseTests: StorageTestCase {
    /// A `floor` called from inside a change's body (here `modify`'s) records a hint with the
    /// stamp that change already bumped; the change then inserts a cell before the hinted one,
    /// and the next `mutateFloorInPlace` writes through the stale index into another entry.
    func testFloorInsideModifyBodyLeavesStaleHint() throws {
        let db = try open(pageSize: 4096)
        defer { db.close() }
        try db.write { txn in
            let t = try txn.openTree("t", create: true)
            for k in [10, 20, 30] { _ = try txn.put(key(k), [UInt8](repeating: UInt8(k), count: 4), in: t) }
            // Insert key 15 (before 20 in the same leaf) while the body looks up floor(20).
            _ = try key(15).withUnsafeBytes { k15 in
                try txn.modify(k15, in: t) { _, buffer in
                    _ = try key(20).withUnsafeBytes { try txn.floor($0, in: t) }
                    for j in 0..<4 { buffer[j] = 15 }
                    return 4
                }
            }
            _ = try key(20).withUnsafeBytes { k in
                try txn.mutateFloorInPlace(k, in: t) { (b: UnsafeMutableRawBufferPointer) -> Void in b[0] = 0xEE }
            }
        }
        let r = try db.beginRead()
        defer { r.end() }
        let e = try r.entriesByNumber("t")
        XCTAssertEqual(e[20], [0xEE, 20, 20, 20], "the edit of key 20 went elsewhere")
        XCTAssertEqual(e[15], [15, 15, 15, 15], "key 15 was overwritten by the edit meant for key 20")
    }

    /// Same through a split of a leaf under a branch root (the root stays where it is).
    func testFloorInsideModifyFloorBodyThenSplit() throws {
        let db = try open(pageSize: 4096)
        defer { db.close() }
        try db.write { txn in
            let t = try txn.openTree("t", create: true)
            for k in 0..<300 { _ = try txn.put(key(k * 10), [UInt8](repeating: UInt8(k % 251), count: 100), in: t) }
        }
        var corrupted = 0
        for probe in stride(from: 1000, through: 1600, by: 10) {
            let txn = try db.beginWrite()
            let t = try txn.openTree("t")
            // Own the path first (a put into the same leaf), as a real update would.
            _ = try txn.put(key(1000), [UInt8](repeating: 1, count: 100), in: t)
            let root = txn.tree(t).root
            _ = try key(1000).withUnsafeBytes { k in
                try txn.modifyFloor(k, in: t) { _, _, _, buffer in
                    _ = try key(probe).withUnsafeBytes { try txn.floor($0, in: t) }
                    for j in 0..<buffer.count { buffer[j] = 0x55 }
                    return .replaced(buffer.count)
                }
            }
            guard txn.tree(t).root == root else { txn.abort(); continue }
            _ = try key(probe).withUnsafeBytes { k in
                try txn.mutateFloorInPlace(k, in: t) { (b: UnsafeMutableRawBufferPointer) -> Void in b[0] = 0xEE }
            }
            if try txn.get(key(probe), in: t)?.first != 0xEE { corrupted += 1 }
            txn.abort()
        }
        XCTAssertEqual(corrupted, 0)
    }

    /// After commit the hinted pointer is read before `checkOpen`.
    func testMutateAfterCommitThrows() throws {
        let db = try open(pageSize: 4096)
        defer { db.close() }
        let txn = try db.beginWrite()
        let t = try txn.openTree("t", create: true)
        for k in 0..<100 { _ = try txn.put(key(k), [1, 2, 3], in: t) }
        _ = try key(50).withUnsafeBytes { try txn.floor($0, in: t) }
        try txn.commit()
        XCTAssertThrowsError(
            try key(50).withUnsafeBytes { k in
                try txn.mutateFloorInPlace(k, in: t) { (b: UnsafeMutableRawBufferPointer) -> Void in b[0] = 9 }
            })
    }
}

final class FloorCellTests: StorageTestCase {
    /// floor against a brute-force model with variable-length keys (long shared prefixes make
    /// separators prefixes; deletes leave sparse leaves), and the hint with those keys.
    func testFloorMatchesModelWithPrefixSeparators() throws {
        let db = try open(pageSize: 4096)
        defer { db.close() }
        var rng = SeededRandom(seed: 5)
        var model: [[UInt8]: [UInt8]] = [:]
        func randomKey() -> [UInt8] {
            let len = 1 + rng.below(40)
            var k = [UInt8](repeating: 0x61, count: len)
            // Mostly shared prefixes, a few varying bytes.
            for _ in 0..<2 { k[rng.below(len)] = UInt8(0x61 + rng.below(3)) }
            return k
        }
        func less(_ a: [UInt8], _ b: [UInt8]) -> Bool { a.lexicographicallyPrecedes(b) }
        for round in 0..<6 {
            try db.write { txn in
                let t = try txn.openTree("t", create: true)
                for step in 0..<1500 {
                    let k = randomKey()
                    if rng.below(3) == 0, !model.isEmpty {
                        let d = model.keys.randomElement(using: &rng)!
                        _ = try txn.delete(d, in: t); model[d] = nil
                    } else {
                        let v = [UInt8](repeating: UInt8(step % 251), count: 1 + rng.below(200))
                        _ = try txn.put(k, v, in: t); model[k] = v
                    }
                    let probe = randomKey()
                    let expect = model.keys.filter { !less(probe, $0) }.max(by: less)
                    let got = try probe.withUnsafeBytes { try txn.floor($0, in: t) }.map { Array($0.key) }
                    XCTAssertEqual(got, expect, "round \(round) step \(step)")
                    if let expect, rng.below(2) == 0 {
                        let fill = UInt8(step % 200)
                        let r = try probe.withUnsafeBytes { p in
                            try txn.mutateFloorInPlace(p, in: t) { (b: UnsafeMutableRawBufferPointer) -> Int in
                                b[0] = fill; return 1
                            }
                        }
                        if r != nil { model[expect]![0] = fill }
                    }
                }
            }
            let r = try db.beginRead()
            let tr = try XCTUnwrap(try r.tree(named: "t"))
            var stored: [[UInt8]: [UInt8]] = [:]
            try r.forEach(in: tr) { k, v in
                stored[Array(k)] = Array(v); return true
            }
            XCTAssertEqual(stored, model)
            for _ in 0..<500 {
                let probe = randomKey()
                let expect = model.keys.filter { !less(probe, $0) }.max(by: less)
                XCTAssertEqual(try probe.withUnsafeBytes { try r.floor($0, in: tr) }.map { Array($0.key) }, expect)
            }
            r.end()
        }
    }
}

final class FloorHintAfterCommitTests: StorageTestCase {
    func testStaleHintAfterLargeCommit() throws {
        let db = try open(pageSize: 4096)
        defer { db.close() }
        try db.write { _ in }
        let txn = try db.beginWrite()
        let t = try txn.openTree("t", create: true)
        var rng = SeededRandom(seed: 3)
        for _ in 0..<120_000 { _ = try txn.put(key(rng.below(1 << 40)), [UInt8](repeating: 7, count: 150), in: t) }
        var best: (page: UInt32, key: [UInt8]) = (0, [])
        try txn.forEachLeaf(in: t) { leaf in
            let n = leaf.page.u32(PageHeader.pageNumber)
            if n > best.page, leaf.count > 0 { best = (n, Array(try leaf.entry(0).key)) }
            return true
        }
        _ = try best.key.withUnsafeBytes { try txn.floor($0, in: t) }
        let h = txn.floorHint!
        let root = txn.tree(t).root
        try txn.commit()
        let size = try StorageError.wrap { try System.fileSize(db.fd) }
        // The hinted leaf now lies past the end of the shortened file: the edit must throw
        // (`transactionEnded`), never read through the hint (that was a SIGBUS).
        XCTAssertGreaterThanOrEqual(
            Int64(best.page) * 4096, size, "the scenario needs the hinted page past the end of the file")
        XCTAssertEqual(root, txn.tree(t).root)
        XCTAssertEqual(h.stamp, txn.changeStamp)
        XCTAssertThrowsError(
            try best.key.withUnsafeBytes { k in
                try txn.mutateFloorInPlace(k, in: t) { (b: UnsafeMutableRawBufferPointer) -> Void in b[0] = 9 }
            })
    }
}
