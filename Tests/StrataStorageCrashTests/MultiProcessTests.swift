import XCTest
@testable import StrataStorage
import StrataPOSIX

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Several processes on one file: writers serialized by the lock file's writer lock, readers in
/// other processes seeing only whole commits, and readers that die without releasing their slot.
final class MultiProcessTests: CrashTestCase {
    /// Three writer processes (one with grouped `.deferred` commits) increment their own counter
    /// and add one record per commit, while a reader process checks in every snapshot that the
    /// counters add up to the number of records. At the end every commit of every writer is there.
    func testConcurrentWriterProcessesLoseNoCommitAndReadersSeeWholeCommits() throws {
        let file = path()
        let workers = 3
        let commits = environmentInt("STRATA_MULTIPROCESS_COMMITS", 300)
        try open(file).close()
        let reader = try StressChild([
            "--mode", "reader", "--path", file, "--workers", "\(workers)", "--target", "\(workers * commits)",
        ])
        var writers: [StressChild] = []
        for w in 0..<workers {
            var args = ["--mode", "counter", "--path", file, "--worker", "\(w)", "--commits", "\(commits)"]
            if w == 2 { args += ["--deferred-every", "4"] }
            writers.append(try StressChild(args))
        }
        var ok = true
        for (w, child) in writers.enumerated() {
            let acks = child.drain().compactMap { Int($0) }
            let end = child.waitForExit()
            if end != .exited(0) { ok = false }
            XCTAssertEqual(end, .exited(0), "writer \(w): \(child.summary())")
            XCTAssertEqual(acks.last, commits, "writer \(w) acknowledged up to \(acks.last ?? 0)")
            XCTAssertEqual(acks, acks.sorted(), "writer \(w)'s counter went backwards")
        }
        if !ok { reader.killNow() }
        let verdict = reader.readLine()
        XCTAssertEqual(reader.waitForExit(), .exited(0), reader.summary())
        XCTAssertTrue(verdict?.hasPrefix("ok ") ?? false, "reader: \(verdict ?? "no output")")

        let db = try open(file)
        defer { db.close() }
        try db.read { r in
            let counters = try XCTUnwrap(try r.tree(named: "counters"))
            let records = try XCTUnwrap(try r.tree(named: "records"))
            XCTAssertEqual(records.count, UInt64(workers * commits))
            for w in 0..<workers {
                let c = try r.get(bytes("w\(w)"), in: counters).map { $0.reduce(UInt64(0)) { $0 << 8 | UInt64($1) } }
                XCTAssertEqual(c, UInt64(commits), "worker \(w)'s counter")
                for n in 1...commits {
                    let expected = [UInt8](repeating: UInt8(truncatingIfNeeded: w &* 37 &+ n), count: 16 + n % 300)
                    XCTAssertEqual(try r.get(bytes("r-\(w)-\(n)"), in: records), expected, "record \(n) of worker \(w)")
                }
            }
        }
        let report = try db.verify()
        XCTAssertEqual(report.leakedPages, [])
        XCTAssertEqual(report.trees["records"], UInt64(workers * commits))
        if let v = verdict {
            print(
                "\(name): reader process checked \(v.dropFirst(3)) snapshots; \(report.pageCount) pages, \(report.freePages) free"
            )
        }
    }

    /// A reader process pins an old version, so rewriting the data makes the file grow; once the
    /// reader is killed (its slot's byte lock vanishes with it) the writer reuses the pages it
    /// pinned and the file stops growing.
    func testKilledReaderProcessStopsPinningPages() throws {
        let file = path()
        let db = try open(file)
        defer { db.close() }
        func rewriteAll(_ round: Int) throws {
            try db.write { txn in
                let t = try txn.openTree("t", create: true)
                for i in 0..<200 {
                    try txn.put(
                        bytes("key-\(1000 + i)"), [UInt8](repeating: UInt8(truncatingIfNeeded: round), count: 400),
                        in: t)
                }
            }
        }
        try rewriteAll(0)
        let start = try db.verify().pageCount

        let holder = try StressChild(["--mode", "hold", "--path", file])
        let pinned = holder.readLine()
        XCTAssertEqual(pinned, "pinned \(db.latestVersion.rawValue)", holder.summary())
        for round in 1...20 { try rewriteAll(round) }
        let whilePinned = try db.verify()
        let growthWhilePinned = whilePinned.pageCount - start
        XCTAssertGreaterThan(growthWhilePinned, 10 * 20, "a live reader's snapshot must keep every page it can reach")

        holder.killNow()
        XCTAssertEqual(holder.waitForExit(), .signaled(SIGKILL))
        var counts: [Int] = []
        for round in 21...40 {
            try rewriteAll(round)
            counts.append(try db.verify().pageCount)
        }
        let after = try db.verify()
        XCTAssertEqual(after.leakedPages, [])
        XCTAssertLessThan(
            after.pageCount - whilePinned.pageCount, growthWhilePinned / 4,
            "after the reader died the file kept growing: page counts \(counts)")
        XCTAssertEqual(counts[9], counts[19], "the file must stop growing once no snapshot pins old pages: \(counts)")
        // The pages the dead reader pinned are free again: listed as free, or (free pages at the
        // end of the file) trimmed from the in-use range.
        let freedOrTrimmed = after.freePages + max(0, whilePinned.pageCount - after.pageCount)
        XCTAssertGreaterThan(freedOrTrimmed, growthWhilePinned / 2, "the pages the dead reader pinned are free again")
        try db.read { r in
            let t = try XCTUnwrap(try r.tree(named: "t"))
            XCTAssertEqual(t.count, 200)
            XCTAssertEqual(try r.get(bytes("key-1000"), in: t), [UInt8](repeating: 40, count: 400))
        }
    }

    /// Writer processes killed at random moments while this process keeps the file open and
    /// keeps writing: the survivor's commits never fail, every snapshot is consistent (counters
    /// sum to the records), the killed writer's acknowledged commits are all there, and the file
    /// verifies. `STRATA_MULTIPROCESS_KILLS` sets the number of kills (default 200).
    func testKilledWriterProcessesNeverBlockOrCorruptOtherWriters() throws {
        continueAfterFailure = false
        let file = path()
        let db = try open(file)
        defer { db.close() }
        var rng = SeededRandom(seed: 0xDEAD_0001)
        var acked: UInt64 = 0
        var mine: UInt64 = 0
        let kills = environmentInt("STRATA_MULTIPROCESS_KILLS", 200)
        for round in 0..<kills {
            let child = try StressChild([
                "--mode", "counter", "--path", file, "--worker", "0", "--commits", "1000000",
                "--deferred-every", round % 2 == 0 ? "3" : "0",
            ])
            if rng.next() % 4 == 0 {
                usleep(UInt32(rng.next() % 30_000))
            } else {
                for _ in 0..<(1 + rng.next() % 8) {
                    if let n = child.readLine().flatMap({ UInt64($0) }) { acked = max(acked, n) }
                }
                usleep(UInt32(rng.next() % 2000))
            }
            child.killNow()
            for line in child.drain() { if let n = UInt64(line) { acked = max(acked, n) } }
            XCTAssertEqual(child.waitForExit(), .signaled(SIGKILL), child.summary())

            mine += 1
            try db.write { txn in
                let counters = try txn.openTree("counters", create: true)
                let records = try txn.openTree("records", create: true)
                try txn.put(bytes("w1"), withUnsafeBytes(of: mine.bigEndian) { Array($0) }, in: counters)
                try txn.put(bytes("r-1-\(mine)"), [UInt8](repeating: 1, count: 16 + Int(mine % 300)), in: records)
            }
            try db.read { r in
                let counters = try XCTUnwrap(try r.tree(named: "counters"))
                let records = try XCTUnwrap(try r.tree(named: "records"))
                func counter(_ w: Int) throws -> UInt64 {
                    try r.get(bytes("w\(w)"), in: counters).map { $0.reduce(UInt64(0)) { $0 << 8 | UInt64($1) } } ?? 0
                }
                let w0 = try counter(0), w1 = try counter(1)
                XCTAssertEqual(w1, mine, "round \(round)")
                XCTAssertGreaterThanOrEqual(
                    w0, acked, "round \(round): the killed writer's acknowledged commit \(acked) is missing")
                XCTAssertEqual(records.count, w0 + w1, "round \(round): counters and records disagree")
            }
            if round % 10 == 9 || round == kills - 1 {
                XCTAssertEqual(try db.verify().leakedPages, [], "round \(round)")
            }
        }
        print(
            "\(name): \(kills) writer processes killed; the killed writer's counter reached \(acked)+, this process made \(mine) commits"
        )
    }
}
