import XCTest
@testable import StrataStorage
import StrataPOSIX
import StrataStressWorkload

/// Damage to the newest commit after it was acknowledged is reported, not rolled back without a
/// word; an open that fails writes nothing to the data file; a forged meta record with an empty
/// catalog is refused.
final class DamagedNewestCommitTests: CrashTestCase {
    /// Runs a writer process that makes `commits` durable commits and exits without closing the
    /// database (as most apps end), so the file is not marked clean and its lock file records
    /// the last commit as durable.
    private func writeAndExitWithoutClosing(_ file: String, commits: Int) throws {
        let child = try StressChild([
            "--mode", "crash", "--path", file, "--seed", "7", "--commits", "\(commits)",
            "--exit-without-close", "1",
        ])
        let lines = child.drain()
        XCTAssertEqual(child.waitForExit(), .exited(0), child.summary())
        XCTAssertEqual(lines.last, "\(commits)")
    }

    /// The newest meta record of `bytes` (slot, record) and the older one.
    private func metas(_ bytes: [UInt8], pageSize: Int) throws -> (newest: (Int, MetaRecord), older: (Int, MetaRecord))
    {
        let records: [(Int, MetaRecord)] = bytes.withUnsafeBytes { raw in
            (0..<2).compactMap { slot in
                let p = UnsafeMutableRawPointer(mutating: raw.baseAddress! + slot * pageSize)
                if case .success(let m) = MetaRecord.decode(p, pageSize: pageSize, slot: slot) { return (slot, m) }
                return nil
            }
        }
        XCTAssertEqual(records.count, 2)
        let sorted = records.sorted { $0.1.version > $1.1.version }
        return (sorted[0], sorted[1])
    }

    private func pageSize(of bytes: [UInt8]) -> Int {
        bytes.withUnsafeBytes { Int($0.baseAddress!.u32(MetaLayout.pageSize)) }
    }

    /// The value of the workload's `last` key: how many commits the version holds.
    private func lastCommit(_ db: Database) throws -> Int {
        try db.read { r in
            let t = try XCTUnwrap(try r.tree(named: StressWorkload.treeName))
            let v = try XCTUnwrap(try r.get(StressWorkload.lastKey, in: t))
            return Int(String(decoding: v, as: UTF8.self)) ?? -1
        }
    }

    /// A byte flipped in a page the newest (acknowledged) commit wrote: the open fails with
    /// `damagedCommit` naming the page and the version it could open instead, leaves the data
    /// file byte for byte as it was (twice in a row: a failed open keeps the lock file's evidence),
    /// and `openLastIntactVersion` opens the previous commit and says what it discarded.
    func testFlippedByteInAcknowledgedNewestCommitIsReportedNotRolledBack() throws {
        let file = path()
        try writeAndExitWithoutClosing(file, commits: 6)
        var bytes = try readFile(file)
        let ps = pageSize(of: bytes)
        let (newest, older) = try metas(bytes, pageSize: ps)
        XCTAssertFalse(newest.1.isClean)
        let victim = try XCTUnwrap(newest.1.inlineList.first, "the last commit lists its pages inline")
        bytes[Int(victim) * ps + ps / 2] ^= 0x20
        try overwriteInPlace(file, bytes)

        for attempt in 0..<2 {
            XCTAssertThrowsError(try open(file), "attempt \(attempt)") { error in
                guard case StorageError.damagedCommit(_, let version, let page, _, let intact) = error else {
                    return XCTFail("attempt \(attempt): expected damagedCommit, got \(error)")
                }
                XCTAssertEqual(version, newest.1.version)
                XCTAssertEqual(page, victim)
                XCTAssertEqual(intact, older.1.version)
                XCTAssertTrue("\(error)".contains("openLastIntactVersion"), "\(error)")
            }
            XCTAssertEqual(try readFile(file), bytes, "attempt \(attempt): a failed open changed the data file")
        }

        var options = Database.Options()
        options.openLastIntactVersion = true
        let db = try Database(path: file, options: options)
        defer { db.close() }
        XCTAssertEqual(db.latestVersion.rawValue, older.1.version)
        let report = try XCTUnwrap(db.recovery)
        XCTAssertEqual(report.discardedVersion.rawValue, newest.1.version)
        XCTAssertEqual(report.openedVersion.rawValue, older.1.version)
        XCTAssertEqual(report.page, victim)
        XCTAssertTrue(report.wasAcknowledged)
        XCTAssertEqual(try lastCommit(db), 5, "the version before the damaged commit holds 5 commits")
        XCTAssertEqual(try db.verify().leakedPages, [])
    }

    /// Without the lock file that recorded the commit as durable (the file was copied alone), a
    /// page of the newest commit that fails its checksum cannot be told from one torn by a power
    /// cut: the open rolls it back, as crash recovery must, and says so in `recovery`.
    func testDamagedNewestCommitWithoutDurabilityRecordIsRolledBackAndReported() throws {
        let file = path()
        try writeAndExitWithoutClosing(file, commits: 6)
        var bytes = try readFile(file)
        let ps = pageSize(of: bytes)
        let (newest, older) = try metas(bytes, pageSize: ps)
        let victim = try XCTUnwrap(newest.1.inlineList.first)
        bytes[Int(victim) * ps + ps / 2] ^= 0x20
        let copy = path("copy.strata")
        try writeFile(copy, bytes)
        let db = try open(copy)
        defer { db.close() }
        XCTAssertEqual(db.latestVersion.rawValue, older.1.version)
        let report = try XCTUnwrap(db.recovery)
        XCTAssertFalse(report.wasAcknowledged)
        XCTAssertEqual(report.discardedVersion.rawValue, newest.1.version)
        XCTAssertEqual(try lastCommit(db), 5)
    }

    /// An intact file opened after a process exited without closing it: no recovery report, the
    /// newest commit is there.
    func testIntactFileAfterExitWithoutCloseOpensAtNewestWithoutReport() throws {
        let file = path()
        try writeAndExitWithoutClosing(file, commits: 4)
        let db = try open(file)
        defer { db.close() }
        XCTAssertNil(db.recovery)
        XCTAssertEqual(try lastCommit(db), 4)
    }

    /// A meta record rewritten with an empty catalog (and a valid checksum) in a file whose pages
    /// hold data: refused, never opened as an empty database; with both records forged there is
    /// no intact version, and the error names the empty catalog. The file is not changed.
    func testForgedEmptyCatalogIsRefusedNotOpenedEmpty() throws {
        let file = path()
        do {
            let db = try open(file)
            try db.write { txn in
                let t = try txn.openTree("t", create: true)
                for i in 0..<500 {
                    try txn.put(bytes("key-\(i)"), [UInt8](repeating: UInt8(i % 251), count: 100), in: t)
                }
            }
            try db.write { txn in try txn.put(bytes("more"), bytes("data"), in: try txn.openTree("t")) }
            db.close()
        }
        let original = try readFile(file)
        let ps = pageSize(of: original)
        let (newest, older) = try metas(original, pageSize: ps)

        func forge(_ bytes: inout [UInt8], slot: Int, _ m: MetaRecord, newer: Bool = false) {
            var forged = m
            forged.catalogRoot = 0
            if newer { forged.version += 1 }
            let buf = UnsafeMutableRawPointer.allocate(byteCount: ps, alignment: 4096)
            defer { buf.deallocate() }
            forged.encode(into: buf, pageSize: ps, slot: slot)
            for i in 0..<ps { bytes[slot * ps + i] = buf.load(fromByteOffset: i, as: UInt8.self) }
        }

        // One record forged, as a newer version than the other (a clean close left both slots
        // at the same version, and opening prefers the newer): the other is intact.
        var one = original
        forge(&one, slot: newest.0, newest.1, newer: true)
        let p1 = path("one.strata")
        try writeFile(p1, one)
        XCTAssertThrowsError(try open(p1)) { error in
            guard case StorageError.damagedCommit(_, _, _, let reason, _) = error else {
                return XCTFail("got \(error)")
            }
            XCTAssertTrue(reason.contains("empty catalog"), reason)
        }
        XCTAssertEqual(try readFile(p1), one)
        var options = Database.Options()
        options.openLastIntactVersion = true
        do {
            let db = try Database(path: p1, options: options)
            defer { db.close() }
            XCTAssertEqual(try db.read { r in try r.tree(named: "t")?.count }, 501)
        }

        // Both forged: nothing intact to open.
        var both = original
        forge(&both, slot: newest.0, newest.1)
        forge(&both, slot: older.0, older.1)
        let p2 = path("both.strata")
        try writeFile(p2, both)
        for opts in [Database.Options(), options] {
            XCTAssertThrowsError(try Database(path: p2, options: opts)) { error in
                XCTAssertTrue("\(error)".contains("empty catalog"), "\(error)")
            }
        }
        XCTAssertEqual(try readFile(p2), both)
    }

    /// A database whose trees were all dropped has an empty catalog with free pages: it opens.
    func testDatabaseWithEveryTreeDroppedOpensEmpty() throws {
        let file = path()
        let db = try open(file)
        try db.write { txn in
            let t = try txn.openTree("t", create: true)
            for i in 0..<300 { try txn.put(bytes("key-\(i)"), [UInt8](repeating: 1, count: 200), in: t) }
        }
        try db.write { txn in try txn.dropTree("t") }
        db.close()
        let again = try open(file)
        defer { again.close() }
        XCTAssertEqual(try again.read { r in try r.treeNames() }, [])
    }
}
