import Foundation
import Observation
@testable import Strata
import XCTest

// `@ObservedResults(SomeProjection.self, ...)` (RealmSwift's `init(_:configuration:filter:
// keyPaths:sortDescriptor:) where ResultType: Projection<ObjectType>`): the wrapped value holds
// the projections of the projected class's objects, frozen, kept current by commits; its filter
// and sort descriptor name the projected class's properties.

final class ObservedResultsProjectionTests: ObservationTestCase {
    override func setUp() {
        super.setUp()
        Realm.Configuration.defaultConfiguration = config()
    }

    private func addDogs(_ realm: Realm) throws {
        try realm.write {
            realm.add(Dog(value: ["name": "Rex", "age": 3]))
            realm.add(Dog(value: ["name": "Ace", "age": 9]))
            realm.add(Dog(value: ["name": "Bo", "age": 1]))
        }
    }

    func testProjectionResultsAreFrozenProjectionsThatFollowCommits() throws {
        let realm = try open()
        try addDogs(realm)
        @ObservedResults(DogProjection.self, filter: "age > 2", sortDescriptor: SortDescriptor(keyPath: "name"))
        var dogs
        let projections: Results<DogProjection> = dogs
        XCTAssertTrue(projections.isFrozen)
        XCTAssertEqual(dogs.map(\.name), ["Ace", "Rex"])
        XCTAssertEqual(dogs.map(\.years), [9, 3], "the renamed property reads the projected object's age")
        let fired = track { XCTAssertEqual(dogs.count, 2) }
        writeElsewhere { $0.add(Dog(value: ["name": "Cy", "age": 4])) }
        writeElsewhere { $0.add(Dog(value: ["name": "Dot", "age": 2])) }
        spin(until: { dogs.map(\.name) == ["Ace", "Cy", "Rex"] })
        XCTAssertEqual(dogs.map(\.name), ["Ace", "Cy", "Rex"], "the two-year-old does not match the filter")
        XCTAssertGreaterThanOrEqual(fired.value, 1, "the tracking that read the results was told")
        XCTAssertTrue(dogs.isFrozen)
    }

    func testSettingTheFilterAndSortOfProjectionResults() throws {
        let realm = try open()
        try addDogs(realm)
        @ObservedResults(DogProjection.self) var dogs
        XCTAssertEqual(Set(dogs.map(\.name)), ["Rex", "Ace", "Bo"])
        $dogs.sortDescriptor = SortDescriptor(keyPath: "age", ascending: false)
        XCTAssertEqual(dogs.map(\.name), ["Ace", "Rex", "Bo"])
        $dogs.filter = "age < 5"
        XCTAssertEqual($dogs.filter, "age < 5")
        XCTAssertEqual(dogs.map(\.years), [3, 1])
        try realm.write { realm.objects(Dog.self).filter("name == 'Bo'").first!.age = 4 }
        spin(until: { dogs.map(\.years) == [4, 3] })
        XCTAssertEqual(dogs.map(\.name), ["Bo", "Rex"], "the order follows the changed age")
    }
}
