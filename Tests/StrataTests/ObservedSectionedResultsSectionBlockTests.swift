import Foundation
import Observation
@testable import Strata
import XCTest

// `@ObservedSectionedResults(Dog.self, sectionBlock:, sortDescriptors:)`: sections keyed by what
// a closure computes from each object, kept current as the key-path form is.

final class ObservedSectionedResultsSectionBlockTests: QuickWriteTestCase {
    override func setUp() {
        super.setUp()
        Realm.Configuration.defaultConfiguration = config()
    }

    func testSectionBlockGroupsByTheComputedKeyAndFollowsCommits() throws {
        let realm = try open()
        try realm.write {
            for name in ["Bella", "Ace", "Bo", "Cy"] { realm.add(QuickDog(value: ["name": name])) }
        }
        @ObservedSectionedResults(
            QuickDog.self, sectionBlock: { String($0.name.prefix(1)) },
            sortDescriptors: [SortDescriptor(keyPath: "name")])
        var byInitial
        XCTAssertEqual(byInitial.map(\.key), ["A", "B", "C"])
        XCTAssertEqual(byInitial.map { $0.map(\.name) }, [["Ace"], ["Bella", "Bo"], ["Cy"]])
        let fired = track { _ = byInitial.count }
        writeElsewhere { $0.add(QuickDog(value: ["name": "Dot"])) }
        wait(for: fired, toReach: 1)
        spin(until: { byInitial.map(\.key) == ["A", "B", "C", "D"] })
        XCTAssertTrue(byInitial.isFrozen)
    }

    func testSectionBlockWithAFilterAndAWhereQuery() throws {
        let realm = try open()
        try realm.write {
            realm.add(QuickDog(value: ["name": "Ace", "weight": 3]))
            realm.add(QuickDog(value: ["name": "Bo", "weight": 20]))
            realm.add(QuickDog(value: ["name": "Bella", "weight": 15]))
        }
        @ObservedSectionedResults(
            QuickDog.self, sectionBlock: { $0.weight > 10 ? "big" : "small" },
            sortDescriptors: [SortDescriptor(keyPath: "weight", ascending: false)], filter: "name BEGINSWITH 'B'")
        var bySize
        XCTAssertEqual(bySize.map(\.key), ["big"])
        XCTAssertEqual(bySize.first?.map(\.name), ["Bo", "Bella"])
        @ObservedSectionedResults(
            QuickDog.self, sectionBlock: { $0.weight > 10 ? "big" : "small" },
            sortDescriptors: [SortDescriptor(keyPath: "weight")], where: { $0.weight < 16 })
        var light
        XCTAssertEqual(light.map(\.key), ["small", "big"])
    }

    func testRemovingFromASectionOfSectionBlockResultsDeletesTheObject() throws {
        let realm = try open()
        try realm.write {
            for name in ["Ace", "Bo", "Bella"] { realm.add(QuickDog(value: ["name": name])) }
        }
        @ObservedSectionedResults(
            QuickDog.self, sectionBlock: { String($0.name.prefix(1)) },
            sortDescriptors: [SortDescriptor(keyPath: "name")])
        var byInitial
        $byInitial.remove(atOffsets: IndexSet(integer: 0), section: byInitial[1])
        realm.refresh()
        XCTAssertEqual(realm.objects(QuickDog.self).sorted(byKeyPath: "name").map(\.name), ["Ace", "Bo"])
        XCTAssertEqual(reported.value, [])
    }
}
