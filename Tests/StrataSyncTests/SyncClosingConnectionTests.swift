import Foundation
import NIOCore
import PostgresNIO
import Strata
import XCTest

@testable import StrataSync

/// A statement on a connection that is closing fails at once (postgres-nio never answers it;
/// it used to wait for the statement's time limit, a minute of a stalled session).
final class SyncClosingConnectionTests: SyncTestCase {
    @MainActor
    func testAStatementSentWhileTheConnectionClosesFailsAtOnce() async throws {
        let (server, db) = try freshDatabase()
        let a = try await Realm(configuration: configuration("a", server, db), downloadBeforeOpen: .always)
        let engine = try XCTUnwrap(SyncEngine.engine(path: a._filePath))
        for round in 0..<5 {
            let link = try await SyncServerLink.connect(engine.config)
            let one = try await link.run("SELECT 1::text")
            XCTAssertEqual(one.first?.first, "1")
            let started = Date()
            let closing: EventLoopFuture<Void> = link.connection.close()
            do {
                _ = try await link.run("SELECT pg_sleep(0.01)::text, \(round)::text")
                // Answered before the close took effect: allowed, as long as it was quick.
            } catch let e as SyncError {
                XCTAssertEqual(e.code, .connection, "\(e)")
            }
            XCTAssertLessThan(Date().timeIntervalSince(started), 10, "round \(round): the statement waited")
            try? await closing.get()
        }
    }

    /// A connection whose setup statements fail is closed before the error reaches the caller:
    /// the server sees no session left, and the process does not trap (postgres-nio's debug
    /// builds assert that a connection is closed when it is released).
    @MainActor
    func testAConnectionWhoseSetupFailsIsClosed() async throws {
        let (server, db) = try freshDatabase()
        let config = SyncConfiguration(host: "127.0.0.1", port: server.port, database: db, user: "strata")
        SyncServerLink.setupStatementsForTesting = ["SELECT 1 / 0"]
        defer { SyncServerLink.setupStatementsForTesting = [] }
        for round in 0..<3 {
            do {
                let link = try await SyncServerLink.connect(config)
                await link.close()
                XCTFail("round \(round): a setup statement that fails let the connection through")
            } catch let e as SyncError {
                XCTAssertEqual(e.sqlState, "22012", "round \(round): \(e)")
            }
        }
        let sessions = "SELECT count(*) FROM pg_stat_activity WHERE datname = '\(db)'"
        let deadline = Date().addingTimeInterval(10)
        var left = try server.sql(sessions, database: "postgres")
        while left != "0\n" && Date() < deadline {
            try await Task.sleep(nanoseconds: 50_000_000)
            left = try server.sql(sessions, database: "postgres")
        }
        XCTAssertEqual(left, "0\n", "sessions of the failed connections still open")
    }

    /// Each statement's watch on its connection's close is forgotten when the statement ends: a
    /// connection lives for thousands of statements.
    @MainActor
    func testFinishedStatementsLeaveNothingWatchingTheClose() async throws {
        let (server, db) = try freshDatabase()
        let a = try await Realm(configuration: configuration("a", server, db), downloadBeforeOpen: .always)
        let engine = try XCTUnwrap(SyncEngine.engine(path: a._filePath))
        let link = try await SyncServerLink.connect(engine.config)
        for i in 0..<200 {
            let r = try await link.run("SELECT \(i)::text")
            XCTAssertEqual(r.first?.first, "\(i)")
        }
        let deadline = Date().addingTimeInterval(5)
        while link.closing.count > 0 && Date() < deadline { try await Task.sleep(nanoseconds: 10_000_000) }
        XCTAssertEqual(link.closing.count, 0)
        await link.close()
    }
}
