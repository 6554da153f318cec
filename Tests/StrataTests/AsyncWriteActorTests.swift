import Foundation
import Strata
import StrataPOSIX
import StrataStorage
import XCTest

/// asyncWrite on actor-confined realms.
final class AsyncWriteActorTests: AsyncWriteTestCase {
    // MARK: asyncWrite and actors

    /// Holds the file's write lock on another thread for `seconds`, so async writers must wait.
    func holdWriteLock(for seconds: TimeInterval) -> (started: DispatchSemaphore, done: DispatchSemaphore) {
        let path = url("actor.realm")
        let started = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            let realm = try! Realm(configuration: Realm.Configuration(fileURL: path))
            try! realm.beginWrite()
            started.signal()
            Thread.sleep(forTimeInterval: seconds)
            realm.cancelWrite()
            done.signal()
        }
        return (started, done)
    }

    func testActorReentrancyNeverRunsABlockOutsideItsTransaction() async throws {
        Realm.Configuration.defaultConfiguration = config("actor.realm")
        let actor = try await RealmActor()
        let lock = holdWriteLock(for: 0.3)
        lock.started.wait()
        // Three asyncWrites wait for the lock; meanwhile the actor runs other code, including
        // a synchronous write (which waits for the same lock).
        try await withThrowingTaskGroup(of: Void.self) { group in
            for i in 0..<3 { group.addTask { try await actor.addTodo("async \(i)") } }
            group.addTask {
                try await Task.sleep(for: .milliseconds(50))
                try await actor.syncAdd("sync")
            }
            try await group.waitForAll()
        }
        lock.done.wait()
        let saw = await actor.blockSawTransaction
        XCTAssertEqual(saw, [true, true, true])
        let names = await actor.names()
        XCTAssertEqual(names, ["async 0", "async 1", "async 2", "sync"].sorted())
    }

    func testTaskCancelledWhileWaitingForTheLockWritesNothing() async throws {
        Realm.Configuration.defaultConfiguration = config("actor.realm")
        let actor = try await RealmActor()
        let lock = holdWriteLock(for: 0.5)
        lock.started.wait()
        let task = Task { try await actor.addTodo("cancelled") }
        try await Task.sleep(for: .milliseconds(100))
        task.cancel()
        do {
            try await task.value
            XCTFail("a cancelled asyncWrite throws")
        } catch is CancellationError {
        }
        lock.done.wait()
        // The lock is free again and the actor's realm still writes.
        try await actor.addTodo("after")
        let ran = await actor.blocksRun
        XCTAssertEqual(ran, 1, "the cancelled block never ran")
        let names = await actor.names()
        XCTAssertEqual(names, ["after"])
    }

    func testAsyncWriteInAnAlreadyCancelledTaskThrowsBeforeAnything() async throws {
        Realm.Configuration.defaultConfiguration = config("actor.realm")
        let actor = try await RealmActor()
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            try await actor.addTodo("never")
        }
        await XCTAssertThrowsErrorAsync(try await task.value) { XCTAssertTrue($0 is CancellationError) }
        let count = await actor.count
        XCTAssertEqual(count, 0)
    }

    func testAsyncWriteErrorsCancelTheTransaction() async throws {
        Realm.Configuration.defaultConfiguration = config("actor.realm")
        let actor = try await RealmActor()
        struct Stop: Error {}
        do {
            try await actor.failingWrite(Stop())
            XCTFail("the block's error is rethrown")
        } catch is Stop {
        }
        let count = await actor.count
        XCTAssertEqual(count, 0)
        let inWrite = await actor.isInWriteTransaction()
        XCTAssertFalse(inWrite)
    }

    @MainActor
    func testAsyncWriteOnTheMainActorWithAMainThreadRealm() async throws {
        let realm = try Realm(configuration: config())
        let name = try await realm.asyncWrite { () -> String in
            XCTAssertTrue(Thread.isMainThread)
            realm.add(Person(value: ["id": 1, "name": "main"]))
            return "returned"
        }
        XCTAssertEqual(name, "returned")
        XCTAssertEqual(realm.object(ofType: Person.self, forPrimaryKey: 1)?.name, "main")
        let v = try versions()
        XCTAssertEqual(v.durable, v.latest)
    }

    func testRealmOpenConfinesToTheCallingActor() async throws {
        Realm.Configuration.defaultConfiguration = config("actor.realm")
        let actor = try await RealmActor()
        let count = try await actor.openSecondRealmAndCount()
        XCTAssertEqual(count, 0)
        do {
            _ = try await Realm.open(configuration: config("actor.realm"))
            XCTFail("nonisolated code has no actor to confine to")
        } catch let error as Realm.Error {
            XCTAssertEqual(error.realmCode, .wrongThread)
        }
    }
}
