import Foundation
import XCTest
@_spi(StrataEngine) @testable import StrataStorage
import StrataPOSIX

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// `forEachLeaf` / `LeafView.inlineEntry`, commit step 5 (`orderDirtyLeaves`) and commit step 0
/// (`repackDirtyLeaves`) keep every entry.
///
/// The commit steps are attacked with large random-order commits that mix overflow values,
/// several trees (a tree whose root is a leaf, a dropped and re-created tree, many small trees so
/// the catalog has branches), deletes, long keys with shared prefixes, values near the inline
/// limit, a held snapshot, deferred groups that leave young pages, `commitAndContinue`, and
/// injected failures of the commit after the steps ran. Each checks the data read back against a
/// model, `verify()` (no leaked pages, separators in bounds), and where it applies the file as a
/// SIGKILL would leave it (the page cache), opened as after a crash.
final class CommitReorderTests: CommitReorderTestCase {
    /// Large random-order commits over several trees (integer keys; long shared-prefix keys; a
    /// tree whose root is a leaf; a tree dropped and re-created), with overflow values, values near
    /// the inline limit, and deletes; a snapshot of the first version is held throughout.
    func testLargeRandomCommitsOverSeveralTreesKeepDataSnapshotAndFreeSpace() throws {
        for pageSize in [4096, 16384] {
            let name = "several-\(pageSize).strata"
            let db = try open(name, pageSize: pageSize)
            var rng = SeededRandom(seed: UInt64(pageSize) &+ 17)
            var model: Model = [:]
            // Round 0: random-order bulk loads of "a" and "b", a few entries in "tiny" and "drop".
            try db.write { txn in
                let a = try txn.openTree("a", create: true)
                let b = try txn.openTree("b", create: true)
                let tiny = try txn.openTree("tiny", create: true)
                let drop = try txn.openTree("drop", create: true)
                let small = try txn.openTree("s", create: true)
                for i in rng.shuffled(Array(0..<4_000)) {
                    let v = Array(repeating: UInt8(i % 251), count: 1 + i % 70)
                    try txn.put(key(i), v, in: small)
                    model["s", default: [:]][key(i)] = v
                }
                for i in rng.shuffled(Array(0..<(pageSize == 4096 ? 7_000 : 8_000))) {
                    let v = randomValue(&rng, pageSize: pageSize, tag: i)
                    try txn.put(treeKey("a", i), v, in: a)
                    model["a", default: [:]][treeKey("a", i)] = v
                    if i % 3 == 0 {
                        try txn.put(treeKey("b", i), v, in: b)
                        model["b", default: [:]][treeKey("b", i)] = v
                    }
                }
                for i in 0..<3 {
                    try txn.put(key(i), [UInt8(i)], in: tiny); model["tiny", default: [:]][key(i)] = [UInt8(i)]
                }
                for i in 0..<500 {
                    try txn.put(key(i), [UInt8(i % 256)], in: drop);
                    model["drop", default: [:]][key(i)] = [UInt8(i % 256)]
                }
            }
            try assertHolds(db, model, "page size \(pageSize), round 0")
            // Steps 0 and 5 ran: the random-order load of small values is packed, and leaves are
            // in key order. (Not "a": one cell near the inline limit in a run makes step 0 leave
            // the whole run unpacked; see testPackingASmallShareOfLargeInlineCells.)
            let small0 = try leafStats(db, "s")
            XCTAssertGreaterThan(small0.fill, 0.85, "page size \(pageSize): \(small0.leaves) leaves of s")
            let stats0 = try leafStats(db, "a")
            XCTAssertGreaterThan(stats0.written.count, 32)
            XCTAssertEqual(stats0.written, stats0.written.sorted(), "page size \(pageSize): leaves in key order")
            let snapshot = try db.beginRead()
            let first = model
            for round in 1...3 {
                try db.write { txn in
                    try randomLargeChanges(
                        txn, &model, ["a", "b", "s"], keySpace: pageSize == 4096 ? 9_000 : 10_000,
                        ops: 2_500, deleteShare: round == 3 ? 45 : 20, &rng, round: round)
                    // The tree whose root is a leaf changes in the same commit.
                    let tiny = try txn.openTree("tiny")
                    try txn.put(key(round), [UInt8(round), 1], in: tiny)
                    model["tiny"]![key(round)] = [UInt8(round), 1]
                    if round == 2 {
                        try txn.dropTree("drop")
                        model["drop"] = nil
                    } else if round == 3 {
                        let d = try txn.openTree("drop", create: true)
                        for i in rng.shuffled(Array(0..<2_000)) {
                            let v = randomValue(&rng, pageSize: pageSize, tag: i)
                            try txn.put(key(i), v, in: d)
                            model["drop", default: [:]][key(i)] = v
                        }
                    }
                }
                try assertHolds(db, model, "page size \(pageSize), round \(round)", extraNames: ["drop"])
                let stats = try leafStats(db, "a")
                XCTAssertEqual(
                    stats.written, stats.written.sorted(), "page size \(pageSize), round \(round): leaves in key order")
            }
            XCTAssertEqual(
                try readBack(snapshot, Array(first.keys)), nonEmpty(first),
                "page size \(pageSize): the snapshot still reads its version")
            snapshot.end()
            db.close()
            let reopened = try open(name, pageSize: pageSize)
            try assertHolds(reopened, model, "page size \(pageSize), reopened", extraNames: ["drop"])
            reopened.close()
        }
    }

    /// A commit with 64+ dirty pages made mostly of overflow runs, so the transaction's private
    /// page table still has room at commit: step 0 frees and takes pages inside it (the moved
    /// nodes land in private buffers, written with `pwritev`).
    func testRepackWhileThePrivatePageTableHasRoom() throws {
        let db = try open()
        var rng = SeededRandom(seed: 4242)
        var model: Model = [:]
        try db.write { txn in
            let t = try txn.openTree("t", create: true)
            for i in rng.shuffled(Array(0..<4_000)) {
                let v = Array(repeating: UInt8(i % 251), count: 20 + i % 30)
                try txn.put(key(i), v, in: t)
                model["t", default: [:]][key(i)] = v
            }
        }
        for round in 0..<3 {
            let txn = try db.beginWrite()
            let t = try txn.openTree("t")
            let o = try txn.openTree("o", create: true)
            // 70 overflow runs (one dirty entry each, never in the private table).
            for i in 0..<70 {
                let v = Array(repeating: UInt8((i + round) % 256), count: 5_000 + i)
                try txn.put(key(round * 1_000 + i), v, in: o)
                model["o", default: [:]][key(round * 1_000 + i)] = v
            }
            // Neighbouring leaves of "t" copied: runs of dirty leaves for step 0 to pack.
            let start = rng.below(3_000)
            for i in stride(from: start, to: start + 900, by: 25) {
                let v = Array(repeating: UInt8(round), count: 1 + rng.below(40))
                try txn.put(key(i), v, in: t)
                model["t"]![key(i)] = v
            }
            XCTAssertGreaterThanOrEqual(
                txn.dirty.count, WriteTransaction.largeCommitMinimumPages, "setup: a large commit")
            XCTAssertEqual(
                txn.shadow.pointee.generation, txn.access.shadowGeneration, "setup: the private table is in use")
            XCTAssertLessThan(
                txn.shadow.pointee.count, txn.shadow.pointee.capacity, "setup: the private table has room")
            try txn.commit()
            try assertHolds(db, model, "round \(round)")
        }
        db.close()
        let reopened = try open()
        try assertHolds(reopened, model, "reopened")
        reopened.close()
    }

    /// Keys close to the key size limit that share long prefixes, and values close to the inline
    /// limit: separators are long (a rebuilt branch may not fit) and an even deal can overfill.
    func testLongKeysAndNearLimitValuesKeepSeparatorsInBounds() throws {
        let db = try open()
        var rng = SeededRandom(seed: 77)
        var model: Model = [:]
        let maxKey = db.maxKeySize
        func longKey(_ i: Int) -> [UInt8] {
            // Groups share a prefix of 500-990 bytes; keys differ at the end.
            let g = i % 5
            return [UInt8](repeating: UInt8(65 + g), count: 500 + g * 120) + Array(String(i * 104_729 % 1_000_003).utf8)
        }
        for round in 0..<3 {
            try db.write { txn in
                let t = try txn.openTree("long", create: true)
                let s = try txn.openTree("short", create: true)
                for i in rng.shuffled(Array((round * 400)..<(round * 400 + 1_200))) {
                    let k = longKey(i)
                    XCTAssertLessThanOrEqual(k.count, maxKey)
                    let v = Array(
                        repeating: UInt8(i % 256),
                        count: rng.below(3) == 0 ? db.maxInlineCell - 6 - k.count : 1 + rng.below(20))
                    try txn.put(k, v, in: t)
                    model["long", default: [:]][k] = v
                    let sk = key(i)
                    let sv = Array(repeating: UInt8(i % 256), count: db.maxInlineCell - 6 - 8 - rng.below(3))
                    try txn.put(sk, sv, in: s)
                    model["short", default: [:]][sk] = sv
                }
                for _ in 0..<150 {
                    let k = longKey(rng.below(round * 400 + 1_200))
                    if try txn.delete(k, in: t) { model["long"]![k] = nil }
                }
            }
            try assertHolds(db, model, "round \(round)")
        }
        db.close()
    }

    /// Many trees dirty in one large commit: most are single leaves (their roots move down in
    /// step 0), so the catalog grows branches; one tree is large.
    func testManyTreesInOneLargeCommit() throws {
        let db = try open()
        var rng = SeededRandom(seed: 9)
        var model: Model = [:]
        for round in 0..<2 {
            try db.write { txn in
                for t in 0..<180 {
                    let name = "tree-\(String(repeating: "x", count: t % 40))-\(t)"
                    let h = try txn.openTree(name, create: true)
                    for j in 0..<(1 + (t + round) % 4) {
                        let v = Array(repeating: UInt8(t % 256), count: 10 + j)
                        try txn.put(key(round * 10 + j), v, in: h)
                        model[name, default: [:]][key(round * 10 + j)] = v
                    }
                }
                let big = try txn.openTree("big", create: true)
                for i in rng.shuffled(Array(0..<5_000)) {
                    let v = randomValue(&rng, pageSize: 4096, tag: i + round)
                    try txn.put(key(i), v, in: big)
                    model["big", default: [:]][key(i)] = v
                }
            }
            try assertHolds(db, model, "round \(round)")
        }
        // Most of "big" goes, then compact() relocates pages from the end in a commit that steps
        // 0 and 5 also rewrite.
        try db.write { txn in
            let big = try txn.openTree("big")
            for i in 0..<5_000 where i % 5 != 0 {
                XCTAssertTrue(try txn.delete(key(i), in: big))
                model["big"]![key(i)] = nil
            }
        }
        try assertHolds(db, model, "deleted")
        let compacted = try db.compact()
        XCTAssertLessThanOrEqual(compacted.bytesAfter, compacted.bytesBefore)
        try assertHolds(db, model, "compacted")
        db.close()
        let reopened = try open()
        try assertHolds(reopened, model, "reopened")
        reopened.close()
    }
}
