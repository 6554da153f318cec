import Foundation
import Strata
import StrataTestSupport
import XCTest

@testable import StrataSync

/// A replica killed with SIGKILL at a random moment of its commits uploads every committed change
/// exactly once when it opens again.
final class SyncCrashTests: TemporaryDirectoryTestCase {
    override func tearDown() async throws {
        await SyncEngine.stopAll()
        try await super.tearDown()
    }

    func configuration(_ file: String, port: Int, database: String) -> Realm.Configuration {
        var c = Realm.Configuration(fileURL: URL(fileURLWithPath: file), objectTypes: [SyncDog.self])
        c.syncConfiguration = SyncConfiguration(host: "127.0.0.1", port: port, database: database, user: "strata")
        return c
    }

    /// Round 1 kills the child while it uploads; round 2 while the server is down, so that
    /// every commit is between its local commit and its upload when the child dies.
    @MainActor
    func testAReplicaKilledBetweenCommitAndUploadUploadsExactlyOnceOnRestart() async throws {
        let server = try PostgresTestServer()
        defer { server.stop() }
        var random = SeededRandom(seed: 0x5EED_2025)
        for (round, serverDown) in [false, true].enumerated() {
            let db = "crash_\(round)"
            try server.createDatabase(db)
            let file = path("child-\(round).realm")
            // The child's first open creates the server tables; the server goes down after it.
            let progress = path("progress-\(round)")
            let output = path("child-\(round).log")
            let exe = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path
            let pid = try PostgresTestServer.spawn(
                exe, ["StrataSyncTests.SyncCrashTests/testChildCommitsUntilKilled"],
                environment: [
                    "STRATA_SYNC_CHILD_FILE": file, "STRATA_SYNC_CHILD_PORT": "\(server.port)",
                    "STRATA_SYNC_CHILD_DB": db, "STRATA_SYNC_CHILD_PROGRESS": progress,
                ], output: output)
            let killAfter = Int(random.next() % 150) + 30
            var downAt = 0
            let deadline = Date().addingTimeInterval(120)
            while Date() < deadline {
                let lines = ((try? String(contentsOfFile: progress, encoding: .utf8)) ?? "").split(separator: "\n")
                    .count
                if serverDown && downAt == 0 && lines >= 10 {
                    try server.pause()
                    downAt = lines
                }
                if lines >= killAfter + downAt { break }
                try await Task.sleep(nanoseconds: 2_000_000)
            }
            kill(pid, SIGKILL)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
            let log = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
            // A crash report begins with the reason and the crashed thread's stack; the other
            // threads' stacks follow (the end alone showed only threads waiting on a futex).
            XCTAssertEqual(
                status & 0x7f, SIGKILL,
                "the child ended before it was killed: \(log.prefix(4000)) ... \(log.suffix(1000))")
            if serverDown { try server.start() }

            let realm = try Realm(configuration: configuration(file, port: server.port, database: db))
            let local = realm.objects(SyncDog.self).count
            let counter = realm.object(ofType: SyncDog.self, forPrimaryKey: 0)?.age ?? -1
            XCTAssertGreaterThan(local, killAfter / 2, "round \(round): the child's commits are in the file")
            let session = try XCTUnwrap(realm.syncSession)
            try await withThrowingTaskGroup(of: Void.self) { g in
                g.addTask { try await session.wait(for: .upload) }
                g.addTask {
                    try await Task.sleep(nanoseconds: 60_000_000_000)
                    throw SyncError(.connection, "the upload did not end within 60 s")
                }
                try await g.next()
                g.cancelAll()
            }
            XCTAssertEqual(
                try server.sql("SELECT count(*) FROM \"SyncDog\"", database: db), "\(local)\n", "round \(round)")
            XCTAssertEqual(
                try server.sql("SELECT age FROM \"SyncDog\" WHERE id = 0", database: db), "\(counter)\n",
                "round \(round): the counter object, incremented by every commit, holds the last local value")
            XCTAssertEqual(
                try server.sql("SELECT count(*) FROM \"SyncDog\" WHERE id > 0 AND age <> id", database: db), "0\n")
            realm.refresh()
            XCTAssertEqual(
                try SyncLocalStore.lastOutboxSeq(realm._storeTransaction), 0, "round \(round): the outbox is empty")
            await SyncEngine.stopAll()
        }
    }

    /// Runs only as the child of the test above: commits one object (and an increment of a
    /// counter object) per transaction until killed, noting each commit in the progress file.
    func testChildCommitsUntilKilled() throws {
        let env = ProcessInfo.processInfo.environment
        guard let file = env["STRATA_SYNC_CHILD_FILE"], let port = env["STRATA_SYNC_CHILD_PORT"].flatMap(Int.init),
            let db = env["STRATA_SYNC_CHILD_DB"], let progress = env["STRATA_SYNC_CHILD_PROGRESS"]
        else {
            throw XCTSkip(
                "runs as the child process of testAReplicaKilledBetweenCommitAndUploadUploadsExactlyOnceOnRestart")
        }
        let realm = try Realm(configuration: configuration(file, port: port, database: db))
        FileManager.default.createFile(atPath: progress, contents: nil)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: progress))
        try realm.write { realm.add(SyncDog(value: ["id": 0, "name": "counter", "age": 0])) }
        for i in 1...100_000 {
            try realm.write {
                realm.add(SyncDog(value: ["id": i, "name": "dog \(i)", "age": i]))
                realm.object(ofType: SyncDog.self, forPrimaryKey: 0)!.age += 1
            }
            handle.write(Data("\(i)\n".utf8))
            usleep(1000)
        }
    }
}
