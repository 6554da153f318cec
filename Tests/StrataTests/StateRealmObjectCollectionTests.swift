import Foundation
import Observation
@testable import Strata
import XCTest

// `@StateRealmObject` of a `List`, a `MutableSet` and a `Map` (RealmSwift's inits for these
// collections): the wrapped value is frozen and kept current; `$` is a binding whose collection
// methods (`append`, `insert`, `set(object:for:)`) write implicitly.

final class StateRealmObjectCollectionTests: QuickWriteTestCase {
    private func addDog(_ realm: Realm) throws -> QuickDog {
        let dog = QuickDog(value: ["name": "Rex", "tags": ["good"], "vetNotes": ["2023": "ok"]])
        let person = QuickPerson(value: ["firstName": "Ann", "dogs": [dog]])
        try realm.write { realm.add(person) }
        return dog
    }

    func testStateListAppendsThroughItsBindingAndFollowsCommits() throws {
        let realm = try open()
        _ = try addDog(realm)
        let ann = realm.objects(QuickPerson.self).first!
        let id = ann._id
        @StateRealmObject var dogs = ann.dogs
        XCTAssertTrue(dogs.isFrozen)
        XCTAssertEqual(dogs.map(\.name), ["Rex"])
        $dogs.append(QuickDog(value: ["name": "Bo"]))
        realm.refresh()
        XCTAssertEqual(ann.dogs.map(\.name), ["Rex", "Bo"])
        let fired = track { _ = dogs.count }
        writeElsewhere { $0.object(ofType: QuickPerson.self, forPrimaryKey: id)!.dogs.remove(at: 0) }
        wait(for: fired, toReach: 1)
        spin(until: { dogs.map(\.name) == ["Bo"] })
        XCTAssertEqual(reported.value, [])
    }

    func testStateSetInsertsAndRemovesThroughItsBinding() throws {
        let realm = try open()
        let rex = try addDog(realm)
        @StateRealmObject var tags = rex.tags
        XCTAssertTrue(tags.isFrozen)
        $tags.insert("calm")
        $tags.remove("good")
        realm.refresh()
        XCTAssertEqual(Set(rex.tags), ["calm"])
        spin(until: { Set(tags) == ["calm"] })
        XCTAssertEqual(reported.value, [])
    }

    func testStateMapSetsAndRemovesKeysThroughItsBinding() throws {
        let realm = try open()
        let rex = try addDog(realm)
        @StateRealmObject var notes = rex.vetNotes
        XCTAssertTrue(notes.isFrozen)
        XCTAssertEqual($notes["2023"], "ok")
        $notes.set(object: "healthy", for: "2024")
        $notes.set(object: nil, for: "2023")
        realm.refresh()
        XCTAssertEqual(rex.vetNotes["2024"], "healthy")
        XCTAssertNil(rex.vetNotes["2023"])
        spin(until: { notes["2024"] == "healthy" && notes["2023"] == nil })
        XCTAssertEqual(reported.value, [])
    }

    func testStateListIsEmptyAndUnmanagedOnceItsOwnerIsDeleted() throws {
        let realm = try open()
        _ = try addDog(realm)
        let ann = realm.objects(QuickPerson.self).first!
        @StateRealmObject var dogs = ann.dogs
        try realm.write { realm.delete(ann) }
        spin(until: { dogs.realm == nil })
        XCTAssertEqual(dogs.count, 0)
    }

    func testStateListCanBeReplacedByAnotherList() throws {
        let realm = try open()
        _ = try addDog(realm)
        let ann = realm.objects(QuickPerson.self).first!
        let bob = QuickPerson(value: ["firstName": "Bob", "dogs": [["name": "Max"], ["name": "Zed"]]])
        try realm.write { realm.add(bob) }
        @StateRealmObject var dogs = ann.dogs
        XCTAssertEqual(dogs.map(\.name), ["Rex"])
        dogs = bob.dogs
        XCTAssertEqual(dogs.map(\.name), ["Max", "Zed"])
        $dogs.remove(atOffsets: IndexSet(integer: 0))
        realm.refresh()
        XCTAssertEqual(bob.dogs.map(\.name), ["Zed"])
        XCTAssertEqual(ann.dogs.map(\.name), ["Rex"])
    }

    func testUnmanagedStateListIsWrittenDirectly() throws {
        @StateRealmObject var dogs = List<QuickDog>()
        $dogs.append(QuickDog(value: ["name": "Rex"]))
        XCTAssertEqual(dogs.map(\.name), ["Rex"])
        XCTAssertNil(dogs.realm)
    }
}
