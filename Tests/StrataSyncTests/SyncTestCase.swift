import Foundation
import Strata
import StrataCore
import StrataTestSupport
import XCTest

@testable import StrataSync

/// The base of the sync test classes: a PostgreSQL server of the class's own (started on first
/// use, stopped after the class), a database per test, synced configurations, and waits that
/// fail the test instead of hanging.
class SyncTestCase: TemporaryDirectoryTestCase {
    nonisolated(unsafe) static var server: PostgresTestServer?
    nonisolated(unsafe) static var databases = 0

    override class func tearDown() {
        server?.stop()
        server = nil
        super.tearDown()
    }

    /// Ends the test process if one test runs for more than `watchdogSeconds`: a hung wait
    /// (a server that never answers, a deadlock) then fails the run at once, naming the test,
    /// instead of holding CI until its limit.
    private var watchdog: DispatchWorkItem?
    static let watchdogSeconds = 300.0

    override func setUp() async throws {
        try await super.setUp()
        let name = self.name
        let item = DispatchWorkItem {
            FileHandle.standardError.write(
                Data("\n\(name) ran for more than \(Int(Self.watchdogSeconds)) s: stopping the test process.\n".utf8))
            Self.server?.stop()
            exit(3)
        }
        watchdog = item
        DispatchQueue.global().asyncAfter(deadline: .now() + Self.watchdogSeconds, execute: item)
    }

    override func tearDown() async throws {
        watchdog?.cancel()
        await SyncEngine.stopAll()
        try await super.tearDown()
    }

    /// The shared server, and a new database for this test.
    func freshDatabase() throws -> (PostgresTestServer, String) {
        if Self.server == nil { Self.server = try PostgresTestServer() }
        Self.databases += 1
        let name = "sync_\(getpid())_\(Self.databases)"
        try Self.server!.createDatabase(name)
        return (Self.server!, name)
    }

    /// A synced configuration of file `name` in the test's directory.
    func configuration(
        _ name: String, _ server: PostgresTestServer, _ db: String, types: [ObjectBase.Type] = [SyncDog.self]
    ) -> Realm.Configuration {
        var c = Realm.Configuration(
            fileURL: temporaryDirectory.appendingPathComponent(name + ".realm"), objectTypes: types)
        c.syncConfiguration = SyncConfiguration(host: "127.0.0.1", port: server.port, database: db, user: server.user)
        return c
    }

    /// Runs `body`, failing the test and throwing if it takes more than `seconds`.
    static func within(
        _ seconds: Double, _ what: String, _ body: @escaping @Sendable () async throws -> Void
    )
        async throws
    {
        try await withThrowingTaskGroup(of: Bool.self) { group in
            group.addTask {
                try await body()
                return true
            }
            group.addTask {
                try await Task.sleep(nanoseconds: UInt64(seconds * 1e9))
                return false
            }
            let finished = try await group.next()!
            group.cancelAll()
            if !finished {
                XCTFail("\(what) did not end within \(seconds) s")
                throw SyncError(.connection, "\(what) did not end within \(seconds) s")
            }
        }
    }

    /// `realm.syncSession.wait(for:)`, failing the test after `seconds` instead of hanging.
    @MainActor
    func wait(_ realm: Realm, _ direction: SyncSession.ProgressDirection, seconds: Double = 60) async throws {
        let session = try XCTUnwrap(realm.syncSession)
        try await Self.within(seconds, "wait(for: \(direction))") { try await session.wait(for: direction) }
    }

    /// A replica on a fresh database that has uploaded one dog, and a link of its own to the
    /// server with the replica's client id and tables: for tests that run the upload's
    /// statements by hand.
    @MainActor
    func uploader() async throws -> (
        server: PostgresTestServer, db: String, realm: Realm, link: SyncServerLink, client: String,
        tables: [String: SyncTable]
    ) {
        let (server, db) = try freshDatabase()
        let a = try await Realm(configuration: configuration("a", server, db), downloadBeforeOpen: .always)
        try a.write { a.add(SyncDog(value: ["id": 1, "name": "Rex"])) }
        try await wait(a, .upload)
        let engine = try XCTUnwrap(SyncEngine.engine(path: a._filePath))
        let client = try server.sql("SELECT client FROM strata_clients", database: db)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        return (server, db, a, try await SyncServerLink.connect(engine.config), client, engine.tables)
    }

    /// A write of every field of `SyncDog` `key`, all at `clock`, `name` set.
    func newDog(_ key: Int, _ name: String, _ clock: SyncClock, _ tables: [String: SyncTable]) throws -> SyncOperation {
        var fields = try XCTUnwrap(tables["SyncDog"]).defaults.mapValues {
            SyncRecord<StoreValue>.Field(value: $0, clock: clock)
        }
        fields["name"]?.value = .string(name)
        return SyncOperation(table: "SyncDog", key: String(key), deleteClock: nil, fields: fields)
    }

    /// Waits until `realm`'s commits are on the server, then until each of `others` has the
    /// server's data.
    @MainActor
    func sync(_ realm: Realm, to others: [Realm]) async throws {
        try await wait(realm, .upload)
        for o in others {
            try await wait(o, .download)
            o.refresh()
        }
    }
}
