import Foundation
@testable import Strata
import XCTest

// `$sections.remove(atOffsets:section:)` of `@ObservedSectionedResults`: deletes the rows of one
// section in a quick write, as SwiftUI's `onDelete` of a section does.

final class ObservedSectionedResultsRemoveTests: ObservationTestCase {
    override func setUp() {
        super.setUp()
        Realm.Configuration.defaultConfiguration = config()
    }

    func testRemoveAtOffsetsOfASectionDeletesThoseObjectsOnly() throws {
        let realm = try open()
        try realm.write {
            for (name, breed) in [("Ace", "beagle"), ("Bo", "beagle"), ("Cy", "collie"), ("Di", "collie")] {
                realm.add(QuickDog(value: ["name": name, "breed": breed]))
            }
        }
        @ObservedSectionedResults(
            QuickDog.self, sectionKeyPath: \.breed,
            sortDescriptors: [SortDescriptor(keyPath: "breed"), SortDescriptor(keyPath: "name")])
        var byBreed
        XCTAssertEqual(byBreed.map(\.key), ["beagle", "collie"])
        $byBreed.remove(atOffsets: IndexSet([1, 7]), section: byBreed[1])
        realm.refresh()
        XCTAssertEqual(realm.objects(QuickDog.self).map(\.name).sorted(), ["Ace", "Bo", "Cy"])
        spin(until: { byBreed.count == 2 && byBreed[1].map(\.name) == ["Cy"] })
        XCTAssertEqual(byBreed[0].map(\.name), ["Ace", "Bo"])
        $byBreed.remove(atOffsets: IndexSet(integer: 0), section: byBreed[1])
        realm.refresh()
        XCTAssertEqual(realm.objects(QuickDog.self).map(\.name).sorted(), ["Ace", "Bo"])
        spin(until: { byBreed.map(\.key) == ["beagle"] })
    }
}
