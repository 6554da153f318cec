import Foundation
import XCTest
@_spi(StrataEngine) @testable import StrataStorage
import StrataPOSIX

/// Scans of encrypted files that keep nothing of a leaf past its turn (`forEachLeaf(in:passing:)`,
/// `SealedFile.scanPage`): the leaves are opened into the walk's own buffers, not the mirror,
/// until a page's third scan; what they read is what the file holds, and a damaged leaf is
/// refused as on every other path.
final class EncryptedScanTests: StorageTestCase {
    let secretKey = [UInt8]((0..<64).map { UInt8(truncatingIfNeeded: $0 &* 11 &+ 3) })

    func openEncrypted(_ name: String = "scan.strata") throws -> Database {
        var o = Database.Options()
        o.encryptionKey = secretKey
        o.mapReserve = 64 << 20
        return try Database(path: path(name), options: o)
    }

    func assertEntries(
        _ entries: [([UInt8], [UInt8])], count: Int, tag: String, file: StaticString = #filePath, line: UInt = #line
    ) {
        XCTAssertEqual(entries.count, count, file: file, line: line)
        for (i, (k, v)) in entries.enumerated() where k != key(i) || v != value(i, tag) {
            XCTFail("entry \(i) differs", file: file, line: line)
            return
        }
    }

    /// What the mirror holds of page `n`: its header's page number (0 for memory never written).
    func mirrorPageNumber(_ r: ReadTransaction, _ n: UInt32) -> UInt32 {
        (r.access.base + Int(n) * r.access.pageSize).u32(PageHeader.pageNumber)
    }

    func openedWord(_ r: ReadTransaction, _ n: UInt32) throws -> UInt64 {
        try XCTUnwrap(r.mapping.sealed).opened.entry(n)
    }

    func testLeavesStayOutOfTheMirrorForTwoScansAndEnterItOnTheThird() throws {
        do {
            let db = try openEncrypted()
            try fill(db, count: 2_000, tag: "a")
            db.close()
        }
        // A new handle: a fresh mirror, which the writes above did not fill.
        let db = try openEncrypted()
        defer { db.close() }
        try db.read { r in
            var leaves: [UInt32] = []
            for visit in 1...4 {
                let scan = try passingScan(r)
                assertEntries(scan.entries, count: 2_000, tag: "a")
                leaves = scan.laterLeaves
                XCTAssertGreaterThan(leaves.count, 20, "a tree of many leaves")
                for n in leaves {
                    let sealedBy = try XCTUnwrap(r.mapping.sealed).sealedVersion(n)
                    let word = try openedWord(r, n)
                    if visit <= 2 {
                        XCTAssertEqual(mirrorPageNumber(r, n), 0, "scan \(visit) left page \(n) out of the mirror")
                        XCTAssertEqual(word, sealedBy | UInt64(visit) << SealedFile.scanVisitShift, "page \(n)")
                    } else {
                        XCTAssertEqual(mirrorPageNumber(r, n), n, "scan \(visit) put page \(n) in the mirror")
                        XCTAssertEqual(word, sealedBy, "page \(n)")
                    }
                }
            }
        }
    }

    func testALeafOpenedForAScanStaysOpenableForLookupsThroughTheMirror() throws {
        do {
            let db = try openEncrypted()
            try fill(db, count: 1_500, tag: "a")
            db.close()
        }
        let db = try openEncrypted()
        defer { db.close() }
        try db.read { r in
            let scan = try passingScan(r)
            assertEntries(scan.entries, count: 1_500, tag: "a")
            // Lookups reach the same leaves through `node`, which opens them into the mirror
            // whatever the scans counted.
            let t = try XCTUnwrap(try r.tree(named: "t"))
            for i in stride(from: 0, to: 1_500, by: 7) {
                XCTAssertEqual(try r.get(key(i), in: t), value(i, "a"), "entry \(i)")
            }
            assertEntries(try passingScan(r).entries, count: 1_500, tag: "a")
            assertEntries(try r.allEntries(t), count: 1_500, tag: "a")
        }
    }

    func testScansSeeEachNewVersionOfRewrittenLeaves() throws {
        // The writer's own handle puts the pages it commits in its mirror; the scans read through
        // a second handle, whose mirror holds only what it opened itself.
        let writer = try openEncrypted()
        defer { writer.close() }
        let reader = try openEncrypted()
        defer { reader.close() }
        for generation in ["a", "b", "c", "d", "e"] {
            // Every entry rewritten: the scans must open the new slots and count visits at the
            // new versions, not take the counts of the old ones.
            try fill(writer, count: 1_200, tag: generation)
            try reader.read { r in
                assertEntries(try passingScan(r).entries, count: 1_200, tag: generation)
                let leaves = try passingScan(r).laterLeaves
                let counted = try leaves.filter {
                    let word = try openedWord(r, $0)
                    let sealedBy = try XCTUnwrap(r.mapping.sealed).sealedVersion($0)
                    return word == sealedBy | 2 << SealedFile.scanVisitShift
                }
                XCTAssertEqual(counted.count, leaves.count, "generation \(generation): two visits at the new versions")
            }
        }
    }

    func testADamagedLeafIsRefusedByAScan() throws {
        var leaf: UInt32 = 0
        do {
            let db = try openEncrypted()
            try fill(db, count: 1_000, tag: "a")
            db.close()
            let reopened = try openEncrypted()
            try reopened.read { r in leaf = try passingScan(r).laterLeaves[5] }
            reopened.close()
        }
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path("scan.strata"))))
        bytes[CipherLayout.slotOffset(leaf, pageSize: 4096) + 2_000] ^= 0x04
        try Data(bytes).write(to: URL(fileURLWithPath: path("scan.strata")))
        let db = try openEncrypted()
        defer { db.close() }
        for visit in 1...3 {
            do {
                try db.read { r in _ = try passingScan(r) }
                XCTFail("scan \(visit) read a damaged leaf")
            } catch let StorageError.pageAuthenticationFailed(_, page, reason) {
                XCTAssertEqual(page, leaf, reason)
            }
        }
    }

    func testLinuxBuildsOpenPagesThroughBoringSSL() {
        #if os(Linux)
            // Were `CCryptoBoringSSL` to stop being visible, pages would quietly go through the
            // slower `AES.GCM` path (Docs/Decisions.md, "Encryption at rest").
            XCTAssertTrue(PageCipher.opensInPlace)
        #endif
    }

    /// A slot damaged while a snapshot reads the page opened from it (its trailer's version
    /// changed, so the next visit opens it again) is refused, and the page the mirror holds stays
    /// as it was: the cipher may zero what it fails to open, so a held page opens by way of a
    /// buffer.
    func testASlotDamagedUnderALiveReaderLeavesTheOpenedPageIntact() throws {
        do {
            let db = try openEncrypted()
            try fill(db, count: 1_000, tag: "a")
            db.close()
        }
        let db = try openEncrypted()
        defer { db.close() }
        try db.read { r in
            let t = try XCTUnwrap(try r.tree(named: "t"))
            assertEntries(try r.allEntries(t), count: 1_000, tag: "a")
            let n = try passingScan(r).laterLeaves[3]
            let pageSize = r.access.pageSize
            let mirror = r.access.base + Int(n) * pageSize
            XCTAssertEqual(mirror.u32(PageHeader.pageNumber), n, "the lookups opened the leaf into the mirror")
            let before = Array(UnsafeRawBufferPointer(start: mirror, count: pageSize))
            let version = try XCTUnwrap(r.mapping.sealed).sealedVersion(n)
            let file = try XCTUnwrap(FileHandle(forUpdatingAtPath: path("scan.strata")))
            defer { try? file.close() }
            try file.seek(toOffset: UInt64(CipherLayout.slotOffset(n, pageSize: pageSize) + pageSize))
            try file.write(contentsOf: withUnsafeBytes(of: (version + 1).littleEndian) { Data($0) })
            XCTAssertThrowsError(try r.access.page(n)) { error in
                guard case StorageError.pageAuthenticationFailed(_, let page, _) = error else {
                    return XCTFail("\(error)")
                }
                XCTAssertEqual(page, n)
            }
            XCTAssertTrue(
                Array(UnsafeRawBufferPointer(start: mirror, count: pageSize)) == before,
                "the failed open changed the page the mirror held")
        }
    }

    func testConcurrentScansWhileAWriterRewritesTheTreeReadWholeVersions() throws {
        // Writes through one handle, scans through another (see the test above).
        let writing = try openEncrypted()
        defer { writing.close() }
        let db = try openEncrypted()
        defer { db.close() }
        try fill(writing, count: 800, tag: "g0")
        let failures = ManagedFailureList()
        let writer = Thread {
            for g in 1...12 {
                do { try fill(writing, count: 800, tag: "g\(g)") } catch { failures.add("writer: \(error)") }
            }
        }
        writer.start()
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            for _ in 0..<15 {
                do {
                    try db.read { r in
                        let entries = try passingScan(r).entries
                        // One snapshot: every entry carries the same generation's tag.
                        guard entries.count == 800 else { return failures.add("a scan read \(entries.count) entries") }
                        // Entry 0's value starts "<tag>0:".
                        let tag = String(
                            String(decoding: entries[0].1.prefix(while: { $0 != 0x3A }), as: UTF8.self).dropLast())
                        for (i, (k, v)) in entries.enumerated() where k != key(i) || v != value(i, tag) {
                            return failures.add("entry \(i) is not generation \(tag)'s")
                        }
                    }
                } catch { failures.add("reader: \(error)") }
            }
        }
        while !writer.isFinished { usleep(1_000) }
        XCTAssertEqual(failures.all, [])
    }
}

private func value(_ i: Int, _ tag: String) -> [UInt8] {
    // Every 25th value is an overflow run: the walk reads those through the mirror.
    let size = i % 25 == 0 ? 6_000 : 60 + i % 40
    return Array("\(tag)\(i):".utf8) + [UInt8](repeating: UInt8(truncatingIfNeeded: i), count: size)
}

private func fill(_ db: Database, count: Int, tag: String) throws {
    try db.write { txn in
        let t = try txn.openTree("t", create: true)
        for i in 0..<count { try txn.put(key(i), value(i, tag), in: t) }
    }
}

/// The entries a passing scan reads (copied out inside each leaf's turn), and the pages of
/// the leaves it reached after the first.
private func passingScan(_ r: ReadTransaction) throws -> (entries: [([UInt8], [UInt8])], laterLeaves: [UInt32]) {
    let t = try XCTUnwrap(try r.tree(named: "t"))
    var entries: [([UInt8], [UInt8])] = []
    var leaves: [UInt32] = []
    try r.forEachLeaf(in: t, passing: true) { leaf in
        leaves.append(leaf.identity.page)
        for i in 0..<leaf.count {
            let (k, v) = try leaf.inlineEntry(i) ?? leaf.entry(i)
            entries.append((Array(k), Array(v)))
        }
        return true
    }
    return (entries, Array(leaves.dropFirst()))
}

/// Failures gathered from several threads.
private final class ManagedFailureList: @unchecked Sendable {
    private let lock = NSLock()
    private var list: [String] = []
    func add(_ s: String) { lock.withLock { list.append(s) } }
    var all: [String] { lock.withLock { list } }
}
