import Foundation
import XCTest
@testable import StrataStorage
import StrataPOSIX

/// Power-loss crashes, built byte by byte: a SIGKILL keeps the page cache, so only files assembled
/// from what the disk might hold after a power cut show what happens when some of a commit's pages
/// (or its meta page) never got there.
///
/// Each test commits A, copies the file, commits B, copies the file again, and builds a file that
/// has B's meta record but not all of B's pages (or a damaged meta page where B's record was).
/// Opening it must fall back to A, with A's data, intact.
final class TornCommitRecoveryTests: CrashTestCase {
    struct TwoCommits {
        var afterA: [UInt8]
        var afterB: [UInt8]
        var versionA: UInt64
        var versionB: UInt64
        var dataA: [([UInt8], [UInt8])]
        var pageSize: Int
        /// The meta slot that holds B's record in `afterB` (A's is the other one).
        var slotB: Int
        /// Every page B's commit lists (the first page of each overflow run), in order.
        var pagesB: [UInt32]
    }

    static func key(_ i: Int) -> [UInt8] { Array("key-\(100_000 + i)".utf8) }
    static func value(_ i: Int, size: Int, fill: UInt8) -> [UInt8] {
        Array("\(i):".utf8) + [UInt8](repeating: fill, count: size)
    }

    /// B's changes: updates, inserts, deletes and a new multi-page value. `fill` changes only the
    /// bytes of the values, never their sizes, so the same changes with another fill allocate the
    /// same pages.
    static func applyB(_ txn: WriteTransaction, fill: UInt8) throws {
        let t = try txn.openTree("t", create: false)
        for i in stride(from: 0, to: 400, by: 5) { try txn.put(key(i), value(i, size: 60 + i % 90, fill: fill), in: t) }
        for i in 400..<460 { try txn.put(key(i), value(i, size: 30, fill: fill), in: t) }
        for i in stride(from: 3, to: 400, by: 17) { try txn.delete(key(i), in: t) }
        try txn.delete(Array("blob".utf8), in: t)
        try txn.put(Array("blob2".utf8), value(0, size: 9000, fill: fill), in: t)
    }

    func entries(_ db: Database) throws -> [([UInt8], [UInt8])] {
        try db.read { r in try r.tree(named: "t").map { try r.allEntries($0) } ?? [] }
    }

    /// - Parameter extraCommit: one more commit first, which puts B's record in the other slot.
    func makeTwoCommits(extraCommit: Bool = false) throws -> TwoCommits {
        let p = path("original.strata")
        try? FileManager.default.removeItem(atPath: p)
        try? FileManager.default.removeItem(atPath: p + ".lock")
        let db = try open(p)
        if extraCommit { try db.write { txn in _ = try txn.openTree("t", create: true) } }
        try db.write { txn in
            let t = try txn.openTree("t", create: true)
            for i in 0..<400 { try txn.put(Self.key(i), Self.value(i, size: 40 + i % 120, fill: 1), in: t) }
            try txn.put(Array("blob".utf8), Self.value(0, size: 12_000, fill: 1), in: t)
        }
        // A: frees pages (the copies it replaces), so B reuses pages as well as appending new ones.
        try db.write { txn in
            let t = try txn.openTree("t")
            for i in stride(from: 0, to: 400, by: 3) {
                try txn.put(Self.key(i), Self.value(i, size: 50, fill: 2), in: t)
            }
        }
        let versionA = db.latestVersion.rawValue
        let dataA = try entries(db)
        let afterA = try readFile(p)
        try db.write { txn in try Self.applyB(txn, fill: 3) }
        let versionB = db.latestVersion.rawValue
        let afterB = try readFile(p)
        let pageSize = db.pageSize
        db.close()

        let slotB = try (0..<2).first { slot in
            afterB.withUnsafeBytes { raw in
                if case .success(let m) = MetaRecord.decode(
                    raw.baseAddress! + slot * pageSize, pageSize: pageSize, slot: slot)
                {
                    return m.version == versionB
                }
                return false
            }
        }.unwrap("no meta slot holds version \(versionB)")
        let pagesB: [UInt32] = afterB.withUnsafeBytes { raw in
            let base = raw.baseAddress!
            guard case .success(let m) = MetaRecord.decode(base + slotB * pageSize, pageSize: pageSize, slot: slotB)
            else { return [] }
            var pages = m.inlineList
            var next = m.listHead
            while next != 0 {
                let page = base + Int(next) * pageSize
                pages.append(next)
                for i in 0..<Int(page.u32(PageHeader.entryCount)) { pages.append(page.u32(PageHeader.size + 4 * i)) }
                next = page.u32(PageHeader.nextPage)
            }
            return pages
        }
        XCTAssertGreaterThan(pagesB.count, 5, "B should write a handful of pages")
        return TwoCommits(
            afterA: afterA, afterB: afterB, versionA: versionA, versionB: versionB, dataA: dataA,
            pageSize: pageSize, slotB: slotB, pagesB: pagesB)
    }

    /// Opens `p` and checks it shows exactly A: version, entries, and a clean `verify()`.
    func assertOpensAtA(
        _ p: String, _ s: TwoCommits, _ what: String, file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let db = try open(p)
        defer { db.close() }
        XCTAssertEqual(
            db.latestVersion.rawValue, s.versionA, "\(what): opened at the wrong version", file: file, line: line)
        let got = try entries(db)
        XCTAssertTrue(
            got.elementsEqual(s.dataA) { $0.0 == $1.0 && $0.1 == $1.1 }, "\(what): the data is not A's", file: file,
            line: line)
        let report = try db.verify()
        XCTAssertEqual(report.leakedPages, [], "\(what)", file: file, line: line)
        XCTAssertEqual(report.trees["t"], UInt64(s.dataA.count), "\(what)", file: file, line: line)
    }

    /// Every page of B, torn three ways: its content from before B (zeros if the file was shorter),
    /// all zeros, or one changed byte (a sector that did not make it).
    func testTornCommitPageFallsBackToPreviousCommit() throws {
        let s = try makeTwoCommits()
        let ps = s.pageSize
        var cases = 0
        for n in s.pagesB {
            let start = Int(n) * ps
            // The page's extent: an overflow run's first page records its length.
            let runPages =
                s.afterB[start + PageHeader.type] == PageType.overflow.rawValue
                ? Int(s.afterB.withUnsafeBytes { $0.baseAddress!.u32(start + PageHeader.runPages) }) : 1
            let lastPage = start + (runPages - 1) * ps
            for kind in ["stale", "zeroed", "one byte"] {
                var torn = s.afterB
                switch kind {
                case "stale":
                    for b in start..<(start + ps) { torn[b] = b < s.afterA.count ? s.afterA[b] : 0 }
                case "zeroed":
                    for b in start..<(start + ps) { torn[b] = 0 }
                default:
                    torn[lastPage + ps / 2] ^= 0x5A
                }
                let p = path("torn.strata")
                try writeFile(p, torn)
                try assertOpensAtA(p, s, "page \(n) of B \(kind)")
                cases += 1
            }
        }
        XCTAssertEqual(cases, 3 * s.pagesB.count)
    }

    /// A file recovered from a torn commit takes new commits, and reopens at them.
    func testFileRecoveredFromTornCommitAcceptsNewCommits() throws {
        let s = try makeTwoCommits()
        var torn = s.afterB
        let n = Int(s.pagesB[s.pagesB.count / 2])
        for b in (n * s.pageSize)..<((n + 1) * s.pageSize) { torn[b] = 0 }
        let p = path("torn.strata")
        try writeFile(p, torn)
        do {
            let db = try open(p)
            XCTAssertEqual(db.latestVersion.rawValue, s.versionA)
            try db.write { txn in try Self.applyB(txn, fill: 9) }
            try db.write { txn in try txn.put(Array("after".utf8), Array("recovery".utf8), in: try txn.openTree("t")) }
            db.close()
        }
        let db = try open(p)
        defer { db.close() }
        XCTAssertEqual(db.latestVersion.rawValue, s.versionA + 2)
        try db.read { r in
            let t = try XCTUnwrap(try r.tree(named: "t"))
            XCTAssertEqual(try r.get(Array("after".utf8), in: t), Array("recovery".utf8))
            XCTAssertEqual(try r.get(Array("blob2".utf8), in: t), Self.value(0, size: 9000, fill: 9))
            XCTAssertNil(try r.get(Array("blob".utf8), in: t))
            XCTAssertEqual(try r.get(Self.key(5), in: t), Self.value(5, size: 65, fill: 9))
        }
        XCTAssertEqual(try db.verify().leakedPages, [])
    }

    /// The newer meta slot damaged in different ways: the file opens at the older one. Both
    /// slots take a turn as the newer one. Page 0 also identifies the file (magic, page size), so
    /// it is only damaged the way a sector-atomic device can tear it: within the record, after
    /// the first sector's header fields, never as a whole page of garbage.
    func testTornMetaPageFallsBackToOlderMetaSlot() throws {
        try checkTornMeta(extraCommit: false)
        try checkTornMeta(extraCommit: true)
    }

    func checkTornMeta(extraCommit: Bool) throws {
        let s = try makeTwoCommits(extraCommit: extraCommit)
        let ps = s.pageSize
        let slot = s.slotB * ps
        var rng = SeededRandom(seed: 42)
        let inlineCount = s.afterB.withUnsafeBytes { Int($0.baseAddress!.u32(slot + MetaLayout.inlineCount)) }
        let halfRecord = (MetaLayout.inlineList + 4 * inlineCount) / 2
        var damages: [(String, (inout [UInt8]) -> Void)] = [
            ("record zeroed", { f in for b in (slot + MetaLayout.version)..<(slot + ps) { f[b] = 0 } }),
            (
                "record random",
                { f in
                    for b in (slot + MetaLayout.version)..<(slot + ps) { f[b] = UInt8.random(in: 0...255, using: &rng) }
                }
            ),
            // The first half of B's record written, the rest still the older record that slot held.
            ("half written", { f in for b in (slot + halfRecord)..<(slot + ps) { f[b] = s.afterA[b] } }),
            ("one bit", { f in f[slot + MetaLayout.catalogRoot] ^= 1 }),
            ("checksum only", { f in f[slot + PageHeader.checksum] ^= 0x80 }),
        ]
        if s.slotB == 1 {
            damages.append(("page zeroed", { f in for b in slot..<(slot + ps) { f[b] = 0 } }))
            damages.append(
                ("page random", { f in for b in slot..<(slot + ps) { f[b] = UInt8.random(in: 0...255, using: &rng) } }))
        }
        for (what, damage) in damages {
            var torn = s.afterB
            damage(&torn)
            let p = path("torn-meta.strata")
            try writeFile(p, torn)
            try assertOpensAtA(p, s, "meta slot \(s.slotB) \(what)")
        }
    }

    /// After falling back from torn commit B to A, the next commit B' gets B's version number and,
    /// doing the same changes, the same pages. If the process dies after writing B''s pages but
    /// before its meta page, B's old record is still in its slot, and every page it lists now
    /// holds a valid page of that version: B's record must not be taken for a whole commit.
    func testCommitAfterTornFallbackCannotResurrectTornMeta() throws {
        try checkCommitAfterTornFallback(extraCommit: false)
        try checkCommitAfterTornFallback(extraCommit: true)
    }

    func checkCommitAfterTornFallback(extraCommit: Bool) throws {
        let s = try makeTwoCommits(extraCommit: extraCommit)
        var torn = s.afterB
        // Stale content in one of B's pages: B is torn, the file opens at A.
        let n = Int(s.pagesB[0])
        for b in (n * s.pageSize)..<((n + 1) * s.pageSize) {
            torn[b] = n * s.pageSize < s.afterA.count ? s.afterA[b] : 0
        }
        let p = path("torn.strata")
        try writeFile(p, torn)
        let db = try open(p)
        XCTAssertEqual(db.latestVersion.rawValue, s.versionA)
        let txn = try db.beginWrite()
        XCTAssertEqual(txn.version.rawValue, s.versionB, "B' reuses B's version number")
        try Self.applyB(txn, fill: 7)
        // The meta write fails: the state of the disk is that of a crash just before it.
        FaultInjector.arm(.pwrite, kind: .error(EIO), pathContaining: p)
        XCTAssertThrowsError(try txn.commit())
        FaultInjector.disarmAll()
        let crashed = try readFile(p)
        db.close()
        let q = path("crashed.strata")
        try writeFile(q, crashed)
        try assertOpensAtA(q, s, "B' never committed (B's record in slot \(s.slotB))")
    }
}

struct TestSetupError: Error, CustomStringConvertible {
    var description: String
}

extension Optional {
    func unwrap(_ message: @autoclosure () -> String) throws -> Wrapped {
        guard let self else { throw TestSetupError(description: message()) }
        return self
    }
}
