import Foundation
import StrataPOSIX
import XCTest

@testable import StrataStorage

/// A commit watcher sleeps until a commit of any handle of the file (another handle stands for
/// another process: each has its own open file description and lock file mapping).
final class CommitWatcherTests: StorageTestCase {
    func testACommitOfAnotherHandleEndsTheWait() throws {
        let observed = try open()
        let watcher = try observed.makeCommitWatcher()
        defer { watcher.close() }
        #if os(Linux)
            XCTAssertTrue(watcher.watchesOtherProcesses)
        #endif
        guard watcher.watchesOtherProcesses else { throw XCTSkip("no file-change watching on this system") }
        XCTAssertFalse(watcher.wait(timeout: 0.05), "nothing happened: the wait runs out")
        let other = try open()
        let committer = Thread {
            usleep(100_000)
            try? other.write { txn in
                let t = try txn.openTree("t", create: true)
                try txn.put(Array("k".utf8), Array("v".utf8), in: t)
            }
        }
        committer.start()
        let start = Date()
        XCTAssertTrue(watcher.wait(timeout: 30), "the other handle's commit woke the watcher")
        XCTAssertLessThan(Date().timeIntervalSince(start), 25, "woken by the commit, not a timeout")
        while !committer.isFinished { usleep(1_000) }
        XCTAssertEqual(observed.latestVersion, other.latestVersion)
        other.close()
    }

    func testWakeEndsTheCurrentOrNextWait() throws {
        let db = try open()
        let watcher = try db.makeCommitWatcher()
        defer { watcher.close() }
        watcher.wake()
        XCTAssertTrue(watcher.wait(timeout: 30), "a wake before the wait ends it at once")
        XCTAssertFalse(watcher.wait(timeout: 0.05), "the wake was consumed")
        let waker = Thread {
            usleep(50_000)
            watcher.wake()
        }
        waker.start()
        XCTAssertTrue(watcher.wait(timeout: 30))
    }

    /// Committers write the wake field only while watchers exist: closed watchers stop it.
    func testCommittersWriteTheWakeFieldOnlyWhileSomeoneWatches() throws {
        let db = try open()
        guard let probe = try System.watchWrites(path("test.strata") + ".lock") else {
            throw XCTSkip("no file-change watching on this system")
        }
        defer { System.close(probe) }
        func commitWasSignalled() throws -> Bool {
            System.drain(probe)
            try db.write { txn in
                let t = try txn.openTree("t", create: true)
                try txn.put(Array("k".utf8), Array("v".utf8), in: t)
            }
            return System.waitReadable([probe], milliseconds: 0)
        }
        XCTAssertFalse(try commitWasSignalled(), "no watcher: no write to the lock file")
        let watcher = try db.makeCommitWatcher()
        XCTAssertTrue(try commitWasSignalled())
        watcher.close()
        XCTAssertFalse(try commitWasSignalled(), "the last watcher closed")
    }
}
