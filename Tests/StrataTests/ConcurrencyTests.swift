import Foundation
import Strata
import XCTest

/// Issue #5 across real threads, queues and tasks: thread confinement, frozen snapshots, version
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
        XCTAssertEqual(messages.filter { !$0.hasPrefix(Self.wrongThread) }, [],
                       "\(what): reports other than the wrong-thread one", file: file, line: line)
    }

    /// Asserts `error` is a `Realm.Error` with `code` whose message starts with `prefix`.
    func assertRealmError(_ error: Error?, _ code: Realm.Error.Code, prefix: String? = nil, _ what: String,
                          file: StaticString = #filePath, line: UInt = #line) {
        guard let error = error as? Realm.Error else {
            return XCTFail("\(what): expected Realm.Error \(code), got \(String(describing: error))", file: file, line: line)
        }
        XCTAssertEqual(error.code, code, "\(what): \(error.message)", file: file, line: line)
        if let prefix {
            XCTAssertTrue(error.message.hasPrefix(prefix), "\(what): message is \(error.message)", file: file, line: line)
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
        let beginError = onNewThread { Unchecked(thrown { try sent.value.0.beginWrite() }) }.value
        assertRealmError(beginError, .wrongThread, prefix: Self.wrongThread, "beginWrite from another thread")
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
        assertRealmError(commitError, .wrongThread, prefix: Self.wrongThread, "commitWrite from another thread")
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
        XCTAssertEqual(takeViolations(), [], "the block never ran: write threw before it")

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
                return o
            }
            out.resumedOnB = resumed.resumedOnB
            out.afterResume = resumed.afterResume
            out.readReports = resumed.readReports
            out.objectsReports = resumed.objectsReports
            out.writeError = resumed.writeError
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
        assertRealmError(outcome.writeError, .wrongThread, prefix: Self.wrongThread, "write after resuming on another thread")
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
        let error = await Task.detached { Unchecked(thrown { try sent.value.0.beginWrite() }) }.value.value
        assertRealmError(error, .wrongThread, prefix: Self.wrongThread, "beginWrite from a detached task")
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
            XCTAssertTrue(reports.contains { $0.hasPrefix(Self.wrongThread) },
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
        XCTAssertEqual(realm.objects(Dog.self).sorted(byKeyPath: "name").map { "\($0.name) \($0.age)" }, ["Fido 6", "Rex 3"])
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
        XCTAssertFalse(worker.sync { other.value.isInWriteTransaction }, "the other thread's realm does not share the write")
        a.cancelWrite()
        let again = worker.sync { Unchecked(try! Realm(configuration: configuration)) }
        XCTAssertTrue(again.value == other.value, "the other thread gets its own cached realm back")
        XCTAssertEqual(takeViolations(), [])
    }

    // MARK: - Queue-confined realms

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
        assertRealmError(thrown { try realm.write {} }, .wrongThread, prefix: Self.wrongThread, "write outside the queue")

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

    // MARK: - Frozen snapshots

    /// Eight threads read one frozen version (a frozen realm, frozen results and a frozen object)
    /// at once while another thread commits changes to every object: each reader sees exactly the
    /// frozen values, every time. The readers index the frozen results (`results[i]`) and use a
    /// sorted frozen result for the first time all at once, which evaluates its keys.
    func testFrozenReadsFromEightThreadsWhileAWriterCommits() throws {
        let n = 300
        let realm = try open()
        try realm.write {
            for i in 0..<n { realm.add(Dog(value: ["name": "d\(i)", "age": i])) }
        }
        let frozenRealm = realm.freeze()
        let frozenResults = realm.objects(Dog.self).freeze()
        let frozenDog = realm.objects(Dog.self).where { $0.name == "d7" }.first!.freeze()
        let frozenByAge = realm.objects(Dog.self).sorted(byKeyPath: "age", ascending: false).freeze()
        XCTAssertTrue(frozenRealm.isFrozen)
        XCTAssertTrue(frozenResults.isFrozen)
        XCTAssertTrue(frozenDog.isFrozen)
        XCTAssertFalse(realm.isFrozen)
        let expectedSum = n * (n - 1) / 2
        let expectedOld = n / 2  // ages >= 150

        let configuration = config()
        let frozen = Unchecked((frozenRealm, frozenResults, frozenDog, frozenByAge))
        let writerDone = Locked(false)
        let commits = 30
        let failures = Locked<[String]>([])
        let iterations = Locked([Int](repeating: 0, count: 8))
        let roundsDuringWrites = Locked(0)
        func fail(_ s: String) { failures.mutate { if $0.count < 20 { $0.append(s) } } }

        onThreadsAtOnce(9) { i in
            if i == 8 {
                // The writer: its own realm; every commit changes every dog and adds one.
                let live = try! Realm(configuration: configuration)
                for c in 0..<commits {
                    try! live.write {
                        for d in Array(live.objects(Dog.self)) { d.age += 1 }
                        live.add(Dog(value: ["name": "new\(c)", "age": 1000]))
                        if c == commits / 2, let d7 = live.objects(Dog.self).where({ $0.name == "d7" }).first { live.delete(d7) }
                    }
                }
                writerDone.value = true
                return
            }
            let (fRealm, fResults, fDog, fByAge) = frozen.value
            var round = 0
            while round < 5 || !writerDone.value {
                round += 1
                if !writerDone.value { roundsDuringWrites.mutate { $0 += 1 } }
                // By index, each reader from another position, so threads share objects' rows.
                for k in 0..<n {
                    let j = (k + i * 37) % n
                    let d = fByAge[j]
                    if d.age != n - 1 - j || d.name != "d\(n - 1 - j)" { fail("reader \(i): sorted[\(j)] is \(d.name) \(d.age)") }
                    let e = fResults[j]
                    if e.age != j || e.name != "d\(j)" || !e.isFrozen { fail("reader \(i): results[\(j)] is \(e.name) \(e.age)") }
                }
                if fByAge.first?.age != n - 1 || fByAge.last?.age != 0 { fail("reader \(i): sorted first/last") }
                if fResults.count != n { fail("reader \(i): frozen results count \(fResults.count)") }
                let sum: Int = fResults.sum(ofProperty: "age")
                if sum != expectedSum { fail("reader \(i): sum(ofProperty:) \(sum)") }
                var manual = 0
                for d in fResults { manual += d.age }
                if manual != expectedSum { fail("reader \(i): summed through frozen objects \(manual)") }
                let again = fRealm.objects(Dog.self)
                if again.count != n { fail("reader \(i): frozen realm count \(again.count)") }
                let old = again.where { $0.age >= 150 }.count
                if old != expectedOld { fail("reader \(i): query count \(old)") }
                if fDog.name != "d7" || fDog.age != 7 || fDog.isInvalidated { fail("reader \(i): frozen dog \(fDog.name) \(fDog.age)") }
                if !fDog.isFrozen || !fRealm.isFrozen || !fResults.isFrozen { fail("reader \(i): not frozen") }
            }
            iterations.mutate { $0[i] = round }
        }

        XCTAssertEqual(failures.value, [])
        XCTAssertTrue(iterations.value.allSatisfy { $0 >= 5 }, "\(iterations.value)")
        XCTAssertGreaterThan(roundsDuringWrites.value, 8, "the readers ran while the writer committed")
        print("ConcurrencyTests: reader rounds \(iterations.value), \(roundsDuringWrites.value) of them during the writes")
        XCTAssertEqual(takeViolations(), [], "frozen values are readable from any thread")
        // The live realm moves on to the writer's version.
        realm.refresh()
        XCTAssertEqual(realm.objects(Dog.self).count, n + commits - 1)
        XCTAssertNil(realm.objects(Dog.self).where { $0.name == "d7" }.first)
        XCTAssertEqual(frozenDog.age, 7, "the frozen dog still shows its version")
    }

    /// A frozen realm read for the first time from eight threads at once, for classes the realm had
    /// not looked up before it was frozen (its bindings are looked up lazily), through links, lists
    /// and backlinks.
    func testFrozenRealmFirstUseFromEightThreadsAtOnce() throws {
        let configuration = config()
        let seeder = WorkerThread("strata.tests.seeder")
        defer { seeder.stop() }
        // Seeded by another thread's realm, which stays open: this thread's realm has looked up
        // nothing when it is frozen.
        let seederRealm = seeder.sync { () -> Unchecked<Realm> in
            let r = try! Realm(configuration: configuration)
            try! r.write {
                for i in 0..<20 {
                    r.add(Person(value: ["id": i, "name": "p\(i)",
                                         "dogs": [["name": "dog\(i)", "age": i, "favoriteToy": ["name": "toy\(i)"]]]]))
                }
            }
            return Unchecked(r)
        }
        let frozen = try open().freeze()
        let sent = Unchecked(frozen)
        let failures = Locked<[String]>([])
        onThreadsAtOnce(8) { i in
            let frozen = sent.value
            let people = frozen.objects(Person.self).sorted(byKeyPath: "id")
            var report: [String] = []
            if people.count != 20 { report.append("people \(people.count)") }
            if frozen.objects(DogToy.self).count != 20 { report.append("toys") }
            let p = frozen.object(ofType: Person.self, forPrimaryKey: 5)
            if p?.name != "p5" { report.append("p5 \(p?.name ?? "nil")") }
            let dog = p?.dogs.first
            if dog?.name != "dog5" || dog?.age != 5 { report.append("dog \(dog?.name ?? "nil")") }
            if dog?.favoriteToy?.name != "toy5" { report.append("toy \(dog?.favoriteToy?.name ?? "nil")") }
            if dog?.owners.first?.id != 5 { report.append("owners") }
            if dog?.isFrozen != true || dog?.favoriteToy?.isFrozen != true { report.append("not frozen") }
            let ages = people.reduce(0) { $0 + ($1.dogs.first?.age ?? 0) }
            if ages != 190 { report.append("ages \(ages)") }
            if !report.isEmpty { failures.mutate { $0.append("reader \(i): \(report)") } }
        }
        XCTAssertEqual(failures.value, [])
        XCTAssertEqual(takeViolations(), [])
        _ = seederRealm
    }

    /// A frozen realm's first use of a class that has no table yet (the configuration names only
    /// some classes) must not write to the file or leave the frozen version.
    func testFrozenRealmFirstUseOfAClassWithoutATableKeepsItsVersion() throws {
        var configuration = config()
        configuration.objectTypes = [Dog.self, DogToy.self, Person.self, Address.self]
        let realm = try Realm(configuration: configuration)
        try realm.write { realm.add(Dog(value: ["name": "Rex"])) }
        let frozen = realm.freeze()
        try realm.write { realm.add(Dog(value: ["name": "Fido"])) }
        XCTAssertEqual(frozen.objects(Dog.self).count, 1)

        let items = frozen.objects(Item.self).count
        let reports = takeViolations()
        XCTAssertEqual(items, 0)
        XCTAssertTrue(frozen.isFrozen)
        XCTAssertFalse(frozen.isInWriteTransaction)
        XCTAssertEqual(frozen.objects(Dog.self).count, 1, "the frozen realm still shows its version (reports: \(reports))")
        XCTAssertEqual(frozen.objects(Dog.self).map(\.name), ["Rex"])
    }

    /// Frozen realms, objects and results refuse writes with clear errors, and `isFrozen` says
    /// which is which.
    func testFrozenValuesRefuseWrites() throws {
        let (realm, dog) = try realmWithRex()
        let frozenRealm = realm.freeze()
        let frozenDog = dog.freeze()
        let frozenResults = realm.objects(Dog.self).freeze()
        XCTAssertTrue(frozenRealm.isFrozen)
        XCTAssertTrue(frozenDog.isFrozen)
        XCTAssertTrue(frozenDog.realm?.isFrozen ?? false)
        XCTAssertTrue(frozenResults.isFrozen)
        XCTAssertTrue(frozenResults.first?.isFrozen ?? false, "objects of frozen results are frozen")
        XCTAssertFalse(realm.isFrozen)
        XCTAssertFalse(dog.isFrozen)
        XCTAssertFalse(Dog().isFrozen, "unmanaged objects are not frozen")
        XCTAssertTrue(frozenRealm.freeze() == frozenRealm, "freezing a frozen realm returns it")
        XCTAssertTrue(frozenDog.freeze() === frozenDog)
        XCTAssertFalse(frozenRealm == realm)

        assertRealmError(thrown { try frozenRealm.beginWrite() }, .frozen, "beginWrite on a frozen realm")
        assertRealmError(thrown { try frozenRealm.write {} }, .frozen, "write on a frozen realm")
        assertRealmError(thrown { try frozenDog.realm!.write {} }, .frozen, "write on a frozen object's realm")
        // From another thread too: frozen realms are not confined, so the error is `.frozen`.
        let elsewhere = onNewThread { Unchecked(thrown { try frozenRealm.beginWrite() }) }.value
        assertRealmError(elsewhere, .frozen, "beginWrite on a frozen realm from another thread")
        XCTAssertEqual(takeViolations(), [])

        // Writing through a frozen object inside a write of the live realm is refused.
        try realm.write { frozenDog.age = 99 }
        let setReports = takeViolations()
        XCTAssertEqual(setReports.count, 1, "\(setReports)")
        XCTAssertTrue(setReports.first?.localizedCaseInsensitiveContains("frozen") ?? false,
                      "the report says the object is frozen (not that there is no write): \(setReports)")
        try realm.write { frozenRealm.add(Dog(value: ["name": "Fido"])) }
        let addReports = takeViolations()
        XCTAssertEqual(addReports.count, 1, "\(addReports)")
        XCTAssertTrue(addReports.first?.localizedCaseInsensitiveContains("frozen") ?? false, "add to a frozen realm: \(addReports)")
        try realm.write { frozenRealm.delete(frozenDog) }
        let deleteReports = takeViolations()
        XCTAssertEqual(deleteReports.count, 1, "\(deleteReports)")
        XCTAssertTrue(deleteReports.first?.localizedCaseInsensitiveContains("frozen") ?? false, "delete through a frozen realm: \(deleteReports)")

        XCTAssertEqual(dog.age, 3)
        XCTAssertEqual(frozenDog.age, 3)
        XCTAssertEqual(realm.objects(Dog.self).map(\.name), ["Rex"])
        XCTAssertEqual(frozenResults.count, 1)
        XCTAssertEqual(takeViolations(), [])
    }

    /// `thaw()` returns the live counterpart in the calling thread's realm, nil once the object is
    /// deleted; frozen values keep showing their version.
    func testThaw() throws {
        let (realm, dog) = try realmWithRex()
        let frozenDog = dog.freeze()
        let frozenResults = realm.objects(Dog.self).freeze()
        let frozenRealm = realm.freeze()

        let thawed = try XCTUnwrap(frozenDog.thaw())
        XCTAssertFalse(thawed.isFrozen)
        XCTAssertTrue(thawed.realm == realm, "thawed into this thread's realm")
        XCTAssertEqual(thawed.name, "Rex")
        try realm.write { thawed.age = 4 }
        XCTAssertEqual(dog.age, 4)
        XCTAssertEqual(frozenDog.age, 3, "the frozen object keeps its version")
        XCTAssertTrue(frozenRealm.thaw() == realm)
        XCTAssertTrue(dog.thaw() === dog, "a live object thaws to itself")

        // On another thread: live in that thread's realm, usable there without reports.
        let configuration = config()
        let worker = WorkerThread("strata.tests.thaw")
        defer { worker.stop() }
        let frozen = Unchecked((frozenDog, frozenResults))
        let there = worker.sync { () -> (String, Int, Bool, Int) in
            let live = frozen.value.0.thaw()!
            let realmHere = try! Realm(configuration: configuration)
            try! realmHere.write { live.age = 5 }
            let liveResults = frozen.value.1.thaw()!
            return (live.name, live.age, live.realm == realmHere, liveResults.count)
        }
        XCTAssertEqual(there.0, "Rex")
        XCTAssertEqual(there.1, 5)
        XCTAssertTrue(there.2)
        XCTAssertEqual(there.3, 1)
        XCTAssertEqual(takeViolations(), [])

        // Deleted since: thaw gives nil, here and on another thread; the frozen object is intact.
        realm.refresh()
        try realm.write {
            realm.delete(dog)
            realm.add(Dog(value: ["name": "Fido"]))
        }
        XCTAssertNil(frozenDog.thaw())
        XCTAssertNil(worker.sync { frozen.value.0.thaw().map { _ in 1 } })
        XCTAssertFalse(frozenDog.isInvalidated)
        XCTAssertEqual(frozenDog.name, "Rex")
        let liveResults = try XCTUnwrap(frozenResults.thaw())
        XCTAssertFalse(liveResults.isFrozen)
        XCTAssertEqual(liveResults.map(\.name), ["Fido"], "thawed results show the current version")
        XCTAssertEqual(frozenResults.map(\.name), ["Rex"])
        XCTAssertEqual(takeViolations(), [])
    }

    /// Seed 002's `performAnExplicitWrite`: a frozen `Company` (as a SwiftUI property wrapper
    /// hands it over) is thawed with its realm, and a dog appended to an employee's list. Run on
    /// a thread other than the one that froze it. (`List` has no `where`, so the employee and dog
    /// are found with `first(where:)`.)
    func testSeed002PerformAnExplicitWrite() throws {
        let realm = try open()
        try realm.write {
            let company = Company()
            company.companyName = "DoggoDB"
            company.employees.append(objectsIn: [Employee(value: ["name": "Dachary"]), Employee(value: ["name": "Ian"])])
            company.dogs.append(objectsIn: [Dog(value: ["name": "Maui", "age": 2]), Dog(value: ["name": "Rex", "age": 3])])
            realm.add(company)
        }
        let frozenCompany = realm.objects(Company.self).first!.freeze()
        XCTAssertTrue(frozenCompany.isFrozen)
        XCTAssertTrue(frozenCompany.employees.first?.isFrozen ?? false)

        func performAnExplicitWrite(company: Company, employeeName: String, dogName: String) {
            // Get the realm that is managing the `Company` object you passed in.
            // Thaw the realm so you can write to it.
            let realm = company.realm!.thaw()
            // Thawing the `Company` object that you passed in also thaws the objects in its List properties.
            // This lets you append the `Dog` to the `Employee` without individually thawing both of them.
            let thawedCompany = company.thaw()!
            let thisEmployee = thawedCompany.employees.first { $0.name == employeeName }!
            let thisDog = thawedCompany.dogs.first { $0.name == dogName }!
            try! realm.write {
                thisEmployee.dogs.append(thisDog)
            }
        }

        let sent = Unchecked(frozenCompany)
        onNewThread { performAnExplicitWrite(company: sent.value, employeeName: "Dachary", dogName: "Maui") }
        XCTAssertEqual(takeViolations(), [])
        performAnExplicitWrite(company: frozenCompany, employeeName: "Ian", dogName: "Rex")
        XCTAssertEqual(takeViolations(), [])

        realm.refresh()
        let company = realm.objects(Company.self).first!
        XCTAssertEqual(company.employees.map { "\($0.name): \($0.dogs.map(\.name))" }, ["Dachary: [\"Maui\"]", "Ian: [\"Rex\"]"])
        XCTAssertEqual(realm.objects(Dog.self).count, 2, "the dogs were linked, not copied")
        XCTAssertEqual(frozenCompany.employees.map(\.dogs.count), [0, 0], "the frozen company still shows its version")
        XCTAssertEqual(takeViolations(), [])
    }

    // MARK: - Version pinning

    /// Fifty frozen versions pinned at once, then released: the pages they held are reused, so
    /// repeating the same work does not grow the file.
    func testReleasedFrozenVersionsAreReclaimedAndTheFileStopsGrowing() throws {
        let realm = try open()
        let path = url().path
        let padding = String(repeating: "x", count: 300)
        try realm.write {
            for i in 0..<1000 { realm.add(Dog(value: ["name": "dog \(i) \(padding)", "age": i])) }
        }
        let seeded = fileSize(path)

        /// 50 cycles of freeze + commit (every object changed), all frozen versions kept until the
        /// end, each checked to still show its own version; then released.
        func round(_ r: Int) throws {
            var pinned: [Realm] = []
            for c in 0..<50 {
                pinned.append(realm.freeze())
                try realm.write {
                    for d in Array(realm.objects(Dog.self)) { d.age += 1 }
                }
                _ = c
            }
            let firstAges = pinned.map { $0.objects(Dog.self).where { $0.name.starts(with: "dog 0 ") }.first!.age }
            XCTAssertEqual(firstAges, Array((r * 50)..<(r * 50 + 50)), "each frozen version shows its own values")
            pinned.removeAll()
        }

        // The file grows in steps (at least 4 MiB), so one leaking round could hide in the slack of
        // the last step: five rounds, each of which pins ~6 MiB while it runs.
        try round(0)
        let afterFirst = fileSize(path)
        var sizes: [Int] = []
        for r in 1..<5 {
            try round(r)
            sizes.append(fileSize(path))
        }
        print("ConcurrencyTests file sizes: seeded \(seeded), after round 1 \(afterFirst), rounds 2-5 \(sizes)")
        XCTAssertGreaterThan(afterFirst, seeded, "50 pinned versions need room of their own (else the test measures nothing)")
        XCTAssertEqual(sizes, [Int](repeating: afterFirst, count: 4), "later rounds reuse the released versions' pages: the file stopped growing")
        XCTAssertEqual(takeViolations(), [])
    }

    /// The control for the test above: with the frozen versions of earlier rounds still held, the
    /// same work keeps growing the file (pinned versions really keep their pages).
    func testPinnedFrozenVersionsKeepTheirPages() throws {
        let realm = try open()
        let path = url().path
        let padding = String(repeating: "x", count: 300)
        try realm.write {
            for i in 0..<1000 { realm.add(Dog(value: ["name": "dog \(i) \(padding)", "age": i])) }
        }
        var pinned: [Realm] = []
        func round() throws {
            for _ in 0..<50 {
                pinned.append(realm.freeze())
                try realm.write {
                    for d in Array(realm.objects(Dog.self)) { d.age += 1 }
                }
            }
        }
        try round()
        let afterFirst = fileSize(path)
        try round()
        let afterSecond = fileSize(path)
        XCTAssertGreaterThan(afterSecond, afterFirst + afterFirst / 2, "held versions keep their pages")
        XCTAssertEqual(pinned.first?.objects(Dog.self).sum(ofProperty: "age") as Int?, 1000 * 999 / 2)
        XCTAssertEqual(takeViolations(), [])
    }

    /// `maximumNumberOfActiveVersions`: freezing beyond the limit is reported with the count and
    /// the limit; releasing frozen versions makes room again.
    func testMaximumNumberOfActiveVersions() throws {
        var configuration = config()
        configuration.maximumNumberOfActiveVersions = 5
        let realm = try Realm(configuration: configuration)
        var frozen: [Realm] = []
        for i in 0..<5 {
            let f = realm.freeze()
            XCTAssertTrue(f.isFrozen, "version \(i + 1) of 5")
            frozen.append(f)
            try realm.write { realm.add(Dog(value: ["name": "d\(i)"])) }
        }
        XCTAssertEqual(takeViolations(), [])

        let sixth = realm.freeze()
        let reports = takeViolations()
        XCTAssertEqual(reports.count, 1, "\(reports)")
        let message = reports.first ?? ""
        XCTAssertTrue(message.contains("(6)"), "names the number of active versions: \(message)")
        XCTAssertTrue(message.contains("limit of 5"), "names the limit: \(message)")
        XCTAssertTrue(message.contains("maximumNumberOfActiveVersions"), message)
        XCTAssertFalse(sixth.isFrozen, "no frozen realm past the limit")
        // Objects and results freeze through the realm: the same limit.
        _ = realm.objects(Dog.self).freeze()
        XCTAssertEqual(takeViolations().count, 1, "Results.freeze() past the limit is reported too")

        // Frozen realms of other threads count: the versions are the file's.
        frozen.removeLast(2)
        let worker = WorkerThread("strata.tests.limit")
        defer { worker.stop() }
        let held = worker.sync { () -> Unchecked<[Realm]> in
            let r = try! Realm(configuration: configuration)
            let f1 = r.freeze()
            try! r.write { r.add(Dog(value: ["name": "w1"])) }
            let f2 = r.freeze()
            return Unchecked([f1, f2])
        }
        XCTAssertEqual(takeViolations(), [], "3 + 2 versions")
        XCTAssertTrue(held.value.allSatisfy(\.isFrozen))
        try realm.write { realm.add(Dog(value: ["name": "d6"])) }
        _ = realm.freeze()
        XCTAssertEqual(takeViolations().count, 1, "a sixth version, counting the other thread's")

        frozen.removeAll()
        XCTAssertTrue(realm.freeze().isFrozen, "released versions make room")
        XCTAssertEqual(takeViolations(), [])
    }

    // MARK: - ThreadSafeReference

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

    // MARK: - @ThreadSafe

    final class Holder: @unchecked Sendable {
        @ThreadSafe var dog: Dog?
    }

    /// `@ThreadSafe` keeps an object usable across threads: each thread reads it live in its own
    /// realm; nil once deleted; unmanaged objects are reported.
    func testThreadSafePropertyWrapper() throws {
        let (realm, dog) = try realmWithRex()
        let holder = Holder()
        holder.dog = dog
        XCTAssertTrue(holder.dog?.realm == realm)
        let configuration = config()
        let worker = WorkerThread("strata.tests.wrapper")
        defer { worker.stop() }
        let there = worker.sync { () -> (String?, Bool, Int?) in
            guard let d = holder.dog else { return (nil, false, nil) }
            let r = try! Realm(configuration: configuration)
            try! r.write { d.age += 1 }
            return (d.name, d.realm == r, holder.dog?.age)
        }
        XCTAssertEqual(there.0, "Rex")
        XCTAssertTrue(there.1, "read live in the reading thread's realm")
        XCTAssertEqual(there.2, 4)
        XCTAssertEqual(holder.dog?.age, 4, "the write is visible on this thread")
        XCTAssertEqual(takeViolations(), [])

        // Many threads at once.
        let names = Locked<[String]>([])
        onThreadsAtOnce(4) { _ in
            let name = holder.dog?.name ?? "nil"
            names.mutate { $0.append(name) }
        }
        XCTAssertEqual(names.value, ["Rex", "Rex", "Rex", "Rex"])

        try realm.write { realm.delete(dog) }
        XCTAssertNil(worker.sync { holder.dog.map(\.name) }, "nil once deleted")
        XCTAssertNil(holder.dog)

        holder.dog = Dog(value: ["name": "Loose"])
        let reports = takeViolations()
        XCTAssertEqual(reports.count, 1, "\(reports)")
        XCTAssertNil(holder.dog)
        holder.dog = nil
        XCTAssertNil(holder.dog)
        XCTAssertEqual(takeViolations(), [])
    }

    // MARK: - Sendable

    /// The Sendable story (a compile-time check).
    func testSendableTypes() {
        assertSendable(ThreadSafeReference<Dog>.self)
        assertSendable(ThreadSafeReference<Results<Dog>>.self)
        assertSendable(Realm.Configuration.self)
        assertSendable(Realm.Error.self)
        assertSendable(ThreadSafe<Dog>.self)
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
