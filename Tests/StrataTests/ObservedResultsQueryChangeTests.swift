import Foundation
import Observation
@testable import Strata
import XCTest

// A view changes the query of its `@ObservedResults` / `@ObservedSectionedResults` through the
// wrapper (`$dogs.filter = ...`, `$dogs.where = ...`, `$dogs.sortDescriptor = ...`): the wrapped
// value is the new query's results from then on, and keeps following commits.

final class ObservedResultsQueryChangeTests: ObservationTestCase {
    override func setUp() {
        super.setUp()
        Realm.Configuration.defaultConfiguration = config()
    }

    private func addDogs(_ realm: Realm) throws {
        try realm.write {
            realm.add(QuickDog(value: ["name": "Ace", "breed": "beagle", "weight": 3]))
            realm.add(QuickDog(value: ["name": "Bo", "breed": "collie", "weight": 20]))
            realm.add(QuickDog(value: ["name": "Cy", "breed": "beagle", "weight": 12]))
        }
    }

    func testSettingTheFilterReplacesTheResultsAndTheyKeepFollowingCommits() throws {
        let realm = try open()
        try addDogs(realm)
        @ObservedResults(QuickDog.self, sortDescriptor: SortDescriptor(keyPath: "name")) var dogs
        XCTAssertEqual(dogs.map(\.name), ["Ace", "Bo", "Cy"])
        $dogs.filter = "weight > 10"
        XCTAssertEqual($dogs.filter, "weight > 10")
        XCTAssertEqual(dogs.map(\.name), ["Bo", "Cy"])
        XCTAssertTrue(dogs.isFrozen)
        writeElsewhere { $0.add(QuickDog(value: ["name": "Dot", "weight": 30])) }
        writeElsewhere { $0.add(QuickDog(value: ["name": "Eve", "weight": 1])) }
        spin(until: { dogs.map(\.name) == ["Bo", "Cy", "Dot"] })
        XCTAssertEqual(dogs.map(\.name), ["Bo", "Cy", "Dot"], "the light dog does not match the new filter")
        $dogs.filter = nil
        XCTAssertEqual(dogs.map(\.name), ["Ace", "Bo", "Cy", "Dot", "Eve"])
    }

    func testSettingWhereReplacesAQueryStringFilter() throws {
        let realm = try open()
        try addDogs(realm)
        @ObservedResults(QuickDog.self, filter: "weight > 10", sortDescriptor: SortDescriptor(keyPath: "name")) var dogs
        XCTAssertEqual(dogs.map(\.name), ["Bo", "Cy"])
        $dogs.where = { $0.breed == "beagle" }
        XCTAssertNil($dogs.filter, "the type-safe query replaced the query string")
        XCTAssertNotNil($dogs.where)
        XCTAssertEqual(dogs.map(\.name), ["Ace", "Cy"])
    }

    func testSettingTheSortDescriptorReordersTheResults() throws {
        let realm = try open()
        try addDogs(realm)
        @ObservedResults(QuickDog.self, sortDescriptor: SortDescriptor(keyPath: "name")) var dogs
        $dogs.sortDescriptor = SortDescriptor(keyPath: "weight", ascending: false)
        XCTAssertEqual($dogs.sortDescriptor?.keyPath, "weight")
        XCTAssertEqual(dogs.map(\.name), ["Bo", "Cy", "Ace"])
    }

    func testChangingTheQueryTellsTrackingsThatReadTheResults() throws {
        let realm = try open()
        try addDogs(realm)
        @ObservedResults(QuickDog.self) var dogs
        let fired = track { XCTAssertEqual(dogs.count, 3) }
        $dogs.filter = "breed == 'collie'"
        wait(for: fired, toReach: 1)
        XCTAssertEqual(dogs.map(\.name), ["Bo"])
    }

    func testQuickWritesGoThroughTheChangedQuery() throws {
        let realm = try open()
        try addDogs(realm)
        @ObservedResults(QuickDog.self, sortDescriptor: SortDescriptor(keyPath: "name")) var dogs
        $dogs.filter = "breed == 'beagle'"
        $dogs.remove(atOffsets: IndexSet(integer: 1))
        realm.refresh()
        XCTAssertEqual(
            realm.objects(QuickDog.self).sorted(byKeyPath: "name").map(\.name), ["Ace", "Bo"],
            "Cy, the second beagle, was deleted")
    }

    func testSectionedResultsFollowAChangedFilterAndSortDescriptors() throws {
        let realm = try open()
        try addDogs(realm)
        @ObservedSectionedResults(QuickDog.self, sectionKeyPath: \.breed) var byBreed
        XCTAssertEqual(byBreed.map(\.key), ["beagle", "collie"])
        $byBreed.filter = "weight > 10"
        XCTAssertEqual(byBreed.map(\.key), ["beagle", "collie"])
        XCTAssertEqual(byBreed.map { $0.map(\.name) }, [["Cy"], ["Bo"]])
        $byBreed.where = { $0.breed == "beagle" }
        XCTAssertNil($byBreed.filter)
        XCTAssertEqual(byBreed.map { $0.map(\.name) }.map(Set.init), [["Ace", "Cy"]])
        $byBreed.sortDescriptors = [
            SortDescriptor(keyPath: "breed"), SortDescriptor(keyPath: "weight", ascending: false),
        ]
        XCTAssertEqual(byBreed.map { $0.map(\.name) }, [["Cy", "Ace"]])
        writeElsewhere { $0.add(QuickDog(value: ["name": "Dot", "breed": "beagle", "weight": 7])) }
        spin(until: { byBreed.first?.map(\.name) == ["Cy", "Dot", "Ace"] })
    }
}
