import Foundation
import Strata
import XCTest

/// Realms across real threads, queues and tasks: thread confinement, frozen snapshots, version
/// pinning and `ThreadSafeReference`/`@ThreadSafe`.
///
/// `Realm.violationHandler` is process-wide: these tests install one that records through a lock
/// (`ViolationLog`), so reports from any thread are kept, and `SeedTestCase.tearDown` resets it and
/// fails the test if reports nobody asserted on are left.
final class ConcurrencyTests: SeedTestCase {
    static let wrongThread = "Realm accessed from incorrect thread."

    let log = ViolationLog()

    override func setUp() {
        super.setUp()
        let log = self.log
        Realm.violationHandler = { log.record($0) }
    }

    override func tearDown() {
        violations = log.take()
        super.tearDown()
    }

    override func takeViolations() -> [String] {
        log.take()
    }

    /// Asserts `messages` are one report of a wrong-thread access (and nothing else: no follow-on
    /// reports such as "deleted or invalidated" for the same access).
    func assertWrongThread(_ messages: [String], _ what: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertFalse(messages.isEmpty, "\(what) from the wrong thread was not reported", file: file, line: line)
        guard let first = messages.first else { return }
        XCTAssertTrue(first.hasPrefix(Self.wrongThread), "\(what): first report is \(first)", file: file, line: line)
        XCTAssertEqual(
            messages.filter { !$0.hasPrefix(Self.wrongThread) }, [],
            "\(what): reports other than the wrong-thread one", file: file, line: line)
    }

    /// Asserts `error` is a `Realm.Error` with `code` whose message starts with `prefix`.
    func assertRealmError(
        _ error: Error?, _ code: Realm.Error.Code, prefix: String? = nil, _ what: String,
        file: StaticString = #filePath, line: UInt = #line
    ) {
        guard let error = error as? Realm.Error else {
            return XCTFail(
                "\(what): expected Realm.Error \(code), got \(String(describing: error))", file: file, line: line)
        }
        XCTAssertEqual(error.realmCode, code, "\(what): \(error.message)", file: file, line: line)
        if let prefix {
            XCTAssertTrue(
                error.message.hasPrefix(prefix), "\(what): message is \(error.message)", file: file, line: line)
        }
    }

    /// A realm with `Dog` "Rex" (3), the dog, and both packed to send to another thread.
    func realmWithRex() throws -> (Realm, Dog) {
        let realm = try open()
        try realm.write { realm.add(Dog(value: ["name": "Rex", "age": 3])) }
        return (realm, realm.objects(Dog.self).first!)
    }

    // MARK: - Confinement: wrong thread, wrong queue, task resuming elsewhere

    /// A live realm and its objects used from a `Thread`: every access path reports the message;
    /// the throwing APIs throw `.wrongThread`; nothing is read or written.
    func testWrongThreadAccessFromAThreadIsReported() throws {
        let (realm, dog) = try realmWithRex()
        let results = realm.objects(Dog.self)
        let sent = Unchecked((realm, dog, results))

        let name = onNewThread { sent.value.1.name }
        assertWrongThread(takeViolations(), "reading a property of a live object")
        XCTAssertEqual(name, "", "the read is skipped (the handler returned), so nothing of the object leaks")

        let age = onNewThread { sent.value.1.age }
        assertWrongThread(takeViolations(), "reading an Int property of a live object")
        XCTAssertEqual(age, 0)

        _ = onNewThread { sent.value.0.objects(Dog.self) }
        assertWrongThread(takeViolations(), "realm.objects(Dog.self)")

        let count = onNewThread { sent.value.2.count }
        assertWrongThread(takeViolations(), "count of live results")
        XCTAssertEqual(count, 0, "the read is skipped after the report (the handler returned)")

        let first = onNewThread { sent.value.2.first.map { _ in "an object" } }
        assertWrongThread(takeViolations(), "first of live results")
        XCTAssertNil(first, "the read is skipped after the report")

        _ = onNewThread { sent.value.1.isInvalidated }
        assertWrongThread(takeViolations(), "isInvalidated of a live object")

        let writeError = onNewThread { Unchecked(thrown { try sent.value.0.write { sent.value.0.add(Dog()) } }) }.value
        assertRealmError(writeError, .wrongThread, prefix: Self.wrongThread, "write from another thread")
        assertWrongThread(takeViolations(), "write from another thread")
        onNewThread { sent.value.0.beginWrite() }
        assertWrongThread(takeViolations(), "beginWrite from another thread")
        XCTAssertFalse(realm.isInWriteTransaction)

        // While the owner is inside a write, another thread may not write through it.
        try realm.beginWrite()
        onNewThread { sent.value.1.age = 99 }
        assertWrongThread(takeViolations(), "setting a property of a live object")
        onNewThread { sent.value.0.add(Dog(value: ["name": "Intruder"])) }
        assertWrongThread(takeViolations(), "add")
        onNewThread { sent.value.0.delete(sent.value.1) }
        assertWrongThread(takeViolations(), "delete")
        let commitError = onNewThread { Unchecked(thrown { try sent.value.0.commitWrite() }) }.value
        XCTAssertNil(commitError, "commitWrite does not throw for misuse: it is a violation")
        assertWrongThread(takeViolations(), "commitWrite from another thread")
        XCTAssertTrue(realm.isInWriteTransaction, "the owner's write is untouched")
        try realm.commitWrite()

        // The owner still works, and nothing the other thread tried happened.
        XCTAssertEqual(dog.name, "Rex")
        XCTAssertEqual(dog.age, 3)
        XCTAssertEqual(realm.objects(Dog.self).map(\.name), ["Rex"])
        XCTAssertEqual(takeViolations(), [])
    }

    /// The same from blocks on dispatch queues (which run on worker threads), and a queue's
    /// `sync` from the owner thread is the owner thread.
    func testWrongThreadAccessFromADispatchQueueIsReported() throws {
        let (realm, dog) = try realmWithRex()
        let sent = Unchecked((realm, dog))
        let serial = DispatchQueue(label: "strata.tests.serial")
        let owner = pthread_self()

        let (name, ranElsewhere) = onQueue(serial) { (sent.value.1.name, pthread_equal(pthread_self(), owner) == 0) }
        XCTAssertTrue(ranElsewhere, "an async block runs on a worker thread")
        assertWrongThread(takeViolations(), "reading a property on a serial queue")
        XCTAssertEqual(name, "")

        _ = onQueue(.global()) { sent.value.0.objects(Dog.self).count }
        assertWrongThread(takeViolations(), "realm.objects(Dog.self).count on a global queue")

        let writeError = onQueue(.global(qos: .userInitiated)) {
            Unchecked(thrown { try sent.value.0.write { sent.value.1.age = 5 } })
        }.value
        assertRealmError(writeError, .wrongThread, prefix: Self.wrongThread, "write on a global queue")
        assertWrongThread(takeViolations(), "write on a global queue (the block never ran: write threw before it)")

        // `sync` runs the block on the calling thread: the owner's realm is usable there.
        let viaSync = serial.sync { dog.name }
        XCTAssertEqual(viaSync, "Rex")
        XCTAssertEqual(dog.age, 3)
        XCTAssertEqual(takeViolations(), [])
    }

    /// A task that opens a realm and then resumes on another thread after a suspension point may
    /// no longer use it (the deterministic way: two task executors, each one thread).
    func testTaskResumingOnAnotherThreadIsReported() async throws {
        let a = WorkerThread("strata.tests.executor-a")
        let b = WorkerThread("strata.tests.executor-b")
        defer { a.stop(); b.stop() }
        let configuration = config()

        struct Outcome: Sendable {
            var beforeSuspension = ""
            var resumedOnB = false
            var afterResume = ""
            var objectsReports: [String] = []
            var writeError: Realm.Error?
            var writeReports: [String] = []
            var readReports: [String] = []
        }
        let log = self.log
        let outcome = await Task(executorPreference: a) { () -> Outcome in
            var out = Outcome()
            let realm = try! Realm(configuration: configuration)
            try! realm.write { realm.add(Dog(value: ["name": "Rex", "age": 3])) }
            let dog = realm.objects(Dog.self).first!
            out.beforeSuspension = dog.name
            let sent = Unchecked((realm, dog))
            // Suspends; the rest runs on thread B.
            let resumed = await withTaskExecutorPreference(b) { () -> Outcome in
                var o = Outcome()
                o.resumedOnB = b.isCurrent
                o.afterResume = sent.value.1.name
                o.readReports = log.take()
                _ = sent.value.0.objects(Dog.self)
                o.objectsReports = log.take()
                do {
                    try sent.value.0.write { sent.value.0.add(Dog()) }
                } catch {
                    o.writeError = error as? Realm.Error
                }
                o.writeReports = log.take()
                return o
            }
            out.resumedOnB = resumed.resumedOnB
            out.afterResume = resumed.afterResume
            out.readReports = resumed.readReports
            out.objectsReports = resumed.objectsReports
            out.writeError = resumed.writeError
            out.writeReports = resumed.writeReports
            // Back on A (the task's preference): the realm works again.
            XCTAssertTrue(a.isCurrent)
            XCTAssertEqual(realm.objects(Dog.self).count, 1)
            return out
        }.value

        XCTAssertEqual(outcome.beforeSuspension, "Rex", "before the suspension the task is on the realm's thread")
        XCTAssertTrue(outcome.resumedOnB, "the task resumed on thread B")
        XCTAssertEqual(outcome.afterResume, "")
        assertWrongThread(outcome.readReports, "reading a property after resuming on another thread")
        assertWrongThread(outcome.objectsReports, "realm.objects after resuming on another thread")
        assertRealmError(
            outcome.writeError, .wrongThread, prefix: Self.wrongThread, "write after resuming on another thread")
        assertWrongThread(outcome.writeReports, "write after resuming on another thread")
        XCTAssertEqual(takeViolations(), [])
    }

    /// A realm opened on a thread, used from a detached task (the cooperative pool).
    func testDetachedTaskUsingAThreadsRealmIsReported() async throws {
        let owner = WorkerThread("strata.tests.owner")
        defer { owner.stop() }
        let configuration = config()
        let sent = owner.sync { () -> Unchecked<(Realm, Dog)> in
            let realm = try! Realm(configuration: configuration)
            try! realm.write { realm.add(Dog(value: ["name": "Rex", "age": 3])) }
            return Unchecked((realm, realm.objects(Dog.self).first!))
        }
        let name = await Task.detached { sent.value.1.name }.value
        assertWrongThread(takeViolations(), "reading a property from a detached task")
        XCTAssertEqual(name, "")
        await Task.detached { sent.value.0.beginWrite() }.value
        assertWrongThread(takeViolations(), "beginWrite from a detached task")
        XCTAssertEqual(owner.sync { sent.value.1.name }, "Rex")
        XCTAssertEqual(takeViolations(), [])
    }

    /// A realm whose thread has exited stays confined to that thread: later threads (which glibc
    /// may give the same `pthread_t`, reusing the exited thread's descriptor) are refused too.
    func testRealmOfAnExitedThreadIsRefusedOnLaterThreads() throws {
        let configuration = config()
        let opened = onNewThread { () -> Unchecked<(Realm, pthread_t)> in
            let realm = try! Realm(configuration: configuration)
            try! realm.write { realm.add(Dog(value: ["name": "Rex"])) }
            return Unchecked((realm, pthread_self()))
        }
        var sameID = 0
        for attempt in 0..<5 {
            usleep(50_000)  // let the previous thread finish exiting
            let reusedID = onNewThread { () -> Bool in
                _ = opened.value.0.objects(Dog.self).count
                return pthread_equal(pthread_self(), opened.value.1) != 0
            }
            if reusedID { sameID += 1 }
            let reports = takeViolations()
            XCTAssertTrue(
                reports.contains { $0.hasPrefix(Self.wrongThread) },
                "attempt \(attempt): not reported (this thread has the exited thread's pthread_t: \(reusedID))")
        }
        print("ConcurrencyTests: \(sameID) of 5 later threads had the exited thread's pthread_t")
    }

    /// A realm opened on a thread other than the test's works there without reports, and its
    /// commits are seen by the other threads' realms.
    func testARealmWorksOnItsOwnThread() throws {
        let worker = WorkerThread("strata.tests.own")
        defer { worker.stop() }
        let configuration = config()
        let seen = worker.sync { () -> [String] in
            let realm = try! Realm(configuration: configuration)
            try! realm.write {
                realm.add(Dog(value: ["name": "Rex", "age": 3]))
                realm.add(Dog(value: ["name": "Fido", "age": 5]))
            }
            let dog = realm.objects(Dog.self).where { $0.age > 4 }.first!
            try! realm.write { dog.age += 1 }
            return realm.objects(Dog.self).sorted(byKeyPath: "name").map { "\($0.name) \($0.age)" }
        }
        XCTAssertEqual(seen, ["Fido 6", "Rex 3"])
        XCTAssertEqual(takeViolations(), [], "no reports on the realm's own thread")
        let realm = try open()
        XCTAssertEqual(
            realm.objects(Dog.self).sorted(byKeyPath: "name").map { "\($0.name) \($0.age)" }, ["Fido 6", "Rex 3"])
        XCTAssertEqual(takeViolations(), [])
    }

    /// `Realm(configuration:)` twice on one thread: equal realms sharing one write state. On two
    /// threads: not equal, separate write state.
    func testRealmsOfOneThreadAreEqualAndShareWriteState() throws {
        let a = try open()
        let b = try open()
        XCTAssertTrue(a == b)
        try a.beginWrite()
        XCTAssertTrue(b.isInWriteTransaction, "b shares a's write")
        b.add(Dog(value: ["name": "Rex"]))
        XCTAssertEqual(a.objects(Dog.self).count, 1, "a sees what b added in the shared write")
        try b.commitWrite()
        XCTAssertFalse(a.isInWriteTransaction)
        Realm.Configuration.defaultConfiguration = config()
        XCTAssertTrue(try Realm() == a, "Realm() with the default configuration of the same file is the same realm")

        let worker = WorkerThread("strata.tests.other")
        defer { worker.stop() }
        let configuration = config()
        let other = worker.sync { Unchecked(try! Realm(configuration: configuration)) }
        XCTAssertFalse(other.value == a, "realms of two threads are not equal")
        try a.beginWrite()
        XCTAssertFalse(
            worker.sync { other.value.isInWriteTransaction }, "the other thread's realm does not share the write")
        a.cancelWrite()
        let again = worker.sync { Unchecked(try! Realm(configuration: configuration)) }
        XCTAssertTrue(again.value == other.value, "the other thread gets its own cached realm back")
        XCTAssertEqual(takeViolations(), [])
    }
}

// Seed 002's DoggoDB company (for `performAnExplicitWrite`).

class Company: Object, ObjectKeyIdentifiable {
    @Persisted(primaryKey: true) var _id: ObjectId
    @Persisted var companyName = ""
    @Persisted var employees: List<Employee>
    @Persisted var dogs: List<Dog>
}

class Employee: Object {
    @Persisted var name = ""
    @Persisted var dogs: List<Dog>
}
