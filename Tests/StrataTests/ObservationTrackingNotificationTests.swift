import Foundation
import Observation
@testable import Strata
import XCTest

// Reads of managed objects and collections inside `withObservationTracking`: a commit from this
// thread, another thread or another process that changes what was read calls `onChange` once;
// commits that change other objects, other properties or other classes do not.

final class ObservationTrackingNotificationTests: ObservationTestCase {
    private func makeDog(_ realm: Realm, name: String = "Rex") throws -> QuickDog {
        let dog = QuickDog(value: ["name": name, "favoriteToy": "ball"])
        try realm.write { realm.add(dog) }
        return dog
    }

    func testTrackedPropertyReadFiresOnceWhenAnotherThreadChangesIt() throws {
        let realm = try open()
        let dog = try makeDog(realm)
        let id = dog._id
        let fired = track { XCTAssertEqual(dog.name, "Rex") }
        writeElsewhere { $0.object(ofType: QuickDog.self, forPrimaryKey: id)!.name = "Max" }
        wait(for: fired, toReach: 1)
        // The tracking ended with its first change: a second commit does not call it again.
        writeElsewhere { $0.object(ofType: QuickDog.self, forPrimaryKey: id)!.name = "Bo" }
        settle(realm)
        XCTAssertEqual(fired.value, 1)
        realm.refresh()
        XCTAssertEqual(dog.name, "Bo")
    }

    func testCommitOfThisThreadFiresTracking() throws {
        let realm = try open()
        let dog = try makeDog(realm)
        let fired = track { _ = dog.favoriteToy }
        try realm.write { dog.favoriteToy = "rope" }
        wait(for: fired, toReach: 1)
        XCTAssertEqual(dog.favoriteToy, "rope")
    }

    func testUnrelatedCommitsDoNotFireTracking() throws {
        let realm = try open()
        let dog = try makeDog(realm)
        let other = try makeDog(realm, name: "Bella")
        let fired = track { _ = dog.name }
        // Another property of the same dog, the same property of another dog, another class.
        try realm.write { dog.breed = "beagle" }
        try realm.write { other.name = "Luna" }
        try realm.write { realm.add(QuickBone(value: ["size": 3])) }
        settle(realm)
        XCTAssertEqual(fired.value, 0, "no commit changed the name of the dog read")
        try realm.write { dog.name = "Max" }
        wait(for: fired, toReach: 1)
        settle(realm)
        XCTAssertEqual(fired.value, 1)
    }

    func testFrozenObjectReadFiresWhenALaterCommitChangesIt() throws {
        let realm = try open()
        let dog = try makeDog(realm)
        let frozen = dog.freeze()
        let id = dog._id
        let fired = track { XCTAssertEqual(frozen.name, "Rex") }
        writeElsewhere { $0.object(ofType: QuickDog.self, forPrimaryKey: id)!.name = "Max" }
        wait(for: fired, toReach: 1)
        // The frozen object itself never changes.
        XCTAssertEqual(frozen.name, "Rex")
    }

    func testDeletingTheReadObjectFiresTracking() throws {
        let realm = try open()
        let dog = try makeDog(realm)
        let fired = track { _ = dog.name }
        try realm.write { realm.delete(dog) }
        wait(for: fired, toReach: 1)
        XCTAssertTrue(dog.isInvalidated)
    }

    func testResultsCountFiresOnInsertOfItsClassOnly() throws {
        let realm = try open()
        _ = try makeDog(realm)
        let dogs = realm.objects(QuickDog.self)
        let fired = track { XCTAssertEqual(dogs.count, 1) }
        try realm.write { realm.add(QuickBone()) }
        settle(realm)
        XCTAssertEqual(fired.value, 0, "a commit to another class")
        writeElsewhere { $0.add(QuickDog(value: ["name": "Bella"])) }
        wait(for: fired, toReach: 1)
        realm.refresh()
        XCTAssertEqual(dogs.count, 2)
    }

    func testIteratingFrozenResultsRegistersTheirClass() throws {
        let realm = try open()
        _ = try makeDog(realm)
        let frozen = realm.objects(QuickDog.self).freeze()
        let fired = track { XCTAssertEqual(frozen.map(\.name), ["Rex"]) }
        writeElsewhere { $0.delete($0.objects(QuickDog.self)) }
        wait(for: fired, toReach: 1)
        XCTAssertEqual(frozen.map(\.name), ["Rex"])
    }

    func testListReadFiresWhenTheListChangesAndNotForOtherProperties() throws {
        let realm = try open()
        let person = QuickPerson(value: ["firstName": "Ann"])
        try realm.write { realm.add(person) }
        let fired = track { XCTAssertEqual(person.dogs.count, 0) }
        try realm.write { person.lastName = "Lee" }
        settle(realm)
        XCTAssertEqual(fired.value, 0, "the list was not changed")
        try realm.write { person.dogs.append(QuickDog(value: ["name": "Rex"])) }
        wait(for: fired, toReach: 1)
        XCTAssertEqual(person.dogs.map(\.name), ["Rex"])
    }

    func testSetAndMapReadsFireWhenTheyChange() throws {
        let realm = try open()
        let dog = try makeDog(realm)
        let setFired = track { XCTAssertFalse(dog.tags.contains("good")) }
        let mapFired = track { XCTAssertNil(dog.vetNotes["2024"]) }
        try realm.write { dog.tags.insert("good") }
        wait(for: setFired, toReach: 1)
        settle(realm)
        XCTAssertEqual(mapFired.value, 0, "the map was not changed")
        try realm.write { dog.vetNotes["2024"] = "healthy" }
        wait(for: mapFired, toReach: 1)
    }

    func testLinkingObjectsReadFiresWhenALinkIsAdded() throws {
        let realm = try open()
        let dog = Dog(value: ["name": "Rex"])
        let person = Person(value: ["id": 1, "name": "Ann"])
        try realm.write {
            realm.add(dog)
            realm.add(person)
        }
        let fired = track { XCTAssertEqual(dog.owners.count, 0) }
        try realm.write { person.dogs.append(dog) }
        wait(for: fired, toReach: 1)
        XCTAssertEqual(dog.owners.map(\.name), ["Ann"])
    }

    func testCommitOfAnotherProcessFiresTracking() throws {
        let realm = try open()
        let entries = realm.objects(StressEntry.self)
        let fired = track { XCTAssertEqual(entries.count, 0) }
        let child = Process()
        child.executableURL = URL(fileURLWithPath: try stressExecutable())
        child.arguments = ["insert", url().path, "1", "2"]
        child.standardOutput = Pipe()
        try child.run()
        child.waitUntilExit()
        XCTAssertEqual(child.terminationStatus, 0)
        wait(for: fired, toReach: 1)
        settle(realm)
        XCTAssertEqual(fired.value, 1, "two commits, one tracking: one call")
        realm.refresh()
        XCTAssertEqual(entries.count, 2)
    }

    func testReadsWhileDisabledRegisterNothing() throws {
        let realm = try open()
        let dog = try makeDog(realm)
        Realm.isObservationTrackingEnabled = false
        let fired = track { _ = dog.name }
        XCTAssertEqual(ObservationHub.hub(for: realm.file).recordedReadCount, 0)
        try realm.write { dog.name = "Max" }
        settle(realm)
        XCTAssertEqual(fired.value, 0)
    }

    func testWatchingStopsOnceEveryRecordedReadChanged() throws {
        let realm = try open()
        let dog = try makeDog(realm)
        let hub = ObservationHub.hub(for: realm.file)
        let fired = track { _ = dog.name }
        XCTAssertEqual(hub.recordedReadCount, 1)
        try realm.write { dog.name = "Max" }
        wait(for: fired, toReach: 1)
        XCTAssertEqual(hub.recordedReadCount, 0)
    }

    func testReadsOfManyObjectsOfOneClassStayBoundedAndStillFire() throws {
        let realm = try open()
        let count = ObservationHub.maximumObjects + 1
        try realm.write {
            for i in 0..<count { realm.add(QuickBone(value: ["size": i])) }
        }
        let results = realm.objects(QuickBone.self)
        let bones = Array(results)
        let hub = ObservationHub.hub(for: realm.file)
        let fired = track {
            XCTAssertEqual(results.count, count)
            XCTAssertEqual(bones.reduce(0) { $0 + $1.size }, count * (count - 1) / 2)
        }
        XCTAssertEqual(hub.recordedReadCount, 2, "the class as a whole, and its objects all together")
        try realm.write { bones[count - 1].size = -1 }
        wait(for: fired, toReach: 1)
    }

    /// The `strata-async-stress` executable SwiftPM builds beside the test bundle.
    private func stressExecutable() throws -> String {
        let dirs = [
            Bundle(for: ObservationTrackingNotificationTests.self).bundleURL.deletingLastPathComponent().path,
            (CommandLine.arguments.first.map { ($0 as NSString).deletingLastPathComponent }) ?? "",
        ]
        for d in dirs {
            let p = (d as NSString).appendingPathComponent("strata-async-stress")
            if FileManager.default.isExecutableFile(atPath: p) { return p }
        }
        XCTFail("strata-async-stress not found beside the test bundle (run swift build --build-tests)")
        throw SeedAbort()
    }
}
