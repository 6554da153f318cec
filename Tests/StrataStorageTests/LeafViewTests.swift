import Foundation
import XCTest
@_spi(StrataEngine) @testable import StrataStorage

/// `forEachLeaf` + `LeafView` (the scan primitive) read exactly what `forEach` reads: every entry
/// in key order, inline and overflow values, in read and write transactions, at every page size;
/// a damaged cell is reported as `corruptPage`, never trusted.
final class LeafViewTests: StorageTestCase {
    /// Every entry through leaves, taking the inline fast path where it applies.
    func leafEntries(
        _ forEachLeaf: ((LeafView) throws -> Bool) throws -> Void
    ) throws -> (entries: [([UInt8], [UInt8])], slow: Int) {
        var out: [([UInt8], [UInt8])] = []
        var slow = 0
        try forEachLeaf { leaf in
            for i in 0..<leaf.count {
                if let (k, v) = leaf.inlineEntry(i) {
                    out.append((Array(k), Array(v)))
                } else {
                    slow += 1
                    let (k, v) = try leaf.entry(i)
                    out.append((Array(k), Array(v)))
                }
            }
            return true
        }
        return (out, slow)
    }

    func testLeavesHoldExactlyTheEntriesOfForEachAtEveryPageSize() throws {
        for pageSize in [4096, 8192, 32768] {
            let name = "leaves-\(pageSize).strata"
            let db = try open(name, pageSize: pageSize)
            var rng = SeededRandom(seed: UInt64(pageSize))
            var large = 0
            try db.write { txn in
                let t = try txn.openTree("t", create: true)
                for i in rng.shuffled(Array(0..<3_000)) {
                    // Mostly small values; every 97th is larger than a leaf allows inline.
                    let size = i % 97 == 0 ? pageSize + 100 : 1 + i % 60
                    if i % 97 == 0 { large += 1 }
                    try txn.put(key(i), Array(repeating: UInt8(i % 251), count: size), in: t)
                }
                // Inside the write transaction: its own (private and mapped) pages.
                let viaForEach = try {
                    var out: [([UInt8], [UInt8])] = []
                    try txn.forEach(in: t) { k, v in
                        out.append((Array(k), Array(v))); return true
                    }
                    return out
                }()
                let (viaLeaves, slow) = try leafEntries { try txn.forEachLeaf(in: t, $0) }
                XCTAssertEqual(viaLeaves.count, 3_000)
                XCTAssertTrue(
                    viaLeaves.elementsEqual(viaForEach, by: { $0.0 == $1.0 && $0.1 == $1.1 }),
                    "page size \(pageSize), write")
                XCTAssertEqual(slow, large, "only overflow values leave the fast path")
            }
            try db.read { r in
                let t = try XCTUnwrap(r.tree(named: "t"))
                let (viaLeaves, slow) = try leafEntries { try r.forEachLeaf(in: t, $0) }
                let viaForEach = try r.allEntries(t)
                XCTAssertTrue(
                    viaLeaves.elementsEqual(viaForEach, by: { $0.0 == $1.0 && $0.1 == $1.1 }),
                    "page size \(pageSize), read")
                XCTAssertEqual(viaLeaves.map(\.0), (0..<3_000).map { key($0) }, "key order")
                XCTAssertEqual(slow, large)
            }
            db.close()
        }
    }

    func testStoppingEarlyAndEmptyTrees() throws {
        let db = try open()
        try db.write { txn in
            let t = try txn.openTree("t", create: true)
            for i in 0..<2_000 { try txn.put(key(i), [UInt8(i % 256)], in: t) }
            _ = try txn.openTree("empty", create: true)
        }
        try db.read { r in
            var leaves = 0
            try r.forEachLeaf(in: XCTUnwrap(r.tree(named: "t"))) { _ in
                leaves += 1; return leaves < 2
            }
            XCTAssertEqual(leaves, 2, "returning false stops the walk")
            var any = false
            try r.forEachLeaf(in: XCTUnwrap(r.tree(named: "empty"))) { _ in
                any = true; return true
            }
            XCTAssertFalse(any)
        }
        db.close()
    }

    func testACellOutsideThePageIsReportedNotRead() throws {
        let db = try open()
        try db.write { txn in
            let t = try txn.openTree("t", create: true)
            for i in 0..<20 { try txn.put(key(i), Array(repeating: 7, count: 30), in: t) }
        }
        let leaf = try db.read { r in try XCTUnwrap(r.tree(named: "t")).root }
        db.close()
        // Slot 3 points into the slot array itself: below the cell area.
        let h = try FileHandle(forUpdating: URL(fileURLWithPath: path()))
        try h.seek(toOffset: UInt64(Int(leaf) * 4096 + PageHeader.size + 2 * 3))
        h.write(Data([UInt8(PageHeader.size), 0]))
        try h.close()
        let reopened = try open()
        defer { reopened.close() }
        try reopened.read { r in
            let t = try XCTUnwrap(r.tree(named: "t"))
            XCTAssertThrowsError(
                try r.forEachLeaf(in: t) { leaf in
                    for i in 0..<leaf.count { _ = try leaf.inlineEntry(i) ?? leaf.entry(i) }
                    return true
                }
            ) { error in
                guard case StorageError.corruptPage(_, let page, _) = error else { return XCTFail("\(error)") }
                XCTAssertEqual(page, leaf)
            }
        }
    }

    /// Scans hint the processor to load the next leaf and the cells of a leaf before reading
    /// them (`prefetchForRead`, `LeafView.prefetchCells`). A hint is computed from unchecked bytes,
    /// so it must be harmless wherever it points: unmapped memory, past the page, past the map.
    func testPrefetchHintsAreHarmlessWhereverTheyPoint() throws {
        prefetchForRead(UnsafeRawPointer(bitPattern: 64)!, bytes: 1 << 16)  // the unmapped zero page
        prefetchForRead(UnsafeRawPointer(bitPattern: UInt(bitPattern: Int.max) & ~63)!)  // beyond any mapping
        let db = try open()
        try db.write { txn in
            let t = try txn.openTree("t", create: true)
            for i in 0..<20 { try txn.put(key(i), Array(repeating: 7, count: 30), in: t) }
        }
        let (leaf, pages) = try db.read { r in (try XCTUnwrap(r.tree(named: "t")).root, try db.verify().pageCount) }
        db.close()
        // Slot 5 points 64 KiB past its page's start: past the end of the file.
        XCTAssertGreaterThan(Int(leaf) * 4096 + 0xFFF0, pages * 4096)
        let h = try FileHandle(forUpdating: URL(fileURLWithPath: path()))
        try h.seek(toOffset: UInt64(Int(leaf) * 4096 + PageHeader.size + 2 * 5))
        h.write(Data([0xF0, 0xFF]))
        try h.close()
        let reopened = try open()
        defer { reopened.close() }
        try reopened.read { r in
            let t = try XCTUnwrap(r.tree(named: "t"))
            var seen = 0
            XCTAssertThrowsError(
                try r.forEachLeaf(in: t) { leaf in
                    seen += leaf.count
                    return true
                }
            ) { error in
                guard case StorageError.corruptPage(_, let page, _) = error else { return XCTFail("\(error)") }
                XCTAssertEqual(page, leaf)
            }
            XCTAssertEqual(seen, 0, "a scan refuses the damaged leaf before handing it out")
            // The leaf itself, as a scan would have handed it out before scans checked leaves:
            // its prefetch hints and the fast path still stay inside the page.
            let view = LeafView(page: try r.access.nodeHeader(leaf), access: r.access)
            view.prefetchCells()
            var read = 0
            XCTAssertThrowsError(
                try {
                    for i in 0..<view.count {
                        _ = try view.inlineEntry(i) ?? view.entry(i)
                        read += 1
                    }
                }()
            ) { error in
                guard case StorageError.corruptPage(_, let page, _) = error else { return XCTFail("\(error)") }
                XCTAssertEqual(page, leaf)
            }
            XCTAssertEqual(read, 5, "the entries before the damaged slot are read")
        }
    }
}

extension SeededRandom {
    mutating func shuffled<T>(_ xs: [T]) -> [T] {
        var a = xs
        for i in stride(from: a.count - 1, to: 0, by: -1) { a.swapAt(i, below(i + 1)) }
        return a
    }
}
