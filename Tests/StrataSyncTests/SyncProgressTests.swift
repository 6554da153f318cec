import Foundation
import Strata
import StrataTestSupport
import XCTest

@testable import StrataSync

/// `SyncSession.addProgressNotification`: uploads report the outbox's bytes as batches reach
/// the server, downloads the bytes of each applied pass; outstanding-work notifications end
/// once complete; invalidated tokens stop.
final class SyncProgressTests: SyncTestCase {
    /// Collects the progress calls of one notification.
    final class Calls: @unchecked Sendable {
        private let lock = NSLock()
        private var values: [SyncSession.Progress] = []
        func add(_ p: SyncSession.Progress) { lock.withLock { values.append(p) } }
        var all: [SyncSession.Progress] { lock.withLock { values } }
    }

    /// Polls until `condition` holds, failing after 30 seconds.
    @MainActor
    func eventually(_ what: String, _ condition: () -> Bool) async throws {
        for _ in 0..<3000 {
            if condition() { return }
            try await Task.sleep(nanoseconds: 10_000_000)
        }
        XCTFail("\(what) did not happen within 30 s")
    }

    @MainActor
    func testUploadProgressFollowsTheOutboxUntilTheOutstandingWorkIsOnTheServer() async throws {
        let (server, db) = try freshDatabase()
        let a = try await Realm(configuration: configuration("a", server, db), downloadBeforeOpen: .always)
        let session = try XCTUnwrap(a.syncSession)
        session.suspend()
        // 600 commits: three upload batches of at most 256 entries.
        for i in 0..<600 { try a.write { a.add(SyncDog(value: ["id": i, "name": "dog\(i)", "age": i])) } }
        let outstanding = Calls()
        let everything = Calls()
        let t1 = session.addProgressNotification(for: .upload, mode: .forCurrentlyOutstandingWork) {
            outstanding.add($0)
        }
        let t2 = session.addProgressNotification(for: .upload, mode: .reportIndefinitely) { everything.add($0) }
        XCTAssertNotNil(t1)
        XCTAssertNotNil(t2)
        try await eventually("the first call") { outstanding.all.count == 1 }
        let first = outstanding.all[0]
        XCTAssertEqual(first.transferredBytes, 0)
        XCTAssertGreaterThan(first.transferrableBytes, 600 * 20)
        XCTAssertFalse(first.isTransferComplete)

        session.resume()
        try await wait(a, .upload)
        try await eventually("completion") { outstanding.all.last?.isTransferComplete == true }
        let calls = outstanding.all
        XCTAssertGreaterThanOrEqual(calls.count, 4, "one call at registration and one per batch")
        XCTAssertEqual(Set(calls.map(\.transferrableBytes)), [first.transferrableBytes])
        XCTAssertEqual(calls.map(\.transferredBytes), calls.map(\.transferredBytes).sorted())
        XCTAssertEqual(calls.last?.transferredBytes, first.transferrableBytes)
        XCTAssertEqual(calls.last?.progressEstimate, 1)
        XCTAssertEqual(try server.sql("SELECT count(*) FROM \"SyncDog\"", database: db), "600\n")

        // Later commits: the outstanding-work notification has ended; the other goes on.
        let before = everything.all.count
        try a.write { a.add(SyncDog(value: ["id": 1000, "name": "late", "age": 1])) }
        try await wait(a, .upload)
        try await eventually("a report of the later commit") {
            everything.all.count > before && everything.all.last!.transferredBytes > first.transferrableBytes
        }
        XCTAssertEqual(outstanding.all.count, calls.count)
        XCTAssertTrue(everything.all.last!.isTransferComplete)

        // An invalidated token hears nothing more.
        t2!.invalidate()
        let stopped = everything.all.count
        try a.write { a.add(SyncDog(value: ["id": 1001, "name": "later", "age": 1])) }
        try await wait(a, .upload)
        try await Task.sleep(nanoseconds: 200_000_000)
        XCTAssertEqual(everything.all.count, stopped)
        // Nothing outstanding: one call, complete at once.
        let none = Calls()
        let t3 = session.addProgressNotification(for: .upload, mode: .forCurrentlyOutstandingWork) { none.add($0) }
        try await eventually("the call") { none.all.count == 1 }
        XCTAssertTrue(none.all[0].isTransferComplete)
        withExtendedLifetime(t3) {}
        withExtendedLifetime(t1) {}
    }

    @MainActor
    func testDownloadProgressReportsEachAppliedPass() async throws {
        let (server, db) = try freshDatabase()
        let a = try await Realm(configuration: configuration("a", server, db), downloadBeforeOpen: .always)
        try a.write { for i in 0..<100 { a.add(SyncDog(value: ["id": i, "name": "dog\(i)", "age": i])) } }
        try await wait(a, .upload)
        let b = try await Realm(configuration: configuration("b", server, db), downloadBeforeOpen: .never)
        let session = try XCTUnwrap(b.syncSession)
        let outstanding = Calls()
        let everything = Calls()
        let t1 = session.addProgressNotification(for: .download, mode: .forCurrentlyOutstandingWork) {
            outstanding.add($0)
        }
        let t2 = session.addProgressNotification(for: .download, mode: .reportIndefinitely) { everything.add($0) }
        try await eventually("completion") { outstanding.all.last?.isTransferComplete == true }
        b.refresh()
        XCTAssertEqual(b.objects(SyncDog.self).count, 100)
        XCTAssertGreaterThan(outstanding.all.last!.transferredBytes, 100 * 20, "the hundred rows' bytes")
        XCTAssertFalse(outstanding.all[0].isTransferComplete)

        // Each later pass adds its bytes to the indefinite notification.
        let before = everything.all.last?.transferredBytes ?? 0
        try a.write { a.object(ofType: SyncDog.self, forPrimaryKey: 5)!.name = "renamed" }
        try await sync(a, to: [b])
        try await eventually("a report of the later pass") { (everything.all.last?.transferredBytes ?? 0) > before }
        XCTAssertTrue(everything.all.last!.isTransferComplete)
        withExtendedLifetime(t1) {}
        withExtendedLifetime(t2) {}
        // A session that stopped for good takes no notification.
        await SyncEngine.stopAll()
        XCTAssertNil(session.addProgressNotification(for: .upload, mode: .reportIndefinitely) { _ in })
    }
}
