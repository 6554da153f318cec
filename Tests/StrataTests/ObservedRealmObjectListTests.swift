import Foundation
import Observation
@testable import Strata
import XCTest

// `@ObservedRealmObject` of a `List` (RealmSwift: `@ObservedRealmObject var list: List<Dog>`,
// edited through `$list.append`, `$list.remove(atOffsets:)`, `$list.move(...)`) and of an
// `EmbeddedObject`: the wrapped value is frozen, kept current by notifications and observable;
// the `$`-methods write implicitly.

final class ObservedRealmObjectListTests: QuickWriteTestCase {

    private func addPerson(_ realm: Realm, dogs: [String]) throws -> QuickPerson {
        let person = QuickPerson(value: ["firstName": "Ann", "dogs": dogs.map { ["name": $0] }])
        try realm.write { realm.add(person) }
        return person
    }

    func testObservedListAppendsMovesAndRemovesThroughItsBinding() throws {
        let realm = try open()
        let ann = try addPerson(realm, dogs: ["A", "B"])
        @ObservedRealmObject var dogs = ann.dogs
        XCTAssertTrue(dogs.isFrozen)
        XCTAssertEqual(dogs.map(\.name), ["A", "B"])

        $dogs.append(QuickDog(value: ["name": "C"]))
        realm.refresh()
        XCTAssertEqual(ann.dogs.map(\.name), ["A", "B", "C"])
        XCTAssertEqual(realm.objects(QuickDog.self).count, 3, "the appended dog was added to the realm")

        $dogs.move(fromOffsets: IndexSet(integer: 0), toOffset: 3)
        realm.refresh()
        XCTAssertEqual(ann.dogs.map(\.name), ["B", "C", "A"])

        $dogs.remove(atOffsets: IndexSet(integer: 1))
        realm.refresh()
        XCTAssertEqual(ann.dogs.map(\.name), ["B", "A"])

        $dogs.remove(at: 0)
        realm.refresh()
        XCTAssertEqual(ann.dogs.map(\.name), ["A"])
        XCTAssertEqual(realm.objects(QuickDog.self).count, 3, "removing from a list keeps the objects")

        spin(until: { dogs.map(\.name) == ["A"] })
        XCTAssertEqual(dogs.map(\.name), ["A"], "the wrapped list follows the writes")
        XCTAssertEqual(reported.value, [])
    }

    func testObservedListFollowsCommitsOfAnotherThreadAndTellsTrackings() throws {
        let realm = try open()
        let ann = try addPerson(realm, dogs: ["A"])
        let id = ann._id
        @ObservedRealmObject var dogs = ann.dogs
        let fired = track { XCTAssertEqual(dogs.count, 1) }
        writeElsewhere { realm in
            let person = realm.object(ofType: QuickPerson.self, forPrimaryKey: id)!
            person.dogs.append(QuickDog(value: ["name": "B"]))
        }
        wait(for: fired, toReach: 1)
        spin(until: { dogs.count == 2 })
        XCTAssertEqual(dogs.map(\.name), ["A", "B"])
        XCTAssertTrue(dogs.isFrozen)
    }

    func testObservedListReadsAsEmptyOnceItsOwnerIsDeleted() throws {
        let realm = try open()
        let ann = try addPerson(realm, dogs: ["A", "B"])
        @ObservedRealmObject var dogs = ann.dogs
        XCTAssertEqual(dogs.count, 2)
        try realm.write { realm.delete(ann) }
        spin(until: { dogs.realm == nil })
        XCTAssertEqual(dogs.count, 0, "a list whose owner was deleted reads as a new unmanaged list")
        XCTAssertEqual(realm.objects(QuickDog.self).count, 2)
    }

    func testObservedUnmanagedListIsEditedDirectly() {
        let person = QuickPerson()
        @ObservedRealmObject var dogs = person.dogs
        $dogs.append(QuickDog(value: ["name": "A"]))
        $dogs.append(QuickDog(value: ["name": "B"]))
        $dogs.move(fromOffsets: IndexSet(integer: 0), toOffset: 2)
        XCTAssertEqual(person.dogs.map(\.name), ["B", "A"])
        $dogs.remove(atOffsets: IndexSet(integer: 0))
        XCTAssertEqual(dogs.map(\.name), ["A"])
        XCTAssertEqual(reported.value, [])
    }

    func testObservedEmbeddedObjectWritesThroughItsBindingAndFollowsCommits() throws {
        let realm = try open()
        let house = EmbHouse(value: ["owner": "Ann", "address": ["city": "Oslo"]])
        try realm.write { realm.add(house) }
        @ObservedRealmObject var address = house.address!
        XCTAssertTrue(address.isFrozen)
        $address.city.wrappedValue = "Bergen"
        realm.refresh()
        XCTAssertEqual(house.address?.city, "Bergen")
        spin(until: { address.city == "Bergen" })
        try realm.write { house.address!.city = "Lund" }
        spin(until: { address.city == "Lund" })
        XCTAssertEqual(address.city, "Lund")
        XCTAssertEqual(reported.value, [])
    }
}
