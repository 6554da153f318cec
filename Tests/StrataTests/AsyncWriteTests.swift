import Foundation
import Strata
import StrataPOSIX
import StrataStorage
import XCTest

/// The seeds' asynchronous-write examples, and writeAsync, beginAsyncWrite and commitAsyncWrite.
final class AsyncWriteTests: AsyncWriteTestCase {
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
}
