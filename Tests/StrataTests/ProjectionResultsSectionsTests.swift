import Foundation
import Strata
import StrataTestSupport
import XCTest

/// `Results` of a projection class sectioned with RealmSwift's `sectioned(sortDescriptors:_:)`:
/// the projections sorted by the projected class's properties and grouped by the block's key,
/// live as the objects change, frozen and thawed, observed; the same call on `Results` of objects.
final class ProjectionResultsSectionsTests: SeedTestCase {
    private func addPeople(_ realm: Realm, _ names: [String]) throws {
        try realm.write {
            for (i, name) in names.enumerated() { realm.add(Person(value: ["id": i + 1, "name": name])) }
        }
    }

    /// The sections as `key: [names]`, in order.
    private func layout(_ sections: SectionedResults<String, PersonProjection>) -> [String] {
        sections.map { "\($0.key): \($0.map(\.displayName).joined(separator: ","))" }
    }

    func testProjectionResultsAreSectionedByABlockAfterSorting() throws {
        let realm = try open()
        try addPeople(realm, ["Bob", "Ann", "Cid", "Amy", "Bea"])
        let people = realm.objects(PersonProjection.self)
        let sections = people.sectioned(sortDescriptors: [SortDescriptor(keyPath: "name")]) {
            String($0.displayName.prefix(1))
        }
        XCTAssertEqual(layout(sections), ["A: Amy,Ann", "B: Bea,Bob", "C: Cid"])
        XCTAssertEqual(sections.allKeys, ["A", "B", "C"])
        XCTAssertEqual(sections[IndexPath(item: 1, section: 1)].displayName, "Bob")
        XCTAssertEqual(sections[2][0].rootObject.id, 3, "each element projects the object at that position")

        let descending = people.where { $0.id > 1 }.sectioned(
            sortDescriptors: [SortDescriptor(keyPath: "name", ascending: false)]
        ) { String($0.displayName.prefix(1)) }
        XCTAssertEqual(layout(descending), ["C: Cid", "B: Bea", "A: Ann,Amy"])

        // Live: a new object and a rename move between sections.
        try realm.write {
            realm.add(Person(value: ["id": 9, "name": "Dan"]))
            realm.object(ofType: Person.self, forPrimaryKey: 3)!.name = "Abe"
        }
        XCTAssertEqual(layout(sections), ["A: Abe,Amy,Ann", "B: Bea,Bob", "D: Dan"])

        // Frozen sections keep the snapshot; thawed ones follow the realm again.
        let frozen = sections.freeze()
        XCTAssertTrue(frozen.isFrozen)
        try realm.write { realm.delete(realm.object(ofType: Person.self, forPrimaryKey: 9)!) }
        XCTAssertEqual(layout(frozen), ["A: Abe,Amy,Ann", "B: Bea,Bob", "D: Dan"])
        XCTAssertEqual(layout(try XCTUnwrap(frozen.thaw())), ["A: Abe,Amy,Ann", "B: Bea,Bob"])
    }

    func testProjectionSectionsReportChangesAsIndexPaths() throws {
        let realm = try open()
        try addPeople(realm, ["Bob", "Ann"])
        let sections = realm.objects(PersonProjection.self).sectioned(
            sortDescriptors: [SortDescriptor(keyPath: "name")]
        ) { String($0.displayName.prefix(1)) }
        var initial: [String]?
        var update: (keys: [String], insertions: [IndexPath], sectionsToInsert: IndexSet)?
        let token = sections.observe { change in
            switch change {
            case .initial(let s): initial = s.allKeys
            case .update(let s, _, let insertions, _, let sectionsToInsert, _):
                update = (s.allKeys, insertions, sectionsToInsert)
            }
        }
        defer { token.invalidate() }
        let deadline = Date(timeIntervalSinceNow: 20)
        func spin(until condition: () -> Bool) {
            while !condition(), Date() < deadline {
                _ = RunLoop.current.run(mode: .default, before: Date(timeIntervalSinceNow: 0.005))
            }
        }
        spin(until: { initial != nil })
        XCTAssertEqual(initial, ["A", "B"])
        try realm.write { realm.add(Person(value: ["id": 3, "name": "Cid"])) }
        spin(until: { update != nil })
        XCTAssertEqual(update?.keys, ["A", "B", "C"])
        XCTAssertEqual(update?.insertions, [IndexPath(item: 0, section: 2)])
        XCTAssertEqual(update?.sectionsToInsert, IndexSet([2]))
    }

    func testSectioningProjectionResultsWithoutASortDescriptorIsReported() throws {
        let realm = try open()
        try addPeople(realm, ["Bob", "Ann"])
        let sections = realm.objects(PersonProjection.self).sectioned(sortDescriptors: []) {
            String($0.displayName.prefix(1))
        }
        XCTAssertEqual(takeViolations(), ["There must be at least one SortDescriptor when using SectionedResults."])
        XCTAssertEqual(layout(sections), ["B: Bob", "A: Ann"], "sectioned in the results' own order")
    }

    func testObjectResultsTakeTheSameSectioningCall() throws {
        let realm = try open()
        try addPeople(realm, ["Bob", "Ann", "Bea"])
        let sections = realm.objects(Person.self).sectioned(sortDescriptors: [SortDescriptor(keyPath: "name")]) {
            String($0.name.prefix(1))
        }
        XCTAssertEqual(sections.map { $0.map(\.name) }, [["Ann"], ["Bea", "Bob"]])
    }
}
