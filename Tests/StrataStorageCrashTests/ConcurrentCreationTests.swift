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

/// Several processes and threads opening a path that does not exist yet, all at once: exactly one
/// of them creates the file, the others open the one it created, and no acknowledged commit of any
/// of them is lost (a later creator must never replace a file others already committed to).
final class ConcurrentCreationTests: CrashTestCase {
    /// Four counter writers start on a fresh path at the same instant, trial after trial. Each
    /// acknowledges every durable commit on stdout; at the end the file holds every acknowledged
    /// commit of every writer, and nothing was left beside it but the lock file.
    func testWritersStartedTogetherOnANewPathLoseNoAcknowledgedCommit() throws {
        let trials = environmentInt("STRATA_CREATION_TRIALS", 8)
        let workers = 4
        let commits = environmentInt("STRATA_CREATION_COMMITS", 40)
        var lostTrials: [String] = []
        for trial in 0..<trials {
            let file = path("race-\(trial).strata")
            XCTAssertFalse(FileManager.default.fileExists(atPath: file))
            // One deadline for all: each child waits for it after starting, so their opens overlap.
            var now = timespec()
            clock_gettime(CLOCK_REALTIME, &now)
            let startAt = (Int64(now.tv_sec) * 1000 + Int64(now.tv_nsec) / 1_000_000) + 400
            var children: [StressChild] = []
            for w in 0..<workers {
                children.append(
                    try StressChild([
                        "--mode", "counter", "--path", file, "--worker", "\(w)",
                        "--commits", "\(commits)", "--start-at", "\(startAt)",
                    ]))
            }
            var acknowledged = [Int](repeating: 0, count: workers)
            for (w, child) in children.enumerated() {
                let acks = child.drain().compactMap { Int($0) }
                XCTAssertEqual(child.waitForExit(), .exited(0), "trial \(trial), writer \(w): \(child.summary())")
                acknowledged[w] = acks.last ?? 0
            }
            let db = try open(file)
            defer { db.close() }
            let found: [UInt64] = try db.read { r in
                guard let counters = try r.tree(named: "counters"), let records = try r.tree(named: "records") else {
                    return [UInt64](repeating: 0, count: workers)
                }
                var out: [UInt64] = []
                for w in 0..<workers {
                    let c =
                        try r.get(bytes("w\(w)"), in: counters).map { $0.reduce(UInt64(0)) { $0 << 8 | UInt64($1) } }
                        ?? 0
                    out.append(c)
                    for n in stride(from: 1, through: Int(c), by: 1) {
                        XCTAssertNotNil(
                            try r.get(bytes("r-\(w)-\(n)"), in: records), "trial \(trial): record \(n) of worker \(w)")
                    }
                }
                return out
            }
            for w in 0..<workers where found[w] < UInt64(acknowledged[w]) {
                lostTrials.append(
                    "trial \(trial): worker \(w) acknowledged \(acknowledged[w]) commits, the file holds \(found[w])")
            }
            XCTAssertEqual(try db.verify().leakedPages, [], "trial \(trial)")
            let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory.path)
                .filter {
                    $0.hasPrefix("race-\(trial).strata") && $0 != "race-\(trial).strata"
                        && $0 != "race-\(trial).strata.lock"
                }
            XCTAssertEqual(leftovers, [], "trial \(trial): files left beside the database")
        }
        XCTAssertEqual(lostTrials, [], "acknowledged commits lost in \(lostTrials.count) of \(trials) trials")
        print("\(name): \(trials) trials of \(workers) writers on a new path, \(lostTrials.count) with lost commits")
    }

    /// Threads of one process, each with its own handle, race to create the same new file and
    /// commit to it: every commit is in the file afterwards.
    func testThreadsCreatingTheSameFileWithSeparateHandlesLoseNoCommit() throws {
        for trial in 0..<20 {
            let file = path("threads-\(trial).strata")
            let threads = 6
            let errors = LockedList()
            DispatchQueue.concurrentPerform(iterations: threads) { t in
                do {
                    let db = try Database(path: file)
                    defer { db.close() }
                    try db.write { txn in
                        let tree = try txn.openTree("t", create: true)
                        try txn.put(bytes("thread-\(t)"), bytes("value-\(t)"), in: tree)
                    }
                } catch {
                    errors.append("thread \(t): \(error)")
                }
            }
            XCTAssertEqual(errors.items, [], "trial \(trial)")
            let db = try open(file)
            defer { db.close() }
            try db.read { r in
                let tree = try XCTUnwrap(try r.tree(named: "t"), "trial \(trial)")
                XCTAssertEqual(tree.count, UInt64(threads), "trial \(trial)")
                for t in 0..<threads {
                    XCTAssertEqual(
                        try r.get(bytes("thread-\(t)"), in: tree), bytes("value-\(t)"), "trial \(trial), thread \(t)")
                }
            }
        }
    }

    /// A file whose creation a crash interrupted (a temporary file left beside the path) does not
    /// stop a later open from creating the database, which removes it; the temporary file of a
    /// process that is alive (a creation in progress) stays.
    func testLeftoverTemporaryFileFromACrashedCreatorDoesNotBlockCreation() throws {
        let file = path()
        // A process id that exists nowhere: above the kernel's pid_max.
        let stale = file + ".creating-2147483000-0"
        let inProgress = file + ".creating-1-0"  // pid 1 is always alive
        XCTAssertTrue(FileManager.default.createFile(atPath: stale, contents: Data([1, 2, 3])))
        XCTAssertTrue(FileManager.default.createFile(atPath: inProgress, contents: Data([1, 2, 3])))
        let db = try open(file)
        defer { db.close() }
        XCTAssertFalse(FileManager.default.fileExists(atPath: stale), "a dead creator's temporary file is removed")
        XCTAssertTrue(FileManager.default.fileExists(atPath: inProgress), "a live process's temporary file stays")
        try db.write { txn in try txn.put(bytes("k"), bytes("v"), in: try txn.openTree("t", create: true)) }
        XCTAssertEqual(
            try db.read { r in try r.get(bytes("k"), in: try XCTUnwrap(try r.tree(named: "t"))) }, bytes("v"))
    }
}

/// A list that threads append to under a lock.
private final class LockedList: @unchecked Sendable {
    private let lock = NSLock()
    private var list: [String] = []
    func append(_ s: String) { lock.lock(); list.append(s); lock.unlock() }
    var items: [String] { lock.lock(); defer { lock.unlock() }; return list }
}
