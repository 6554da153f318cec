import Foundation
import Strata
import XCTest

/// Seed 004 ("Create Objects"): `create(_:value:update:)`, objects from JSON, and
/// `Object(value:)` with dictionaries, arrays and nested values.
final class SeedCreateTests: SeedTestCase {
    // MARK: create(_:value:update:) with nested values

    /// Seed 004's snippet verbatim, on `SeedPerson`/`SeedDog` whose Dog has the two properties
    /// the array `["Buster", 5]` gives. "Note that the name property will remain the same for
    /// the person with primary key 123": an existing person keeps its name; `dogs` is replaced.
    func testSeed004CreateModifiedOnlyUpdatesTheGivenValues() throws {
        do {
            let realm = try open()
            try realm.write {
                realm.add(SeedPerson(value: ["id": 123, "name": "Jane", "dogs": [["Rex", 9]]]))
            }
            try! realm.write {
                // Use .modified to only update the provided values.
                // Note that the "name" property will remain the same
                // for the person with primary key "id" 123.
                realm.create(SeedPerson.self, value: ["id": 123, "dogs": [["Buster", 5]]], update: .modified)
            }
            let p = try XCTUnwrap(realm.object(ofType: SeedPerson.self, forPrimaryKey: 123))
            XCTAssertEqual(p.name, "Jane")
            XCTAssertEqual(p.dogs.map(\.name), ["Buster"])
            XCTAssertEqual(p.dogs.first?.age, 5)
        }
        let realm = try open()
        XCTAssertEqual(realm.objects(SeedPerson.self).count, 1)
        let p = try XCTUnwrap(realm.object(ofType: SeedPerson.self, forPrimaryKey: 123))
        XCTAssertEqual(p.name, "Jane")
        XCTAssertEqual(p.dogs.map(\.name), ["Buster"])
        XCTAssertEqual(p.dogs.first?.age, 5)
        XCTAssertEqual(realm.objects(SeedDog.self).count, 2, "Rex is no longer in the list but still exists")
    }

    /// The same snippet when no person 123 exists: it is created with a default name.
    func testSeed004CreateModifiedInsertsWhenTheKeyIsNew() throws {
        do {
            let realm = try open()
            try realm.write {
                realm.create(SeedPerson.self, value: ["id": 123, "dogs": [["Buster", 5]]], update: .modified)
            }
        }
        let realm = try open()
        let p = try XCTUnwrap(realm.object(ofType: SeedPerson.self, forPrimaryKey: 123))
        XCTAssertEqual(p.name, "")
        XCTAssertEqual(p.dogs.count, 1)
        XCTAssertEqual(p.dogs.first?.name, "Buster")
        XCTAssertEqual(p.dogs.first?.age, 5)
    }

    /// The snippet adapted to Models.swift's `Person`, whose `Dog` has four stored properties
    /// (name, age, breed, favoriteToy): the inner array needs four values.
    func testSeed004CreateWithTheFourPropertyDog() throws {
        let realm = try open()
        try realm.write {
            realm.create(Person.self, value: ["id": 123, "dogs": [["Buster", 5, "Beagle", nil]]], update: .modified)
        }
        let p = try XCTUnwrap(realm.object(ofType: Person.self, forPrimaryKey: 123))
        XCTAssertEqual(p.dogs.first?.name, "Buster")
        XCTAssertEqual(p.dogs.first?.age, 5)
        XCTAssertEqual(p.dogs.first?.breed, "Beagle")
        XCTAssertNil(p.dogs.first?.favoriteToy)
    }

    /// The verbatim `[["Buster", 5]]` with the four-property `Dog`: as in RealmSwift, the
    /// properties past the end of the array keep their defaults.
    func testArrayWithFewerValuesLeavesTheRestAtTheirDefaults() throws {
        let realm = try open()
        try realm.write {
            realm.create(Person.self, value: ["id": 123, "dogs": [["Buster", 5]]], update: .modified)
        }
        let dog = try XCTUnwrap(realm.object(ofType: Person.self, forPrimaryKey: 123)?.dogs.first)
        XCTAssertEqual(dog.name, "Buster")
        XCTAssertEqual(dog.age, 5)
        XCTAssertNil(dog.breed)
        XCTAssertNil(dog.favoriteToy)
    }

    /// More values than the class has properties fail the write with an error that names the
    /// properties to give (RealmSwift: "Invalid array input").
    func testArrayWithTooManyValuesFailsTheWrite() throws {
        let realm = try open()
        XCTAssertThrowsError(
            try realm.write {
                realm.create(Person.self, value: ["id": 123, "dogs": [["Buster", 5, "Beagle", nil, "extra"]]])
            }
        ) { error in
            XCTAssertEqual((error as? Realm.Error)?.realmCode, .invalidValue)
            XCTAssertTrue("\(error)".contains("name, age, breed, favoriteToy"), "\(error)")
        }
        XCTAssertNil(realm.object(ofType: Person.self, forPrimaryKey: 123))
        XCTAssertEqual(realm.objects(Dog.self).count, 0)
    }

    /// Nested creates follow the update policy: with `.modified` a nested object whose primary
    /// key exists is updated (not duplicated); with `.error` it fails the write.
    func testNestedCreateFollowsTheUpdatePolicy() throws {
        do {
            let realm = try open()
            try realm.write {
                realm.create(
                    SeedOwner.self, value: ["id": 1, "name": "Ann", "pet": ["id": 10, "name": "Tom", "age": 3]])
            }
            try realm.write {
                realm.create(
                    SeedOwner.self,
                    value: [
                        "id": 2, "name": "Bob",
                        "pet": ["id": 10, "name": "Tom", "age": 4],
                        "pets": [["id": 11, "name": "Jerry", "age": 1], ["id": 10, "name": "Tom", "age": 4]],
                    ],
                    update: .modified)
            }
            XCTAssertEqual(realm.objects(SeedPet.self).count, 2, "pet 10 was updated, not duplicated")
            XCTAssertEqual(realm.object(ofType: SeedPet.self, forPrimaryKey: 10)?.age, 4)
            let ann = try XCTUnwrap(realm.object(ofType: SeedOwner.self, forPrimaryKey: 1))
            let bob = try XCTUnwrap(realm.object(ofType: SeedOwner.self, forPrimaryKey: 2))
            XCTAssertEqual(ann.pet?.age, 4, "both owners link to the one pet 10")
            XCTAssertEqual(bob.pet?.name, "Tom")
            XCTAssertEqual(bob.pets.map(\.id), [11, 10])

            XCTAssertThrowsError(
                try realm.write {
                    realm.create(
                        SeedOwner.self, value: ["id": 3, "name": "Cy", "pet": ["id": 10, "name": "Dup", "age": 9]])
                }
            ) { error in
                XCTAssertEqual((error as? Realm.Error)?.realmCode, .primaryKeyExists)
                XCTAssertTrue("\(error)".contains("'SeedPet'") && "\(error)".contains("'10'"), "\(error)")
            }
            XCTAssertNil(realm.object(ofType: SeedOwner.self, forPrimaryKey: 3), "the failed write stored nothing")
            XCTAssertEqual(realm.object(ofType: SeedPet.self, forPrimaryKey: 10)?.name, "Tom")
        }
        let realm = try open()
        XCTAssertEqual(realm.objects(SeedOwner.self).count, 2)
        XCTAssertEqual(realm.objects(SeedPet.self).count, 2)
        XCTAssertEqual(realm.object(ofType: SeedOwner.self, forPrimaryKey: 1)?.pet?.age, 4)
        XCTAssertEqual(realm.object(ofType: SeedOwner.self, forPrimaryKey: 2)?.pets.map(\.name), ["Jerry", "Tom"])
    }

    /// `add(_:update: .modified)` of an object graph upserts the linked objects by key too.
    func testNestedAddFollowsTheUpdatePolicy() throws {
        let realm = try open()
        try realm.write { realm.add(SeedPet(value: ["id": 10, "name": "Tom", "age": 3])) }
        try realm.write {
            realm.add(
                SeedOwner(value: [
                    "id": 1, "name": "Ann", "pet": SeedPet(value: ["id": 10, "name": "Thomas", "age": 5]),
                ]), update: .modified)
        }
        XCTAssertEqual(realm.objects(SeedPet.self).count, 1)
        XCTAssertEqual(realm.object(ofType: SeedPet.self, forPrimaryKey: 10)?.name, "Thomas")
        XCTAssertEqual(realm.object(ofType: SeedOwner.self, forPrimaryKey: 1)?.pet?.age, 5)
    }

    /// Embedded objects from a nested dictionary.
    func testCreateWithAnEmbeddedObject() throws {
        do {
            let realm = try open()
            try realm.write {
                realm.create(
                    SeedOwner.self,
                    value: ["id": 1, "name": "Ann", "address": ["street": "1 Main St", "city": "Oslo"]])
            }
            try realm.write {
                realm.create(
                    SeedOwner.self, value: ["id": 1, "address": ["street": "2 High St", "city": "Rome"]],
                    update: .modified)
            }
        }
        let realm = try open()
        let owner = try XCTUnwrap(realm.object(ofType: SeedOwner.self, forPrimaryKey: 1))
        XCTAssertEqual(owner.name, "Ann")
        XCTAssertEqual(owner.address?.street, "2 High St")
        XCTAssertEqual(owner.address?.city, "Rome")
    }

    /// A primary key missing from the value takes its declared default (`var id = 0`), as in
    /// RealmSwift; a second such create is a duplicate key.
    func testCreateWithoutThePrimaryKeyUsesItsDeclaredDefault() throws {
        let realm = try open()
        try realm.write { realm.create(SeedProfile.self, value: ["name": "No key"]) }
        XCTAssertEqual(realm.object(ofType: SeedProfile.self, forPrimaryKey: 0)?.name, "No key")
        XCTAssertThrowsError(try realm.write { realm.create(SeedProfile.self, value: ["name": "Again"]) }) { error in
            XCTAssertEqual((error as? Realm.Error)?.realmCode, .primaryKeyExists)
        }
        XCTAssertEqual(realm.objects(SeedProfile.self).count, 1)
    }

    // MARK: Create Objects from JSON

    /// Seed 004's JSON snippet verbatim (Models.swift's `DogToy`), then read back after reopening.
    func testSeed004CreateFromJSON() throws {
        Realm.Configuration.defaultConfiguration = config()
        do {
            // Specify a dog toy in JSON
            let data = "{\"name\": \"Tennis ball\"}".data(using: .utf8)!
            let realm = try! Realm()
            // Insert from data containing JSON
            try! realm.write {
                let json = try! JSONSerialization.jsonObject(with: data, options: [])
                realm.create(DogToy.self, value: json)
            }
            XCTAssertEqual(realm.objects(DogToy.self).count, 1)
        }
        let realm = try open()
        XCTAssertEqual(realm.objects(DogToy.self).count, 1)
        XCTAssertEqual(realm.objects(DogToy.self).first?.name, "Tennis ball")
    }

    /// "Nested objects or arrays in the JSON map to to-one or to-many relationships", numbers
    /// convert to the property's type, and unknown keys are ignored.
    func testCreateFromNestedJSON() throws {
        let json = """
            {"id": 7, "name": "Ann", "unknown": true,
             "pet": {"id": 1, "name": "Tom", "age": 3},
             "pets": [{"id": 2, "name": "Jerry", "age": 1}],
             "address": {"street": "1 Main St", "city": "Oslo"}}
            """
        do {
            let realm = try open()
            try realm.write {
                let value = try JSONSerialization.jsonObject(with: Data(json.utf8), options: [])
                realm.create(SeedOwner.self, value: value)
            }
        }
        let realm = try open()
        let owner = try XCTUnwrap(realm.object(ofType: SeedOwner.self, forPrimaryKey: 7))
        XCTAssertEqual(owner.name, "Ann")
        XCTAssertEqual(owner.pet?.name, "Tom")
        XCTAssertEqual(owner.pet?.age, 3)
        XCTAssertEqual(owner.pets.map(\.name), ["Jerry"])
        XCTAssertEqual(owner.address?.city, "Oslo")
        XCTAssertEqual(realm.objects(SeedPet.self).count, 2)
    }

    /// "Required properties cannot be null or missing in the JSON": an explicit null for a
    /// required property fails the write.
    func testJSONNullForARequiredPropertyFails() throws {
        let realm = try open()
        XCTAssertThrowsError(
            try realm.write {
                let value = try JSONSerialization.jsonObject(with: Data(#"{"id": 1, "name": null}"#.utf8), options: [])
                realm.create(SeedProfile.self, value: value)
            })
        XCTAssertEqual(realm.objects(SeedProfile.self).count, 0)
    }

    // MARK: Initialize Objects with a Value

    /// Seed 004's snippet verbatim (on the two-property `SeedDog`), then added and read back.
    func testSeed004InitWithDictionaryAndArray() throws {
        do {
            // (1) Create a Dog object from a dictionary
            let myDog = SeedDog(value: ["name": "Pluto", "age": 3])
            // (2) Create a Dog object from an array
            let myOtherDog = SeedDog(value: ["Fido", 5])
            XCTAssertNil(myDog.realm, "Object(value:) makes an unmanaged object")
            XCTAssertEqual(myDog.name, "Pluto")
            XCTAssertEqual(myDog.age, 3)
            XCTAssertEqual(myOtherDog.name, "Fido")
            XCTAssertEqual(myOtherDog.age, 5)
            let realm = try open()
            // Add to the realm inside a transaction
            try! realm.write {
                realm.add([myDog, myOtherDog])
            }
        }
        let realm = try open()
        let dogs = realm.objects(SeedDog.self)
        XCTAssertEqual(dogs.count, 2)
        var byName: [String: Int] = [:]
        for d in dogs { byName[d.name] = d.age }
        XCTAssertEqual(byName, ["Pluto": 3, "Fido": 5])
    }

    /// The same with Models.swift's four-property `Dog`: the array needs four values.
    func testInitWithArrayOnTheFourPropertyDog() throws {
        let dog = Dog(value: ["Fido", 5, "Mutt", nil])
        XCTAssertEqual(dog.name, "Fido")
        XCTAssertEqual(dog.age, 5)
        XCTAssertEqual(dog.breed, "Mutt")
        let partial = Dog(value: ["name": "Pluto", "age": 3])
        XCTAssertEqual(partial.name, "Pluto")
        XCTAssertNil(partial.breed, "properties missing from the dictionary keep their defaults")
        // Seed 002's `Dog(value: ["name":"Bandido"])`.
        let bandido = Dog(value: ["name": "Bandido"])
        XCTAssertEqual(bandido.name, "Bandido")
        XCTAssertEqual(bandido.age, 0)
    }

    /// Seed 004's nested snippet verbatim: a Person from an array holding existing dogs, and one
    /// holding the dogs' own arrays.
    func testSeed004InitWithNestedValues() throws {
        let aDog = SeedDog(value: ["name": "Rex", "age": 2])
        let anotherDog = SeedDog(value: ["name": "Spot", "age": 4])
        // Instead of using pre-existing dogs...
        let aPerson = SeedPerson(value: [123, "Jane", [aDog, anotherDog]])
        // ...we can create them inline
        let anotherPerson = SeedPerson(value: [124, "Jane", [["Buster", 5], ["Buddy", 6]]])
        // (The seed gives both people the key 123; the second uses 124 so both can be stored.)

        XCTAssertEqual(aPerson.id, 123)
        XCTAssertEqual(aPerson.name, "Jane")
        XCTAssertEqual(aPerson.dogs.count, 2)
        XCTAssertTrue(aPerson.dogs[0] === aDog, "existing objects are used as they are")
        XCTAssertTrue(aPerson.dogs[1] === anotherDog)
        XCTAssertEqual(anotherPerson.dogs.map(\.name), ["Buster", "Buddy"])
        XCTAssertEqual(anotherPerson.dogs.map(\.age), [5, 6])

        do {
            let realm = try open()
            try realm.write { realm.add([aPerson, anotherPerson]) }
            XCTAssertTrue(aDog.realm == realm, "linked unmanaged objects are added with their owner")
        }
        let realm = try open()
        XCTAssertEqual(realm.objects(SeedDog.self).count, 4)
        XCTAssertEqual(realm.object(ofType: SeedPerson.self, forPrimaryKey: 123)?.dogs.map(\.name), ["Rex", "Spot"])
        XCTAssertEqual(
            realm.object(ofType: SeedPerson.self, forPrimaryKey: 124)?.dogs.map(\.name), ["Buster", "Buddy"])
        XCTAssertEqual(realm.object(ofType: SeedPerson.self, forPrimaryKey: 124)?.dogs.map(\.age), [5, 6])
    }

    /// Seed 004's upsert snippet builds its people with `Person(value: ["id": ..., "name": ...])`;
    /// `Object(value:)` with a nested dictionary for a to-one link and an embedded object.
    func testInitWithNestedDictionaries() throws {
        let owner = SeedOwner(value: [
            "id": 1, "name": "Ann", "pet": ["id": 2, "name": "Tom", "age": 3],
            "pets": [["id": 3, "name": "Jerry", "age": 1]],
            "address": ["street": "1 Main St", "city": "Oslo"],
        ])
        XCTAssertEqual(owner.pet?.name, "Tom")
        XCTAssertEqual(owner.pets.map(\.id), [3])
        XCTAssertEqual(owner.address?.city, "Oslo")
        let realm = try open()
        try realm.write { realm.add(owner) }
        XCTAssertEqual(realm.object(ofType: SeedPet.self, forPrimaryKey: 2)?.name, "Tom")
        XCTAssertEqual(realm.object(ofType: SeedOwner.self, forPrimaryKey: 1)?.address?.street, "1 Main St")
    }

    /// `Object(value:)` copying another object of the class (unmanaged and managed).
    func testInitFromAnotherObject() throws {
        let source = SeedProfile(value: ["id": 1, "name": "Ann", "age": 30, "city": "Oslo"])
        let copy = SeedProfile(value: source)
        XCTAssertFalse(copy === source)
        XCTAssertEqual([copy.name, copy.city], ["Ann", "Oslo"])
        XCTAssertEqual(copy.age, 30)
        let realm = try open()
        try realm.write { realm.add(source) }
        let unmanaged = SeedProfile(value: source)
        XCTAssertNil(unmanaged.realm, "a copy of a managed object is unmanaged")
        XCTAssertEqual(unmanaged.name, "Ann")
        XCTAssertEqual(unmanaged.age, 30)
    }

    /// A value of the wrong type in `Object(value:)` is reported through the violation handler,
    /// naming the class.
    func testInitWithAWrongValueIsAViolation() {
        _ = SeedDog(value: ["name": "Rex", "age": "old"])
        let reported = takeViolations()
        XCTAssertEqual(reported.count, 1)
        XCTAssertTrue(reported.first?.contains("SeedDog") ?? false, "\(reported)")
    }
}
