import Foundation
import XCTest
@testable import StrataStorage
import StrataPOSIX

/// Crashes around `sync()` of grouped (`.deferred`) commits, built in-process: the file's bytes
/// are copied at the moment of the "crash" and the copy is opened.
final class GroupCommitCrashTests: CrashTestCase {
    func rewrite(_ db: Database, _ round: UInt8, durability: Durability) throws {
        try db.write(durability: durability) { txn in
            let t = try txn.openTree("t", create: true)
            for i in 0..<120 { try txn.put(bytes("key-\(1000 + i)"), [UInt8](repeating: round, count: 300), in: t) }
        }
    }

    func copyAndOpen(_ db: Database, as name: String) throws -> Database {
        let bytes = try XCTUnwrap(FileManager.default.contents(atPath: db.path))
        try bytes.write(to: URL(fileURLWithPath: path(name)))
        return try open(path(name))
    }

    func assertRound(
        _ db: Database, _ round: UInt8, _ message: String, file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let report = try db.verify()
        XCTAssertEqual(report.leakedPages, [], message, file: file, line: line)
        try db.read { r in
            let t = try XCTUnwrap(try r.tree(named: "t"), file: file, line: line)
            let all = try r.allEntries(t)
            XCTAssertEqual(all.count, 120, message, file: file, line: line)
            XCTAssertTrue(
                all.allSatisfy { $0.1 == [UInt8](repeating: round, count: 300) },
                "\(message): not every value is from round \(round)", file: file, line: line)
        }
    }

    /// Deferred commits 2...4 (each rewriting what the one before wrote), `sync()`, then a crash
    /// while the next commit is writing pages, before its meta page: the file must open at the
    /// synced commit. The synced commit's meta record still lists every page of the group for
    /// crash verification, so the next commit must not overwrite pages the group freed.
    func testCrashAfterSyncKeepsSyncedGroupCommits() throws {
        let db = try open(path())
        try rewrite(db, 1, durability: .full)
        for round in 2...4 { try rewrite(db, UInt8(round), durability: .deferred) }
        let synced = try db.sync()
        XCTAssertEqual(db.durableVersion, synced)

        let txn = try db.beginWrite()
        let t = try txn.openTree("t")
        for i in 0..<120 { try txn.put(bytes("key-\(1000 + i)"), [UInt8](repeating: 5, count: 300), in: t) }
        FaultInjector.arm(.pwrite, kind: .error(EIO), pathContaining: db.path)
        XCTAssertThrowsError(try txn.commit())
        FaultInjector.disarmAll()

        let crashed = try copyAndOpen(db, as: "crashed.strata")
        defer { crashed.close() }
        XCTAssertEqual(crashed.latestVersion, synced, "the synced commit is lost")
        try assertRound(crashed, 4, "after the crash")
        db.close()
    }

    /// The same after the crash-interrupted commit's successor: a full commit after the group,
    /// then a crash in the commit after that.
    func testCrashAfterGroupAndFullCommitKeepsTheFullCommit() throws {
        let db = try open(path())
        try rewrite(db, 1, durability: .full)
        for round in 2...4 { try rewrite(db, UInt8(round), durability: .deferred) }
        try rewrite(db, 5, durability: .full)
        let durable = db.latestVersion

        let txn = try db.beginWrite()
        let t = try txn.openTree("t")
        for i in 0..<120 { try txn.put(bytes("key-\(1000 + i)"), [UInt8](repeating: 6, count: 300), in: t) }
        FaultInjector.arm(.pwrite, kind: .error(EIO), pathContaining: db.path)
        XCTAssertThrowsError(try txn.commit())
        FaultInjector.disarmAll()

        let crashed = try copyAndOpen(db, as: "crashed.strata")
        defer { crashed.close() }
        XCTAssertEqual(crashed.latestVersion, durable)
        try assertRound(crashed, 5, "after the crash")
        db.close()
    }

    /// A writer that dies after writing its meta record but before publishing it in the lock file
    /// (commit steps 8-10) must not stop the other processes' writers. Two handles on one file
    /// stand for two processes (their lock-file locks conflict like processes' do); the "dead"
    /// writer's commit is unpublished by restoring the lock file's previous state.
    func testWriterDeathBetweenMetaWriteAndPublishDoesNotBlockOtherWriters() throws {
        for deferred in [false, true] {
            let name = deferred ? "dead-deferred.strata" : "dead-full.strata"
            let dying = try open(path(name))
            let survivor = try open(path(name))
            try rewrite(dying, 1, durability: .full)
            if deferred { try rewrite(dying, 2, durability: .deferred) }
            let published = dying.lockFile.readState()
            try rewrite(dying, 3, durability: deferred ? .deferred : .full)
            dying.lockFile.publish(published)

            try rewrite(survivor, 4, durability: .full)
            try assertRound(survivor, 4, "after the survivor wrote (deferred: \(deferred))")
            // A dead writer's deferred commit is whole and gets published (it may be in any
            // version after a crash); a full one was never acknowledged and is replaced.
            XCTAssertEqual(survivor.latestVersion.rawValue, published.version + (deferred ? 2 : 1))

            let crashed = try copyAndOpen(survivor, as: "copy-" + name)
            try assertRound(crashed, 4, "a copy of the file (deferred: \(deferred))")
            crashed.close()
            survivor.close()
            dying.close()
        }
    }
}
