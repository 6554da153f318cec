import Foundation
import XCTest
@testable import StrataStorage

final class SnapshotIsolationTests: StorageTestCase {
    /// Readers on other threads keep seeing the version they started with while a writer commits.
    func testReadersOnOtherThreadsKeepTheirVersionWhileWriterCommits() throws {
        let db = try open()
        try db.write { txn in
            let t = try txn.openTree("t", create: true)
            for i in 0..<500 { try txn.put(key(i), key(0), in: t) }
        }
        let readers = 4
        let commits = 60
        let failures = Locked<[String]>([])
        let group = DispatchGroup()
        for r in 0..<readers {
            group.enter()
            Thread.detachNewThread {
                defer { group.leave() }
                do {
                    for _ in 0..<40 {
                        let txn = try db.beginRead()
                        let t = try txn.tree(named: "t")!
                        // Every value in one version is the same generation number.
                        let first = try txn.get(key(0), in: t)!
                        for _ in 0..<3 {
                            var count = 0
                            try txn.forEach(in: t) { _, v in
                                if !v.elementsEqual(first) {
                                    failures.mutate { $0.append("reader \(r) saw a mixed version at \(txn.version)") }
                                }
                                count += 1
                                return true
                            }
                            if count != 500 { failures.mutate { $0.append("reader \(r) saw \(count) entries") } }
                        }
                        txn.end()
                    }
                } catch {
                    failures.mutate { $0.append("reader \(r): \(error)") }
                }
            }
        }
        // The writer rewrites every value with the next generation, one commit at a time.
        for g in 1...commits {
            try db.write(durability: .deferred) { txn in
                let t = try txn.openTree("t")
                for i in 0..<500 { try txn.put(key(i), key(g), in: t) }
            }
        }
        group.wait()
        XCTAssertEqual(failures.value, [])
        XCTAssertEqual(try db.verify().leakedPages, [])
    }

    /// A snapshot pins its pages: they are not reused while it lives, even across many commits,
    /// and the file stops growing once it is released.
    func testPinnedSnapshotSurvivesReuseAndSpaceIsReclaimedAfterRelease() throws {
        let db = try open()
        try db.write { txn in
            let t = try txn.openTree("t", create: true)
            for i in 0..<2000 { try txn.put(key(i), Array(repeating: 1, count: 50), in: t) }
        }
        let old = try db.beginRead()
        let oldTree = try old.tree(named: "t")!
        for g in 2..<40 {
            try db.write { txn in
                let t = try txn.openTree("t")
                for i in stride(from: 0, to: 2000, by: 7) {
                    try txn.put(key(i), Array(repeating: UInt8(g), count: 50), in: t)
                }
            }
        }
        // The old snapshot still reads generation 1 everywhere.
        var ok = 0
        try old.forEach(in: oldTree) { _, v in
            if v.allSatisfy({ $0 == 1 }) { ok += 1 }
            return true
        }
        XCTAssertEqual(ok, 2000)
        let pinnedPages = try db.verify().pageCount
        old.end()
        // Steady updates without old readers: the page count levels off.
        var counts: [Int] = []
        for g in 40..<140 {
            try db.write { txn in
                let t = try txn.openTree("t")
                for i in stride(from: 0, to: 2000, by: 7) {
                    try txn.put(key(i), Array(repeating: UInt8(truncatingIfNeeded: g), count: 50), in: t)
                }
            }
            if g % 20 == 19 { counts.append(try db.verify().pageCount) }
        }
        XCTAssertEqual(
            counts.last, counts[counts.count - 2], "file keeps growing under a steady update load: \(counts)")
        XCTAssertLessThanOrEqual(counts.last!, pinnedPages)
    }

    /// A snapshot holds its mapping when the file grows past the map and a new map is made.
    func testSnapshotStaysValidWhenTheMapIsReplaced() throws {
        var o = Database.Options()
        o.mapReserve = 0  // map exactly twice the file: growth soon needs a new map
        let db = try Database(path: path(), options: o)
        try db.write { txn in
            try txn.put(bytes("a"), Array(repeating: 9, count: 100), in: try txn.openTree("t", create: true))
        }
        let snap = try db.beginRead()
        let t = try snap.tree(named: "t")!
        let before = try snap.get(bytes("a"), in: t)!
        try db.write { txn in
            let t = try txn.openTree("t")
            for i in 0..<30_000 { try txn.put(key(i), Array(repeating: 3, count: 100), in: t) }
        }
        XCTAssertEqual(Array(before), Array(repeating: 9, count: 100))
        XCTAssertEqual(try snap.get(bytes("a"), in: t), Array(repeating: 9, count: 100))
        snap.end()
        try db.read { r in XCTAssertEqual(try r.tree(named: "t")?.count, 30_001) }
    }

    func testCompactShrinksTheFileAndKeepsData() throws {
        let db = try open()
        try db.write { txn in
            let t = try txn.openTree("t", create: true)
            for i in 0..<20_000 { try txn.put(key(i), Array(repeating: 5, count: 80), in: t) }
            try txn.put(bytes("blob"), Array(repeating: 6, count: 30_000), in: t)
        }
        try db.write { txn in
            let t = try txn.openTree("t")
            for i in 0..<20_000 where i % 10 != 0 { try txn.delete(key(i), in: t) }
        }
        let report = try db.compact()
        XCTAssertLessThan(report.bytesAfter, report.bytesBefore / 3, "\(report)")
        let v = try db.verify()
        XCTAssertEqual(v.leakedPages, [])
        XCTAssertEqual(v.trees["t"], 2001)
        db.close()
        let reopened = try open()
        try reopened.read { r in
            let t = try r.tree(named: "t")!
            XCTAssertEqual(try r.get(key(10), in: t), Array(repeating: 5, count: 80))
            XCTAssertNil(try r.get(key(11), in: t))
            XCTAssertEqual(try r.get(bytes("blob"), in: t), Array(repeating: 6, count: 30_000))
        }
    }

    func testDeferredCommitsAreVisibleAndBecomeDurableOnSync() throws {
        let db = try open()
        try db.write { txn in _ = try txn.openTree("t", create: true) }
        let durableBefore = db.durableVersion
        for i in 0..<5 {
            try db.write(durability: .deferred) { txn in try txn.put(key(i), key(i), in: try txn.openTree("t")) }
        }
        XCTAssertEqual(db.durableVersion, durableBefore)
        XCTAssertEqual(db.latestVersion.rawValue, durableBefore.rawValue + 5)
        try db.read { r in XCTAssertEqual(try r.tree(named: "t")?.count, 5) }
        XCTAssertEqual(try db.sync(), db.latestVersion)
        XCTAssertEqual(db.durableVersion, db.latestVersion)
        XCTAssertEqual(try db.verify().leakedPages, [])
    }
}
