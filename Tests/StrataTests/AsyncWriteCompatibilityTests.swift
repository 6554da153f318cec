import Foundation
import Strata
import XCTest

/// A realm confined to an actor, for `asyncWrite` and `asyncRefresh` as RealmSwift's tests use them.
actor FlagActor {
    var realm: Realm!
    init() async throws {
        realm = try await Realm(actor: self)
    }

    /// `isPerformingAsynchronousWriteOperations` inside an `asyncWrite` block, and before and after it.
    func performingFlags() async throws -> (before: Bool, inside: Bool, inTransaction: Bool, after: Bool) {
        let before = realm.isPerformingAsynchronousWriteOperations
        let (inside, inTransaction) = try await realm.asyncWrite {
            realm.create(SeedDog.self, value: ["name": "Rex", "age": 1])
            return (realm.isPerformingAsynchronousWriteOperations, realm.isInWriteTransaction)
        }
        return (before, inside, inTransaction, realm.isPerformingAsynchronousWriteOperations)
    }

    func dogCount() -> Int { realm.objects(SeedDog.self).count }

    func turnOffAutorefresh() { realm.autorefresh = false }

    func asyncRefresh() async -> Bool { await realm.asyncRefresh() }
}

/// Asynchronous writes and refreshes as RealmSwift's tests use them.
final class AsyncWriteCompatibilityTests: SeedTestCase {
    /// Three blocks queued on the main thread's realm and a fourth cancelled, from inside a main
    /// queue block that waits with `XCTestCase.wait`: the three run (the first, which never
    /// commits, is cancelled), the cancelled one never does.
    func testCancelledQueuedWriteIsRemovedWhileAMainQueueBlockWaits() {
        Realm.Configuration.defaultConfiguration = config()
        let waited = expectation(description: "the main queue block finished waiting")
        let ran = XCTestExpectation(description: "three blocks ran")
        ran.expectedFulfillmentCount = 3
        let cancelledRan = XCTestExpectation(description: "the cancelled block must not run")
        cancelledRan.isInverted = true
        let test = Unchecked(self)
        DispatchQueue.main.async {
            let realm = try! Realm()
            realm.beginAsyncWrite {
                realm.create(SeedDog.self, value: ["name": "not committed", "age": 1])
                ran.fulfill()
            }
            realm.beginAsyncWrite {
                realm.create(SeedDog.self, value: ["name": "second", "age": 2])
                realm.commitAsyncWrite()
                ran.fulfill()
            }
            realm.beginAsyncWrite {
                realm.create(SeedDog.self, value: ["name": "third", "age": 3])
                ran.fulfill()
                realm.commitAsyncWrite()
            }
            let cancelled = realm.beginAsyncWrite { cancelledRan.fulfill() }
            try! realm.cancelAsyncWrite(cancelled)
            test.value.wait(for: [ran, cancelledRan], timeout: 2)
            waited.fulfill()
        }
        wait(for: [waited], timeout: 10)
        let realm = try! Realm()
        realm.refresh()
        XCTAssertEqual(realm.objects(SeedDog.self).map(\.name).sorted(), ["second", "third"])
    }

    func testIsPerformingAsynchronousWriteOperationsIsTrueInsideAnAsyncWriteBlock() async throws {
        Realm.Configuration.defaultConfiguration = config()
        let actor = try await FlagActor()
        let flags = try await actor.performingFlags()
        XCTAssertFalse(flags.before)
        XCTAssertTrue(flags.inside)
        XCTAssertTrue(flags.inTransaction)
        XCTAssertFalse(flags.after)
        let count = await actor.dogCount()
        XCTAssertEqual(count, 1)
    }

    func testAsyncRefreshMovesTheRealmToTheNewestVersion() async throws {
        Realm.Configuration.defaultConfiguration = config()
        let actor = try await FlagActor()
        await actor.turnOffAutorefresh()
        var count = await actor.dogCount()
        XCTAssertEqual(count, 0)
        var refreshed = await actor.asyncRefresh()
        XCTAssertFalse(refreshed, "nothing new")
        let configuration = config()
        onNewThread {
            let other = try! Realm(configuration: configuration)
            try! other.write { other.add(SeedDog(value: ["name": "Rex", "age": 3])) }
        }
        count = await actor.dogCount()
        XCTAssertEqual(count, 0, "autorefresh is off: the actor's realm keeps its version")
        refreshed = await actor.asyncRefresh()
        XCTAssertTrue(refreshed)
        count = await actor.dogCount()
        XCTAssertEqual(count, 1)
    }

    /// `Realm.Error(code)` as RealmSwift's tests throw it.
    func testErrorWithOnlyACodeNamesTheCode() {
        let error = Realm.Error(.fail)
        XCTAssertEqual(error.realmCode, .fail)
        XCTAssertEqual(error.code, 1)
        XCTAssertEqual(error, Realm.Error(.fail))
        XCTAssertTrue(error.localizedDescription.contains("fail"), error.localizedDescription)
    }
}
