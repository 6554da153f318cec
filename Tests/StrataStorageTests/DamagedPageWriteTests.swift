import Foundation
import XCTest
@testable import StrataStorage

/// Writes that meet damaged pages (a flipped bit, or damage that still carries a valid checksum,
/// as a bug or bad disk firmware could leave): the write path edits nodes in place and frees
/// overflow runs by their headers' counts, so it checks each committed node it copies and each
/// run it frees or copies, and reports damage as `corruptPage` instead of editing outside the
/// page or freeing billions of pages. Found by strata-fuzz (Fuzz/regressions).
final class DamagedPageWriteTests: StorageTestCase {
    /// A file with tree `t` of 3000 entries; returns the page number of its first leaf.
    func makeFile() throws -> UInt32 {
        let db = try open()
        try db.write { txn in
            let t = try txn.openTree("t", create: true)
            for i in 0..<3000 { try txn.put(key(i), Array(repeating: UInt8(i % 251), count: 40), in: t) }
        }
        let leaf = try db.read { r -> UInt32 in
            var n = try XCTUnwrap(try r.tree(named: "t")).root
            while true {
                let p = try r.access.node(n)
                if Node.isLeaf(p) { return n }
                n = try Node.child(p, 0, r.access)
            }
        }
        db.close()
        return leaf
    }

    /// Changes page `n` of the closed file with `edit`, then recomputes its checksum.
    func damage(page n: UInt32, _ edit: (UnsafeMutableRawPointer) -> Void) throws {
        var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path())))
        bytes.withUnsafeMutableBytes { raw in
            let p = raw.baseAddress! + Int(n) * 4096
            edit(p)
            p.setU64(PageHeader.checksum, Checksum.ofPage(p, length: 4096))
        }
        try Data(bytes).write(to: URL(fileURLWithPath: path()))
    }

    func testWriteIntoANodeWhoseCellsDoNotFillItsCellAreaIsACorruptPageError() throws {
        for (label, edit) in [
            ("garbage count too large", { (p: UnsafeMutableRawPointer) in p.setU16(PageHeader.garbage, 3000) }),
            (
                "garbage count too small",
                { p in
                    p.setU16(PageHeader.garbage, 0); p.setU16(PageHeader.cellStart, UInt16(Node.cellStart(p) - 8))
                }
            ),
            ("cell offset below the cell area", { p in p.setU16(PageHeader.size, UInt16(Node.cellStart(p) - 8)) }),
            ("cell length past the page", { p in p.setU32(Node.slot(p, 1) + 2, 5000) }),
        ] as [(String, (UnsafeMutableRawPointer) -> Void)] {
            let leaf = try makeFile()
            try damage(page: leaf, edit)
            let db = try open()
            XCTAssertThrowsError(
                try db.write { txn in
                    let t = try txn.openTree("t")
                    try txn.put(key(0), [1, 2, 3], in: t)
                }, label
            ) { error in
                guard case StorageError.corruptPage(_, let page, let reason) = error else {
                    return XCTFail("\(label): \(error)")
                }
                XCTAssertEqual(page, leaf, label)
                // Found by the read checks of the writer's descent (first visit of the page) or,
                // failing those, by the check of the node it copies.
                XCTAssertTrue(
                    ["do not fill", "outside the cell area", "runs past the page"].contains { reason.contains($0) },
                    "\(label): \(reason)")
            }
            // The file was not changed: the other leaves still read, and a write elsewhere works.
            try db.read { r in
                XCTAssertEqual(
                    try r.get(key(2999), in: try XCTUnwrap(try r.tree(named: "t"))),
                    Array(repeating: UInt8(2999 % 251), count: 40))
            }
            try db.write { txn in try txn.put(key(2999), [9], in: try txn.openTree("t")) }
            try db.read { r in XCTAssertEqual(try r.get(key(2999), in: try XCTUnwrap(try r.tree(named: "t"))), [9]) }
            db.close()
            try FileManager.default.removeItem(atPath: path())
            try? FileManager.default.removeItem(atPath: path() + ".lock")
        }
    }

    /// Damages the header of the overflow run holding key 0's 10,000-byte value (no reseal: the
    /// writer frees runs without reading their checksums), and returns the run's first page.
    func makeFileWithDamagedRun(runPages: UInt32) throws -> UInt32 {
        let db = try open()
        try db.write { txn in
            let t = try txn.openTree("t", create: true)
            try txn.put(key(0), Array(repeating: 7, count: 10_000), in: t)
            for i in 1..<50 { try txn.put(key(i), [UInt8(i)], in: t) }
        }
        let first = try db.read { r -> UInt32 in
            let p = try r.access.node(try XCTUnwrap(try r.tree(named: "t")).root)
            guard case .overflow(let first, _) = try Node.leafValue(p, 0, r.access) else {
                throw XCTSkip("no overflow run")
            }
            return first
        }
        db.close()
        var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path())))
        bytes.withUnsafeMutableBytes { $0.baseAddress!.setU32(Int(first) * 4096 + PageHeader.runPages, runPages) }
        try Data(bytes).write(to: URL(fileURLWithPath: path()))
        return first
    }

    func testFreeingAnOverflowRunWithADamagedPageCountIsACorruptPageError() throws {
        let edits: [(String, (WriteTransaction, TreeHandle) throws -> Void)] = [
            ("delete", { txn, t in _ = try txn.delete(key(0), in: t) }),
            ("replace", { txn, t in try txn.put(key(0), [1, 2, 3], in: t) }),
        ]
        for runPages: UInt32 in [0xB8B8_B8B8, 0, 5000] {
            for (label, edit) in edits {
                let first = try makeFileWithDamagedRun(runPages: runPages)
                let db = try open()
                XCTAssertThrowsError(
                    try db.write { txn in try edit(txn, try txn.openTree("t")) }, "\(label) \(runPages)"
                ) { error in
                    guard case StorageError.corruptPage(_, let page, let reason) = error else {
                        return XCTFail("\(label): \(error)")
                    }
                    XCTAssertEqual(page, first, label)
                    XCTAssertTrue(reason.contains("overflow run"), "\(label): \(reason)")
                }
                // Nothing was committed; the other entries still read and take writes.
                try db.write { txn in try txn.put(key(49), [9], in: try txn.openTree("t")) }
                try db.read { r in
                    let t = try XCTUnwrap(try r.tree(named: "t"))
                    XCTAssertEqual(try r.get(key(49), in: t), [9])
                    XCTAssertEqual(try r.get(key(1), in: t), [1])
                }
                db.close()
                try FileManager.default.removeItem(atPath: path())
                try? FileManager.default.removeItem(atPath: path() + ".lock")
            }
        }
    }

    /// A branch whose cells do not fill its cell area (with a valid checksum) is reported by the
    /// first descent through it, in a write as in a read: neither a put that only repoints one of
    /// its children nor one that splits a child (adding a cell to it) edits it.
    func testWritesThroughADamagedBranchAreCorruptPageErrors() throws {
        _ = try makeFile()
        let root = try { () -> UInt32 in
            let db = try open()
            defer { db.close() }
            return try db.read { r in try XCTUnwrap(try r.tree(named: "t")).root }
        }()
        try damage(page: root) { p in p.setU16(PageHeader.garbage, UInt16(Node.garbage(p) + 16)) }
        let db = try open()
        // One small put (the root would only be copied and repointed), then enough puts into one
        // leaf to split it (the root would take a new cell): both are refused.
        for (label, puts) in [("repoint", [5]), ("split", Array(3000..<3200))] {
            XCTAssertThrowsError(
                try db.write { txn in
                    let t = try txn.openTree("t")
                    for i in puts { try txn.put(key(i), Array(repeating: 1, count: 40), in: t) }
                }, label
            ) { error in
                guard case StorageError.corruptPage(_, let page, let reason) = error else {
                    return XCTFail("\(label): \(error)")
                }
                XCTAssertEqual(page, root, label)
                XCTAssertTrue(reason.contains("do not fill"), "\(label): \(reason)")
            }
        }
        XCTAssertThrowsError(try db.read { r in try r.get(key(5), in: try XCTUnwrap(try r.tree(named: "t"))) })
        db.close()
    }

    /// A committed page whose header claims the version the writer is creating is not taken for
    /// one the writer made: it is reported, not edited in place (which would change the
    /// committed version without a commit).
    func testACommittedPageClaimingTheWritersVersionIsACorruptPageError() throws {
        let leaf = try makeFile()
        let next = try { () -> UInt64 in
            let db = try open()
            defer { db.close() }
            return db.latestVersion.rawValue + 1
        }()
        try damage(page: leaf) { p in p.setU64(PageHeader.version, next) }
        let before = Array(
            try Data(contentsOf: URL(fileURLWithPath: path()))[(Int(leaf) * 4096)..<(Int(leaf) * 4096 + 4096)])
        let db = try open()
        XCTAssertThrowsError(try db.write { txn in try txn.put(key(0), [1, 2, 3], in: try txn.openTree("t")) }) {
            error in
            guard case StorageError.corruptPage(_, let page, let reason) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(page, leaf)
            XCTAssertTrue(reason.contains("claims version"), reason)
        }
        db.close()
        let after = Array(
            try Data(contentsOf: URL(fileURLWithPath: path()))[(Int(leaf) * 4096)..<(Int(leaf) * 4096 + 4096)])
        XCTAssertEqual(after, before, "the committed page was edited in place")
    }
}
