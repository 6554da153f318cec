import Foundation
import Strata
import XCTest

/// Frozen snapshots.
extension ConcurrencyTests {
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
                        if c == commits / 2, let d7 = live.objects(Dog.self).where({ $0.name == "d7" }).first {
                            live.delete(d7)
                        }
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
                    if d.age != n - 1 - j || d.name != "d\(n - 1 - j)" {
                        fail("reader \(i): sorted[\(j)] is \(d.name) \(d.age)")
                    }
                    let e = fResults[j]
                    if e.age != j || e.name != "d\(j)" || !e.isFrozen {
                        fail("reader \(i): results[\(j)] is \(e.name) \(e.age)")
                    }
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
                if fDog.name != "d7" || fDog.age != 7 || fDog.isInvalidated {
                    fail("reader \(i): frozen dog \(fDog.name) \(fDog.age)")
                }
                if !fDog.isFrozen || !fRealm.isFrozen || !fResults.isFrozen { fail("reader \(i): not frozen") }
            }
            iterations.mutate { $0[i] = round }
        }

        XCTAssertEqual(failures.value, [])
        XCTAssertTrue(iterations.value.allSatisfy { $0 >= 5 }, "\(iterations.value)")
        XCTAssertGreaterThan(roundsDuringWrites.value, 8, "the readers ran while the writer committed")
        print(
            "ConcurrencyTests: reader rounds \(iterations.value), \(roundsDuringWrites.value) of them during the writes"
        )
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
                    r.add(
                        Person(value: [
                            "id": i, "name": "p\(i)",
                            "dogs": [["name": "dog\(i)", "age": i, "favoriteToy": ["name": "toy\(i)"]]],
                        ]))
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
        XCTAssertEqual(
            frozen.objects(Dog.self).count, 1, "the frozen realm still shows its version (reports: \(reports))")
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

        // Writing to a frozen realm is a violation with RealmSwift's message; `write` also throws
        // `.frozen` when the handler returns, and its block never runs.
        let frozenMessage = "Can't perform transactions on a frozen Realm."
        frozenRealm.beginWrite()
        XCTAssertFalse(frozenRealm.isInWriteTransaction)
        XCTAssertEqual(takeViolations().map { $0.hasPrefix(frozenMessage) }, [true], "beginWrite on a frozen realm")
        assertRealmError(thrown { try frozenRealm.write {} }, .frozen, prefix: frozenMessage, "write on a frozen realm")
        XCTAssertEqual(takeViolations().map { $0.hasPrefix(frozenMessage) }, [true], "write on a frozen realm")
        var ran = false
        assertRealmError(
            thrown { try frozenDog.realm!.write { ran = true } }, .frozen, "write on a frozen object's realm")
        XCTAssertFalse(ran)
        XCTAssertEqual(takeViolations().map { $0.hasPrefix(frozenMessage) }, [true], "write on a frozen object's realm")
        // From another thread too: frozen realms are not confined, so the report is the frozen one.
        onNewThread { frozenRealm.beginWrite() }
        XCTAssertEqual(
            takeViolations().map { $0.hasPrefix(frozenMessage) }, [true],
            "beginWrite on a frozen realm from another thread")

        // Writing through a frozen object inside a write of the live realm is refused.
        try realm.write { frozenDog.age = 99 }
        let setReports = takeViolations()
        XCTAssertEqual(setReports.count, 1, "\(setReports)")
        XCTAssertTrue(
            setReports.first?.localizedCaseInsensitiveContains("frozen") ?? false,
            "the report says the object is frozen (not that there is no write): \(setReports)")
        try realm.write { frozenRealm.add(Dog(value: ["name": "Fido"])) }
        let addReports = takeViolations()
        XCTAssertEqual(addReports.count, 1, "\(addReports)")
        XCTAssertTrue(
            addReports.first?.localizedCaseInsensitiveContains("frozen") ?? false,
            "add to a frozen realm: \(addReports)")
        try realm.write { frozenRealm.delete(frozenDog) }
        let deleteReports = takeViolations()
        XCTAssertEqual(deleteReports.count, 1, "\(deleteReports)")
        XCTAssertTrue(
            deleteReports.first?.localizedCaseInsensitiveContains("frozen") ?? false,
            "delete through a frozen realm: \(deleteReports)")

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
    /// a thread other than the one that froze it. The example's code is verbatim.
    func testSeed002PerformAnExplicitWrite() throws {
        let realm = try open()
        try realm.write {
            let company = Company()
            company.companyName = "DoggoDB"
            company.employees.append(objectsIn: [
                Employee(value: ["name": "Dachary"]), Employee(value: ["name": "Ian"]),
            ])
            company.dogs.append(objectsIn: [
                Dog(value: ["name": "Maui", "age": 2]), Dog(value: ["name": "Rex", "age": 3]),
            ])
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
            let thisEmployee = thawedCompany.employees.where { $0.name == employeeName }.first!
            let thisDog = thawedCompany.dogs.where { $0.name == dogName }.first!
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
        XCTAssertEqual(
            company.employees.map { "\($0.name): \($0.dogs.map(\.name))" }, ["Dachary: [\"Maui\"]", "Ian: [\"Rex\"]"])
        XCTAssertEqual(realm.objects(Dog.self).count, 2, "the dogs were linked, not copied")
        XCTAssertEqual(frozenCompany.employees.map(\.dogs.count), [0, 0], "the frozen company still shows its version")
        XCTAssertEqual(takeViolations(), [])
    }
}
