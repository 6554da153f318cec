import Foundation
import Strata
import XCTest

/// Create, read, update, delete through the Realm API, each read back (also after reopening
/// the file): seeds 001/004 and the rules around them.
final class SeedCRUDTests: SeedTestCase {
    // MARK: Seed 004, "Create One Object"

    /// Seed 004's Swift snippet (with `Realm(configuration:)` on a temporary file, and the
    /// test target's `Dog`, whose `age` is the seed's).
    func testSeed004CreateOneObject() throws {
        Realm.Configuration.defaultConfiguration = config()
        do {
            // Instantiate the class and set its values.
            let dog = Dog()
            dog.name = "Rex"
            dog.age = 10
            // Get the default realm. You only need to do this once per thread.
            let realm = try! Realm()
            // Open a thread-safe transaction.
            try! realm.write {
                // Add the instance to the realm.
                realm.add(dog)
            }
            XCTAssertTrue(dog.realm == realm, "the added instance becomes managed by the realm")
            XCTAssertFalse(dog.isInvalidated)
            XCTAssertEqual(dog.name, "Rex")
            XCTAssertEqual(dog.age, 10)
            XCTAssertEqual(realm.objects(Dog.self).count, 1)
        }
        let realm = try open()
        let dogs = realm.objects(Dog.self)
        XCTAssertEqual(dogs.count, 1)
        XCTAssertEqual(dogs.first?.name, "Rex")
        XCTAssertEqual(dogs.first?.age, 10)
        XCTAssertNil(dogs.first?.breed)
        XCTAssertNil(dogs.first?.favoriteToy)
    }

    /// "Create Multiple Objects": `add` takes a sequence.
    func testAddASequenceOfObjects() throws {
        do {
            let realm = try open()
            try realm.write {
                realm.add([
                    SeedDog(value: ["name": "A", "age": 1]), SeedDog(value: ["name": "B", "age": 2]),
                    SeedDog(value: ["name": "C", "age": 3]),
                ])
            }
        }
        let realm = try open()
        XCTAssertEqual(realm.objects(SeedDog.self).map(\.name).sorted(), ["A", "B", "C"])
    }

    // MARK: Seed 004, "Create or Update an Object (Upsert)"

    /// Seed 004's `add(_:update: .modified)` snippet: Jones becomes Bowie, one object.
    func testSeed004UpsertJonesToBowie() throws {
        do {
            let realm = try open()
            try! realm.write {
                let person1 = Person(value: ["id": 1234, "name": "Jones"])
                // Add a new person to the realm. Since nobody with ID 1234
                // has been added yet, this adds the instance to the realm.
                realm.add(person1, update: .modified)
                let person2 = Person(value: ["id": 1234, "name": "Bowie"])
                // Judging by the ID, it's the same person, just with a
                // different name. When `update` is:
                // - .modified: update the fields that have changed.
                // - .all: replace all of the fields regardless of
                //   whether they've changed.
                // - .error: throw an exception if a key with the same
                //   primary key already exists.
                realm.add(person2, update: .modified)
                XCTAssertEqual(person1.name, "Bowie", "both instances show the one stored object")
                XCTAssertEqual(person2.name, "Bowie")
            }
            XCTAssertEqual(realm.objects(Person.self).count, 1)
            XCTAssertEqual(realm.object(ofType: Person.self, forPrimaryKey: 1234)?.name, "Bowie")
        }
        let realm = try open()
        XCTAssertEqual(realm.objects(Person.self).count, 1)
        XCTAssertEqual(realm.object(ofType: Person.self, forPrimaryKey: 1234)?.name, "Bowie")
        XCTAssertEqual(realm.objects(Person.self).first?.id, 1234)
    }

    /// `.modified` and `.all` store the same data (they differ only in which properties count as
    /// changed for notifications): `add` writes every property of the given object, `create`
    /// with a dictionary writes only the keys given.
    func testModifiedVersusAll() throws {
        do {
            let realm = try open()
            try realm.write {
                realm.add(SeedProfile(value: ["id": 1, "name": "Ann", "age": 30, "city": "Oslo"]))
                realm.add(SeedProfile(value: ["id": 2, "name": "Bob", "age": 40, "city": "Rome"]))
            }
            try realm.write {
                // add: the whole object replaces the stored values (city "" included).
                realm.add(SeedProfile(value: ["id": 1, "name": "Ann", "age": 31]), update: .modified)
                realm.add(SeedProfile(value: ["id": 2, "name": "Bob", "age": 41]), update: .all)
            }
            for id in [1, 2] {
                let p = realm.object(ofType: SeedProfile.self, forPrimaryKey: id)!
                XCTAssertEqual(p.city, "", "add(update:) writes every property of the object (id \(id))")
            }
            XCTAssertEqual(realm.object(ofType: SeedProfile.self, forPrimaryKey: 1)?.age, 31)
            XCTAssertEqual(realm.object(ofType: SeedProfile.self, forPrimaryKey: 2)?.age, 41)

            try realm.write {
                realm.add(SeedProfile(value: ["id": 1, "name": "Ann", "age": 31, "city": "Oslo"]), update: .modified)
                realm.add(SeedProfile(value: ["id": 2, "name": "Bob", "age": 41, "city": "Rome"]), update: .all)
            }
            try realm.write {
                // create with a dictionary: only the keys given are written.
                realm.create(SeedProfile.self, value: ["id": 1, "age": 32], update: .modified)
                realm.create(SeedProfile.self, value: ["id": 2, "age": 42], update: .all)
            }
        }
        let realm = try open()
        XCTAssertEqual(realm.objects(SeedProfile.self).count, 2)
        let ann = realm.object(ofType: SeedProfile.self, forPrimaryKey: 1)!
        let bob = realm.object(ofType: SeedProfile.self, forPrimaryKey: 2)!
        XCTAssertEqual([ann.name, ann.city], ["Ann", "Oslo"])
        XCTAssertEqual(ann.age, 32)
        XCTAssertEqual([bob.name, bob.city], ["Bob", "Rome"])
        XCTAssertEqual(bob.age, 42)
    }

    /// An upsert of an object whose key does not exist inserts it, under both policies.
    func testUpsertOfANewKeyInserts() throws {
        let realm = try open()
        try realm.write {
            realm.add(SeedProfile(value: ["id": 10, "name": "New"]), update: .modified)
            realm.add(SeedProfile(value: ["id": 11, "name": "New too"]), update: .all)
            realm.create(SeedProfile.self, value: ["id": 12, "name": "Created"], update: .modified)
            realm.create(SeedProfile.self, value: ["id": 13, "name": "Created too"], update: .all)
        }
        XCTAssertEqual(realm.objects(SeedProfile.self).count, 4)
        XCTAssertEqual(realm.object(ofType: SeedProfile.self, forPrimaryKey: 13)?.name, "Created too")
    }

    /// RealmSwift: "update: must be .error for objects without a primary key" (it raises
    /// "'Dog' does not have a primary key and can not be updated"). Here: the write fails or the
    /// misuse is reported, and no object is stored.
    func testUpsertOfAClassWithoutPrimaryKeyIsRefused() throws {
        let realm = try open()
        var failed = false
        do {
            try realm.write { realm.add(SeedDog(value: ["name": "Rex", "age": 1]), update: .modified) }
        } catch {
            failed = true
            XCTAssertTrue("\(error)".contains("SeedDog"), "\(error)")
        }
        let reported = takeViolations()
        XCTAssertTrue(
            failed || !reported.isEmpty, "add(_:update: .modified) of a class without a primary key was accepted")
        XCTAssertEqual(realm.objects(SeedDog.self).count, 0)
    }

    // MARK: Update

    func testUpdatePropertiesInAWriteAndReopen() throws {
        do {
            let realm = try open()
            let dog = Dog(value: ["name": "Rex", "age": 1])
            try realm.write { realm.add(dog) }
            try realm.write {
                dog.age = 2
                dog.breed = "Collie"
                dog.favoriteToy = DogToy(value: ["name": "Rope"])
            }
            XCTAssertEqual(dog.age, 2)
            XCTAssertEqual(dog.breed, "Collie")
            XCTAssertEqual(dog.favoriteToy?.name, "Rope")
            XCTAssertEqual(realm.objects(DogToy.self).count, 1, "assigning an unmanaged object to a link adds it")
            try realm.write { dog.breed = nil }
            XCTAssertNil(dog.breed)
        }
        let realm = try open()
        let dog = realm.objects(Dog.self).first!
        XCTAssertEqual(dog.name, "Rex")
        XCTAssertEqual(dog.age, 2)
        XCTAssertNil(dog.breed)
        XCTAssertEqual(dog.favoriteToy?.name, "Rope")
    }

    /// The primary key of a managed object cannot be changed.
    func testChangingThePrimaryKeyFailsTheWrite() throws {
        let realm = try open()
        let p = SeedProfile(value: ["id": 1, "name": "Ann"])
        try realm.write { realm.add(p) }
        XCTAssertThrowsError(try realm.write { p.id = 2 }) { error in
            XCTAssertEqual((error as? Realm.Error)?.realmCode, .invalidValue)
            XCTAssertTrue("\(error)".contains("SeedProfile.id"), "\(error)")
        }
        XCTAssertEqual(p.id, 1)
        XCTAssertNotNil(realm.object(ofType: SeedProfile.self, forPrimaryKey: 1))
        XCTAssertNil(realm.object(ofType: SeedProfile.self, forPrimaryKey: 2))
    }

    // MARK: Delete

    func testDeleteInvalidatesAndReopen() throws {
        do {
            let realm = try open()
            let a = SeedDog(value: ["name": "A", "age": 1])
            let b = SeedDog(value: ["name": "B", "age": 2])
            try realm.write { realm.add([a, b]) }
            XCTAssertFalse(a.isInvalidated)
            try realm.write { realm.delete(a) }
            XCTAssertTrue(a.isInvalidated)
            XCTAssertFalse(b.isInvalidated)
            XCTAssertEqual(realm.objects(SeedDog.self).map(\.name), ["B"])
            // Reading a property of a deleted object is a violation (RealmSwift raises).
            _ = a.name
            XCTAssertEqual(takeViolations().count, 1)
        }
        let realm = try open()
        XCTAssertEqual(realm.objects(SeedDog.self).map(\.name), ["B"])
    }

    func testDeleteByPrimaryKeyFreesTheKey() throws {
        do {
            let realm = try open()
            try realm.write { realm.add(SeedPerson(value: ["id": 5, "name": "Old"])) }
            let p = realm.object(ofType: SeedPerson.self, forPrimaryKey: 5)!
            try realm.write { realm.delete(p) }
            XCTAssertTrue(p.isInvalidated)
            XCTAssertNil(realm.object(ofType: SeedPerson.self, forPrimaryKey: 5))
            try realm.write { realm.add(SeedPerson(value: ["id": 5, "name": "New"])) }
        }
        let realm = try open()
        XCTAssertEqual(realm.object(ofType: SeedPerson.self, forPrimaryKey: 5)?.name, "New")
        XCTAssertEqual(realm.objects(SeedPerson.self).count, 1)
    }

    /// Deleting the target of a to-one link makes the link nil; list entries disappear.
    func testLinksAreRemovedOnDelete() throws {
        do {
            let realm = try open()
            let toy = DogToy(value: ["name": "Ball"])
            let dog = Dog(value: ["name": "Rex", "age": 3, "favoriteToy": toy])
            let other = Dog(value: ["name": "Max", "age": 4, "favoriteToy": toy])
            try realm.write { realm.add([dog, other]) }
            XCTAssertEqual(realm.objects(DogToy.self).count, 1, "one toy, linked twice")
            XCTAssertEqual(dog.favoriteToy?.name, "Ball")
            try realm.write { realm.delete(toy) }
            XCTAssertNil(dog.favoriteToy)
            XCTAssertNil(other.favoriteToy)
            XCTAssertEqual(realm.objects(Dog.self).count, 2, "deleting the target does not delete the origin")

            let pet = SeedPet(value: ["id": 1, "name": "Tom"])
            let owner = SeedOwner(value: [
                "id": 1, "name": "Ann", "pet": pet, "pets": [pet, SeedPet(value: ["id": 2, "name": "Jerry"])],
            ])
            try realm.write { realm.add(owner) }
            XCTAssertEqual(owner.pets.count, 2)
            try realm.write { realm.delete(pet) }
            XCTAssertNil(owner.pet)
            XCTAssertEqual(owner.pets.map(\.name), ["Jerry"])
        }
        let realm = try open()
        XCTAssertEqual(realm.objects(Dog.self).count, 2)
        XCTAssertTrue(realm.objects(Dog.self).allSatisfy { $0.favoriteToy == nil })
        XCTAssertEqual(realm.objects(DogToy.self).count, 0)
        let owner = realm.object(ofType: SeedOwner.self, forPrimaryKey: 1)!
        XCTAssertNil(owner.pet)
        XCTAssertEqual(owner.pets.map(\.name), ["Jerry"])
    }

    /// Deleting a parent deletes its embedded object.
    func testEmbeddedObjectIsDeletedWithItsParent() throws {
        let realm = try open()
        let owner = SeedOwner(value: ["id": 1, "name": "Ann", "address": ["street": "1 Main St", "city": "Oslo"]])
        try realm.write { realm.add(owner) }
        let address = try XCTUnwrap(owner.address)
        XCTAssertNotNil(address.realm, "the embedded object is managed with its parent")
        XCTAssertEqual(address.city, "Oslo")
        try realm.write { realm.delete(owner) }
        XCTAssertTrue(owner.isInvalidated)
        XCTAssertTrue(address.isInvalidated, "the embedded object is deleted with its parent")
    }

    /// Replacing an embedded object deletes the old one.
    func testReplacingAnEmbeddedObjectDeletesTheOldOne() throws {
        let realm = try open()
        let owner = SeedOwner(value: ["id": 1, "address": ["street": "Old", "city": "Oslo"]])
        try realm.write { realm.add(owner) }
        let old = try XCTUnwrap(owner.address)
        // (RealmSwift's `EmbeddedObject(value:)` does not exist in Strata: set the properties.)
        let replacement = SeedAddress()
        replacement.street = "New"
        replacement.city = "Rome"
        try realm.write { owner.address = replacement }
        XCTAssertEqual(owner.address?.street, "New")
        XCTAssertTrue(old.isInvalidated)
    }

    /// `deleteAll` empties every class.
    func testDeleteAll() throws {
        do {
            let realm = try open()
            try realm.write {
                realm.add(SeedDog(value: ["name": "A", "age": 1]))
                realm.add(SeedPerson(value: ["id": 1, "name": "P"]))
            }
            try realm.write { realm.deleteAll() }
            XCTAssertEqual(realm.objects(SeedDog.self).count, 0)
            XCTAssertEqual(realm.objects(SeedPerson.self).count, 0)
        }
        let realm = try open()
        XCTAssertEqual(realm.objects(SeedDog.self).count, 0)
        XCTAssertNil(realm.object(ofType: SeedPerson.self, forPrimaryKey: 1))
    }

    // MARK: Objects of another realm (seed 002, "Use Create to Copy an Object Into the Realm")

    /// Adding an object managed by a realm of another file fails at `add` with RealmSwift's
    /// message (a violation, as RealmSwift raises an exception there); nothing is added.
    func testAddingAnObjectManagedByAnotherRealmFailsAtAdd() throws {
        let realmA = try open("a.realm")
        let realmB = try open("b.realm")
        let toy = SeedDoggoToy(value: ["name": "Wubba"])
        try realmA.write { realmA.add(toy) }
        var reportsAtAdd: [String] = []
        try realmB.write {
            realmB.add(toy)
            reportsAtAdd = takeViolations()
            realmB.add(SeedDoggoToy(value: ["name": "Own"]))
        }
        XCTAssertEqual(
            reportsAtAdd, ["Object is already managed by another Realm. Use create instead to copy it into this Realm."]
        )
        XCTAssertEqual(realmB.objects(SeedDoggoToy.self).map(\.name), ["Own"], "the rest of the write commits")
        XCTAssertTrue(toy.realm == realmA)
    }

    /// Seed 002's case: a new, unmanaged Dog whose favoriteToy is managed by another realm.
    func testAddingAnUnmanagedObjectLinkingToAnotherRealmsObjectFails() throws {
        let realmA = try open("a.realm")
        let realmB = try open("b.realm")
        let wubba = SeedDoggoToy(value: ["name": "Wubba"])
        try realmA.write { realmA.add(wubba) }
        let dog = SeedDoggoDog(value: ["name": "Maui"])
        dog.favoriteToy = wubba
        XCTAssertThrowsError(try realmB.write { realmB.add(dog) }) { error in
            XCTAssertEqual(
                (error as? Realm.Error)?.message,
                "Object is already managed by another Realm. Use create instead to copy it into this Realm.")
        }
        XCTAssertEqual(realmB.objects(SeedDoggoDog.self).count, 0)
        XCTAssertEqual(realmB.objects(SeedDoggoToy.self).count, 0)
    }

    /// `create` copies an object managed by another realm: a new object in this realm, the
    /// source unchanged.
    func testCreateCopiesAManagedObjectFromAnotherRealm() throws {
        let toyId = ObjectId.generate()
        do {
            let realmA = try open("a.realm")
            let realmB = try open("b.realm")
            let wubba = SeedDoggoToy(value: ["_id": toyId, "name": "Wubba"])
            try realmA.write { realmA.add(wubba) }
            let copy = try realmB.write { realmB.create(SeedDoggoToy.self, value: wubba) }
            XCTAssertTrue(copy.realm == realmB)
            XCTAssertFalse(copy === wubba)
            XCTAssertEqual(copy._id, toyId)
            XCTAssertEqual(copy.name, "Wubba")
            XCTAssertTrue(wubba.realm == realmA, "the source stays in its realm")
            // Copying again with .modified updates the copy instead of failing.
            try realmA.write { wubba.name = "Wubba 2" }
            try realmB.write { realmB.create(SeedDoggoToy.self, value: wubba, update: .modified) }
            XCTAssertEqual(realmB.objects(SeedDoggoToy.self).count, 1)
            XCTAssertEqual(copy.name, "Wubba 2")
        }
        let realmB = try open("b.realm")
        XCTAssertEqual(realmB.object(ofType: SeedDoggoToy.self, forPrimaryKey: toyId)?.name, "Wubba 2")
        let realmA = try open("a.realm")
        XCTAssertEqual(realmA.objects(SeedDoggoToy.self).count, 1)
    }

    /// `create` of a managed object of another realm copies the objects it links to as well.
    func testCreateCopiesALinkedObjectGraphFromAnotherRealm() throws {
        let realmA = try open("a.realm")
        let realmB = try open("b.realm")
        let dog = SeedDoggoDog(value: ["name": "Maui", "favoriteToy": ["name": "Wubba"]])
        try realmA.write { realmA.add(dog) }
        XCTAssertEqual(dog.favoriteToy?.realm.map { $0 == realmA }, true)
        let copy = try realmB.write { realmB.create(SeedDoggoDog.self, value: dog) }
        XCTAssertEqual(copy._id, dog._id)
        XCTAssertEqual(copy.favoriteToy?.name, "Wubba")
        XCTAssertTrue(copy.favoriteToy?.realm == realmB)
        XCTAssertEqual(realmB.objects(SeedDoggoToy.self).count, 1)
        XCTAssertEqual(realmA.objects(SeedDoggoToy.self).count, 1)
    }

    /// Seed 002's fix, without the SwiftUI freeze/thaw: `create(Dog.self, value: ["name": "Maui",
    /// "favoriteToy": wubba], update: .modified)` where `wubba` is managed by another realm copies
    /// the toy into this realm.
    func testSeed002CreateWithALinkToAnotherRealmsObject() throws {
        let toyId = ObjectId.generate()
        do {
            let toysRealm = try open("toys.realm")
            let wubba = SeedDoggoToy(value: ["_id": toyId, "name": "Wubba"])
            try toysRealm.write { toysRealm.add(wubba) }

            let realm = try open("dogs.realm")
            let dog = try realm.write {
                // Use the .create method with `update: .modified` to copy the
                // existing object into the realm
                realm.create(SeedDoggoDog.self, value: ["name": "Maui", "favoriteToy": wubba], update: .modified)
            }
            XCTAssertEqual(dog.name, "Maui")
            XCTAssertEqual(dog.favoriteToy?.name, "Wubba")
            XCTAssertTrue(dog.favoriteToy?.realm == realm, "the toy was copied into the dog's realm")
            XCTAssertEqual(realm.objects(SeedDoggoToy.self).count, 1)
        }
        let realm = try open("dogs.realm")
        let dog = try XCTUnwrap(realm.objects(SeedDoggoDog.self).first)
        XCTAssertEqual(dog.favoriteToy?._id, toyId)
        XCTAssertEqual(realm.object(ofType: SeedDoggoToy.self, forPrimaryKey: toyId)?.name, "Wubba")
    }

    /// Two `Realm` instances of the same file share objects: adding an object managed by the
    /// other instance is not "another Realm".
    func testAddingAnObjectOfAnotherInstanceOfTheSameFileIsAllowed() throws {
        let realm1 = try open()
        let realm2 = try open()
        let toy = DogToy(value: ["name": "Ball"])
        try realm1.write { realm1.add(toy) }
        let dog = Dog(value: ["name": "Rex", "age": 1])
        dog.favoriteToy = toy
        try realm2.write { realm2.add(dog) }
        XCTAssertEqual(realm2.objects(DogToy.self).count, 1)
        XCTAssertEqual(realm2.objects(Dog.self).first?.favoriteToy?.name, "Ball")
    }

    // MARK: Reopen after each kind of operation

    /// add, update, delete, create and upsert, each followed by closing and reopening the file
    /// and reading everything back.
    func testReopenAfterEachOperation() throws {
        func check(_ step: String, _ expected: [Int: String], file: StaticString = #filePath, line: UInt = #line) throws
        {
            let realm = try open()
            let people = realm.objects(SeedProfile.self)
            var found: [Int: String] = [:]
            for p in people { found[p.id] = "\(p.name)/\(p.age)" }
            XCTAssertEqual(found, expected, "after \(step)", file: file, line: line)
            for (id, value) in expected {
                let p = realm.object(ofType: SeedProfile.self, forPrimaryKey: id)
                XCTAssertEqual(
                    p.map { "\($0.name)/\($0.age)" }, value, "lookup of \(id) after \(step)", file: file, line: line)
            }
        }
        do { let r = try open(); try r.write { r.add(SeedProfile(value: ["id": 1, "name": "Ann", "age": 30])) } }
        try check("add", [1: "Ann/30"])
        do {
            let r = try open(); let p = r.object(ofType: SeedProfile.self, forPrimaryKey: 1)!;
            try r.write { p.age = 31 }
        }
        try check("update", [1: "Ann/31"])
        do {
            let r = try open(); try r.write { r.create(SeedProfile.self, value: ["id": 2, "name": "Bob", "age": 40]) }
        }
        try check("create", [1: "Ann/31", 2: "Bob/40"])
        do {
            let r = try open();
            try r.write { r.add(SeedProfile(value: ["id": 1, "name": "Anna", "age": 32]), update: .modified) }
        }
        try check("add upsert", [1: "Anna/32", 2: "Bob/40"])
        do {
            let r = try open(); try r.write { r.create(SeedProfile.self, value: ["id": 2, "age": 41], update: .all) }
        }
        try check("create upsert", [1: "Anna/32", 2: "Bob/41"])
        do {
            let r = try open(); let p = r.object(ofType: SeedProfile.self, forPrimaryKey: 1)!;
            try r.write { r.delete(p) }
        }
        try check("delete", [2: "Bob/41"])
    }
}
