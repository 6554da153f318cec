import XCTest

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Kills `strata-async-stress` writers (grouped asynchronous commits through the Realm API:
/// `beginAsyncWrite` + `commitAsyncWrite(allowGrouping: true)`, 64 in flight) with SIGKILL at
/// random moments, then checks the file with a fresh `strata-async-stress verify` process:
/// - every commit whose completion ran ("durable <id>" was printed) is in the file;
/// - the file holds a whole prefix of the commits (ids from the first with no hole: commits are
///   made in id order and never partially);
/// - commits whose completion had not run may be there or not, but nothing else is lost.
///
/// The same file lives through every kill. `STRATA_ASYNC_CRASH_KILLS` sets the count (default 100, about 8 s).
final class AsyncCommitCrashTests: CrashTestCase {
    static let executable = "strata-async-stress"

    func verify(_ file: String) throws -> (count: Int, min: Int, max: Int, holes: Int) {
        let child = try StressChild(["verify", file], executable: Self.executable)
        let lines = child.drain()
        XCTAssertEqual(child.waitForExit(), .exited(0), child.summary())
        guard lines.count == 2 else {
            XCTFail("unexpected verify output \(lines): \(child.summary())")
            return (0, 0, -1, 0)
        }
        let ids = lines[0].split(separator: " ").dropFirst().compactMap { Int($0) }
        let holes = Int(lines[1].split(separator: " ").last ?? "") ?? -1
        return (ids[0], ids[1], ids[2], holes)
    }

    func testKilledAsyncWriterLosesOnlyCommitsWhoseCompletionHadNotRun() throws {
        continueAfterFailure = false
        let file = path("async.realm")
        let kills = environmentInt("STRATA_ASYNC_CRASH_KILLS", 100)
        var rng = SeededRandom(seed: 0xA5C0_0001)
        var nextID = 0
        var acknowledged = 0
        var lostUnacknowledged = 0
        var keptUnacknowledged = 0
        for round in 0..<kills {
            let child = try StressChild(["write", file, String(nextID)], executable: Self.executable)
            guard child.readLine() == "ready" else {
                XCTFail("writer did not start: \(child.summary())")
                return
            }
            // Let it acknowledge a random number of commits (sometimes none), then kill it.
            let wanted = Int(rng.next() % 300)
            var highestDurable = nextID - 1
            var seen = 0
            while seen < wanted, let line = child.readLine() {
                if line.hasPrefix("durable "), let id = Int(line.dropFirst(8)) {
                    highestDurable = max(highestDurable, id)
                    seen += 1
                }
            }
            child.killNow()
            // Lines printed before the kill are acknowledgements too.
            for line in child.drain() where line.hasPrefix("durable ") {
                if let id = Int(line.dropFirst(8)) { highestDurable = max(highestDurable, id); seen += 1 }
            }
            XCTAssertEqual(child.waitForExit(), .signaled(SIGKILL), child.summary())
            acknowledged += seen

            let state = try verify(file)
            XCTAssertEqual(state.holes, 0, "round \(round): the file holds a whole prefix of the commits")
            if state.count > 0 { XCTAssertEqual(state.min, 0, "round \(round): no earlier commit was lost") }
            XCTAssertGreaterThanOrEqual(
                state.max, highestDurable,
                "round \(round): every commit whose completion ran is in the file")
            if state.max > highestDurable {
                keptUnacknowledged += state.max - highestDurable
            } else {
                lostUnacknowledged += 1
            }
            nextID = state.max + 1
        }
        XCTAssertGreaterThan(acknowledged, 0, "the writers acknowledged commits")
        print(
            "AsyncCommitCrashTests: \(kills) kills, \(acknowledged) acknowledged commits all kept; \(keptUnacknowledged) commits in flight were durable anyway; final file holds \(nextID) commits"
        )
    }
}
