import Foundation
import XCTest
@testable import StrataStorage

/// Corrupt, truncated, zero-length and foreign files are refused with typed errors that name the
/// file and what is wrong; nothing crashes.
final class CorruptFileTests: StorageTestCase {
    func write(_ bytes: [UInt8], to name: String = "test.strata") throws {
        try Data(bytes).write(to: URL(fileURLWithPath: path(name)))
    }

    func makeDatabase(entries: Int = 3000) throws {
        let db = try open()
        try db.write { txn in
            let t = try txn.openTree("t", create: true)
            for i in 0..<entries { try txn.put(key(i), Array(repeating: UInt8(i % 251), count: 40), in: t) }
        }
        db.close()
    }

    func patch(_ offset: Int, _ bytes: [UInt8]) throws {
        let h = try FileHandle(forUpdating: URL(fileURLWithPath: path()))
        try h.seek(toOffset: UInt64(offset))
        h.write(Data(bytes))
        try h.close()
    }

    func expectRefusal(_ options: Database.Options = Database.Options(), _ check: (StorageError) -> Void) {
        XCTAssertThrowsError(try Database(path: path(), options: options)) { error in
            guard let e = error as? StorageError else { return XCTFail("not a StorageError: \(error)") }
            XCTAssertTrue(e.description.contains(path()), "message names the file: \(e)")
            check(e)
        }
    }

    func testZeroLengthFileIsRefused() throws {
        try write([])
        expectRefusal { e in
            guard case .notADatabase(_, let reason) = e else { return XCTFail("\(e)") }
            XCTAssertTrue(reason.contains("empty"))
        }
    }

    func testSQLiteFileIsRefused() throws {
        var header = Array("SQLite format 3\0".utf8)
        header += [UInt8](repeating: 0, count: 4096 - header.count)
        try write(header)
        expectRefusal { e in
            guard case .notADatabase(_, let reason) = e else { return XCTFail("\(e)") }
            XCTAssertTrue(reason.contains("SQLite"))
        }
    }

    func testForeignBytesAreRefused() throws {
        var rng = SeededRandom(seed: 9)
        try write((0..<20000).map { _ in UInt8.random(in: 0...255, using: &rng) })
        expectRefusal { e in
            guard case .notADatabase = e else { return XCTFail("\(e)") }
        }
    }

    func testShortFileIsRefused() throws {
        try write(Array("hello".utf8))
        expectRefusal { e in
            guard case .notADatabase(_, let reason) = e else { return XCTFail("\(e)") }
            XCTAssertTrue(reason.contains("5 bytes"))
        }
    }

    func testByteSwappedFileIsRefused() throws {
        try makeDatabase()
        // Both meta slots, as a file written with the other byte order has them.
        for slot in 0..<2 {
            try patch(slot * 4096 + MetaLayout.magic, withUnsafeBytes(of: fileMagic.bigEndian) { Array($0) })
        }
        expectRefusal { e in
            guard case .byteOrderMismatch = e else { return XCTFail("\(e)") }
        }
    }

    func testUnknownFormatVersionNamesBothVersions() throws {
        try makeDatabase()
        // Both meta slots, as a file written by a newer format has them.
        for slot in 0..<2 {
            try patch(
                slot * 4096 + MetaLayout.formatVersion, withUnsafeBytes(of: UInt32(99).littleEndian) { Array($0) })
        }
        expectRefusal { e in
            guard case .unsupportedFormatVersion(_, let found, let supported) = e else { return XCTFail("\(e)") }
            XCTAssertEqual(found, 99)
            XCTAssertEqual(supported, strataFormatVersion)
            XCTAssertTrue(e.description.contains("99") && e.description.contains("\(strataFormatVersion)"))
        }
    }

    /// Meta slot 0 damaged in the fields that identify the file (magic, format version, page
    /// size): only a damaged meta record, so the file opens at slot 1 with every entry.
    func testSlotZeroDamagedInItsIdentityOpensAtSlotOne() throws {
        for (offset, value) in [
            (MetaLayout.magic, UInt32(0x1234_5678)), (MetaLayout.formatVersion, 99), (MetaLayout.pageSize, 12345),
        ] {
            try? FileManager.default.removeItem(atPath: path())
            try? FileManager.default.removeItem(atPath: path() + ".lock")
            try makeDatabase()
            try patch(offset, withUnsafeBytes(of: value.littleEndian) { Array($0) })
            let db = try open()
            XCTAssertEqual(
                try db.read { r in try r.tree(named: "t")?.count }, 3000, "slot 0 damaged at offset \(offset)")
            db.close()
        }
    }

    func testTruncatedFileIsRefused() throws {
        try makeDatabase()
        let h = try FileHandle(forUpdating: URL(fileURLWithPath: path()))
        try h.truncate(atOffset: 3 * 4096)
        try h.close()
        expectRefusal { e in
            guard case .truncated(_, let expected, let actual) = e else { return XCTFail("\(e)") }
            XCTAssertEqual(actual, 3 * 4096)
            XCTAssertGreaterThan(expected, actual)
        }
    }

    func testBothMetaPagesCorruptIsRefused() throws {
        try makeDatabase()
        try patch(MetaLayout.version, [0xFF, 0xEE])
        try patch(4096 + MetaLayout.version, [0xFF, 0xEE])
        expectRefusal { e in
            guard case .corruptPage(_, let page, let reason) = e else { return XCTFail("\(e)") }
            XCTAssertEqual(page, 0)
            XCTAssertTrue(reason.contains("neither meta page"))
        }
    }

    /// A meta record whose version is past any count of commits (forged or damaged, with a valid
    /// checksum) is not used: with the other slot intact the file opens at it and takes writes;
    /// with both such records the open is refused with a typed error. (The next write computed
    /// `version + 1` and stopped the process on overflow.)
    func testMetaRecordWithAnImpossibleVersionIsNotUsed() throws {
        try makeDatabase()
        var file = try DamagedFile(path: path())
        file.setU64(0, MetaLayout.version, UInt64.max)
        file.resum(0)
        try file.write(to: path())
        let db = try open()
        try db.write { txn in
            let t = try txn.openTree("t", create: true)
            try txn.put(key(1), [1], in: t)
        }
        try db.read { r in XCTAssertEqual(try r.tree(named: "t")?.count, 3000) }
        db.close()
        var both = try DamagedFile(path: path())
        for slot in [UInt32(0), 1] {
            both.setU64(slot, MetaLayout.version, UInt64.max)
            both.resum(slot)
        }
        try both.write(to: path())
        expectRefusal { e in
            guard case .corruptPage(_, let page, let reason) = e else { return XCTFail("\(e)") }
            XCTAssertEqual(page, 0)
            XCTAssertTrue(reason.contains("neither meta page"), reason)
        }
    }

    func testOneCorruptMetaPageFallsBackToTheOther() throws {
        try makeDatabase()
        // After a clean close both slots hold the newest version; lose either one.
        try patch(MetaLayout.catalogRoot, [0x12])
        let db = try open()
        try db.read { r in XCTAssertEqual(try r.tree(named: "t")?.count, 3000) }
    }

    func testFlippedByteInATreePageIsFoundByVerifyAndRefusedByFullVerification() throws {
        try makeDatabase()
        // Page 5 is a tree page in a 3000-entry file; flip a byte inside its cell area.
        try patch(5 * 4096 + 4000, [0xA5])
        let db = try open()
        XCTAssertThrowsError(try db.verify()) { error in
            guard case StorageError.corruptPage(_, let page, let reason) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(page, 5)
            XCTAssertTrue(reason.contains("checksum"))
        }
        db.close()
        var o = Database.Options()
        o.verifyAllOnOpen = true
        // Make the next open a first open after an unclean close is not needed: full verification
        // runs for any first opener.
        expectRefusal(o) { e in
            guard case .corruptPage(_, 5, _) = e else { return XCTFail("\(e)") }
        }
    }

    func testCorruptNodeHeaderGivesAnErrorNotACrash() throws {
        try makeDatabase()
        let db = try open()
        let leaf = try db.read { r -> UInt32 in
            // Find a leaf: descend from the tree's root through cell 0.
            let t = try r.tree(named: "t")!
            var n = t.root
            while true {
                let p = try r.access.node(n)
                if Node.isLeaf(p) { return n }
                n = try Node.child(p, 0, r.access)
            }
        }
        db.close()
        try patch(Int(leaf) * 4096 + PageHeader.cellCount, [0xFF, 0x7F])  // an absurd cell count
        let reopened = try open()
        XCTAssertThrowsError(
            try reopened.read { r in
                let t = try r.tree(named: "t")!
                for i in 0..<3000 { _ = try r.get(key(i), in: t) }
            }
        ) { error in
            guard case StorageError.corruptPage(_, let page, _) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(page, leaf)
        }
    }

    func testInvalidPageSizeIsRefused() {
        var o = Database.Options()
        o.pageSize = 5000
        XCTAssertThrowsError(try Database(path: path(), options: o)) { error in
            XCTAssertEqual(error as? StorageError, .invalidPageSize(5000))
        }
    }

    func testLockFileWithWrongMagicIsRefusedWhileAnotherHandleHoldsIt() throws {
        let db = try open()
        // Garbage in the lock file while the database is open (a non-first opener must check it).
        let h = try FileHandle(forUpdating: URL(fileURLWithPath: path() + ".lock"))
        h.write(Data(repeating: 0x42, count: 8))
        try h.close()
        XCTAssertThrowsError(try open()) { error in
            guard case StorageError.lockFileInvalid = error else { return XCTFail("\(error)") }
        }
        db.close()
        // The last handle gone, the next opener resets the lock file.
        XCTAssertNoThrow(try open())
    }
}

/// The offsets and sizes FORMAT.md documents.
final class FormatLayoutTests: XCTestCase {
    func testPageHeaderLayout() {
        XCTAssertEqual(PageHeader.size, 32)
        XCTAssertEqual(
            [
                PageHeader.checksum, PageHeader.pageNumber, PageHeader.type, PageHeader.flags, PageHeader.reserved,
                PageHeader.version, PageHeader.typeSpecific,
            ],
            [0, 8, 12, 13, 14, 16, 24])
        XCTAssertEqual([PageHeader.cellCount, PageHeader.cellStart, PageHeader.garbage], [24, 26, 28])
        XCTAssertEqual(
            [PageHeader.runPages, PageHeader.valueLength, PageHeader.entryCount, PageHeader.nextPage], [24, 28, 24, 28])
    }

    func testMetaLayout() {
        XCTAssertEqual(
            [
                MetaLayout.magic, MetaLayout.formatVersion, MetaLayout.pageSize, MetaLayout.version,
                MetaLayout.catalogRoot,
                MetaLayout.freeListHead, MetaLayout.pageCount, MetaLayout.flags, MetaLayout.durableBase,
                MetaLayout.freeListPages,
                MetaLayout.listHead, MetaLayout.listPagesOwn, MetaLayout.inlineCount, MetaLayout.inlineFreeCount,
                MetaLayout.reserved,
                MetaLayout.inlineList,
            ],
            [32, 40, 44, 48, 56, 60, 64, 68, 72, 80, 84, 88, 92, 96, 100, 104])
        // The inline free extents start 8-aligned after the inline commit list.
        XCTAssertEqual(MetaLayout.inlineFreeOffset(inlineCount: 0), 104)
        XCTAssertEqual(MetaLayout.inlineFreeOffset(inlineCount: 3), 120)
        XCTAssertTrue(MetaLayout.fitsInline(pages: 10, extents: 100, pageSize: 4096))
        XCTAssertFalse(MetaLayout.fitsInline(pages: 10, extents: 250, pageSize: 4096))
        XCTAssertEqual(MetaLayout.inlineCapacity(pageSize: 4096), 998)
        XCTAssertEqual(FreeListLayout.capacity(pageSize: 4096), 254)
        XCTAssertEqual(CommitListLayout.capacity(pageSize: 4096), 1016)
        XCTAssertEqual(CellLayout.leafHeader, 6)
        XCTAssertEqual(CellLayout.branchHeader, 6)
        XCTAssertEqual(TreeInfoLayout.size, 16)
    }

    func testMagicShowsByteOrder() {
        // On disk (little-endian) the magic reads "BDATARTS"; a big-endian reader sees the swap.
        let bytes = withUnsafeBytes(of: fileMagic.littleEndian) { Array($0) }
        XCTAssertEqual(String(decoding: bytes, as: UTF8.self), "BDATARTS")
        XCTAssertNotEqual(fileMagic, fileMagicByteSwapped)
    }

    func testLockFileLayout() {
        XCTAssertEqual(
            [
                LockFile.Offset.magic, LockFile.Offset.formatVersion, LockFile.Offset.slotCount, LockFile.Offset.active,
                LockFile.Offset.copies, LockFile.Offset.copySize, LockFile.Offset.slots, LockFile.Offset.slotSize,
            ],
            [0, 8, 12, 64, 128, 64, 4096, 64])
        XCTAssertEqual(
            [
                LockFile.Offset.seq, LockFile.Offset.version, LockFile.Offset.catalogRoot, LockFile.Offset.pageCount,
                LockFile.Offset.latestSlot, LockFile.Offset.durableVersion, LockFile.Offset.durableSlot,
            ],
            [0, 8, 16, 20, 24, 32, 40])
        XCTAssertEqual(LockFile.fileSize(slots: 126), 12288)
    }

    func testChecksumIsStableAndNeverZero() {
        let zeros = [UInt8](repeating: 0, count: 4096)
        let c = zeros.withUnsafeBytes { Checksum.ofPage($0.baseAddress!, length: 4096) }
        XCTAssertNotEqual(c, 0)
        var page = [UInt8](repeating: 7, count: 4096)
        let a = page.withUnsafeBytes { Checksum.ofPage($0.baseAddress!, length: 4096) }
        page[100] ^= 1
        let b = page.withUnsafeBytes { Checksum.ofPage($0.baseAddress!, length: 4096) }
        XCTAssertNotEqual(a, b, "a single flipped bit changes the checksum")
        // The first 8 bytes (where the checksum is stored) are not covered.
        page[3] ^= 0xFF
        XCTAssertEqual(b, page.withUnsafeBytes { Checksum.ofPage($0.baseAddress!, length: 4096) })
    }
}
