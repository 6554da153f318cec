import Foundation
import Observation
@testable import Strata
import XCTest

// The property wrappers' values: frozen, replaced after commits of other threads, and
// observable, so a tracking that read the wrapped value is told when it is replaced.

final class ObservedResultsNotificationTests: ObservationTestCase {
    override func setUp() {
        super.setUp()
        Realm.Configuration.defaultConfiguration = config()
    }

    func testObservedResultsFollowCommitsOfAnotherThread() throws {
        _ = try open()
        @ObservedResults(QuickDog.self, sortDescriptor: SortDescriptor(keyPath: "name")) var dogs
        XCTAssertEqual(dogs.count, 0)
        let fired = track { _ = dogs.count }
        writeElsewhere { $0.add(QuickDog(value: ["name": "Rex"])) }
        wait(for: fired, toReach: 1)
        spin(until: { dogs.map(\.name) == ["Rex"] })
        XCTAssertTrue(dogs.isFrozen)
        // A frozen value may be read on another thread.
        let names = Locked<[String]>([])
        let frozen = UncheckedSendable(dogs)
        let reader = Thread { names.value = frozen.value.map(\.name) }
        reader.start()
        spin(until: { names.value == ["Rex"] })
    }

    func testObservedResultsKeyPathsIgnoreOtherProperties() throws {
        let realm = try open()
        let rex = QuickDog(value: ["name": "Rex"])
        try realm.write { realm.add(rex) }
        @ObservedResults(QuickDog.self, keyPaths: ["name"]) var dogs
        // The wrapper's initial notification is computed at the version of the notifier round
        // after it subscribed; let that round pass first, or it may already see the weight
        // change below (and publish it, as an initial value must).
        settle(realm)
        let first = dogs
        try realm.write { rex.weight = 9 }
        settle(realm)
        spin(for: 0.1)
        XCTAssertEqual(dogs.first?.weight, first.first?.weight, "a weight change is not delivered")
        try realm.write { rex.name = "Max" }
        spin(until: { dogs.first?.name == "Max" })
    }

    func testObservedRealmObjectFollowsCommitsAndTellsTrackings() throws {
        let realm = try open()
        let rex = QuickDog(value: ["name": "Rex"])
        try realm.write { realm.add(rex) }
        let id = rex._id
        @ObservedRealmObject var dog = rex
        let fired = track { _ = dog.name }
        writeElsewhere { $0.object(ofType: QuickDog.self, forPrimaryKey: id)!.name = "Max" }
        wait(for: fired, toReach: 1)
        spin(until: { dog.name == "Max" })
        XCTAssertTrue(dog.isFrozen)
    }

    func testObservedSectionedResultsGroupAndFollowCommits() throws {
        let realm = try open()
        try realm.write {
            realm.add(QuickDog(value: ["name": "Ace", "breed": "beagle"]))
            realm.add(QuickDog(value: ["name": "Bo", "breed": "collie"]))
        }
        @ObservedSectionedResults(
            QuickDog.self, sectionKeyPath: \.breed,
            sortDescriptors: [SortDescriptor(keyPath: "breed"), SortDescriptor(keyPath: "name")])
        var byBreed
        XCTAssertEqual(byBreed.map(\.key), ["beagle", "collie"])
        writeElsewhere { $0.add(QuickDog(value: ["name": "Cy", "breed": "beagle"])) }
        spin(until: { byBreed.first?.map(\.name) == ["Ace", "Cy"] })
        XCTAssertEqual(byBreed.map(\.key), ["beagle", "collie"])
    }

    func testStateRealmObjectCanBeReplaced() throws {
        let realm = try open()
        let rex = QuickDog(value: ["name": "Rex"])
        try realm.write { realm.add(rex) }
        @StateRealmObject var dog = QuickDog()
        XCTAssertNil(dog.realm)
        dog = rex
        XCTAssertTrue(dog.isFrozen)
        XCTAssertEqual(dog.name, "Rex")
        $dog.name.wrappedValue = "Max"
        realm.refresh()
        XCTAssertEqual(rex.name, "Max")
        spin(until: { dog.name == "Max" })
    }
}

/// Hands a value that is safe to share (a frozen collection) to another thread.
struct UncheckedSendable<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}
