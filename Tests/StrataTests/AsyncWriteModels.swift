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
