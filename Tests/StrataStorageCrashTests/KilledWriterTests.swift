import XCTest
@testable import StrataStorage
import StrataStressWorkload
import StrataPOSIX

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Starts `strata-storage-stress` writers on one file and kills them with SIGKILL at random
/// moments (while starting, recovering, writing pages, writing the meta page, syncing or
/// acknowledging), then checks the file: it opens, `verify()` finds no damage and no leaked page,
/// and the data is exactly the state after some commit k, with every acknowledged commit in it.
///
/// The same file lives through every kill, so later writers recover files that earlier writers
/// left after their own recovery. SIGKILL keeps the page cache, so these tests cover process
/// crashes; `TornCommitRecoveryTests` covers pages that never reached the disk.
///
/// Kill counts: `STRATA_CRASH_KILLS` (full durability, default 400) and
/// `STRATA_CRASH_DEFERRED_KILLS` (grouped commits, default 200) for longer local runs; the
/// defaults take about 30 s in a debug build.
final class KilledWriterTests: CrashTestCase {
    func testWorkloadDigestMatchesStressExecutable() throws {
        let child = try StressChild(["--mode", "digest", "--seed", "7", "--commits", "400"])
        let line = child.readLine()
        XCTAssertEqual(child.waitForExit(), .exited(0), child.summary())
        XCTAssertEqual(
            line, String(StressWorkload.digest(seed: 7, commits: 400)),
            "the stress executable computes a different workload: is it a stale build? (swift build --build-tests)")
    }

    func testKilledWriterLeavesPrefixOfAcknowledgedCommits() throws {
        try runKillLoop(kills: environmentInt("STRATA_CRASH_KILLS", 400), deferredEvery: 0, seed: 0x5EED_0001)
    }

    func testKilledGroupCommitWriterKeepsEverySyncedCommit() throws {
        try runKillLoop(kills: environmentInt("STRATA_CRASH_DEFERRED_KILLS", 200), deferredEvery: 5, seed: 0x5EED_0002)
    }

    /// One file, `kills` writer processes, each killed at a random moment.
    ///
    /// Bounds on the commit k the file must open at:
    /// - `lower`: the newest acknowledged commit (or the state a check already saw): k >= lower.
    /// - `upper`: the newest commit that can have happened: the commit after the last
    ///   acknowledgement (full durability), or up to `deferredEvery` commits after it (a sync
    ///   covers the commits since the previous one, so that many may be done but unacknowledged).
    func runKillLoop(kills: Int, deferredEvery: Int, seed: UInt64) throws {
        continueAfterFailure = false
        let file = path()
        var rng = SeededRandom(seed: seed ^ 0xC0FF_EE00)
        var model = StressModel(seed: seed)
        var lower = 0
        var upper = 0
        let slack = deferredEvery > 0 ? deferredEvery : 1
        var stats = (startupKills: 0, checks: 0, inFlightSeen: 0, recoveredByWriter: 0)
        let began = Date()
        var pendingUncheckedRecovery = false

        for round in 0..<kills {
            var args = ["--path", file, "--seed", "\(seed)", "--commits", "1000000"]
            if deferredEvery > 0 { args += ["--deferred-every", "\(deferredEvery)"] }
            let child = try StressChild(args)
            var start: Int?
            var acked: Int?
            func take(_ line: String) {
                if line.hasPrefix("start "), let n = Int(line.dropFirst(6)) {
                    start = n
                } else if let n = Int(line) {
                    acked = n
                } else {
                    XCTFail("round \(round): unexpected line '\(line)' from the writer")
                }
            }
            if rng.next() % 4 == 0 {
                // Anywhere in the first 40 ms: exec, open, recovery, the first commits.
                usleep(UInt32(rng.next() % 40_000))
            } else {
                // After a random number of acknowledgements, a random few hundred microseconds
                // later: somewhere inside a commit.
                let wanted = 1 + Int(rng.next() % 12)
                var got = 0
                while got < wanted, let line = child.readLine() {
                    take(line)
                    if start != nil && !line.hasPrefix("start ") { got += 1 }
                }
                usleep(UInt32(rng.next() % 3000))
            }
            child.killNow()
            for line in child.drain() { take(line) }
            let end = child.waitForExit()
            guard end == .signaled(SIGKILL) else {
                return XCTFail("round \(round): the writer did not die by SIGKILL: \(child.summary())")
            }
            if let start {
                let seen = start - 1
                XCTAssertGreaterThanOrEqual(
                    seen, lower,
                    "round \(round): the writer reopened at commit \(seen), but commit \(lower) was acknowledged")
                XCTAssertLessThanOrEqual(
                    seen, upper, "round \(round): the writer reopened at commit \(seen); at most \(upper) can exist")
                if pendingUncheckedRecovery { stats.recoveredByWriter += 1 }
                lower = max(lower, acked ?? seen)
                upper = (acked ?? seen) + slack
            } else {
                stats.startupKills += 1
            }

            // Check after most kills; skip some so that the next writer (not this test) recovers
            // the crashed file, and a check later sees the recovery of a recovered file.
            guard round == kills - 1 || rng.next() % 10 >= 3 else {
                pendingUncheckedRecovery = true
                continue
            }
            pendingUncheckedRecovery = false
            stats.checks += 1
            let db = try open(file, verifyAll: rng.next() % 8 == 0)
            let report = try db.verify()
            XCTAssertEqual(report.leakedPages, [], "round \(round): pages neither used nor free after recovery")
            let (k, entries) = try db.read { r -> (Int, [([UInt8], [UInt8])]) in
                guard let t = try r.tree(named: StressWorkload.treeName) else { return (0, []) }
                let last = try r.get(StressWorkload.lastKey, in: t).flatMap { Int(String(decoding: $0, as: UTF8.self)) }
                return (last ?? -1, try r.allEntries(t))
            }
            db.close()
            XCTAssertTrue(
                k >= lower && k <= upper,
                "round \(round): the file opened at commit \(k); commits up to \(lower) were acknowledged and at most \(upper) can exist"
            )
            guard k >= model.commits else {
                return XCTFail("round \(round): commit \(model.commits) was seen before, the file is now at \(k)")
            }
            if k > lower { stats.inFlightSeen += 1 }
            model.advance(to: k)
            let expected = model.sorted
            XCTAssertEqual(report.trees[StressWorkload.treeName] ?? 0, UInt64(expected.count), "round \(round)")
            XCTAssertEqual(entries.count, expected.count, "round \(round): entry count after commit \(k)")
            for (got, want) in zip(entries, expected) where got.0 != want.0 || got.1 != want.1 {
                return XCTFail(
                    "round \(round): after commit \(k), key \(String(decoding: got.0, as: UTF8.self)) (expected \(String(decoding: want.0, as: UTF8.self))) holds \(got.1.count) bytes, expected \(want.1.count) bytes or other contents"
                )
            }
            lower = k
            upper = k
        }
        XCTAssertGreaterThan(
            model.commits, kills / 2, "the writers made too little progress for the kills to mean much")
        print(
            """
            \(name): \(kills) SIGKILLs (\(stats.startupKills) before the first commit), \(stats.checks) checks, \
            \(stats.recoveredByWriter) recoveries by the next writer, \(stats.inFlightSeen) unacknowledged in-flight commits found whole, \
            \(model.commits) commits, \(Int(Date().timeIntervalSince(began))) s
            """)
    }
}
