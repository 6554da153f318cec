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

/// Commit step 0's effect (not correctness): how full a random-order bulk load leaves its leaves
/// when a small share of the values are large but still inline.
final class RepackFillTests: StorageTestCase {
    /// 1% of the cells are 900-960 bytes (inline: the limit is 1014 at 4 KiB pages), the rest
    /// up to 86 bytes. Before the fix, the deal in `repackLeafChildren` cut leaves by
    /// cumulative share only, so a leaf that started with a large cell right after a boundary
    /// could get `target` plus that cell (up to ~117% of a page); the run was then left unpacked,
    /// and in a bulk load the run is every child of the branch (here one run of 190 leaves,
    /// largest dealt leaf 4641 > 4064 bytes). Measured before the fix: 0% large cells -> 0.92
    /// full, 1% -> 0.68, 3% -> 0.68, 10% -> 0.65 (unpacked: ~0.69). Fixed: a leaf is also cut
    /// when the next cell would not fit it.
    func testPackingASmallShareOfLargeInlineCells() throws {
        let db = try open()
        defer { db.close() }
        var rng = SeededRandom(seed: 3)
        try db.write { txn in
            let t = try txn.openTree("t", create: true)
            for i in rng.shuffled(Array(0..<8_000)) {
                let size = rng.below(100) < 1 ? 900 + rng.below(60) : 1 + rng.below(80)
                try txn.put(key(i), Array(repeating: 1, count: size), in: t)
            }
        }
        var leaves = 0, used = 0
        try db.read { r in
            try r.forEachLeaf(in: XCTUnwrap(r.tree(named: "t"))) { leaf in
                leaves += 1
                used += Node.usedBytes(leaf.page, pageSize: leaf.pageSize)
                return true
            }
        }
        let fill = Double(used) / Double(leaves * (4096 - PageHeader.size))
        XCTAssertGreaterThan(fill, 0.85, "\(leaves) leaves, \(fill) full: packing gave up")
        XCTAssertEqual(try db.verify().leakedPages, [])
    }
}
