import Foundation
import Strata
import XCTest

/// ThreadSafeReference.
extension ConcurrencyTests {
    /// A reference resolves on another thread to the same object (same primary key and values),
    /// live there.
    func testThreadSafeReferenceResolvesOnAnotherThread() throws {
        let realm = try open()
        try realm.write {
            realm.add(Person(value: ["id": 7, "name": "Ann", "dogs": [["name": "Rex", "age": 3]]]))
        }
        let person = realm.object(ofType: Person.self, forPrimaryKey: 7)!
        let reference = ThreadSafeReference(to: person)
        assertSendable(ThreadSafeReference<Person>.self)
        let configuration = config()
        let worker = WorkerThread("strata.tests.resolve")
        defer { worker.stop() }
        let resolved = worker.sync { () -> (Int?, String?, [String], Bool, Bool) in
            let realm = try! Realm(configuration: configuration)
            guard let p = realm.resolve(reference) else { return (nil, nil, [], false, false) }
            try! realm.write { p.name = "Anna" }
            return (p.id, p.name, p.dogs.map(\.name), p.realm == realm, p.isFrozen)
        }
        XCTAssertEqual(resolved.0, 7)
        XCTAssertEqual(resolved.1, "Anna")
        XCTAssertEqual(resolved.2, ["Rex"])
        XCTAssertTrue(resolved.3, "resolved into the resolving thread's realm")
        XCTAssertFalse(resolved.4, "resolved objects are live")
        realm.refresh()
        XCTAssertEqual(person.name, "Anna")
        XCTAssertEqual(takeViolations(), [])
    }

    /// A reference resolves on a queue-confined realm inside a block on its queue, and in a task.
    func testThreadSafeReferenceResolvesOnAQueueAndInATask() async throws {
        let configuration = config()
        let owner = WorkerThread("strata.tests.owner")
        defer { owner.stop() }
        let (forQueue, forTask) = owner.sync { () -> (ThreadSafeReference<Person>, ThreadSafeReference<Person>) in
            let realm = try! Realm(configuration: configuration)
            try! realm.write { realm.add(Person(value: ["id": 1, "name": "Ann"])) }
            let p = realm.object(ofType: Person.self, forPrimaryKey: 1)!
            return (ThreadSafeReference(to: p), ThreadSafeReference(to: p))
        }
        let queue = DispatchQueue(label: "strata.tests.resolve-queue")
        let onQueueName = onQueue(queue) { () -> String? in
            let realm = try! Realm(configuration: configuration, queue: queue)
            return realm.resolve(forQueue)?.name
        }
        XCTAssertEqual(onQueueName, "Ann")
        let inTask = await Task.detached { () -> String? in
            let realm = try! Realm(configuration: configuration)
            return realm.resolve(forTask)?.name
        }.value
        XCTAssertEqual(inTask, "Ann")
        XCTAssertEqual(takeViolations(), [])
    }

    /// A reference made after a commit resolves in a realm of another thread that still shows an
    /// older version (resolving moves it forward).
    func testThreadSafeReferenceResolvesInARealmAtAnOlderVersion() throws {
        let configuration = config()
        let worker = WorkerThread("strata.tests.older")
        defer { worker.stop() }
        let old = worker.sync { () -> Unchecked<Realm> in
            let realm = try! Realm(configuration: configuration)
            _ = realm.objects(Person.self).count  // pins the empty version
            return Unchecked(realm)
        }
        let realm = try open()
        try realm.write { realm.add(Person(value: ["id": 2, "name": "Bo"])) }
        let reference = ThreadSafeReference(to: realm.object(ofType: Person.self, forPrimaryKey: 2)!)
        let name = worker.sync { old.value.resolve(reference)?.name }
        XCTAssertEqual(name, "Bo")
        XCTAssertEqual(takeViolations(), [])
    }

    /// A reference resolves once: the second resolve is reported and gives nil. Of two threads
    /// racing to resolve one reference, exactly one gets the object.
    func testThreadSafeReferenceResolvesOnce() throws {
        let (realm, dog) = try realmWithRex()
        let reference = ThreadSafeReference(to: dog)
        let worker = WorkerThread("strata.tests.once")
        defer { worker.stop() }
        let configuration = config()
        XCTAssertEqual(worker.sync { try! Realm(configuration: configuration).resolve(reference)?.name }, "Rex")
        XCTAssertEqual(takeViolations(), [])
        XCTAssertNil(realm.resolve(reference))
        let reports = takeViolations()
        XCTAssertEqual(reports.count, 1)
        XCTAssertTrue(reports.first?.contains("once") ?? false, "\(reports)")

        let raced = ThreadSafeReference(to: dog)
        let wins = Locked(0)
        onThreadsAtOnce(8) { _ in
            let r = try! Realm(configuration: configuration)
            if r.resolve(raced) != nil { wins.mutate { $0 += 1 } }
        }
        XCTAssertEqual(wins.value, 1)
        let raceReports = takeViolations()
        XCTAssertEqual(raceReports.count, 7, "\(raceReports)")
        XCTAssertTrue(raceReports.allSatisfy { $0.contains("once") }, "\(raceReports)")
    }

    /// A reference to an object deleted before it is resolved resolves to nil (no report).
    func testThreadSafeReferenceToADeletedObjectResolvesToNil() throws {
        let (realm, dog) = try realmWithRex()
        let reference = ThreadSafeReference(to: dog)
        try realm.write { realm.delete(dog) }
        let configuration = config()
        let resolved = onNewThread { try! Realm(configuration: configuration).resolve(reference) == nil }
        XCTAssertTrue(resolved)
        XCTAssertEqual(takeViolations(), [])
    }

    /// An unmanaged object cannot be referenced; nor can an invalidated (deleted) one.
    func testThreadSafeReferenceToAnUnmanagedOrInvalidatedObjectIsReported() throws {
        _ = ThreadSafeReference(to: Dog(value: ["name": "Loose"]))
        let reports = takeViolations()
        XCTAssertEqual(reports.count, 1)
        XCTAssertTrue(reports.first?.contains("unmanaged") ?? false, "\(reports)")

        let (realm, dog) = try realmWithRex()
        try realm.write { realm.delete(dog) }
        _ = ThreadSafeReference(to: dog)
        let invalidated = takeViolations()
        XCTAssertEqual(invalidated.count, 1, "\(invalidated)")
        XCTAssertTrue(invalidated.first?.contains("invalidated") ?? false, "\(invalidated)")
    }

    /// Resolving inside a write transaction is reported; the reference is not used up by it.
    func testResolvingInsideAWriteIsReported() throws {
        let (realm, dog) = try realmWithRex()
        let reference = ThreadSafeReference(to: dog)
        let configuration = config()
        let outcome = onNewThread { () -> (Bool, String?) in
            let r = try! Realm(configuration: configuration)
            try! r.beginWrite()
            let inside = r.resolve(reference)
            r.cancelWrite()
            return (inside == nil, r.resolve(reference)?.name)
        }
        XCTAssertTrue(outcome.0)
        let reports = takeViolations()
        XCTAssertEqual(reports.count, 1)
        XCTAssertTrue(reports.first?.contains("write transaction") ?? false, "\(reports)")
        XCTAssertEqual(outcome.1, "Rex", "resolvable after the write")
        _ = realm
        XCTAssertEqual(takeViolations(), [])
    }

    /// A reference to results re-runs the query in the resolving realm: it sees objects committed
    /// after the reference was made, and stays live there.
    func testThreadSafeReferenceToResultsRerunsTheQuery() throws {
        let realm = try open()
        try realm.write {
            for age in [1, 6, 9] { realm.add(Dog(value: ["name": "d\(age)", "age": age])) }
        }
        let old = realm.objects(Dog.self).where { $0.age > 5 }.sorted(byKeyPath: "age")
        XCTAssertEqual(old.count, 2)
        let reference = ThreadSafeReference(to: old)
        try realm.write { realm.add(Dog(value: ["name": "d12", "age": 12])) }
        let configuration = config()
        let seen = onNewThread { () -> ([Int], [Int], Bool) in
            let r = try! Realm(configuration: configuration)
            guard let results = r.resolve(reference) else { return ([], [], false) }
            let before = results.map(\.age)
            try! r.write { r.add(Dog(value: ["name": "d7", "age": 7])) }
            return (before, results.map(\.age), results.realm == r)
        }
        XCTAssertEqual(seen.0, [6, 9, 12], "the query re-ran in the resolving realm, sorted as referenced")
        XCTAssertEqual(seen.1, [6, 7, 9, 12], "the resolved results are live")
        XCTAssertTrue(seen.2)
        XCTAssertEqual(takeViolations(), [])
    }
}
