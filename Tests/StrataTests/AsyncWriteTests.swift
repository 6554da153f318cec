import Foundation
import Strata
import StrataPOSIX
import StrataStorage
import XCTest

// Asynchronous writes: seeds 000 (the whole file), 003 and 004 (the background-write parts).
// Main-thread realms get their blocks and completions through DispatchQueue.main, which
// XCTest's waits drain; queue realms through their queue; actor realms on their actor.

/// A record of one write, for ordering checks: who wrote it, its position in that writer's
/// sequence, and how many records the transaction saw (its place in the commit order).
class AsyncLogEntry: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var writer = 0
    @Persisted var seq = 0
    @Persisted var seen = 0
}

/// The seeds' `Todo` (RealmActor example).
class Todo: Object {
    @Persisted(primaryKey: true) var _id: ObjectId
    @Persisted var name = ""
    @Persisted var owner = ""
    @Persisted var status = ""
}

/// The seeds' `RealmActor`, as "Define a Custom Database Actor" declares it.
actor RealmActor {
    // An implicitly-unwrapped optional is used here to let us pass `self` to
    // `Realm(actor:)` within `init`
    var realm: Realm!
    init() async throws {
        realm = try await Realm(actor: self)
    }

    var count: Int {
        realm.objects(Todo.self).count
    }

    func createTodo(name: String, owner: String, status: String) async throws {
        try await realm.asyncWrite {
            realm.create(
                Todo.self,
                value: [
                    "_id": ObjectId.generate(),
                    "name": name,
                    "owner": owner,
                    "status": status,
                ])
        }
    }

    // MARK: For the reentrancy and cancellation tests

    /// Whether each block ran inside a write transaction, in the order the blocks ran.
    var blockSawTransaction: [Bool] = []
    var blocksRun = 0

    func addTodo(_ name: String) async throws {
        try await realm.asyncWrite {
            blocksRun += 1
            blockSawTransaction.append(realm.isInWriteTransaction)
            realm.create(Todo.self, value: ["_id": ObjectId.generate(), "name": name])
        }
    }

    func syncAdd(_ name: String) throws {
        try realm.write { realm.create(Todo.self, value: ["_id": ObjectId.generate(), "name": name]) }
    }

    func names() -> [String] {
        realm.objects(Todo.self).map(\.name).sorted()
    }

    func isPerformingAsyncWrites() -> Bool {
        realm.isPerformingAsynchronousWriteOperations
    }
}

/// A thread that runs its `RunLoop` until stopped; `perform` runs a closure on it.
final class RunLoopThread: @unchecked Sendable {
    private var runLoop: RunLoop?
    private let ready = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)
    private var stopped = false
    private let lock = NSLock()

    init() {
        let thread = Thread { [self] in
            let loop = RunLoop.current
            // A far-off repeating timer keeps the run loop from returning for lack of sources.
            loop.add(Timer(timeInterval: 3600, repeats: true) { _ in }, forMode: .default)
            lock.withLock { runLoop = loop }
            ready.signal()
            while !lock.withLock({ stopped }) {
                _ = loop.run(mode: .default, before: Date(timeIntervalSinceNow: 0.05))
            }
            finished.signal()
        }
        thread.start()
        ready.wait()
    }

    /// Runs `body` on the thread, from inside its run loop.
    func perform(_ body: @escaping () -> Void) {
        let box = UncheckedClosure(body)
        let loop = lock.withLock { runLoop! }
        loop.add(Timer(timeInterval: 0, repeats: false) { _ in box.body() }, forMode: .default)
    }

    func stop() {
        lock.withLock { stopped = true }
        finished.wait()
    }
}

private final class UncheckedClosure: @unchecked Sendable {
    let body: () -> Void
    init(_ body: @escaping () -> Void) { self.body = body }
}

final class AsyncWriteTests: SeedTestCase {
    /// Spins the main run loop (which drains DispatchQueue.main) until `condition` holds.
    func spin(
        until condition: () -> Bool, timeout: TimeInterval = 20, file: StaticString = #filePath, line: UInt = #line
    ) {
        let deadline = Date(timeIntervalSinceNow: timeout)
        while !condition() {
            if Date() > deadline {
                XCTFail("timed out", file: file, line: line)
                return
            }
            _ = RunLoop.current.run(mode: .default, before: Date(timeIntervalSinceNow: 0.01))
        }
    }

    /// Spins the main run loop for `seconds`.
    func spin(for seconds: TimeInterval) {
        let end = Date(timeIntervalSinceNow: seconds)
        while Date() < end { _ = RunLoop.current.run(mode: .default, before: Date(timeIntervalSinceNow: 0.01)) }
    }

    /// The storage engine's view of the file: (latest, durable) version.
    func versions(_ name: String = "test.realm") throws -> (latest: UInt64, durable: UInt64) {
        let db = try Database(path: url(name).path)
        defer { db.close() }
        return (db.latestVersion.rawValue, db.durableVersion.rawValue)
    }

    // MARK: Seed examples

    /// Seed 000/004, "Create Objects in the Background": `writeAsync` appends three dogs to
    /// the person found on the main thread; `onComplete` checks them.
    func testSeedWriteAsyncAppendsDogsAndTheCompletionSeesThem() throws {
        let realm = try open()
        try realm.write { realm.add(Person(value: ["id": 1, "name": "Dachary"])) }
        // Query for a specific person object on the main thread
        let people = realm.objects(Person.self)
        let thisPerson = people.where { $0.name == "Dachary" }.first
        var completed = false
        // Perform an async write to add dogs to that person's dog list.
        // No need to pass a thread-safe reference or frozen object.
        realm.writeAsync {
            thisPerson?.dogs.append(objectsIn: [
                Dog(value: ["name": "Ben", "age": 13]),
                Dog(value: ["name": "Lita", "age": 9]),
                Dog(value: ["name": "Maui", "age": 1]),
            ])
        } onComplete: { error in
            XCTAssertNil(error)
            XCTAssertTrue(Thread.isMainThread, "the completion runs on the realm's thread")
            // Confirm the three dogs were successfully added to the person's dogs list
            XCTAssertEqual(thisPerson!.dogs.count, 3)
            // Query for one of the dogs we added and see that it is present
            let dogs = realm.objects(Dog.self)
            let benDogs = dogs.where { $0.name == "Ben" }
            XCTAssertEqual(benDogs.count, 1)
            completed = true
        }
        // The call returned before the block ran; the realm reports async work until the end.
        XCTAssertEqual(thisPerson!.dogs.count, 0)
        XCTAssertTrue(realm.isPerformingAsynchronousWriteOperations)
        spin(until: { completed })
        XCTAssertFalse(realm.isPerformingAsynchronousWriteOperations)
        // The completion ran after the commit was durable.
        let v = try versions()
        XCTAssertEqual(v.durable, v.latest)
        XCTAssertEqual(thisPerson!.dogs.map(\.name), ["Ben", "Lita", "Maui"])
    }

    /// Seed 000 + the RealmActor example: `createTodo` writes with `asyncWrite` on the actor's
    /// realm; `await actor.count` reads it.
    func testSeedRealmActorCreatesTodoWithAsyncWrite() async throws {
        Realm.Configuration.defaultConfiguration = config("actor.realm")
        let actor = try await RealmActor()
        func createObject() async throws {
            // Because this function is not isolated to this actor,
            // you must await operations completed on the actor
            try await actor.createTodo(name: "Take the ring to Mount Doom", owner: "Frodo", status: "In Progress")
            let taskCount = await actor.count
            XCTAssertEqual(taskCount, 1)
        }
        try await createObject()
        let names = await actor.names()
        XCTAssertEqual(names, ["Take the ring to Mount Doom"])
        let busy = await actor.isPerformingAsyncWrites()
        XCTAssertFalse(busy, "asyncWrite returns after the commit is durable")
        let v = try versions("actor.realm")
        XCTAssertEqual(v.durable, v.latest)
    }

    // MARK: writeAsync, beginAsyncWrite, commitAsyncWrite

    func testWriteAsyncBlockRunsLaterOnTheRealmsThreadInATransaction() throws {
        let realm = try open()
        var sawTransaction = false
        var error: Error?? = .none
        realm.writeAsync {
            XCTAssertTrue(Thread.isMainThread)
            sawTransaction = realm.isInWriteTransaction
            realm.add(Person(value: ["id": 7, "name": "Seven"]))
        } onComplete: {
            error = .some($0)
        }
        XCTAssertFalse(sawTransaction, "the block does not run inside writeAsync")
        spin(until: { error != nil })
        XCTAssertNil(error!)
        XCTAssertTrue(sawTransaction)
        XCTAssertEqual(realm.object(ofType: Person.self, forPrimaryKey: 7)?.name, "Seven")
    }

    func testWriteAsyncWithAFailedAddCancelsAndReportsTheError() throws {
        let realm = try open()
        try realm.write { realm.add(Person(value: ["id": 1, "name": "First"])) }
        var result: Error?? = .none
        realm.writeAsync {
            realm.add(Person(value: ["id": 2, "name": "Second"]))
            realm.add(Person(value: ["id": 1, "name": "Duplicate"]))
        } onComplete: {
            result = .some($0)
        }
        spin(until: { result != nil })
        let error = try XCTUnwrap(result!) as? Realm.Error
        XCTAssertEqual(error?.realmCode, .primaryKeyExists)
        XCTAssertNil(
            realm.object(ofType: Person.self, forPrimaryKey: 2), "nothing of the failed transaction is written")
        XCTAssertEqual(realm.object(ofType: Person.self, forPrimaryKey: 1)?.name, "First")
    }

    func testWriteInsideAnAsyncBlockIsAnError() throws {
        let realm = try open()
        var nested: Error?
        var done = false
        realm.writeAsync {
            nested = thrown { try realm.write { realm.add(Person(value: ["id": 3])) } }
            realm.add(Person(value: ["id": 4]))
        } onComplete: { _ in
            done = true
        }
        spin(until: { done })
        XCTAssertEqual((nested as? Realm.Error)?.realmCode, .alreadyInWriteTransaction)
        XCTAssertEqual(takeViolations().map { $0.hasPrefix("The Realm is already in a write transaction.") }, [true])
        XCTAssertNil(realm.object(ofType: Person.self, forPrimaryKey: 3))
        XCTAssertNotNil(realm.object(ofType: Person.self, forPrimaryKey: 4))
    }

    func testBeginAsyncWriteReturningWithoutCommitRollsBack() throws {
        let realm = try open()
        var ran = 0
        realm.beginAsyncWrite {
            realm.add(Person(value: ["id": 10]))
            ran += 1
        }
        realm.beginAsyncWrite {
            realm.add(Person(value: ["id": 11]))
            realm.cancelWrite()
            ran += 1
        }
        var committed = false
        realm.beginAsyncWrite {
            realm.add(Person(value: ["id": 12]))
            realm.commitAsyncWrite { error in
                XCTAssertNil(error)
                committed = true
            }
            ran += 1
        }
        spin(until: { committed })
        XCTAssertEqual(ran, 3)
        XCTAssertNil(realm.object(ofType: Person.self, forPrimaryKey: 10))
        XCTAssertNil(realm.object(ofType: Person.self, forPrimaryKey: 11))
        XCTAssertNotNil(realm.object(ofType: Person.self, forPrimaryKey: 12))
        XCTAssertFalse(realm.isPerformingAsynchronousWriteOperations)
    }

    func testBlocksRunAndCompleteInTheOrderTheyWereQueued() throws {
        let realm = try open()
        var ran: [Int] = []
        var completed: [Int] = []
        for i in 0..<30 {
            if i % 3 == 0 {
                realm.writeAsync {
                    ran.append(i)
                    realm.add(
                        AsyncLogEntry(value: ["id": i, "seq": i, "seen": realm.objects(AsyncLogEntry.self).count]))
                } onComplete: { _ in
                    completed.append(i)
                }
            } else {
                realm.beginAsyncWrite {
                    ran.append(i)
                    realm.add(
                        AsyncLogEntry(value: ["id": i, "seq": i, "seen": realm.objects(AsyncLogEntry.self).count]))
                    realm.commitAsyncWrite(allowGrouping: i % 2 == 0) { _ in completed.append(i) }
                }
            }
        }
        spin(until: { completed.count == 30 })
        XCTAssertEqual(ran, Array(0..<30))
        XCTAssertEqual(completed, Array(0..<30))
        XCTAssertEqual(realm.objects(AsyncLogEntry.self).sorted(byKeyPath: "id").map(\.seen), Array(0..<30))
    }

    func testCommitAsyncWriteAfterBeginWriteIsVisibleAtOnceAndDurableAtTheCompletion() throws {
        let realm = try open()
        try realm.beginWrite()
        realm.add(Person(value: ["id": 20, "name": "Now"]))
        var durableAtCompletion = false
        var done = false
        realm.commitAsyncWrite { error in
            XCTAssertNil(error)
            let v = try? self.versions()
            durableAtCompletion = v != nil && v!.durable == v!.latest
            done = true
        }
        XCTAssertFalse(realm.isInWriteTransaction)
        XCTAssertEqual(
            realm.object(ofType: Person.self, forPrimaryKey: 20)?.name, "Now", "visible before it is durable")
        // Another thread sees it at once too.
        let path = url()
        let seen = onNewThread { () -> String? in
            let other = try! Realm(configuration: Realm.Configuration(fileURL: path))
            return other.object(ofType: Person.self, forPrimaryKey: 20)?.name
        }
        XCTAssertEqual(seen, "Now")
        XCTAssertTrue(realm.isPerformingAsynchronousWriteOperations)
        spin(until: { done })
        XCTAssertTrue(durableAtCompletion)
    }

    // MARK: Grouping

    /// Counts fdatasync calls (the fault injector counts calls while anything is armed; the
    /// armed point never fires).
    func countingSyncs<T>(_ body: () throws -> T) rethrows -> (T, Int) {
        FaultInjector.arm(.rename, kind: .error(EIO), pathContaining: "/no/such/path/")
        defer { FaultInjector.disarmAll() }
        let before = FaultInjector.hits(.fdatasync)
        let result = try body()
        return (result, FaultInjector.hits(.fdatasync) - before)
    }

    func testGroupedCommitsShareOneSyncAndUngroupedOnesDoNot() throws {
        let realm = try open()
        try realm.write { realm.add(Person(value: ["id": 0])) }
        let (_, grouped) = countingSyncs { () -> Void in
            var completed = 0
            for i in 1...50 {
                realm.beginAsyncWrite {
                    realm.add(Person(value: ["id": i]))
                    realm.commitAsyncWrite(allowGrouping: true) { error in
                        XCTAssertNil(error)
                        completed += 1
                    }
                }
            }
            spin(until: { completed == 50 })
        }
        let (_, ungrouped) = countingSyncs { () -> Void in
            var completed = 0
            for i in 51...70 {
                realm.beginAsyncWrite {
                    realm.add(Person(value: ["id": i]))
                    realm.commitAsyncWrite(allowGrouping: false) { _ in completed += 1 }
                }
            }
            spin(until: { completed == 20 })
        }
        XCTAssertEqual(realm.objects(Person.self).count, 71)
        XCTAssertGreaterThanOrEqual(grouped, 1)
        XCTAssertLessThanOrEqual(grouped, 2, "50 queued grouped commits share one sync")
        XCTAssertGreaterThanOrEqual(ungrouped, 20, "each ungrouped commit syncs")
    }

    /// A long queue of grouped commits is synced every `maximumGroupSize` (1,024) commits and once
    /// at its end; not once per drain (a drain yields the thread every 128 blocks), and not only
    /// at the very end.
    func testALongRunOfGroupedCommitsIsSyncedEvery1024Commits() throws {
        let realm = try open()
        try realm.write { realm.add(Person(value: ["id": 0])) }
        var countAtCompletion1500 = 0
        let total = 2_500
        let (_, syncs) = countingSyncs { () -> Void in
            var completed = 0
            for i in 1...total {
                realm.beginAsyncWrite {
                    realm.add(Person(value: ["id": i]))
                    realm.commitAsyncWrite(allowGrouping: true) { _ in
                        completed += 1
                        if i == 1_500 { countAtCompletion1500 = realm.objects(Person.self).count }
                    }
                }
            }
            spin(until: { completed == total })
        }
        XCTAssertEqual(realm.objects(Person.self).count, total + 1)
        // 1,024 + 1,024 + 452: three syncs (a file another test left to close may add one).
        XCTAssertGreaterThanOrEqual(syncs, 3)
        XCTAssertLessThanOrEqual(syncs, 4)
        // Commit 1,500's completion ran when the second group (commits 1,025-2,048) was synced; a
        // full group's sync holds back the next write, so no commit of the third group existed yet.
        XCTAssertGreaterThanOrEqual(countAtCompletion1500, 1_501)
        XCTAssertLessThanOrEqual(countAtCompletion1500, 2_049)
    }

    /// The loop pattern: beginWrite + commitAsyncWrite(allowGrouping:) on the realm's thread;
    /// the group closes when the thread returns to its run loop.
    func testGroupedCommitsFromALoopSyncWhenTheThreadReturnsToItsRunLoop() throws {
        let realm = try open()
        try realm.write { realm.add(Person(value: ["id": 0])) }
        let (completed, syncs) = try countingSyncs { () throws -> Int in
            var completed = 0
            for i in 1...40 {
                try realm.beginWrite()
                realm.add(Person(value: ["id": i]))
                realm.commitAsyncWrite(allowGrouping: true) { _ in completed += 1 }
            }
            XCTAssertEqual(completed, 0, "completions wait for the sync")
            spin(until: { completed == 40 })
            return completed
        }
        XCTAssertEqual(completed, 40)
        // One sync for the group; the counter is process-wide, so a file another test left to
        // close in the background may add one.
        XCTAssertLessThanOrEqual(syncs, 2)
        XCTAssertGreaterThanOrEqual(syncs, 1)
    }

    func testASynchronousWriteMakesPendingGroupedCommitsDurable() throws {
        let realm = try open()
        var completed = 0
        for i in 1...5 {
            try realm.beginWrite()
            realm.add(Person(value: ["id": i]))
            realm.commitAsyncWrite(allowGrouping: true) { _ in completed += 1 }
        }
        try realm.write { realm.add(Person(value: ["id": 6])) }
        // The synchronous commit synced everything before it: nothing is left to lose.
        let v = try versions()
        XCTAssertEqual(v.durable, v.latest)
        spin(until: { completed == 5 })
        XCTAssertEqual(realm.objects(Person.self).count, 6)
    }

    /// An fdatasync that fails in the background reaches the completions of the commits it was
    /// for as an error; the handle then refuses writes with an error that says to reopen.
    func testAFailedSyncReachesTheCompletionAsAnError() throws {
        let realm = try open()
        try realm.write { realm.add(Person(value: ["id": 1])) }
        FaultInjector.arm(.fdatasync, kind: .error(EIO), pathContaining: dir)
        defer { FaultInjector.disarmAll() }
        var result: Error?? = .none
        realm.writeAsync {
            realm.add(Person(value: ["id": 2]))
        } onComplete: {
            result = .some($0)
        }
        spin(until: { result != nil })
        let error = try XCTUnwrap(result!)
        XCTAssertTrue("\(error)".contains("fdatasync"), "the error names the failed call: \(error)")
        XCTAssertFalse(realm.isPerformingAsynchronousWriteOperations)
        let next = thrown { try realm.write { realm.add(Person(value: ["id": 3])) } }
        XCTAssertNotNil(next, "writes after a failed sync are refused")
        XCTAssertTrue("\(next!)".lowercased().contains("reopen"), "\(next!)")
    }

    // MARK: cancelAsyncWrite

    func testCancelAsyncWriteDropsAQueuedBlock() throws {
        let realm = try open()
        var ran: [String] = []
        var done = false
        let first = realm.beginAsyncWrite {
            ran.append("first")
            realm.add(Person(value: ["id": 1]))
            realm.commitAsyncWrite()
        }
        let dropped = realm.writeAsync {
            ran.append("dropped")
            realm.add(Person(value: ["id": 2]))
        } onComplete: { _ in
            XCTFail("a cancelled write has no completion")
        }
        realm.writeAsync {
            ran.append("last")
            realm.add(Person(value: ["id": 3]))
        } onComplete: { _ in
            done = true
        }
        XCTAssertNotEqual(first, dropped)
        try realm.cancelAsyncWrite(dropped)
        try realm.cancelAsyncWrite(999_999)  // unknown ids are ignored
        spin(until: { done })
        XCTAssertEqual(ran, ["first", "last"])
        XCTAssertNil(realm.object(ofType: Person.self, forPrimaryKey: 2))
        XCTAssertNotNil(realm.object(ofType: Person.self, forPrimaryKey: 3))
    }

    func testCancelAsyncWriteOfTheRunningBlockCancelsItsTransaction() throws {
        let realm = try open()
        var id: AsyncTransactionId = 0
        var done = false
        id = realm.beginAsyncWrite {
            realm.add(Person(value: ["id": 1]))
            try? realm.cancelAsyncWrite(id)
            XCTAssertFalse(realm.isInWriteTransaction)
            done = true
        }
        spin(until: { done })
        XCTAssertNil(realm.object(ofType: Person.self, forPrimaryKey: 1))
    }

    func testCancelAsyncWriteOfACommitCancelsOnlyItsCompletion() throws {
        let realm = try open()
        try realm.beginWrite()
        realm.add(Person(value: ["id": 1, "name": "kept"]))
        let commit = realm.commitAsyncWrite { _ in XCTFail("the completion was cancelled") }
        var later = false
        try realm.beginWrite()
        realm.add(Person(value: ["id": 2]))
        realm.commitAsyncWrite { _ in later = true }
        try realm.cancelAsyncWrite(commit)
        spin(until: { later })
        XCTAssertFalse(realm.isPerformingAsynchronousWriteOperations)
        // The commit itself happened and is durable.
        let v = try versions()
        XCTAssertEqual(v.durable, v.latest)
        XCTAssertEqual(realm.object(ofType: Person.self, forPrimaryKey: 1)?.name, "kept")
    }

    // MARK: Completions

    func testBeginningOrCommittingInsideACompletionIsAnError() throws {
        let realm = try open()
        var beginError: Error?
        var done = false
        realm.writeAsync {
            realm.add(Person(value: ["id": 1]))
        } onComplete: { _ in
            beginError = thrown { try realm.write { realm.add(Person(value: ["id": 2])) } }
            _ = realm.commitAsyncWrite()
            // Queueing another asynchronous write from a completion is fine.
            realm.writeAsync {
                realm.add(Person(value: ["id": 3]))
            } onComplete: { _ in
                done = true
            }
        }
        spin(until: { done })
        XCTAssertEqual((beginError as? Realm.Error)?.realmCode, .alreadyInWriteTransaction)
        XCTAssertEqual(
            takeViolations(),
            [
                "Can't begin a write transaction from inside a commit completion callback. Queue it with writeAsync or beginAsyncWrite instead.",
                "Can't commit a write transaction from inside a commit completion callback.",
            ])
        XCTAssertNil(realm.object(ofType: Person.self, forPrimaryKey: 2))
        XCTAssertNotNil(realm.object(ofType: Person.self, forPrimaryKey: 3))
    }

    // MARK: invalidate

    func testInvalidateWaitsForPendingCommitsAndDropsQueuedBlocks() throws {
        let realm = try open()
        var completed = 0
        for i in 1...5 {
            try realm.beginWrite()
            realm.add(Person(value: ["id": i]))
            realm.commitAsyncWrite(allowGrouping: true) { error in
                XCTAssertNil(error)
                completed += 1
            }
        }
        var droppedRan = false
        realm.beginAsyncWrite {
            droppedRan = true
            realm.cancelWrite()
        }
        XCTAssertTrue(realm.isPerformingAsynchronousWriteOperations)
        realm.invalidate()
        XCTAssertEqual(completed, 5, "invalidate runs the completions of pending commits")
        XCTAssertFalse(realm.isPerformingAsynchronousWriteOperations)
        let v = try versions()
        XCTAssertEqual(v.durable, v.latest, "pending commits were made durable")
        spin(for: 0.2)
        XCTAssertFalse(droppedRan, "queued blocks are dropped")
        XCTAssertEqual(completed, 5, "no completion runs twice")
        XCTAssertEqual(realm.objects(Person.self).count, 5)
    }

    /// "Async writes block closing": the realm stays open until its queued writes are done,
    /// even when the caller drops every reference to it.
    func testReleasingTheRealmKeepsItOpenUntilAsyncWritesFinish() throws {
        var completed = 0
        do {
            let realm = try open()
            for i in 1...3 {
                realm.writeAsync {
                    realm.add(Person(value: ["id": i]))
                } onComplete: { error in
                    XCTAssertNil(error)
                    completed += 1
                }
            }
        }
        spin(until: { completed == 3 })
        let v = try versions()
        XCTAssertEqual(v.durable, v.latest)
        XCTAssertEqual(try open().objects(Person.self).count, 3)
    }

    // MARK: Schedulers

    func testWriteAsyncOnAPlainThreadSaysItNeedsARunLoop() throws {
        let path = url()
        let messages = ViolationLog()
        Realm.violationHandler = { messages.record($0) }
        let id = onNewThread { () -> AsyncTransactionId in
            let realm = try! Realm(configuration: Realm.Configuration(fileURL: path))
            return realm.writeAsync { XCTFail("no scheduler: the block must not run") }
        }
        XCTAssertEqual(id, 0)
        let taken = messages.take()
        XCTAssertEqual(taken.count, 1)
        XCTAssertTrue(
            taken.first?.hasPrefix(
                "Cannot schedule async transaction. Make sure you are running from inside a run loop.") ?? false)
    }

    func testWriteAsyncOnAThreadRunningItsRunLoop() throws {
        let thread = RunLoopThread()
        defer { thread.stop() }
        let path = url()
        let done = expectation(description: "completion")
        let onThread = Locked<[Bool]>([])
        thread.perform {
            let realm = try! Realm(configuration: Realm.Configuration(fileURL: path))
            let me = Thread.current
            realm.writeAsync {
                onThread.mutate { $0.append(Thread.current == me) }
                realm.add(Person(value: ["id": 1, "name": "run loop"]))
            } onComplete: { error in
                onThread.mutate { $0.append(Thread.current == me && error == nil) }
                done.fulfill()
            }
        }
        wait(for: [done], timeout: 20)
        XCTAssertEqual(onThread.value, [true, true])
        XCTAssertEqual(try open().object(ofType: Person.self, forPrimaryKey: 1)?.name, "run loop")
    }

    func testQueueConfinedRealmRunsBlocksAndCompletionsOnItsQueue() throws {
        let queue = DispatchQueue(label: "strata.test.async")
        let key = DispatchSpecificKey<Int>()
        queue.setSpecific(key: key, value: 42)
        let path = url()
        let done = expectation(description: "completions")
        let checks = Locked<[Bool]>([])
        queue.async {
            let realm = try! Realm(configuration: Realm.Configuration(fileURL: path), queue: queue)
            for i in 0..<10 {
                realm.writeAsync {
                    checks.mutate { $0.append(DispatchQueue.getSpecific(key: key) == 42) }
                    realm.add(Person(value: ["id": i]))
                } onComplete: { error in
                    checks.mutate { $0.append(DispatchQueue.getSpecific(key: key) == 42 && error == nil) }
                    if i == 9 { done.fulfill() }
                }
            }
        }
        wait(for: [done], timeout: 20)
        XCTAssertEqual(checks.value, Array(repeating: true, count: 20))
        XCTAssertEqual(try open().objects(Person.self).count, 10)
    }

    /// Several queues, each interleaving asynchronous and synchronous writes: nothing is lost,
    /// each writer's asynchronous writes commit in the order it queued them (and its
    /// synchronous ones in program order), and every transaction saw all earlier commits.
    func testInterleavedAsyncAndSyncWritesFromSeveralQueues() throws {
        let writers = 3, perWriter = 40
        let path = url()
        let group = DispatchGroup()
        let errors = Locked<[String]>([])
        for w in 0..<writers {
            let queue = DispatchQueue(label: "strata.test.writer\(w)")
            group.enter()
            queue.async {
                let realm = try! Realm(configuration: Realm.Configuration(fileURL: path), queue: queue)
                var outstanding = 0
                func record(_ seq: Int) {
                    realm.add(
                        AsyncLogEntry(value: [
                            "id": w * 1000 + seq, "writer": w, "seq": seq,
                            "seen": realm.objects(AsyncLogEntry.self).count,
                        ]))
                }
                func finishOne() {
                    outstanding -= 1
                    if outstanding == 0 { group.leave() }
                }
                outstanding = perWriter
                for seq in 0..<perWriter {
                    switch seq % 4 {
                    case 0:
                        do { try realm.write { record(seq) } } catch { errors.mutate { $0.append("\(error)") } }
                        finishOne()
                    case 1:
                        realm.writeAsync {
                            record(seq)
                        } onComplete: { error in
                            if let error { errors.mutate { $0.append("\(error)") } }
                            finishOne()
                        }
                    default:
                        realm.beginAsyncWrite {
                            record(seq)
                            realm.commitAsyncWrite(allowGrouping: seq % 4 == 2) { error in
                                if let error { errors.mutate { $0.append("\(error)") } }
                                finishOne()
                            }
                        }
                    }
                }
            }
        }
        XCTAssertEqual(group.wait(timeout: .now() + 60), .success)
        XCTAssertEqual(errors.value, [])
        let realm = try open()
        let all = Array(realm.objects(AsyncLogEntry.self))
        XCTAssertEqual(all.count, writers * perWriter, "nothing lost")
        XCTAssertEqual(
            Set(all.map(\.seen)), Set(0..<(writers * perWriter)), "each transaction saw every earlier commit")
        for w in 0..<writers {
            let mine = all.filter { $0.writer == w }.sorted { $0.seen < $1.seen }
            let asyncSeqs = mine.map(\.seq).filter { $0 % 4 != 0 }
            let syncSeqs = mine.map(\.seq).filter { $0 % 4 == 0 }
            XCTAssertEqual(asyncSeqs, asyncSeqs.sorted(), "writer \(w): async writes commit in queue order")
            XCTAssertEqual(syncSeqs, syncSeqs.sorted(), "writer \(w): sync writes commit in program order")
        }
    }

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

extension RealmActor {
    func isInWriteTransaction() -> Bool { realm.isInWriteTransaction }

    func failingWrite(_ error: Error) async throws {
        try await realm.asyncWrite {
            realm.create(Todo.self, value: ["_id": ObjectId.generate(), "name": "x"])
            throw error
        }
    }

    func openSecondRealmAndCount() async throws -> Int {
        let realm = try await Realm.open(configuration: self.realm.configuration)
        return realm.objects(Todo.self).count
    }
}

func XCTAssertThrowsErrorAsync<T>(
    _ body: @autoclosure () async throws -> T, _ check: (Error) -> Void,
    file: StaticString = #filePath, line: UInt = #line
) async {
    do {
        _ = try await body()
        XCTFail("expected an error", file: file, line: line)
    } catch {
        check(error)
    }
}
