import Foundation
import Strata
import XCTest

/// `freeze()`, `thaw()` and `isFrozen` on `List`, `MutableSet`, `Map` and `LinkingObjects`
/// frozen collections keep the version they were frozen at, are readable from other
/// threads, refuse writes, and thaw to the live collection (nil once the owner is deleted).
final class FrozenCollectionTests: SeedTestCase {
    func seed(_ realm: Realm) throws -> (Person, Item) {
        var person: Person!
        var item: Item!
        try realm.write {
            person = realm.create(
                Person.self, value: ["id": 1, "name": "Ann", "dogs": [["name": "Rex"], ["name": "Fido"]]])
            item = realm.create(
                Item.self, value: ["_id": ObjectId.generate(), "title": "t", "tags": ["a", "b"], "labels": ["k": "v"]])
        }
        return (person, item)
    }

    func testFrozenCollectionsKeepTheirVersionAndAreReadableFromAnotherThread() throws {
        let realm = try open()
        let (person, item) = try seed(realm)
        let dogs = person.dogs.freeze()
        let tags = item.tags.freeze()
        let labels = item.labels.freeze()
        let owners = person.dogs[0].owners.freeze()
        XCTAssertTrue(dogs.isFrozen && tags.isFrozen && labels.isFrozen && owners.isFrozen)
        XCTAssertFalse(
            person.dogs.isFrozen || item.tags.isFrozen || item.labels.isFrozen || person.dogs[0].owners.isFrozen)
        // Later commits do not reach the frozen copies.
        try realm.write {
            person.dogs.append(Dog(value: ["name": "Third"]))
            item.tags.insert("c")
            item.labels["k2"] = "v2"
            realm.create(Person.self, value: ["id": 2, "name": "Bob", "dogs": [person.dogs[0]]])
        }
        let box = Unchecked((dogs, tags, labels, owners))
        let seen = onNewThread { () -> [String] in
            let (d, t, l, o) = box.value
            return [
                d.map(\.name).joined(separator: ","), t.sorted().joined(separator: ","),
                l.map { "\($0.key)=\($0.value)" }.sorted().joined(separator: ","), o.map(\.name).joined(separator: ","),
            ]
        }
        XCTAssertEqual(seen, ["Rex,Fido", "a,b", "k=v", "Ann"])
        XCTAssertEqual(person.dogs.count, 3)
        XCTAssertEqual(person.dogs[0].owners.count, 2)
    }

    func testFrozenCollectionsRefuseWritesAndThawToTheLiveOnes() throws {
        let realm = try open()
        let (person, item) = try seed(realm)
        let frozenDogs = person.dogs.freeze()
        try realm.write { frozenDogs.append(Dog(value: ["name": "Nope"])) }
        XCTAssertEqual(
            takeViolations(), ["Attempting to modify a frozen object - call thaw on the Object instance first."])
        let live = try XCTUnwrap(frozenDogs.thaw())
        XCTAssertFalse(live.isFrozen)
        try realm.write { live.append(Dog(value: ["name": "Yes"])) }
        XCTAssertEqual(person.dogs.map(\.name), ["Rex", "Fido", "Yes"])
        XCTAssertEqual(frozenDogs.map(\.name), ["Rex", "Fido"])
        XCTAssertEqual(try XCTUnwrap(item.tags.freeze().thaw()).count, 2)
        XCTAssertEqual(try XCTUnwrap(item.labels.freeze().thaw())["k"], "v")
        XCTAssertEqual(try XCTUnwrap(person.dogs[0].owners.freeze().thaw()).map(\.name), ["Ann"])
    }

    func testThawAfterTheOwnerWasDeletedIsNil() throws {
        let realm = try open()
        let (person, item) = try seed(realm)
        let frozenDogs = person.dogs.freeze()
        let frozenTags = item.tags.freeze()
        try realm.write {
            realm.delete(person)
            realm.delete(item)
        }
        XCTAssertNil(frozenDogs.thaw())
        XCTAssertNil(frozenTags.thaw())
        XCTAssertEqual(frozenDogs.map(\.name), ["Rex", "Fido"], "the frozen copy still reads its version")
    }

    func testThreadSafeReferencesToCollectionsResolveOnAnotherThread() throws {
        let realm = try open()
        let (person, item) = try seed(realm)
        let dogsRef = ThreadSafeReference(to: person.dogs)
        let tagsRef = ThreadSafeReference(to: item.tags)
        let labelsRef = ThreadSafeReference(to: item.labels)
        let ownersRef = ThreadSafeReference(to: person.dogs[0].owners)
        let path = url()
        let seen = onNewThread { () -> [String] in
            let other = try! Realm(configuration: Realm.Configuration(fileURL: path))
            guard let dogs = other.resolve(dogsRef), let tags = other.resolve(tagsRef),
                let labels = other.resolve(labelsRef), let owners = other.resolve(ownersRef)
            else { return ["unresolved"] }
            try! other.write { dogs.append(Dog(value: ["name": "FromThread"])) }
            return [
                dogs.map(\.name).joined(separator: ","), tags.sorted().joined(separator: ","), labels["k"] ?? "-",
                owners.map(\.name).joined(separator: ","), other.resolve(dogsRef) == nil ? "once" : "twice",
            ]
        }
        XCTAssertEqual(seen, ["Rex,Fido,FromThread", "a,b", "v", "Ann", "once"])
        XCTAssertEqual(takeViolations(), ["Can only resolve a thread safe reference once."])
        realm.refresh()
        XCTAssertEqual(person.dogs.map(\.name), ["Rex", "Fido", "FromThread"])
        // A reference to a collection of a deleted object resolves to nil.
        let ref = ThreadSafeReference(to: item.tags)
        try realm.write { realm.delete(item) }
        let resolved = onNewThread { () -> Bool in
            let other = try! Realm(configuration: Realm.Configuration(fileURL: path))
            return other.resolve(ref) != nil
        }
        XCTAssertFalse(resolved)
    }

    func testUnmanagedCollectionsCannotBeFrozen() {
        let list = List<Int>()
        XCTAssertFalse(list.freeze().isFrozen)
        XCTAssertEqual(takeViolations(), ["Unmanaged lists cannot be frozen. Add the owning object to a realm first."])
        XCTAssertTrue(list.thaw() === list)
    }
}
