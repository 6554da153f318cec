import Foundation
import Strata
import StrataPOSIX
import StrataStorage
import XCTest

/// Asynchronous commits grouped into one durable sync, and their durability.
final class AsyncWriteGroupingTests: AsyncWriteTestCase {
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
}
