import Foundation
import Strata
import XCTest

/// Queue-confined realms.
extension ConcurrencyTests {
    /// `Realm(configuration:queue:)`: usable in blocks on that queue (`sync` and `async`), reported
    /// everywhere else (the opening thread, other queues).
    func testQueueConfinedRealm() throws {
        let queue = DispatchQueue(label: "strata.tests.confined")
        let realm = try Realm(configuration: config(), queue: queue)
        let sent = Unchecked(realm)

        let count = queue.sync { () -> Int in
            try! realm.write { realm.add(Dog(value: ["name": "Rex", "age": 3])) }
            return realm.objects(Dog.self).count
        }
        XCTAssertEqual(count, 1)
        XCTAssertEqual(takeViolations(), [], "usable inside queue.sync")

        let (names, onWorker) = onQueue(queue) { () -> ([String], Bool) in
            let realm = sent.value
            try! realm.write { realm.add(Dog(value: ["name": "Fido", "age": 5])) }
            return (realm.objects(Dog.self).sorted(byKeyPath: "name").map(\.name), !Thread.isMainThread)
        }
        XCTAssertEqual(names, ["Fido", "Rex"])
        XCTAssertTrue(onWorker)
        XCTAssertEqual(takeViolations(), [], "usable in async blocks on the queue, whatever thread runs them")

        _ = realm.objects(Dog.self).count
        assertWrongThread(takeViolations(), "the queue's realm used outside the queue")
        assertRealmError(
            thrown { try realm.write {} }, .wrongThread, prefix: Self.wrongThread, "write outside the queue")
        assertWrongThread(takeViolations(), "write outside the queue")

        let dog = queue.sync { Unchecked(realm.objects(Dog.self).first!) }
        _ = dog.value.name
        assertWrongThread(takeViolations(), "an object of the queue's realm read outside the queue")

        let other = DispatchQueue(label: "strata.tests.other-queue")
        _ = other.sync { sent.value.objects(Dog.self).count }
        assertWrongThread(takeViolations(), "the queue's realm used on another queue")
        XCTAssertEqual(queue.sync { dog.value.name }, "Rex")
        XCTAssertEqual(takeViolations(), [])
    }

    /// `Realm(configuration:queue:)` is cached per queue, as RealmSwift's is: opened again in a
    /// block on the queue (on whatever worker thread runs it) it is the same realm, sharing the
    /// write transaction.
    func testQueueConfinedRealmIsCachedPerQueue() throws {
        let queue = DispatchQueue(label: "strata.tests.cached")
        let configuration = config()
        let first = try Realm(configuration: configuration, queue: queue)
        let sent = Unchecked(first)
        let (equal, sharesWrite) = onQueue(queue) { () -> (Bool, Bool) in
            let second = try! Realm(configuration: configuration, queue: queue)
            try! sent.value.beginWrite()
            defer { sent.value.cancelWrite() }
            return (second == sent.value, second.isInWriteTransaction)
        }
        XCTAssertTrue(equal, "Realm(configuration:queue:) on the queue returns the queue's realm")
        XCTAssertTrue(sharesWrite, "the queue's realms share one write transaction")
        XCTAssertEqual(takeViolations(), [])
    }
}
