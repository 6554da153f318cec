import Foundation
import XCTest
@testable import StrataStorage
import StrataPOSIX

/// Encrypted files (FORMAT.md, "Encrypted files"): every page sealed with AES-256-GCM under a key
/// derived from the 64-byte key given, opened into memory of the reader's own; a wrong or missing
/// key, a changed byte, a page moved or taken from another file are refused, never read as data.
final class EncryptionTests: StorageTestCase {
    let secretKey = [UInt8]((0..<64).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 1) })
    let otherKey = [UInt8](repeating: 0x5A, count: 64)

    func openEncrypted(
        _ name: String = "enc.strata", key: [UInt8]? = nil, mapReserve: Int = 64 << 20, readOnly: Bool = false
    ) throws -> Database {
        var o = Database.Options()
        o.encryptionKey = key ?? secretKey
        o.mapReserve = mapReserve
        o.readOnly = readOnly
        return try Database(path: path(name), options: o)
    }

    func value(_ i: Int, _ tag: String = "v") -> [UInt8] {
        // Every 10th value is larger than a leaf cell may be: an overflow run of several pages.
        let size = i % 10 == 0 ? 9_000 + i : 40 + i % 30
        return Array("\(tag)\(i):".utf8) + [UInt8](repeating: UInt8(truncatingIfNeeded: i), count: size)
    }

    func fill(_ db: Database, count: Int = 300, tag: String = "v", durability: Durability = .full) throws {
        try db.write(durability: durability) { txn in
            let t = try txn.openTree("t", create: true)
            for i in 0..<count { try txn.put(key(i), value(i, tag), in: t) }
        }
    }

    func assertHolds(
        _ db: Database, count: Int = 300, tag: String = "v", file: StaticString = #filePath, line: UInt = #line
    )
        throws
    {
        try db.read { r in
            // Outside XCTUnwrap, which would record a thrown error as a failure.
            let tree = try r.tree(named: "t")
            let t = try XCTUnwrap(tree, file: file, line: line)
            let entries = try r.allEntries(t)
            XCTAssertEqual(entries.count, count, file: file, line: line)
            for (i, (k, v)) in entries.enumerated() {
                XCTAssertEqual(k, key(i), file: file, line: line)
                XCTAssertEqual(v, value(i, tag), "entry \(i)", file: file, line: line)
            }
        }
    }

    func fileBytes(_ name: String) throws -> [UInt8] { [UInt8](try Data(contentsOf: URL(fileURLWithPath: path(name)))) }

    func writeBytes(_ bytes: [UInt8], _ name: String) throws {
        try Data(bytes).write(to: URL(fileURLWithPath: path(name)))
        try? FileManager.default.removeItem(atPath: path(name) + ".lock")
    }

    // MARK: Round trips

    func testEncryptedDataReadsBackAfterReopenWithOverflowRunsAndDeferredCommits() throws {
        do {
            let db = try openEncrypted()
            XCTAssertTrue(db.isEncrypted)
            try fill(db, tag: "a", durability: .deferred)
            try assertHolds(db, tag: "a")
            try fill(db, tag: "b")
            try assertHolds(db, tag: "b")
            XCTAssertEqual(try db.verify().leakedPages, [])
            db.close()
        }
        let db = try openEncrypted()
        defer { db.close() }
        try assertHolds(db, tag: "b")
        let report = try db.verify()
        XCTAssertEqual(report.leakedPages, [])
        XCTAssertEqual(report.trees["t"], 300)
    }

    /// Two handles of one file (each with its own mirror, as two processes have) see each
    /// other's commits: a page the other handle rewrote is opened again, not read stale.
    func testTwoHandlesSeeEachOthersCommits() throws {
        let a = try openEncrypted()
        defer { a.close() }
        let b = try openEncrypted()
        defer { b.close() }
        try fill(a, tag: "a")
        try assertHolds(b, tag: "a")
        for round in 0..<6 {
            let (writer, reader) = round % 2 == 0 ? (b, a) : (a, b)
            try fill(writer, tag: "r\(round)", durability: round % 3 == 0 ? .deferred : .full)
            try assertHolds(reader, tag: "r\(round)")
            try assertHolds(writer, tag: "r\(round)")
        }
        XCTAssertEqual(try a.verify().leakedPages, [])
    }

    /// A transaction that outgrows its mapping continues in a new mirror with what it wrote.
    func testATransactionThatOutgrowsItsMappingKeepsItsPages() throws {
        let db = try openEncrypted(mapReserve: 0)
        defer { db.close() }
        try fill(db, count: 2_000, tag: "big")
        try assertHolds(db, count: 2_000, tag: "big")
        db.close()
        let reopened = try openEncrypted(mapReserve: 0)
        defer { reopened.close() }
        try assertHolds(reopened, count: 2_000, tag: "big")
        XCTAssertEqual(try reopened.verify().leakedPages, [])
    }

    func testAReadOnlyHandleReadsAnEncryptedFile() throws {
        let db = try openEncrypted()
        try fill(db)
        db.close()
        let ro = try openEncrypted(readOnly: true)
        defer { ro.close() }
        try assertHolds(ro)
    }

    // MARK: Keys

    func testAWrongKeyIsRefusedAtOpen() throws {
        let db = try openEncrypted()
        try fill(db)
        db.close()
        XCTAssertThrowsError(try openEncrypted(key: otherKey)) { error in
            XCTAssertEqual(error as? StorageError, .wrongEncryptionKey(path: path("enc.strata")))
            XCTAssertTrue("\(error)".contains("encrypted with another key"), "\(error)")
        }
        // The right key still opens it: the refused open changed nothing.
        let again = try openEncrypted()
        defer { again.close() }
        try assertHolds(again)
    }

    func testAnEncryptedFileWithoutKeyAndAPlainFileWithKeyAreRefused() throws {
        let enc = try openEncrypted()
        enc.close()
        XCTAssertThrowsError(try open("enc.strata")) { error in
            XCTAssertEqual(error as? StorageError, .encryptionKeyRequired(path: path("enc.strata")))
            XCTAssertTrue("\(error)".contains("is encrypted"), "\(error)")
        }
        let plain = try open("plain.strata")
        plain.close()
        XCTAssertThrowsError(try openEncrypted("plain.strata")) { error in
            XCTAssertEqual(error as? StorageError, .fileNotEncrypted(path: path("plain.strata")))
            XCTAssertTrue("\(error)".contains("is not encrypted"), "\(error)")
        }
    }

    func testAKeyOfAnotherLengthIsRefusedAndCreatesNothing() throws {
        XCTAssertThrowsError(try openEncrypted(key: [UInt8](repeating: 1, count: 32))) { error in
            XCTAssertEqual(error as? StorageError, .invalidEncryptionKeyLength(32))
            XCTAssertTrue("\(error)".contains("64 bytes"), "\(error)")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("enc.strata")))
    }

    // MARK: What the file holds

    func testTheFileHoldsNoPlaintextOfTheData() throws {
        let secret = Array("a secret sentence that must never reach the disk".utf8)
        for encrypted in [false, true] {
            let name = encrypted ? "enc.strata" : "plain.strata"
            let db = encrypted ? try openEncrypted(name) : try open(name)
            try db.write { txn in
                let t = try txn.openTree("secrets", create: true)
                for i in 0..<200 { try txn.put(key(i), secret + Array("#\(i)".utf8), in: t) }
                try txn.put(key(1_000), secret + [UInt8](repeating: 1, count: 20_000), in: t)
            }
            db.close()
            let bytes = try fileBytes(name)
            let found = Data(bytes).range(of: Data(secret)) != nil
            // The plain file is the control: the search finds what is there.
            XCTAssertEqual(found, !encrypted, name)
            let treeName = Data(bytes).range(of: Data("secrets".utf8)) != nil
            XCTAssertEqual(treeName, !encrypted, "the catalog's tree names are encrypted too")
        }
    }

    /// Every page's slot in turn gets one byte flipped: each read then either fails
    /// authentication, or (a slot the version does not reach) reads the right data; never
    /// other data.
    func testAFlippedByteInAnyPageIsRefusedNotReadAsData() throws {
        let db = try openEncrypted()
        try fill(db, count: 120)
        let pages = db.lockFile.readState().pageCount
        db.close()
        let original = try fileBytes("enc.strata")
        var refused = 0
        for n in UInt32(2)..<pages {
            for offset in [100, 4_000, 4_096 + CipherLayout.trailerTag] {
                var bytes = original
                bytes[CipherLayout.slotOffset(n, pageSize: 4096) + offset] ^= 0x10
                try writeBytes(bytes, "enc.strata")
                do {
                    let damaged = try openEncrypted()
                    defer { damaged.close() }
                    try assertHolds(damaged, count: 120)
                } catch let StorageError.pageAuthenticationFailed(_, page, reason) {
                    XCTAssertEqual(page, n, "\(reason)")
                    refused += 1
                }
            }
        }
        XCTAssertGreaterThan(refused, Int(pages - 2), "most pages are reached by the read")
    }

    /// A slot copied from another file encrypted with the same key, or from another place of
    /// the same file, does not open.
    func testAPageFromAnotherFileOrAnotherPlaceIsRefused() throws {
        for name in ["a.strata", "b.strata"] {
            let db = try openEncrypted(name)
            try fill(db, count: 120, tag: name)
            db.close()
        }
        let a = try fileBytes("a.strata"), b = try fileBytes("b.strata")
        let slotSize = 4096 + CipherLayout.trailerSize
        // The first slot of the tree's leaves in each file: the same place, the same kind of page.
        let db = try openEncrypted("a.strata")
        let pages = db.lockFile.readState().pageCount
        db.close()
        var refusedForeign = 0, refusedMoved = 0
        for n in UInt32(2)..<pages {
            let at = CipherLayout.slotOffset(n, pageSize: 4096)
            var foreign = a
            foreign.replaceSubrange(at..<at + slotSize, with: b[at..<at + slotSize])
            try writeBytes(foreign, "a.strata")
            do {
                let opened = try openEncrypted("a.strata")
                defer { opened.close() }
                try assertHolds(opened, count: 120, tag: "a.strata")
            } catch StorageError.pageAuthenticationFailed(_, let page, _) {
                XCTAssertEqual(page, n)
                refusedForeign += 1
            }
            let from = CipherLayout.slotOffset(n == 2 ? 3 : 2, pageSize: 4096)
            var moved = a
            moved.replaceSubrange(at..<at + slotSize, with: a[from..<from + slotSize])
            try writeBytes(moved, "a.strata")
            do {
                let opened = try openEncrypted("a.strata")
                defer { opened.close() }
                try assertHolds(opened, count: 120, tag: "a.strata")
            } catch StorageError.pageAuthenticationFailed(_, let page, let reason) {
                XCTAssertEqual(page, n)
                XCTAssertTrue(reason.contains("names page"), reason)
                refusedMoved += 1
            }
        }
        XCTAssertGreaterThan(refusedForeign, Int(pages - 2) / 2)
        XCTAssertGreaterThan(refusedMoved, Int(pages - 2) / 2)
    }

    // MARK: Copies

    func testCopiesAddChangeAndRemoveEncryption() throws {
        let plain = try open("plain.strata")
        try fill(plain, count: 200)
        _ = try plain.read { try $0.writeCopy(toPath: path("added.strata"), encryptionKey: secretKey) }
        plain.close()
        let added = try openEncrypted("added.strata")
        try assertHolds(added, count: 200)
        XCTAssertThrowsError(try open("added.strata"))
        _ = try added.read { try $0.writeCopy(toPath: path("changed.strata"), encryptionKey: otherKey) }
        _ = try added.read { try $0.writeCopy(toPath: path("removed.strata")) }
        added.close()
        let changed = try openEncrypted("changed.strata", key: otherKey)
        try assertHolds(changed, count: 200)
        changed.close()
        XCTAssertThrowsError(try openEncrypted("changed.strata")) {
            XCTAssertEqual($0 as? StorageError, .wrongEncryptionKey(path: path("changed.strata")))
        }
        let removed = try open("removed.strata")
        defer { removed.close() }
        XCTAssertFalse(removed.isEncrypted)
        try assertHolds(removed, count: 200)
    }

    func testCompactionOfAnEncryptedFileKeepsItsData() throws {
        let db = try openEncrypted()
        defer { db.close() }
        try fill(db, count: 600)
        try db.write { txn in
            let t = try txn.openTree("t")
            for i in 300..<600 { try txn.delete(key(i), in: t) }
        }
        _ = try db.compact()
        try assertHolds(db, count: 300)
        db.close()
        let reopened = try openEncrypted()
        defer { reopened.close() }
        try assertHolds(reopened, count: 300)
        XCTAssertEqual(try reopened.verify().leakedPages, [])
    }
}
