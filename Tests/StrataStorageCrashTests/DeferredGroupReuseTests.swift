import Foundation
import XCTest
@testable import StrataStorage
import StrataPOSIX

/// Deferred commits reuse pages that versions after the durable one wrote and freed (young pages,
/// `FreeSpace.youngPending`), before the group's sync. These tests hold that to the crash contract:
/// a power cut at any moment opens at the durable version or a newer one, with exactly that
/// version's data, never anything in between or damaged. A power cut is modelled as in
/// `TornCommitRecoveryTests`: a file assembled page by page from the image at the last sync (what
/// the disk is known to hold) and the image after the later commits (what the page cache held).
final class DeferredGroupReuseTests: CrashTestCase {
    static func key(_ i: Int) -> [UInt8] { Array("key-\(100_000 + i)".utf8) }
    static func value(_ i: Int, round: Int) -> [UInt8] {
        Array("\(i)@\(round):".utf8) + [UInt8](repeating: UInt8(truncatingIfNeeded: round), count: 40 + i % 50)
    }

    func entries(_ db: Database) throws -> [([UInt8], [UInt8])] {
        try db.read { r in try r.tree(named: "t").map { try r.allEntries($0) } ?? [] }
    }

    func image(_ p: String) throws -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: p) else { throw CocoaError(.fileReadNoSuchFile) }
        return Array(data)
    }

    /// `count` deferred commits, each rewriting a few keys (so each frees the pages the one before
    /// it wrote) and adding one.
    func deferredGroup(_ db: Database, round: Int, count: Int, next: inout Int) throws {
        for c in 0..<count {
            try db.write(durability: .deferred) { txn in
                let t = try txn.openTree("t")
                for k in 0..<3 { try txn.put(Self.key((c * 7 + k * 131) % 600), Self.value(c, round: round), in: t) }
                try txn.put(Self.key(next), Self.value(next, round: round), in: t)
            }
            next += 1
        }
    }

    func testDeferredGroupCyclesThroughAFewPages() throws {
        let db = try open(path())
        defer { db.close() }
        try db.write { txn in
            let t = try txn.openTree("t", create: true)
            for i in 0..<600 { try txn.put(Self.key(i), Self.value(i, round: 0), in: t) }
        }
        let pagesBefore = try db.verify().pageCount
        var next = 600
        try deferredGroup(db, round: 1, count: 2_000, next: &next)
        let report = try db.verify()
        // 2,000 commits each copy a leaf and its ancestors (3-4 pages). Without reuse before the
        // sync the file grew by about 7,000 pages here; with it, by the 2,000 new entries' worth.
        XCTAssertLessThan(report.pageCount - pagesBefore, 200, "a deferred group should reuse the pages it frees")
        XCTAssertEqual(report.leakedPages, [])
        XCTAssertEqual(report.trees["t"], 2_600)
        try db.sync()
        XCTAssertEqual(try db.verify().leakedPages, [])
    }

    func testSnapshotKeepsItsPagesWhileAGroupReusesPages() throws {
        let db = try open(path())
        defer { db.close() }
        try db.write { txn in
            let t = try txn.openTree("t", create: true)
            for i in 0..<600 { try txn.put(Self.key(i), Self.value(i, round: 0), in: t) }
        }
        var next = 600
        try deferredGroup(db, round: 1, count: 50, next: &next)
        let snapshot = try db.beginRead()
        let seen = try snapshot.tree(named: "t").map { try snapshot.allEntries($0) } ?? []
        try deferredGroup(db, round: 2, count: 500, next: &next)
        let again = try snapshot.tree(named: "t").map { try snapshot.allEntries($0) } ?? []
        XCTAssertTrue(
            seen.elementsEqual(again) { $0.0 == $1.0 && $0.1 == $1.1 }, "a snapshot's pages were reused under it")
        snapshot.end()
        XCTAssertEqual(try db.verify().leakedPages, [])
    }

    /// Durable D, then deferred commits up to L. Any mix of D's image and L's opens at D or L.
    func testPowerCutDuringAGroupOpensAtTheDurableVersionOrTheLast() throws {
        try checkPowerCut(syncInBetween: false)
    }

    /// Durable D, a deferred group synced at L1 (now durable), then another group up to L2. The
    /// second group must not reuse the pages L1's record lists: any mix of the images at L1 and
    /// L2 opens at L1 or L2, with its data.
    func testPowerCutAfterASyncedGroupOpensAtTheSyncedVersionOrTheLast() throws {
        try checkPowerCut(syncInBetween: true)
    }

    func checkPowerCut(syncInBetween: Bool) throws {
        let p = path("original.strata")
        let db = try open(p)
        try db.write { txn in
            let t = try txn.openTree("t", create: true)
            for i in 0..<600 { try txn.put(Self.key(i), Self.value(i, round: 0), in: t) }
        }
        var next = 600
        if syncInBetween {
            try deferredGroup(db, round: 1, count: 40, next: &next)
            try db.sync()
        }
        let durableVersion = db.latestVersion.rawValue
        let durableData = try entries(db)
        let durableImage = try image(p)
        try deferredGroup(db, round: 2, count: 40, next: &next)
        let lastVersion = db.latestVersion.rawValue
        let lastData = try entries(db)
        let lastImage = try image(p)
        let pageSize = db.pageSize
        db.close()
        XCTAssertNotEqual(durableVersion, lastVersion)

        let pages = lastImage.count / pageSize
        var differing: [Int] = []
        for n in 0..<pages {
            let range = (n * pageSize)..<((n + 1) * pageSize)
            if range.upperBound > durableImage.count || !lastImage[range].elementsEqual(durableImage[range]) {
                differing.append(n)
            }
        }
        XCTAssertGreaterThan(differing.count, 3)
        var rng = SystemRandomNumberGenerator()
        var openedAt: [UInt64: Int] = [:]
        for trial in 0..<60 {
            var mixed = lastImage
            // Trial 0: nothing of the group reached the disk; trial 1: all of it did.
            for n in differing where trial == 0 || (trial > 1 && Bool.random(using: &rng)) {
                for b in (n * pageSize)..<((n + 1) * pageSize) {
                    mixed[b] = b < durableImage.count ? durableImage[b] : 0
                }
            }
            let q = path("cut.strata")
            try? FileManager.default.removeItem(atPath: q)
            try? FileManager.default.removeItem(atPath: q + ".lock")
            try Data(mixed).write(to: URL(fileURLWithPath: q))
            let cut = try open(q)
            let v = cut.latestVersion.rawValue
            openedAt[v, default: 0] += 1
            let expected: [([UInt8], [UInt8])]
            switch v {
            case durableVersion: expected = durableData
            case lastVersion: expected = lastData
            default:
                cut.close()
                XCTFail("trial \(trial): opened at version \(v), expected \(durableVersion) or \(lastVersion)")
                continue
            }
            let got = try entries(cut)
            XCTAssertTrue(
                got.elementsEqual(expected) { $0.0 == $1.0 && $0.1 == $1.1 },
                "trial \(trial): the data is not version \(v)'s")
            XCTAssertEqual(try cut.verify().leakedPages, [], "trial \(trial)")
            cut.close()
        }
        XCTAssertEqual(openedAt[durableVersion, default: 0] + openedAt[lastVersion, default: 0], 60)
        XCTAssertGreaterThan(openedAt[durableVersion, default: 0], 0)
        XCTAssertGreaterThan(openedAt[lastVersion, default: 0], 0)
    }
}
