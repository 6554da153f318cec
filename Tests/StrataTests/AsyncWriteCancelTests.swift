import Foundation
import Strata
import StrataPOSIX
import StrataStorage
import XCTest

/// cancelAsyncWrite, completions, and invalidate() with asynchronous writes queued.
final class AsyncWriteCancelTests: AsyncWriteTestCase {
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
}
