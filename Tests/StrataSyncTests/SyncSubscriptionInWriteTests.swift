import Foundation
import Strata
import XCTest

@testable import StrataSync

/// A subscription update commits through the engine's own write transaction, which waits for
/// the file's write lock: an update from inside a write transaction of the same file, on the
/// thread, queue or actor that holds it, would wait for itself. It is refused, whatever the
/// realm's confinement.
final class SyncSubscriptionInWriteTests: SyncTestCase {
    @MainActor
    func testAnUpdateInsideAnActorConfinedRealmsWriteIsRefused() async throws {
        let (server, db) = try freshDatabase()
        let c = configuration("a", server, db)
        let writer = SyncSubscriptionWriter()
        try await Self.within(30, "an update inside the actor's write") {
            let message = try await writer.updateInsideWrite(c)
            XCTAssertTrue(message.contains("inside a write transaction"), message)
        }
        // The realm stays usable: an update outside the write goes through.
        try await Self.within(60, "an update after the write") { try await writer.updateOutsideWrite(c) }
    }

    @MainActor
    func testAnUpdateInsideAQueueConfinedRealmsWriteIsRefused() async throws {
        let (server, db) = try freshDatabase()
        let c = configuration("a", server, db)
        _ = try await Realm(configuration: c, downloadBeforeOpen: .always)
        let queue = DispatchQueue(label: "writer")
        let completed = expectation(description: "onComplete")
        nonisolated(unsafe) var reported: Error?
        let held: Bool = try await withCheckedThrowingContinuation { done in
            queue.async {
                do {
                    let realm = try Realm(configuration: c, queue: queue)
                    realm.beginWrite()
                    realm.subscriptions.update(
                        { realm.subscriptions.append(QuerySubscription<SyncDog>(name: "q")) },
                        onComplete: { error in
                            reported = error
                            completed.fulfill()
                        })
                    // Nothing was committed.
                    let unchanged = realm.subscriptions.first(named: "q") == nil
                    realm.cancelWrite()
                    done.resume(returning: unchanged)
                } catch {
                    done.resume(throwing: error)
                }
            }
        }
        XCTAssertTrue(held)
        await fulfillment(of: [completed], timeout: 30)
        let message = (reported as? SyncError)?.message ?? "\(String(describing: reported))"
        XCTAssertTrue(message.contains("inside a write transaction"), message)
    }
}

/// Opens a synced realm on itself (an actor other than the main actor).
private actor SyncSubscriptionWriter {
    /// Begins a write and updates the subscriptions inside it; returns the error's message.
    func updateInsideWrite(_ configuration: Realm.Configuration) async throws -> String {
        let realm = try await Realm(configuration: configuration, actor: self, downloadBeforeOpen: .always)
        realm.beginWrite()
        defer { realm.cancelWrite() }
        do {
            try await realm.subscriptions.update { $0.append(QuerySubscription<SyncDog>(name: "inside")) }
            return "accepted"
        } catch let e as SyncError {
            return e.message
        }
    }

    func updateOutsideWrite(_ configuration: Realm.Configuration) async throws {
        let realm = try await Realm(configuration: configuration, actor: self)
        try await realm.subscriptions.update { $0.append(QuerySubscription<SyncDog>(name: "outside")) }
        XCTAssertNotNil(realm.subscriptions.first(named: "outside"))
        XCTAssertNil(realm.subscriptions.first(named: "inside"))
    }
}
