import Foundation
@testable import Strata
import XCTest

// Change notifications: realm, results and object observers, delivered asynchronously on the
// registering context (the main queue here, which the main run loop drains), from commits of
// this realm, of other threads and of other queues; silent writes; key-path filters; tokens.

class NoteDog: Object {
    @Persisted var name = ""
    @Persisted var age = 0
    @Persisted var toy: NoteToy?
}

class NoteToy: Object {
    @Persisted var brand = ""
    @Persisted var price = 0
}

/// The schema `strata-async-stress` writes (its `StressEntry`), for the cross-process tests.
class StressEntry: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var payload = ""
}

class NoteOwner: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var dogs: List<NoteDog>
}

/// A chain of links, each class one link further from `ChainHead` than the one before.
class ChainHead: Object {
    @Persisted var name = ""
    @Persisted var next: ChainOne?
}

class ChainOne: Object {
    @Persisted var value = 0
    @Persisted var next: ChainTwo?
}

class ChainTwo: Object {
    @Persisted var value = 0
    @Persisted var next: ChainThree?
}

class ChainThree: Object {
    @Persisted var value = 0
    @Persisted var next: ChainFour?
}

class ChainFour: Object {
    @Persisted var value = 0
    @Persisted var next: ChainFive?
}

class ChainFive: Object {
    @Persisted var value = 0
}

/// Records what observers delivered on it saw.
actor NoteActor {
    var seen: [String] = []
}

final class NotificationTests: SeedTestCase {
    /// Lets the notifier finish two more rounds, then drains the main queue: whatever would be
    /// delivered for the commits so far has been.
    func settle(_ realm: Realm) {
        realm.file.notifier.waitForRound()
        let end = Date(timeIntervalSinceNow: 0.05)
        while Date() < end { _ = RunLoop.current.run(mode: .default, before: Date(timeIntervalSinceNow: 0.005)) }
    }

    /// Commits `body` from a realm on another thread, and waits for it.
    func writeElsewhere(_ name: String = "test.realm", _ body: @escaping @Sendable (Realm) -> Void) {
        let config = self.config(name)
        let done = DispatchSemaphore(value: 0)
        Thread {
            let realm = try! Realm(configuration: config)
            try! realm.write { body(realm) }
            done.signal()
        }.start()
        done.wait()
    }

    // MARK: Realm observers

    func testRealmObserverIsCalledAsynchronouslyAfterOwnCommit() throws {
        let realm = try open()
        var calls: [Realm.Notification] = []
        var countsSeen: [Int] = []
        let token = realm.observe { note, r in
            calls.append(note)
            countsSeen.append(r.objects(NoteDog.self).count)
        }
        try realm.write { realm.add(NoteDog(value: ["name": "Rex"])) }
        XCTAssertEqual(calls, [], "delivered inside write(): must be asynchronous")
        spin(until: { calls.count == 1 })
        XCTAssertEqual(calls, [.didChange])
        XCTAssertEqual(countsSeen, [1])
        token.invalidate()
    }

    func testRealmObserverSeesCommitOfAnotherThreadAndTheRealmMovesToIt() throws {
        let realm = try open()
        XCTAssertEqual(realm.objects(NoteDog.self).count, 0)
        var counts: [Int] = []
        let token = realm.observe { _, r in counts.append(r.objects(NoteDog.self).count) }
        writeElsewhere { $0.add(NoteDog(value: ["name": "Rex"])) }
        spin(until: { !counts.isEmpty })
        XCTAssertEqual(counts, [1])
        XCTAssertEqual(realm.objects(NoteDog.self).count, 1, "autorefresh moved the realm to the new version")
        token.invalidate()
    }

    func testAutorefreshOffDeliversRefreshRequiredAndRefreshDeliversTheChange() throws {
        let realm = try open()
        realm.autorefresh = false
        _ = realm.objects(NoteDog.self).count
        var calls: [Realm.Notification] = []
        let token = realm.observe { note, _ in calls.append(note) }
        writeElsewhere { $0.add(NoteDog(value: ["name": "Rex"])) }
        spin(until: { !calls.isEmpty })
        XCTAssertEqual(calls, [.refreshRequired])
        XCTAssertEqual(realm.objects(NoteDog.self).count, 0, "without autorefresh the realm stays at its version")
        XCTAssertTrue(realm.refresh())
        XCTAssertEqual(calls, [.refreshRequired, .didChange])
        XCTAssertEqual(realm.objects(NoteDog.self).count, 1)
        token.invalidate()
    }

    func testInvalidatedTokenGetsNoMoreCalls() throws {
        let realm = try open()
        var calls = 0
        let token = realm.observe { _, _ in calls += 1 }
        try realm.write { realm.add(NoteDog()) }
        spin(until: { calls == 1 })
        token.invalidate()
        try realm.write { realm.add(NoteDog()) }
        settle(realm)
        XCTAssertEqual(calls, 1)
    }

    func testReleasedTokenStopsNotifications() throws {
        let realm = try open()
        var calls = 0
        var token: NotificationToken? = realm.observe { _, _ in calls += 1 }
        try realm.write { realm.add(NoteDog()) }
        spin(until: { calls == 1 })
        XCTAssertNotNil(token)
        token = nil
        try realm.write { realm.add(NoteDog()) }
        settle(realm)
        XCTAssertEqual(calls, 1)
    }

    func testWriteWithoutNotifyingSkipsExactlyTheNamedToken() throws {
        let realm = try open()
        var skippedCalls = 0
        var otherCalls = 0
        let skipped = realm.observe { _, _ in skippedCalls += 1 }
        let other = realm.observe { _, _ in otherCalls += 1 }
        settle(realm)
        try realm.write(withoutNotifying: [skipped]) { realm.add(NoteDog(value: ["name": "silent"])) }
        spin(until: { otherCalls == 1 })
        settle(realm)
        XCTAssertEqual(skippedCalls, 0, "the silent commit reached the skipped token")
        try realm.write { realm.add(NoteDog(value: ["name": "loud"])) }
        spin(until: { skippedCalls == 1 && otherCalls == 2 })
        settle(realm)
        XCTAssertEqual(skippedCalls, 1)
        XCTAssertEqual(otherCalls, 2)
        skipped.invalidate()
        other.invalidate()
    }

    func testAsyncWritesWithoutNotifyingSkipExactlyTheNamedToken() throws {
        let realm = try open()
        var skippedCalls = 0
        var otherCalls = 0
        let skipped = realm.observe { _, _ in skippedCalls += 1 }
        let other = realm.observe { _, _ in otherCalls += 1 }
        settle(realm)
        var done = 0
        realm.writeAsync(
            withoutNotifying: [skipped], { realm.add(NoteDog(value: ["name": "a"])) }, onComplete: { _ in done += 1 })
        spin(until: { done == 1 && otherCalls == 1 })
        realm.beginAsyncWrite {
            realm.add(NoteDog(value: ["name": "b"]))
            realm.commitAsyncWrite(withoutNotifying: [skipped]) { _ in done += 1 }
        }
        spin(until: { done == 2 && otherCalls == 2 })
        settle(realm)
        XCTAssertEqual(skippedCalls, 0, "a silent asynchronous commit reached the skipped token")
        realm.writeAsync { realm.add(NoteDog(value: ["name": "c"])) }
        spin(until: { skippedCalls == 1 && otherCalls == 3 })
        XCTAssertEqual(realm.objects(NoteDog.self).count, 3)
        skipped.invalidate()
        other.invalidate()
    }

    @MainActor
    func testAsyncWriteAwaitWithoutNotifyingSkipsTheNamedToken() async throws {
        let realm = try open()
        var seen: [String] = []
        let skipped = realm.observe { _, _ in seen.append("skipped") }
        let other = realm.observe { _, _ in seen.append("other") }
        realm.file.notifier.waitForRound()
        try await realm.asyncWrite(withoutNotifying: [skipped]) { realm.add(NoteDog(value: ["name": "a"])) }
        let deadline = Date(timeIntervalSinceNow: 20)
        while !seen.contains("other"), Date() < deadline { try await Task.sleep(nanoseconds: 2_000_000) }
        realm.file.notifier.waitForRound()
        try await Task.sleep(nanoseconds: 30_000_000)
        XCTAssertEqual(seen, ["other"])
        skipped.invalidate()
        other.invalidate()
    }

    func testFrozenRealmCannotBeObserved() throws {
        let realm = try open()
        let frozen = realm.freeze()
        _ = frozen.observe { _, _ in }
        XCTAssertEqual(takeViolations(), ["Frozen Realms do not change and do not have change notifications."])
    }

    // MARK: Results

    func testResultsInitialIsDeliveredAfterObserveReturns() throws {
        let realm = try open()
        try realm.write { realm.add(NoteDog(value: ["name": "Rex", "age": 3])) }
        var changes: [String] = []
        let token = realm.objects(NoteDog.self).observe { change in
            switch change {
            case .initial(let dogs): changes.append("initial \(dogs.count)")
            case .update: changes.append("update")
            case .error(let e): changes.append("error \(e)")
            }
        }
        XCTAssertEqual(changes, [], "initial delivered inside observe()")
        spin(until: { !changes.isEmpty })
        XCTAssertEqual(changes, ["initial 1"])
        token.invalidate()
    }

    func testObservingResultsInsideWriteIsAnError() throws {
        let realm = try open()
        try realm.write {
            _ = realm.objects(NoteDog.self).observe { _ in }
        }
        XCTAssertEqual(takeViolations(), ["Cannot register notification blocks from within write transactions."])
    }

    func testResultsUpdateReportsDeletionsInsertionsAndModificationsOfSortedFilteredResults() throws {
        let realm = try open()
        try realm.write {
            for (name, age) in [("a", 1), ("b", 2), ("c", 3), ("d", 4), ("e", 5)] {
                realm.add(NoteDog(value: ["name": name, "age": age]))
            }
        }
        let results = realm.objects(NoteDog.self).filter("age >= 2").sorted(byKeyPath: "name")
        var updates: [([Int], [Int], [Int])] = []
        var names: [[String]] = []
        var initial = false
        let token = results.observe { change in
            switch change {
            case .initial: initial = true
            case .update(let r, let d, let i, let m):
                updates.append((d, i, m))
                names.append(r.map(\.name))
            case .error(let e): XCTFail("\(e)")
            }
        }
        spin(until: { initial })
        // Old: b c d e. Delete c, insert "bb" (age 9), modify e's age (stays), drop d (age 0).
        writeElsewhere { r in
            let dogs = r.objects(NoteDog.self)
            r.delete(dogs.filter("name == 'c'").first!)
            r.add(NoteDog(value: ["name": "bb", "age": 9]))
            dogs.filter("name == 'e'").first!.age = 50
            dogs.filter("name == 'd'").first!.age = 0
        }
        spin(until: { !updates.isEmpty })
        XCTAssertEqual(names, [["b", "bb", "e"]])
        XCTAssertEqual(updates.first?.0, [1, 2], "deletions (old indices of c and d)")
        XCTAssertEqual(updates.first?.1, [1], "insertions (new index of bb)")
        XCTAssertEqual(updates.first?.2, [3], "modifications (old index of e)")
        token.invalidate()
    }

    func testCommitsLandingBetweenRoundsAreCoalescedIntoOneCorrectChangeSet() throws {
        let realm = try open()
        let results = realm.objects(NoteDog.self).filter("age > 0")
        var updates: [([Int], [Int], [Int])] = []
        var initial = false
        let token = results.observe { change in
            switch change {
            case .initial: initial = true
            case .update(_, let d, let i, let m): updates.append((d, i, m))
            case .error(let e): XCTFail("\(e)")
            }
        }
        spin(until: { initial })
        let notifier = realm.file.notifier
        notifier.pause()
        writeElsewhere { $0.add(NoteDog(value: ["name": "a", "age": 1])) }
        writeElsewhere { $0.add(NoteDog(value: ["name": "b", "age": 2])) }
        writeElsewhere { $0.objects(NoteDog.self).filter("name == 'a'").first!.age = 0 }
        notifier.resume()
        spin(until: { !updates.isEmpty })
        settle(realm)
        XCTAssertEqual(updates.count, 1, "three commits between two rounds give one change set")
        XCTAssertEqual(updates.first?.0, [])
        XCTAssertEqual(updates.first?.1, [0])
        XCTAssertEqual(updates.first?.2, [])
        XCTAssertEqual(results.map(\.name), ["b"])
        token.invalidate()
    }

    func testResultsKeyPathFilterIgnoresOtherPropertiesAndFollowsLinks() throws {
        let realm = try open()
        try realm.write {
            let toy = NoteToy(value: ["brand": "Acme"])
            realm.add(NoteDog(value: ["name": "Rex", "age": 1, "toy": toy]))
        }
        var byName: [[Int]] = []
        var byBrand: [[Int]] = []
        var ready = 0
        let t1 = realm.objects(NoteDog.self).observe(keyPaths: ["name"]) { change in
            if case .initial = change { ready += 1 }
            if case .update(_, _, _, let m) = change { byName.append(m) }
        }
        let t2 = realm.objects(NoteDog.self).observe(keyPaths: ["toy.brand"]) { change in
            if case .initial = change { ready += 1 }
            if case .update(_, _, _, let m) = change { byBrand.append(m) }
        }
        spin(until: { ready == 2 })
        writeElsewhere { $0.objects(NoteDog.self).first!.age = 2 }
        settle(realm)
        XCTAssertEqual(byName, [], "an age change reached a name observer")
        XCTAssertEqual(byBrand, [])
        writeElsewhere { $0.objects(NoteToy.self).first!.price = 5 }
        settle(realm)
        XCTAssertEqual(byBrand, [], "a price change reached a toy.brand observer")
        writeElsewhere { $0.objects(NoteToy.self).first!.brand = "Zoom" }
        spin(until: { byBrand.count == 1 })
        XCTAssertEqual(byBrand, [[0]])
        XCTAssertEqual(byName, [])
        writeElsewhere { $0.objects(NoteDog.self).first!.name = "Max" }
        spin(until: { byName.count == 1 })
        XCTAssertEqual(byName, [[0]])
        t1.invalidate()
        t2.invalidate()
    }

    func testResultsDeliveredOnAQueueBelongToARealmOfThatQueue() throws {
        let realm = try open()
        try realm.write { realm.add(NoteDog(value: ["name": "Rex"])) }
        let queue = DispatchQueue(label: "observer")
        let seen = Locked<[String]>([])
        let token = realm.objects(NoteDog.self).observe(on: queue) { change in
            switch change {
            case .initial(let dogs):
                dispatchPrecondition(condition: .onQueue(queue))
                seen.mutate { $0.append("initial \(dogs.map(\.name))") }
            case .update(let dogs, _, let i, _):
                seen.mutate { $0.append("update \(i) \(dogs.map(\.name))") }
            case .error(let e): seen.mutate { $0.append("error \(e)") }
            }
        }
        spin(until: { seen.value.count == 1 })
        try realm.write { realm.add(NoteDog(value: ["name": "Max"])) }
        spin(until: { seen.value.count == 2 })
        XCTAssertEqual(seen.value, ["initial [\"Rex\"]", "update [1] [\"Rex\", \"Max\"]"])
        token.invalidate()
    }

    // MARK: Objects

    func testObjectObserverReportsOldAndNewValuesAndDeletion() throws {
        let realm = try open()
        let dog = NoteDog(value: ["name": "Rex", "age": 3])
        try realm.write { realm.add(dog) }
        var changes: [[String]] = []
        var deleted = false
        let token = dog.observe { (change: ObjectChange<NoteDog>) in
            switch change {
            case .change(let object, let properties):
                changes.append(
                    properties.map { "\($0.name): \($0.oldValue ?? "nil") -> \($0.newValue ?? "nil")" } + [
                        "now \(object.age)"
                    ])
            case .deleted: deleted = true
            case .error(let e): XCTFail("\(e)")
            }
        }
        settle(realm)
        writeElsewhere { $0.objects(NoteDog.self).first!.age = 4 }
        spin(until: { changes.count == 1 })
        XCTAssertEqual(changes, [["age: 3 -> 4", "now 4"]])
        writeElsewhere { r in r.delete(r.objects(NoteDog.self).first!) }
        spin(until: { deleted })
        token.invalidate()
    }

    func testEmbeddedObjectObserverReportsItsPropertyChanges() throws {
        let realm = try open()
        let person = Person(value: ["id": 1, "name": "Ann", "address": ["street": "Main", "city": "X"]])
        try realm.write { realm.add(person) }
        let address = try XCTUnwrap(person.address)
        var changes: [String] = []
        let token = address.observe { (change: ObjectChange<Address>) in
            if case .change(let a, let p) = change {
                changes.append("\(p.map { "\($0.name) \($0.oldValue ?? "nil")->\($0.newValue ?? "nil")" }) \(a.street)")
            }
        }
        settle(realm)
        writeElsewhere { r in r.object(ofType: Person.self, forPrimaryKey: 1)!.address!.street = "High" }
        spin(until: { !changes.isEmpty })
        XCTAssertEqual(changes, ["[\"street Main->High\"] High"])
        token.invalidate()
    }

    /// A link's old and new values are the objects it linked to, read in the delivery realm (as
    /// RealmSwift: the old one with its current values, possibly deleted).
    func testObjectObserverReportsLinkedObjectsAsOldAndNewValues() throws {
        let realm = try open()
        let dog = NoteDog(value: ["name": "Rex", "toy": ["brand": "Acme"]])
        try realm.write { realm.add(dog) }
        var changes: [String] = []
        let token = dog.observe(keyPaths: ["toy", "toy.brand"]) { (change: ObjectChange<NoteDog>) in
            guard case .change(_, let properties) = change else { return }
            for p in properties {
                let old = p.oldValue.map { ($0 as? NoteToy).map { $0.isInvalidated ? "deleted" : $0.brand } ?? "?" }
                let new = p.newValue.map { ($0 as? NoteToy).map { $0.isInvalidated ? "deleted" : $0.brand } ?? "?" }
                changes.append("\(p.name): \(old ?? "nil") -> \(new ?? "nil")")
            }
        }
        settle(realm)
        writeElsewhere { r in r.objects(NoteDog.self).first!.toy = NoteToy(value: ["brand": "Zoom"]) }
        spin(until: { changes.count == 1 })
        writeElsewhere { r in r.objects(NoteDog.self).first!.toy!.brand = "Zoom II" }
        spin(until: { changes.count == 2 })
        writeElsewhere { r in
            let dog = r.objects(NoteDog.self).first!
            let toy = dog.toy!
            dog.toy = nil
            r.delete(toy)
        }
        spin(until: { changes.count == 3 })
        XCTAssertEqual(
            changes, ["toy: Acme -> Zoom", "toy: Zoom II -> Zoom II", "toy: deleted -> nil"])
        token.invalidate()
    }

    /// Without key paths, changes of objects up to four links away count (as realm-core's deep
    /// change check); five links away they do not.
    func testObserversWithoutKeyPathsSeeChangesUpToFourLinksAway() throws {
        let realm = try open()
        let head = ChainHead(value: [
            "name": "h", "next": ["next": ["next": ["next": ["next": ["value": 5]]]]],
        ])
        try realm.write { realm.add(head) }
        var objectChanges: [[String]] = []
        var resultsModifications: [[Int]] = []
        let objectToken = head.observe { (change: ObjectChange<ChainHead>) in
            if case .change(_, let p) = change { objectChanges.append(p.map(\.name)) }
        }
        let resultsToken = realm.objects(ChainHead.self).observe { change in
            if case .update(_, _, _, let m) = change { resultsModifications.append(m) }
        }
        settle(realm)
        writeElsewhere { r in r.objects(ChainFour.self).first!.value = 40 }
        spin(until: { objectChanges.count == 1 && resultsModifications.count == 1 })
        XCTAssertEqual(objectChanges, [["next"]])
        XCTAssertEqual(resultsModifications, [[0]])
        writeElsewhere { r in r.objects(ChainFive.self).first!.value = 50 }
        settle(realm)
        writeElsewhere { r in r.objects(ChainOne.self).first!.value = 10 }
        spin(until: { objectChanges.count == 2 && resultsModifications.count == 2 })
        XCTAssertEqual(objectChanges, [["next"], ["next"]], "the change five links away reported nothing")
        XCTAssertEqual(resultsModifications, [[0], [0]])
        objectToken.invalidate()
        resultsToken.invalidate()
    }

    func testObjectObserverWithKeyPathsIgnoresOtherProperties() throws {
        let realm = try open()
        let dog = NoteDog(value: ["name": "Rex", "age": 3])
        try realm.write { realm.add(dog) }
        var names: [String] = []
        let token = dog.observe(keyPaths: [\NoteDog.name]) { (change: ObjectChange<NoteDog>) in
            if case .change(_, let properties) = change { names.append(contentsOf: properties.map(\.name)) }
        }
        settle(realm)
        try realm.write { dog.age = 9 }
        settle(realm)
        XCTAssertEqual(names, [])
        try realm.write { dog.name = "Max" }
        spin(until: { !names.isEmpty })
        XCTAssertEqual(names, ["name"])
        token.invalidate()
    }

    // MARK: Interface-driven writes

    /// The seed's interface-driven write: a table-view-like data source is updated by hand for
    /// the user's own insert, committed with `withoutNotifying: [token]`; another writer's
    /// insert then reaches the data source through exactly one notification, and the data
    /// source ends up equal to the results (the user's insert was not applied twice).
    private func interfaceDrivenWrite(coalesced: Bool) throws {
        let realm = try open()
        try realm.write { realm.add(NoteDog(value: ["name": "Bella"])) }
        let results = realm.objects(NoteDog.self).sorted(byKeyPath: "name")
        var dataSource: [String] = []
        var notifications = 0
        var token: NotificationToken!
        token = results.observe { change in
            switch change {
            case .initial(let dogs): dataSource = dogs.map(\.name)
            case .update(let dogs, let deletions, let insertions, let modifications):
                notifications += 1
                for i in deletions.reversed() { dataSource.remove(at: i) }
                for i in insertions { dataSource.insert(dogs[i].name, at: i) }
                for i in modifications { dataSource[i] = dogs[i].name }
            case .error(let e): XCTFail("\(e)")
            }
        }
        spin(until: { !dataSource.isEmpty })
        let notifier = realm.file.notifier
        if coalesced { notifier.pause() }
        // The user adds "Apollo": the interface updates at once...
        dataSource.insert("Apollo", at: 0)
        // ...and the write does not notify this token.
        try realm.write(withoutNotifying: [token]) { realm.add(NoteDog(value: ["name": "Apollo"])) }
        // Meanwhile another writer adds "Zed".
        writeElsewhere { $0.add(NoteDog(value: ["name": "Zed"])) }
        if coalesced { notifier.resume() }
        spin(until: { notifications >= 1 })
        settle(realm)
        XCTAssertEqual(notifications, 1, "exactly one notification, for the other writer's insert")
        XCTAssertEqual(dataSource, ["Apollo", "Bella", "Zed"])
        XCTAssertEqual(dataSource, results.map(\.name))
        token.invalidate()
    }

    func testSeedInterfaceDrivenWriteIsNotReportedButAnotherWritersInsertIsOnce() throws {
        try interfaceDrivenWrite(coalesced: false)
    }

    func testSilentWriteLandingInTheSameRoundAsAnotherCommitIsStillSkipped() throws {
        try interfaceDrivenWrite(coalesced: true)
    }

    // MARK: Other processes

    /// The `strata-async-stress` executable SwiftPM builds beside the test bundle.
    private func stressExecutable() throws -> String {
        let dirs = [
            Bundle(for: NotificationTests.self).bundleURL.deletingLastPathComponent().path,
            (CommandLine.arguments.first.map { ($0 as NSString).deletingLastPathComponent }) ?? "",
        ]
        for d in dirs {
            let p = (d as NSString).appendingPathComponent("strata-async-stress")
            if FileManager.default.isExecutableFile(atPath: p) { return p }
        }
        XCTFail("strata-async-stress not found beside the test bundle (run swift build --build-tests)")
        throw SeedAbort()
    }

    func testCommitOfAnotherProcessReachesResultsAndRealmObservers() throws {
        let realm = try open()
        let results = realm.objects(StressEntry.self).filter("id >= 10")
        var updates: [[Int]] = []
        var initial = false
        var realmCalls = 0
        let t1 = results.observe { change in
            switch change {
            case .initial: initial = true
            case .update(let r, _, _, _):
                updates.append(r.map(\.id))
            case .error(let e): XCTFail("\(e)")
            }
        }
        let t2 = realm.observe { _, _ in realmCalls += 1 }
        spin(until: { initial })
        let child = Process()
        child.executableURL = URL(fileURLWithPath: try stressExecutable())
        child.arguments = ["insert", url().path, "9", "3"]
        let out = Pipe()
        child.standardOutput = out
        try child.run()
        child.waitUntilExit()
        XCTAssertEqual(child.terminationStatus, 0)
        let lines = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).split(
            separator: "\n")
        XCTAssertEqual(lines.count, 3, "the child committed three times")
        spin(until: { updates.last == [10, 11] })
        XCTAssertEqual(updates.last, [10, 11])
        XCTAssertGreaterThanOrEqual(realmCalls, 1)
        XCTAssertEqual(realm.objects(StressEntry.self).count, 3, "the realm moved to the child's version")
        t1.invalidate()
        t2.invalidate()
    }

    // MARK: Collection properties

    func testListObserverReportsAppendsRemovalsAndChangesOfItsObjects() throws {
        let realm = try open()
        let owner = NoteOwner(value: ["id": 1])
        try realm.write {
            realm.add(owner)
            owner.dogs.append(objectsIn: [NoteDog(value: ["name": "a"]), NoteDog(value: ["name": "b"])])
        }
        var events: [String] = []
        let token = owner.dogs.observe { change in
            switch change {
            case .initial(let list): events.append("initial \(list.map(\.name))")
            case .update(let list, let d, let i, let m): events.append("update \(d) \(i) \(m) \(list.map(\.name))")
            case .error(let e): events.append("error \(e)")
            }
        }
        spin(until: { events.count == 1 })
        writeElsewhere { r in
            let o = r.object(ofType: NoteOwner.self, forPrimaryKey: 1)!
            o.dogs.remove(at: 0)
            o.dogs.append(NoteDog(value: ["name": "c"]))
        }
        spin(until: { events.count == 2 })
        writeElsewhere { r in r.objects(NoteDog.self).filter("name == 'b'").first!.name = "B" }
        spin(until: { events.count == 3 })
        XCTAssertEqual(
            events, ["initial [\"a\", \"b\"]", "update [0] [1] [] [\"b\", \"c\"]", "update [] [] [0] [\"B\", \"c\"]"])
        token.invalidate()
    }

    func testListWithKeyPathsIgnoresOtherPropertiesOfItsObjects() throws {
        let realm = try open()
        let owner = NoteOwner(value: ["id": 1])
        try realm.write {
            realm.add(owner)
            owner.dogs.append(NoteDog(value: ["name": "a"]))
        }
        var updates = 0
        var initial = false
        let token = owner.dogs.observe(keyPaths: ["name"]) { change in
            if case .initial = change { initial = true }
            if case .update = change { updates += 1 }
        }
        spin(until: { initial })
        writeElsewhere { r in r.objects(NoteDog.self).first!.age = 7 }
        settle(realm)
        XCTAssertEqual(updates, 0)
        writeElsewhere { r in r.objects(NoteDog.self).first!.name = "z" }
        spin(until: { updates == 1 })
        token.invalidate()
    }

    func testMapAndSetObserversReportKeysAndIndices() throws {
        let realm = try open()
        let item = Item()
        try realm.write {
            realm.add(item)
            item.labels["a"] = "1"
            item.labels["b"] = "2"
            item.tags.insert("x")
        }
        var mapEvents: [String] = []
        var setEvents: [String] = []
        let t1 = item.labels.observe { change in
            switch change {
            case .initial(let m): mapEvents.append("initial \(m.count)")
            case .update(_, let d, let i, let m): mapEvents.append("update \(d) \(i) \(m)")
            case .error(let e): mapEvents.append("error \(e)")
            }
        }
        let t2 = item.tags.observe { change in
            switch change {
            case .initial(let s): setEvents.append("initial \(s.count)")
            case .update(let s, let d, let i, _): setEvents.append("update \(d) \(i) \(s.count)")
            case .error(let e): setEvents.append("error \(e)")
            }
        }
        spin(until: { mapEvents.count == 1 && setEvents.count == 1 })
        try realm.write {
            item.labels["a"] = nil
            item.labels["b"] = "two"
            item.labels["c"] = "3"
            item.tags.insert("y")
        }
        spin(until: { mapEvents.count == 2 && setEvents.count == 2 })
        XCTAssertEqual(mapEvents, ["initial 2", "update [\"a\"] [\"c\"] [\"b\"]"])
        XCTAssertEqual(setEvents, ["initial 1", "update [] [1] 2"])
        t1.invalidate()
        t2.invalidate()
    }

    func testLinkingObjectsObserverReportsNewOwnersAndTheirChanges() throws {
        let realm = try open()
        let dog = Dog(value: ["name": "Rex"])
        try realm.write {
            realm.add(dog)
            realm.add(Person(value: ["id": 1, "name": "Ann", "dogs": [dog]]))
        }
        var events: [String] = []
        let token = dog.owners.observe { change in
            switch change {
            case .initial(let owners): events.append("initial \(owners.map(\.name))")
            case .update(let owners, let d, let i, let m): events.append("update \(d) \(i) \(m) \(owners.map(\.name))")
            case .error(let e): events.append("error \(e)")
            }
        }
        spin(until: { events.count == 1 })
        writeElsewhere { r in
            let rex = r.objects(Dog.self).first!
            r.add(Person(value: ["id": 2, "name": "Bob", "dogs": [rex]]))
        }
        spin(until: { events.count == 2 })
        writeElsewhere { r in r.object(ofType: Person.self, forPrimaryKey: 1)!.name = "Anna" }
        spin(until: { events.count == 3 })
        XCTAssertEqual(
            events,
            ["initial [\"Ann\"]", "update [] [1] [] [\"Ann\", \"Bob\"]", "update [] [] [0] [\"Anna\", \"Bob\"]"])
        token.invalidate()
    }

    // MARK: Actors and async sequences

    @MainActor
    func testResultsObservedOnAnActorAreDeliveredIsolatedToIt() async throws {
        let realm = try open()
        let actor = NoteActor()
        let token = await realm.objects(NoteDog.self).observe(on: actor) { a, change in
            a.preconditionIsolated()
            switch change {
            case .initial(let dogs): a.seen.append("initial \(dogs.count)")
            case .update(let dogs, _, let i, _): a.seen.append("update \(i) \(dogs.map(\.name))")
            case .error(let e): a.seen.append("error \(e)")
            }
        }
        var deadline = Date(timeIntervalSinceNow: 20)
        while await actor.seen.count < 1, Date() < deadline { try await Task.sleep(nanoseconds: 2_000_000) }
        try realm.write { realm.add(NoteDog(value: ["name": "Rex"])) }
        deadline = Date(timeIntervalSinceNow: 20)
        while await actor.seen.count < 2, Date() < deadline { try await Task.sleep(nanoseconds: 2_000_000) }
        let seen = await actor.seen
        XCTAssertEqual(seen, ["initial 0", "update [0] [\"Rex\"]"])
        token.invalidate()
    }

    @MainActor
    func testObjectObservedOnAnActorIsDeliveredIsolatedToIt() async throws {
        let realm = try open()
        let dog = NoteDog(value: ["name": "Rex", "age": 1])
        try realm.write { realm.add(dog) }
        let actor = NoteActor()
        let token = await dog.observe(keyPaths: ["age"], on: actor) {
            (a: isolated NoteActor, change: ObjectChange<NoteDog>) in
            a.preconditionIsolated()
            switch change {
            case .change(let d, let p): a.seen.append("\(p.map(\.name)) \(d.age)")
            case .deleted: a.seen.append("deleted")
            case .error(let e): a.seen.append("error \(e)")
            }
        }
        realm.file.notifier.waitForRound()
        try realm.write { dog.age = 2 }
        var deadline = Date(timeIntervalSinceNow: 20)
        while await actor.seen.count < 1, Date() < deadline { try await Task.sleep(nanoseconds: 2_000_000) }
        try realm.write { realm.delete(dog) }
        deadline = Date(timeIntervalSinceNow: 20)
        while await actor.seen.count < 2, Date() < deadline { try await Task.sleep(nanoseconds: 2_000_000) }
        let seen = await actor.seen
        XCTAssertEqual(seen, ["[\"age\"] 2", "deleted"])
        token.invalidate()
    }

    @MainActor
    func testChangesStreamYieldsChangesAndEndsWhenTheTaskIsCancelled() async throws {
        let realm = try open()
        let stream = realm.objects(NoteDog.self).changes()
        let received = Locked<[String]>([])
        let consumer = Task { @MainActor in
            for await change in stream {
                switch change {
                case .initial(let dogs): received.mutate { $0.append("initial \(dogs.count)") }
                case .update(_, _, let i, _): received.mutate { $0.append("update \(i)") }
                case .error: received.mutate { $0.append("error") }
                }
            }
            received.mutate { $0.append("ended") }
        }
        var deadline = Date(timeIntervalSinceNow: 20)
        while received.value.count < 1, Date() < deadline { try await Task.sleep(nanoseconds: 2_000_000) }
        try realm.write { realm.add(NoteDog(value: ["name": "Rex"])) }
        deadline = Date(timeIntervalSinceNow: 20)
        while received.value.count < 2, Date() < deadline { try await Task.sleep(nanoseconds: 2_000_000) }
        XCTAssertTrue(realm.file.notifier.wantsRecords, "the stream observes the file")
        consumer.cancel()
        await consumer.value
        XCTAssertEqual(received.value, ["initial 0", "update [0]", "ended"])
        deadline = Date(timeIntervalSinceNow: 5)
        while realm.file.notifier.wantsRecords, Date() < deadline { try await Task.sleep(nanoseconds: 2_000_000) }
        XCTAssertFalse(realm.file.notifier.wantsRecords, "cancelling the task invalidated the observation")
    }

    @MainActor
    func testObjectChangesStreamFinishesAfterDeletion() async throws {
        let realm = try open()
        let dog = NoteDog(value: ["name": "Rex"])
        try realm.write { realm.add(dog) }
        let stream = dog.changes(NoteDog.self)
        realm.file.notifier.waitForRound()
        try realm.write { dog.age = 5 }
        try realm.write { realm.delete(dog) }
        var seen: [String] = []
        for await change in stream {
            switch change {
            case .change(_, let p): seen.append("change \(p.map(\.name))")
            case .deleted: seen.append("deleted")
            case .error: seen.append("error")
            }
        }
        XCTAssertEqual(seen.last, "deleted")
        XCTAssertTrue(seen.first == "change [\"age\"]" || seen == ["deleted"], "\(seen)")
    }

    // MARK: Other contexts

    func testResultsObserverOfARunLoopThreadRealmIsCalledOnThatThread() throws {
        let config = self.config()
        let thread = RunLoopThread()
        defer { thread.stop() }
        let seen = Locked<[String]>([])
        let tokenBox = Locked<NotificationToken?>(nil)
        let threadID = Locked<UInt64>(0)
        thread.perform {
            let realm = try! Realm(configuration: config)
            threadID.value = UInt64(pthread_self())
            tokenBox.value = realm.objects(NoteDog.self).observe { change in
                let here = UInt64(pthread_self()) == threadID.value
                switch change {
                case .initial(let dogs): seen.mutate { $0.append("initial \(dogs.count) \(here)") }
                case .update(let dogs, _, let i, _): seen.mutate { $0.append("update \(i) \(dogs.count) \(here)") }
                case .error(let e): seen.mutate { $0.append("error \(e)") }
                }
            }
        }
        spin(until: { seen.value.count == 1 })
        let realm = try open()
        try realm.write { realm.add(NoteDog(value: ["name": "Rex"])) }
        spin(until: { seen.value.count == 2 })
        XCTAssertEqual(seen.value, ["initial 0 true", "update [0] 1 true"])
        let done = DispatchSemaphore(value: 0)
        thread.perform {
            tokenBox.value?.invalidate(); tokenBox.value = nil; done.signal()
        }
        done.wait()
    }

    func testObserverOfAQueueConfinedRealmIsCalledOnItsQueue() throws {
        let config = self.config()
        let queue = DispatchQueue(label: "confined")
        let seen = Locked<[String]>([])
        let tokenBox = Locked<NotificationToken?>(nil)
        queue.sync {
            let realm = try! Realm(configuration: config, queue: queue)
            tokenBox.value = realm.observe { _, r in
                dispatchPrecondition(condition: .onQueue(queue))
                seen.mutate { $0.append("didChange \(r.objects(NoteDog.self).count)") }
            }
        }
        writeElsewhere { $0.add(NoteDog(value: ["name": "Rex"])) }
        spin(until: { !seen.value.isEmpty })
        XCTAssertEqual(seen.value, ["didChange 1"])
        queue.sync {
            tokenBox.value?.invalidate(); tokenBox.value = nil
        }
    }

    func testObservingOnAThreadThatRunsNoRunLoopIsAnError() throws {
        let config = self.config()
        let done = DispatchSemaphore(value: 0)
        let seen = Locked<[String]>([])
        Realm.violationHandler = { m in seen.mutate { $0.append(m) } }
        Thread {
            let realm = try! Realm(configuration: config)
            let token = realm.objects(NoteDog.self).observe { _ in }
            token.invalidate()
            done.signal()
        }.start()
        done.wait()
        Realm.violationHandler = { [unowned self] message in self.violations.append(message) }
        XCTAssertEqual(seen.value, ["Can only add notification blocks from within runloops."])
    }
}
