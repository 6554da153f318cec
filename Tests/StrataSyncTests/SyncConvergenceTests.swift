import Foundation
import Strata
import StrataTestSupport
import XCTest

@testable import StrataSync

/// Randomised: replicas edit, delete and recreate objects while random partitions (suspended
/// sessions) come and go; once all reconnect, every replica equals PostgreSQL. And a server
/// killed in the middle of upload batches keeps each batch all or nothing.
final class SyncConvergenceTests: SyncTestCase {
    func server(database: String) throws -> PostgresTestServer {
        if Self.server == nil { Self.server = try PostgresTestServer() }
        try Self.server!.createDatabase(database)
        return Self.server!
    }

    /// What a replica or the server holds: id -> "name|age|weight".
    @MainActor
    func state(_ realm: Realm) -> [Int: String] {
        realm.refresh()
        var out: [Int: String] = [:]
        // Weights are whole numbers here; PostgreSQL prints them without ".0".
        for d in realm.objects(SyncDog.self) {
            out[d.id] = "\(d.name)|\(d.age)|\(d.weight.map { "\(Int($0))" } ?? "nil")"
        }
        return out
    }

    func serverState(_ server: PostgresTestServer, _ db: String) throws -> [Int: String] {
        var out: [Int: String] = [:]
        let text = try server.sql(
            "SELECT id || '|' || name || '|' || age || '|' || coalesce(weight::text, 'nil') FROM \"SyncDog\"",
            database: db)
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: "|", maxSplits: 1, omittingEmptySubsequences: false)
            out[Int(parts[0])!] = String(parts[1])
        }
        return out
    }

    @MainActor
    func testReplicasWithRandomEditsAndPartitionsEndEqualToPostgres() async throws {
        for (round, seed) in [UInt64(0xC0_FFEE), 0xBEE5, 0x5EED_0003].enumerated() {
            try await randomRound(seed: seed, database: "converge_\(round)")
            await SyncEngine.stopAll()
            emptyTemporaryDirectory()
        }
    }

    /// Four replicas, the last subscribed to `age > 100` only, 300 random steps (see above),
    /// then everyone reconnects and compares.
    @MainActor
    func randomRound(seed: UInt64, database db: String) async throws {
        let server = try server(database: db)
        var random = SeededRandom(seed: seed)
        let n = 4
        var replicas: [Realm] = []
        for i in 0..<n {
            var c = configuration("r\(i)", server, db)
            if i == n - 1 {
                c.syncConfiguration!.initialSubscriptions = {
                    $0.append(QuerySubscription<SyncDog>(name: "old") { $0.age > 100 })
                }
            }
            replicas.append(try await Realm(configuration: c, downloadBeforeOpen: .always))
        }
        var online = [Bool](repeating: true, count: n)
        for step in 0..<300 {
            let r = Int(random.next() % UInt64(n))
            let realm = replicas[r]
            switch random.next() % 10 {
            case 0:
                // A partition starts or heals.
                if online[r] { realm.syncSession!.suspend() } else { realm.syncSession!.resume() }
                online[r].toggle()
            case 1:
                // An edit in SQL.
                let id = Int(random.next() % 20)
                // An upload holds its rows for milliseconds, and the server ends one left idle
                // after 10 s (SyncServerLink.idleInTransactionLimit): a partition that begins in
                // the middle of one, while this psql holds a copy of its socket, waits that long.
                // 30 s of waiting means a transaction stalled otherwise; the error lists it.
                try server.sql(
                    "UPDATE \"SyncDog\" SET weight = \(step) WHERE id = \(id)", database: db,
                    lockTimeoutMilliseconds: 30_000)
            default:
                let id = Int(random.next() % 20)
                realm.refresh()
                try realm.write {
                    if let dog = realm.object(ofType: SyncDog.self, forPrimaryKey: id) {
                        switch random.next() % 4 {
                        case 0: realm.delete(dog)
                        case 1: dog.name = "n\(step)"
                        case 2: dog.age = step
                        default:
                            dog.name = "both\(step)"
                            dog.age = -step
                        }
                    } else {
                        realm.add(SyncDog(value: ["id": id, "name": "new\(step)", "age": step]))
                    }
                }
            }
            if random.next() % 16 == 0 { try await Task.sleep(nanoseconds: 3_000_000) }
        }
        for (i, r) in replicas.enumerated() where !online[i] { r.syncSession!.resume() }
        for r in replicas { try await wait(r, .upload) }
        for r in replicas { try await wait(r, .download) }
        let expected = try serverState(server, db)
        XCTAssertGreaterThan(expected.count, 0)
        // The subscribed replica holds the server's objects older than 100, and only those.
        let subscribed = expected.filter {
            Int($0.value.split(separator: "|", omittingEmptySubsequences: false)[1])! > 100
        }
        for (i, r) in replicas.enumerated() {
            XCTAssertEqual(
                state(r), i < n - 1 ? expected : subscribed, "seed \(seed): replica \(i) differs from PostgreSQL")
        }
        XCTAssertGreaterThan(state(replicas[n - 1]).count, 0, "seed \(seed)")
        // Which writes win depends on timing (partitions, upload order), so now and then every
        // object ends older than 100; otherwise the subscription left some out.
        if subscribed.count < expected.count {
            XCTAssertLessThan(state(replicas[n - 1]).count, expected.count, "seed \(seed)")
        }
    }

    /// Each commit creates 100 objects (ids `100 * i ..< 100 * (i + 1)`); the server is killed
    /// while batches upload. Right after, the rows it kept are exactly the ones of the commits up
    /// to its recorded upload position: no batch half applied. Restarted, it gets everything.
    @MainActor
    func testAServerKilledMidBatchKeepsEachBatchAllOrNothing() async throws {
        let db = "midbatch"
        let server = try server(database: db)
        let a = try await Realm(configuration: configuration("a", server, db), downloadBeforeOpen: .always)
        a.syncSession!.suspend()
        let commits = 400
        for i in 0..<commits {
            try a.write {
                for k in 0..<100 { a.add(SyncDog(value: ["id": i * 100 + k, "name": "d", "age": i])) }
            }
        }
        a.syncSession!.resume()
        // Kill the server once part of the outbox is on it.
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            let n =
                Int(
                    try server.sql("SELECT count(*) FROM \"SyncDog\"", database: db).trimmingCharacters(
                        in: .whitespacesAndNewlines)) ?? 0
            if n > 0 { break }
            try await Task.sleep(nanoseconds: 1_000_000)
        }
        try server.pause()
        a.syncSession!.suspend()
        try server.start()
        let uploaded = Int(
            try server.sql("SELECT coalesce(max(uploaded), 0) FROM strata_clients", database: db).trimmingCharacters(
                in: .whitespacesAndNewlines))!
        let rows = try server.sql("SELECT count(*), coalesce(max(id), -1) FROM \"SyncDog\"", database: db)
        // Outbox entry 1 is the commit of the first 100 objects (the realm wrote nothing before).
        XCTAssertEqual(
            rows, "\(uploaded * 100)|\(uploaded * 100 - 1)\n",
            "rows must be exactly the uploaded entries' (uploaded = \(uploaded))")
        XCTAssertLessThan(uploaded, commits, "the server died before the last batch")
        a.syncSession!.resume()
        try await wait(a, .upload)
        XCTAssertEqual(try server.sql("SELECT count(*) FROM \"SyncDog\"", database: db), "\(commits * 100)\n")
    }
}
