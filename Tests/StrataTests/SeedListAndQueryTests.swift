import Foundation
import Strata
import XCTest

// Seed tests that need features being built on other branches:
// - SeedListMutationTests: managed List mutation (`person.dogs.append`, `remove`, ...).
// - SeedQueryTests: the query engine (`filter`, `where`, `sorted`, `distinct`).
// On main these fail until those branches are merged (main's managed `List` is a detached
// copy, and main's StoreQuery returns every object, unsorted).

/// Depends on managed List mutation.
final class SeedListMutationTests: SeedTestCase {
    /// Seed 002 ("Use Create to Copy an Object Into the Realm"), without freeze/thaw: create the
    /// dog with `update: .modified`, copying a toy managed by another realm, then append it to
    /// the person's `dogs`.
    func testSeed002CreateThenAppendToPersonDogs() throws {
        let toyId = ObjectId.generate()
        let personId = ObjectId.generate()
        do {
            let toysRealm = try open("toys.realm")
            let wubba = SeedDoggoToy(value: ["_id": toyId, "name": "Wubba"])
            try toysRealm.write { toysRealm.add(wubba) }

            let realm = try open("dogs.realm")
            let person = SeedDoggoPerson(value: ["_id": personId, "firstName": "Dachary"])
            try realm.write { realm.add(person) }
            // (The seed writes `try!`; `try` here, so a failure fails this test instead of
            // stopping the test process.)
            try realm.write {
                // Use the .create method with `update: .modified` to copy the
                // existing object into the realm
                let dog = realm.create(
                    SeedDoggoDog.self,
                    value: [
                        "name": "Maui",
                        "favoriteToy": wubba,
                    ],
                    update: .modified)
                person.dogs.append(dog)
            }
            XCTAssertEqual(person.dogs.count, 1)
            XCTAssertEqual(person.dogs.first?.name, "Maui")
        }
        let realm = try open("dogs.realm")
        let person = try XCTUnwrap(realm.object(ofType: SeedDoggoPerson.self, forPrimaryKey: personId))
        XCTAssertEqual(person.dogs.map(\.name), ["Maui"])
        XCTAssertEqual(person.dogs.first?.favoriteToy?._id, toyId)
        XCTAssertEqual(person.dogs.first?.favoriteToy?.name, "Wubba")
    }

    /// Seed 004 ("Create Objects in the Background"), made synchronous: `write` instead of
    /// `writeAsync`, the assertions of its `onComplete` after the write. Also needs `where`
    /// (query engine) for `benDogs`.
    func testSeed004AppendDogsToAPersonsList() throws {
        let realm = try open()
        try realm.write {
            realm.add(Person(value: ["id": 1, "name": "Dachary"]))
            realm.add(Person(value: ["id": 2, "name": "Someone else"]))
        }
        // Query for a specific person object on the main thread
        let people = realm.objects(Person.self)
        let thisPerson = people.where { $0.name == "Dachary" }.first
        XCTAssertEqual(thisPerson?.id, 1)
        try realm.write {
            thisPerson?.dogs.append(objectsIn: [
                Dog(value: ["name": "Ben", "age": 13]),
                Dog(value: ["name": "Lita", "age": 9]),
                Dog(value: ["name": "Maui", "age": 1]),
            ])
        }
        // Confirm the three dogs were successfully added to the person's dogs list
        XCTAssertEqual(thisPerson!.dogs.count, 3)
        // Query for one of the dogs we added and see that it is present
        let dogs = realm.objects(Dog.self)
        let benDogs = dogs.where { $0.name == "Ben" }
        XCTAssertEqual(benDogs.count, 1)
    }

    /// Append (managed and unmanaged objects), insert, remove, move; read back after reopening.
    func testManagedListMutationPersists() throws {
        do {
            let realm = try open()
            let person = SeedPerson(value: ["id": 1, "name": "Ann"])
            let rex = SeedDog(value: ["name": "Rex", "age": 1])
            try realm.write {
                realm.add([person]); realm.add(rex)
            }
            try realm.write {
                person.dogs.append(rex)  // managed
                person.dogs.append(SeedDog(value: ["name": "Spot", "age": 2]))  // unmanaged: added
                person.dogs.insert(SeedDog(value: ["name": "First", "age": 0]), at: 0)
            }
            XCTAssertEqual(person.dogs.map(\.name), ["First", "Rex", "Spot"])
            XCTAssertEqual(realm.objects(SeedDog.self).count, 3)
            guard person.dogs.count == 3 else { return }  // (no crash on remove/move below)
            try realm.write {
                person.dogs.remove(at: 0)
                person.dogs.move(from: 1, to: 0)
            }
            XCTAssertEqual(person.dogs.map(\.name), ["Spot", "Rex"])
            XCTAssertEqual(realm.objects(SeedDog.self).count, 3, "removing from a list does not delete the object")
        }
        let realm = try open()
        XCTAssertEqual(realm.object(ofType: SeedPerson.self, forPrimaryKey: 1)?.dogs.map(\.name), ["Spot", "Rex"])
    }

    /// A rolled-back list change leaves the list as it was.
    func testRolledBackListChange() throws {
        let realm = try open()
        let person = SeedPerson(value: ["id": 1, "name": "Ann", "dogs": [["Rex", 1]]])
        try realm.write { realm.add(person) }
        XCTAssertThrowsError(
            try realm.write {
                person.dogs.append(SeedDog(value: ["name": "Ghost", "age": 9]))
                person.dogs.remove(at: 0)
                throw SeedAbort()
            })
        XCTAssertEqual(person.dogs.map(\.name), ["Rex"])
        XCTAssertEqual(realm.objects(SeedDog.self).count, 1)
    }

    /// Mutating a managed list outside a write is a violation, and changes nothing.
    func testListMutationOutsideAWriteIsAViolation() throws {
        let realm = try open()
        let person = SeedPerson(value: ["id": 1, "name": "Ann"])
        try realm.write { realm.add(person) }
        person.dogs.append(SeedDog(value: ["name": "Rex", "age": 1]))
        XCTAssertEqual(takeViolations(), ["Cannot modify managed objects outside of a write transaction."])
        XCTAssertEqual(person.dogs.count, 0)
        XCTAssertEqual(realm.objects(SeedDog.self).count, 0)
    }
}

/// Depends on the query engine.
final class SeedQueryTests: SeedTestCase {
    private func populate(_ realm: Realm) throws {
        try realm.write {
            realm.add([
                Dog(value: ["name": "Rex", "age": 10, "breed": "Collie"]),
                Dog(value: ["name": "Fido", "age": 5, "breed": "Beagle"]),
                Dog(value: ["name": "Buster", "age": 1, "breed": "Beagle"]),
                Dog(value: ["name": "Ben", "age": 13]),
            ])
        }
    }

    func testFilterWithTheQueryLanguage() throws {
        do { try populate(try open()) }
        let realm = try open()
        let dogs = realm.objects(Dog.self)
        XCTAssertEqual(Set(dogs.filter("age > %@", 4).map(\.name)), ["Rex", "Fido", "Ben"])
        XCTAssertEqual(dogs.filter("name BEGINSWITH %@", "B").count, 2)
        XCTAssertEqual(dogs.filter("breed == nil").map(\.name), ["Ben"])
        XCTAssertEqual(dogs.filter("age > 4 AND breed == 'Beagle'").map(\.name), ["Fido"])
    }

    func testWhereTypeSafeQuery() throws {
        let realm = try open()
        try populate(realm)
        let puppies = realm.objects(Dog.self).where { $0.age < 2 }
        XCTAssertEqual(puppies.map(\.name), ["Buster"])
        let bs = realm.objects(Dog.self).where { $0.name.starts(with: "B") && $0.age > 3 }
        XCTAssertEqual(bs.map(\.name), ["Ben"])
        // Live: a new matching dog shows up in the same Results.
        try realm.write { realm.add(Dog(value: ["name": "Tiny", "age": 0])) }
        XCTAssertEqual(Set(puppies.map(\.name)), ["Buster", "Tiny"])
    }

    /// Int64 arguments stay integers: 2^53 + 1 has no Double, and once compared as one it matched
    /// 2^53 instead (on Linux an Int64 also casts to NSNumber, which was read as a Double).
    func testInt64QueryArgumentsCompareExactly() throws {
        let realm = try open()
        let big: Int64 = 9_007_199_254_740_993
        try realm.write {
            realm.add(Counter(value: ["total": big]))
            realm.add(Counter(value: ["total": big - 1]))
        }
        let counters = realm.objects(Counter.self)
        XCTAssertEqual(counters.where { $0.total == big }.map(\.total), [big])
        XCTAssertEqual(counters.filter("total == %@", big).map(\.total), [big])
        XCTAssertEqual(counters.where { $0.total > big - 1 }.map(\.total), [big])
        XCTAssertEqual(counters.filter("total < %@", big).map(\.total), [big - 1])
    }

    func testSortedAndDistinct() throws {
        let realm = try open()
        try populate(realm)
        XCTAssertEqual(realm.objects(Dog.self).sorted(byKeyPath: "age").map(\.name), ["Buster", "Fido", "Rex", "Ben"])
        XCTAssertEqual(
            realm.objects(Dog.self).sorted(byKeyPath: "name", ascending: false).map(\.name),
            ["Rex", "Fido", "Buster", "Ben"])
        XCTAssertEqual(realm.objects(Dog.self).sorted(byKeyPath: "name").distinct(by: ["breed"]).count, 3)
    }

    /// Seed 002's query shape on a list (`employees.where { ... }`) cannot be written: `List`
    /// has no `where` on main. The same lookup on Results by link: dogs whose owner is Ann.
    func testQueryThroughALink() throws {
        let realm = try open()
        try realm.write {
            realm.add(Person(value: ["id": 1, "name": "Ann", "dogs": [["Rex", 3, nil, nil]]]))
            realm.add(Person(value: ["id": 2, "name": "Bob", "dogs": [["Max", 4, nil, nil]]]))
        }
        let annsDogs = realm.objects(Dog.self).filter("ANY owners.name == %@", "Ann")
        XCTAssertEqual(annsDogs.map(\.name), ["Rex"])
        let withDogs = realm.objects(Person.self).where { $0.dogs.name == "Max" }
        XCTAssertEqual(withDogs.map(\.id), [2])
    }
}
