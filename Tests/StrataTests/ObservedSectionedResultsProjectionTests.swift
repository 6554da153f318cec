import Foundation
import Observation
@testable import Strata
import XCTest

// `@ObservedSectionedResults` of a `Projection` class (RealmSwift's `init(_:sectionKeyPath:...)`
// and `init(_:sectionBlock:...) where ResultType: Projection<ObjectType>`): the sections hold
// projections, frozen, following commits; a section key path of the projection sorts by the
// projected class's property it reads.

final class ObservedSectionedResultsProjectionTests: ObservationTestCase {
    override func setUp() {
        super.setUp()
        Realm.Configuration.defaultConfiguration = config()
    }

    private func addDogs(_ realm: Realm) throws {
        try realm.write {
            realm.add(Dog(value: ["name": "Rex", "age": 3]))
            realm.add(Dog(value: ["name": "Ace", "age": 1]))
            realm.add(Dog(value: ["name": "Bo", "age": 3]))
        }
    }

    func testSectionKeyPathOfAProjectionGroupsBySortedProjectedProperty() throws {
        let realm = try open()
        try addDogs(realm)
        @ObservedSectionedResults(DogProjection.self, sectionKeyPath: \.years) var byAge
        XCTAssertEqual(byAge.allKeys, [1, 3], "sorted by the projected class's age")
        XCTAssertEqual(byAge[1].map(\.name).sorted(), ["Bo", "Rex"])
        XCTAssertTrue(byAge[0][0].isFrozen)
        writeElsewhere { $0.add(Dog(value: ["name": "Cy", "age": 2])) }
        spin(until: { byAge.allKeys == [1, 2, 3] })
        XCTAssertEqual(byAge.allKeys, [1, 2, 3])
        XCTAssertEqual(byAge[1].map(\.name), ["Cy"])
    }

    func testSectionBlockOfAProjectionWithSortDescriptorsAndFilter() throws {
        let realm = try open()
        try addDogs(realm)
        @ObservedSectionedResults(
            DogProjection.self, sectionBlock: { String($0.name.prefix(1)) },
            sortDescriptors: [SortDescriptor(keyPath: "name")], filter: "age > 1")
        var byInitial
        XCTAssertEqual(byInitial.allKeys, ["B", "R"])
        $byInitial.filter = nil
        XCTAssertEqual(byInitial.allKeys, ["A", "B", "R"])
        XCTAssertEqual(byInitial[0].map(\.years), [1])
    }
}
