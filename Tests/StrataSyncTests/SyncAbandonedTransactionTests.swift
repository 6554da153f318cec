import Foundation
import Strata
import PostgresNIO
import StrataCore
import XCTest

@testable import StrataSync

/// An upload transaction whose client stops between two statements (suspended, or stuck) holds
/// row locks on the server until the session ends. Closing the connection normally ends it, but
/// a socket that a spawned child process inherited stays open; so the server ends a session of
/// ours left idle in such a transaction after `SyncServerLink.idleInTransactionLimit`, and SQL
/// writers wait no longer than that.
final class SyncAbandonedTransactionTests: SyncTestCase {
    @MainActor
    func testAnUploadTransactionLeftIdleIsEndedByTheServer() async throws {
        let (server, db, a, link, client, tables) = try await uploader()
        _ = a
        // A new object (every field written): the upload's insert of new rows.
        let op = try newDog(2, "Max", SyncClock(time: 1, node: 1), tables)
        // Just before COMMIT, holding its row of strata_clients (FOR UPDATE), the process starts
        // a child (which inherits the connection's socket) and gives the connection up. (The
        // upload's COMMIT, sent while the connection closes, then fails at once.)
        let child = ChildBox()
        Task.detached {
            _ = try? await link.upload(client: client, entries: [(1_000_000, [op])], tables: tables) { _ in
                // posix_spawn without closing descriptors, as `system()` and many C libraries
                // do (Foundation's Process closes them in the child).
                child.set(
                    (try? PostgresTestServer.spawn("/bin/sleep", ["60"], environment: [:], output: "/dev/null")) ?? -1)
                let closing: EventLoopFuture<Void> = link.connection.close()
                _ = closing
            }
        }
        var childID: pid_t = 0
        for _ in 0..<100 where childID == 0 {
            try await Task.sleep(nanoseconds: 50_000_000)
            childID = child.get()
        }
        defer { if childID > 0 { kill(childID, SIGKILL) } }
        XCTAssertGreaterThan(childID, 0, "the child started")
        // The server still has the transaction (the child keeps the socket open), until it has
        // been idle for the limit.
        let started = Date()
        try server.sql(
            "UPDATE strata_clients SET uploaded = uploaded WHERE client = '\(client)'", database: db,
            lockTimeoutMilliseconds: 30_000)
        let waited = Date().timeIntervalSince(started)
        XCTAssertGreaterThan(waited, 3, "the abandoned transaction held the row")
        XCTAssertLessThan(waited, 15, "the server ended the idle transaction (limit 10 s)")
        XCTAssertEqual(
            try server.sql("SELECT count(*) FROM \"SyncDog\" WHERE id = 2", database: db), "0\n",
            "nothing of the ended transaction stayed")
    }
}

/// The pid of the child the upload's hook started (0 until then).
private final class ChildBox: @unchecked Sendable {
    private let lock = NSLock()
    private var pid: pid_t = 0
    func set(_ p: pid_t) { lock.withLock { pid = p } }
    func get() -> pid_t { lock.withLock { pid } }
}
