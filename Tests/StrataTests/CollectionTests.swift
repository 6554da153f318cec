import Foundation
import Strata
import StrataTestSupport
import XCTest

// Models for collection shapes Models.swift does not have: a set of objects, a map of optional
// objects, a list and a map of optional values.

class CollectionKennel: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var residents: MutableSet<Dog>
    @Persisted var dogsByName: Map<String, Dog?>
    @Persisted var scores: List<Int?>
    @Persisted var notes: Map<String, String?>
}

typealias CollectionTestRandom = SeededRandom

final class CollectionTests: TemporaryDirectoryTestCase {
    var dir: String { temporaryDirectory.path }
    var violations: [String] = []

    override func setUp() {
        violations = []
    }

    override func tearDown() {
        Realm.violationHandler = nil
    }

    func config() -> Realm.Configuration {
        Realm.Configuration(fileURL: URL(fileURLWithPath: dir + "/collections.realm"))
    }

    /// The stored dog named `name`, found without the query engine.
    func dog(named name: String, in realm: Realm) -> Dog? {
        realm.objects(Dog.self).first { $0.name == name }
    }

    /// Records violations instead of stopping the process.
    func recordViolations() {
        nonisolated(unsafe) let test = self
        Realm.violationHandler = { message in test.violations.append(message) }
    }

    // MARK: The seeds' example

    func testAppendingDogsToAManagedPersonPersistsAndSurvivesReopen() throws {
        do {
            let realm = try Realm(configuration: config())
            try realm.write { realm.add(Person(value: ["id": 1, "name": "Dachary"])) }
            let people = realm.objects(Person.self)
            let thisPerson = people.where { $0.name == "Dachary" }.first
            XCTAssertNotNil(thisPerson)
            try realm.write {
                thisPerson?.dogs.append(objectsIn: [
                    Dog(value: ["name": "Ben", "age": 13]),
                    Dog(value: ["name": "Lita", "age": 9]),
                    Dog(value: ["name": "Maui", "age": 1]),
                ])
                thisPerson?.dogs.append(Dog(value: ["name": "Rex", "age": 4]))
            }
            XCTAssertEqual(thisPerson!.dogs.count, 4)
            let dogs = realm.objects(Dog.self)
            XCTAssertEqual(dogs.count, 4, "appending unmanaged dogs to a managed list adds them")
            XCTAssertEqual(dogs.filter { $0.name == "Ben" }.count, 1)
            XCTAssertTrue(thisPerson!.dogs.allSatisfy { $0.realm != nil })
        }
        let realm = try Realm(configuration: config())
        let person = try XCTUnwrap(realm.object(ofType: Person.self, forPrimaryKey: 1))
        XCTAssertEqual(person.dogs.map(\.name), ["Ben", "Lita", "Maui", "Rex"])
        XCTAssertEqual(person.dogs.map(\.age), [13, 9, 1, 4])
        XCTAssertEqual(person.dogs[1].owners.first?.name, "Dachary")
        XCTAssertEqual(realm.objects(Dog.self).count, 4)
    }

    // MARK: List against an Array model

    func testRandomListOperationsMatchAnArrayModelAcrossWritesAndReopens() throws {
        var rng = CollectionTestRandom(seed: 0x5EED_0001)
        var model: [String] = []
        var realm: Realm? = try Realm(configuration: config())
        try realm!.write { realm!.add(Person(value: ["id": 7, "name": "Owner"])) }
        var nextName = 0
        func newDog() -> Dog {
            nextName += 1
            return Dog(value: ["name": "dog\(nextName)"])
        }
        for round in 0..<60 {
            if round % 15 == 14 {
                realm = nil
                realm = try Realm(configuration: config())
            }
            let r = realm!
            let person = try XCTUnwrap(r.object(ofType: Person.self, forPrimaryKey: 7))
            try r.write {
                for _ in 0..<Int.random(in: 1...6, using: &rng) {
                    let dogs = person.dogs
                    let n = model.count
                    switch Int.random(in: 0..<11, using: &rng) {
                    case 0, 1:
                        let d = newDog()
                        dogs.append(d)
                        model.append(d.name)
                    case 2:
                        let added = (0..<Int.random(in: 0...3, using: &rng)).map { _ in newDog() }
                        dogs.append(objectsIn: added)
                        model.append(contentsOf: added.map(\.name))
                    case 3:
                        let i = Int.random(in: 0...n, using: &rng)
                        let d = newDog()
                        dogs.insert(d, at: i)
                        model.insert(d.name, at: i)
                    case 4 where n > 0:
                        let i = Int.random(in: 0..<n, using: &rng)
                        dogs.remove(at: i)
                        model.remove(at: i)
                    case 5 where n > 0:
                        dogs.removeLast()
                        model.removeLast()
                    case 6 where n > 0:
                        let i = Int.random(in: 0..<n, using: &rng)
                        let d = newDog()
                        dogs.replace(index: i, object: d)
                        model[i] = d.name
                    case 7 where n > 0:
                        let from = Int.random(in: 0..<n, using: &rng), to = Int.random(in: 0..<n, using: &rng)
                        dogs.move(from: from, to: to)
                        model.insert(model.remove(at: from), at: to)
                    case 8 where n > 1:
                        let i = Int.random(in: 0..<n, using: &rng), j = Int.random(in: 0..<n, using: &rng)
                        dogs.swapAt(i, j)
                        model.swapAt(i, j)
                    case 9 where n > 0:
                        let i = Int.random(in: 0..<n, using: &rng)
                        let d = newDog()
                        person.dogs[i] = d
                        model[i] = d.name
                    case 10 where Int.random(in: 0..<8, using: &rng) == 0:
                        dogs.removeAll()
                        model.removeAll()
                    default:
                        break
                    }
                    // Live inside the write: a fresh read and the held list agree with the model.
                    XCTAssertEqual(person.dogs.map(\.name), model, "round \(round)")
                    XCTAssertEqual(dogs.count, model.count)
                }
            }
            XCTAssertEqual(person.dogs.map(\.name), model, "round \(round) after commit")
            XCTAssertEqual(person.dogs.first?.name, model.first)
            XCTAssertEqual(person.dogs.last?.name, model.last)
        }
        realm = nil
        let reopened = try Realm(configuration: config())
        let person = try XCTUnwrap(reopened.object(ofType: Person.self, forPrimaryKey: 7))
        XCTAssertEqual(person.dogs.map(\.name), model)
        XCTAssertEqual(reopened.objects(Dog.self).count, nextName, "removed dogs stay in the realm")
    }

    func testRandomOptionalIntListOperationsMatchAnArrayModel() throws {
        var rng = CollectionTestRandom(seed: 42)
        var model: [Int?] = []
        let realm = try Realm(configuration: config())
        try realm.write { realm.add(CollectionKennel(value: ["id": 1])) }
        let kennel = try XCTUnwrap(realm.object(ofType: CollectionKennel.self, forPrimaryKey: 1))
        for _ in 0..<200 {
            let value: Int? = Int.random(in: 0..<4, using: &rng) == 0 ? nil : Int.random(in: -100...100, using: &rng)
            try realm.write {
                let n = model.count
                switch Int.random(in: 0..<5, using: &rng) {
                case 0, 1:
                    kennel.scores.append(value)
                    model.append(value)
                case 2:
                    let i = Int.random(in: 0...n, using: &rng)
                    kennel.scores.insert(value, at: i)
                    model.insert(value, at: i)
                case 3 where n > 0:
                    let i = Int.random(in: 0..<n, using: &rng)
                    kennel.scores.remove(at: i)
                    model.remove(at: i)
                case 4 where n > 0:
                    let i = Int.random(in: 0..<n, using: &rng)
                    kennel.scores[i] = value
                    model[i] = value
                default:
                    break
                }
            }
            XCTAssertEqual(Array(kennel.scores), model)
        }
        XCTAssertEqual(kennel.scores.index(of: model.last!), model.firstIndex(of: model.last!))
        let reopened = try Realm(configuration: config())
        XCTAssertEqual(Array(reopened.object(ofType: CollectionKennel.self, forPrimaryKey: 1)!.scores), model)
    }

    // MARK: Live reads and the per-version cache

    func testManagedListIsLiveAndCachedPerVersion() throws {
        let realm = try Realm(configuration: config())
        try realm.write { realm.add(Person(value: ["id": 1, "dogs": [["name": "A"]]])) }
        let person = realm.object(ofType: Person.self, forPrimaryKey: 1)!
        let dogs = person.dogs
        XCTAssertTrue(dogs.realm == realm)
        XCTAssertFalse(dogs.isInvalidated)
        // One realm version: the list is decoded once, so reads return the same instances.
        XCTAssertTrue(person.dogs[0] === person.dogs[0])
        XCTAssertTrue(dogs[0] === person.dogs.first)
        try realm.write {
            person.dogs.append(Dog(value: ["name": "B"]))
            XCTAssertEqual(dogs.map(\.name), ["A", "B"], "a held list sees the write in progress")
            realm.add(Dog(value: ["name": "C"]))
            person.dogs.append(dog(named: "C", in: realm)!)
        }
        XCTAssertEqual(dogs.map(\.name), ["A", "B", "C"])
        // A commit made through another realm instance shows after refresh.
        let other = try Realm(configuration: config())
        try other.write { other.object(ofType: Person.self, forPrimaryKey: 1)!.dogs.remove(at: 0) }
        realm.refresh()
        XCTAssertEqual(dogs.map(\.name), ["B", "C"])
        XCTAssertEqual(dogs.description, "List<Dog>\(Array(dogs))")
        XCTAssertEqual(
            dogs.index(of: dog(named: "C", in: realm)!), 1,
            "index(of:) finds another instance of the same stored object")
        XCTAssertTrue(dogs.contains(dog(named: "B", in: realm)!))
        XCTAssertNil(dogs.index(of: Dog()))
    }

    func testAssigningACollectionReplacesTheContents() throws {
        let realm = try Realm(configuration: config())
        try realm.write { realm.add(Person(value: ["id": 1, "dogs": [["name": "A"], ["name": "B"]]])) }
        let person = realm.object(ofType: Person.self, forPrimaryKey: 1)!
        try realm.write {
            person.dogs = List([Dog(value: ["name": "C"])])
            person.dogs = person.dogs
        }
        XCTAssertEqual(person.dogs.map(\.name), ["C"])
        try realm.write { realm.add(Person(value: ["id": 2])) }
        let second = realm.object(ofType: Person.self, forPrimaryKey: 2)!
        try realm.write { second.dogs = person.dogs }
        XCTAssertEqual(second.dogs.map(\.name), ["C"])
        XCTAssertEqual(realm.objects(Dog.self).count, 3)
        let item = Item()
        try realm.write {
            realm.add(item)
            item.tags = MutableSet(["x", "y", "x"])
            item.labels = {
                let m = Map<String, String>()
                m["k"] = "v"
                return m
            }()
        }
        XCTAssertEqual(Set(item.tags), ["x", "y"])
        XCTAssertEqual(item.labels["k"], "v")
    }

    // MARK: Sets

    func testManagedSetKeepsMembersUnique() throws {
        let realm = try Realm(configuration: config())
        let item = Item()
        try realm.write { realm.add(item) }
        try realm.write {
            item.tags.insert("a")
            item.tags.insert("a")
            item.tags.insert(objectsIn: ["b", "c", "b"])
        }
        XCTAssertEqual(item.tags.count, 3)
        XCTAssertTrue(item.tags.contains("b"))
        XCTAssertFalse(item.tags.contains("z"))
        let other = MutableSet(["c", "d"])
        XCTAssertTrue(item.tags.intersects(other))
        XCTAssertFalse(item.tags.isSubset(of: other))
        try realm.write {
            item.tags.formUnion(other)
            XCTAssertEqual(Set(item.tags), ["a", "b", "c", "d"])
            item.tags.subtract(MutableSet(["a"]))
            item.tags.formIntersection(MutableSet(["b", "c", "x"]))
            item.tags.remove("c")
            item.tags.remove("not there")
        }
        XCTAssertEqual(Array(item.tags), ["b"])

        // Objects: two instances of one stored dog are one member.
        let rex = Dog(value: ["name": "Rex"])
        let kennel = CollectionKennel(value: ["id": 1])
        try realm.write {
            realm.add(kennel)
            kennel.residents.insert(rex)
            kennel.residents.insert(rex)
            kennel.residents.insert(dog(named: "Rex", in: realm)!)
            kennel.residents.insert(Dog(value: ["name": "Fido"]))
        }
        XCTAssertEqual(kennel.residents.count, 2)
        XCTAssertTrue(kennel.residents.contains(dog(named: "Rex", in: realm)!))
        XCTAssertEqual(realm.objects(Dog.self).count, 2)
        let reopened = try Realm(configuration: config())
        XCTAssertEqual(
            Set(reopened.object(ofType: CollectionKennel.self, forPrimaryKey: 1)!.residents.map(\.name)),
            ["Rex", "Fido"])
        XCTAssertEqual(Array(reopened.object(ofType: Item.self, forPrimaryKey: item._id)!.tags), ["b"])
        try realm.write {
            kennel.residents.removeAll(); item.tags.removeAll()
        }
        XCTAssertTrue(kennel.residents.isEmpty)
        XCTAssertTrue(item.tags.isEmpty)
    }

    // MARK: Maps

    func testManagedMapSetsRemovesAndStoresNilValues() throws {
        let realm = try Realm(configuration: config())
        let item = Item()
        let kennel = CollectionKennel(value: ["id": 1])
        try realm.write {
            realm.add(item); realm.add(kennel)
        }
        try realm.write {
            item.labels["color"] = "red"
            item.labels.updateValue("large", forKey: "size")
            item.labels["shape"] = "round"
            XCTAssertEqual(item.labels.count, 3, "live inside the write")
            item.labels["shape"] = nil
            item.labels.removeObject(for: "missing")
        }
        XCTAssertEqual(item.labels.keys, ["color", "size"])
        XCTAssertEqual(item.labels.values, ["red", "large"])
        XCTAssertEqual(item.labels.map(\.key), ["color", "size"])
        XCTAssertNil(item.labels["shape"])
        XCTAssertEqual(item.labels.description, "Map<String, String>[color: red, size: large]")
        try realm.write {
            item.labels.removeObject(for: "color")
            kennel.notes["a"] = "x"
            kennel.notes["b"] = .some(nil)
            kennel.notes.updateValue(nil, forKey: "c")
            kennel.notes["d"] = "y"
            kennel.notes["d"] = nil
        }
        let reopened = try Realm(configuration: config())
        XCTAssertEqual(reopened.object(ofType: Item.self, forPrimaryKey: item._id)!.labels.keys, ["size"])
        let notes = reopened.object(ofType: CollectionKennel.self, forPrimaryKey: 1)!.notes
        XCTAssertEqual(notes.keys, ["a", "b", "c"])
        XCTAssertEqual(notes["a"], .some("x"))
        XCTAssertEqual(notes["b"], .some(nil), "a stored nil value is an entry")
        XCTAssertTrue(notes["d"] == nil, "no entry")
        try reopened.write { notes.removeAll() }
        XCTAssertEqual(notes.count, 0)
        XCTAssertTrue(notes.isEmpty)
    }

    // MARK: Deletes

    func testDeletingADogRemovesItFromListsAndSetsAndNullsMapValues() throws {
        let realm = try Realm(configuration: config())
        let rex = Dog(value: ["name": "Rex"])
        let fido = Dog(value: ["name": "Fido"])
        let person = Person(value: ["id": 1])
        let kennel = CollectionKennel(value: ["id": 1])
        try realm.write {
            realm.add(person)
            realm.add(kennel)
            person.dogs.append(objectsIn: [rex, fido, rex])
            kennel.residents.insert(objectsIn: [rex, fido])
            kennel.dogsByName["rex"] = rex
            kennel.dogsByName["fido"] = fido
        }
        let dogs = person.dogs
        XCTAssertEqual(dogs.map(\.name), ["Rex", "Fido", "Rex"])
        try realm.write { realm.delete(rex) }
        XCTAssertEqual(dogs.map(\.name), ["Fido"])
        XCTAssertEqual(kennel.residents.map(\.name), ["Fido"])
        XCTAssertEqual(kennel.dogsByName.keys, ["fido", "rex"])
        XCTAssertEqual(kennel.dogsByName["rex"], .some(nil))
        XCTAssertEqual(kennel.dogsByName["fido"]??.name, "Fido")

        // Deleting the owner invalidates its collections.
        recordViolations()
        try realm.write { realm.delete(person) }
        XCTAssertTrue(dogs.isInvalidated)
        XCTAssertEqual(dogs.count, 0)
        XCTAssertEqual(violations, ["List has been invalidated or the object that owns it has been deleted."])
    }

    func testBacklinksFollowListChangesWithRepeatedElements() throws {
        let realm = try Realm(configuration: config())
        let rex = Dog(value: ["name": "Rex"])
        let person = Person(value: ["id": 1])
        try realm.write {
            realm.add(person)
            person.dogs.append(objectsIn: [rex, Dog(value: ["name": "Fido"]), rex])
        }
        XCTAssertEqual(rex.owners.map(\.id), [1])
        try realm.write { person.dogs.remove(at: 0) }
        XCTAssertEqual(rex.owners.map(\.id), [1], "the list still holds Rex once")
        try realm.write { person.dogs.removeLast() }
        XCTAssertEqual(rex.owners.count, 0)
        try realm.write {
            person.dogs.insert(rex, at: 0); person.dogs.swapAt(0, 1)
        }
        XCTAssertEqual(person.dogs.map(\.name), ["Fido", "Rex"])
        XCTAssertEqual(rex.owners.map(\.id), [1])
        try realm.write { realm.delete(rex) }
        XCTAssertEqual(person.dogs.map(\.name), ["Fido"])
    }

    // MARK: Misuse and rollback

    func testMutationsOutsideAWriteAreReportedAndSkipped() throws {
        recordViolations()
        let realm = try Realm(configuration: config())
        let item = Item()
        let kennel = CollectionKennel(value: ["id": 1])
        try realm.write {
            realm.add(Person(value: ["id": 1, "dogs": [["name": "A"]]]))
            realm.add(item)
            realm.add(kennel)
            item.tags.insert("t")
            item.labels["k"] = "v"
        }
        let person = realm.object(ofType: Person.self, forPrimaryKey: 1)!
        person.dogs.append(Dog(value: ["name": "B"]))
        person.dogs.remove(at: 0)
        person.dogs[0] = Dog()
        person.dogs.removeAll()
        person.dogs = List()
        item.tags.insert("u")
        item.tags.remove("t")
        item.labels["k"] = "w"
        item.labels.removeAll()
        kennel.scores.append(1)
        XCTAssertEqual(violations.count, 10)
        XCTAssertEqual(Set(violations), ["Cannot modify managed objects outside of a write transaction."])
        XCTAssertEqual(person.dogs.map(\.name), ["A"])
        XCTAssertEqual(Array(item.tags), ["t"])
        XCTAssertEqual(item.labels["k"], "v")
        XCTAssertEqual(realm.objects(Dog.self).count, 1, "the unmanaged dog was not added")

        violations = []
        try realm.write {
            person.dogs.remove(at: 5)
            person.dogs.insert(Dog(), at: 2)
        }
        XCTAssertEqual(
            violations,
            [
                "Index 5 is out of bounds (must be less than 1).",
                "Index 2 is out of bounds (must be less than or equal to 1).",
            ])
        XCTAssertEqual(person.dogs.count, 1)
    }

    func testCancelWriteRollsBackListChanges() throws {
        let realm = try Realm(configuration: config())
        try realm.write { realm.add(Person(value: ["id": 1, "dogs": [["name": "A"], ["name": "B"]]])) }
        let person = realm.object(ofType: Person.self, forPrimaryKey: 1)!
        let dogs = person.dogs
        XCTAssertEqual(dogs.map(\.name), ["A", "B"])
        try realm.beginWrite()
        dogs.append(Dog(value: ["name": "C"]))
        dogs.remove(at: 0)
        dogs.move(from: 0, to: 1)
        XCTAssertEqual(dogs.map(\.name), ["C", "B"])
        realm.cancelWrite()
        XCTAssertEqual(dogs.map(\.name), ["A", "B"])
        XCTAssertEqual(realm.objects(Dog.self).count, 2)

        // A write block that throws is cancelled as well.
        struct Stop: Error {}
        XCTAssertThrowsError(
            try realm.write {
                dogs.removeAll()
                throw Stop()
            })
        XCTAssertEqual(dogs.map(\.name), ["A", "B"])
        let reopened = try Realm(configuration: config())
        XCTAssertEqual(reopened.object(ofType: Person.self, forPrimaryKey: 1)!.dogs.map(\.name), ["A", "B"])
    }

    // MARK: Unmanaged collections

    func testUnmanagedCollectionsStayInMemory() {
        let person = Person()
        let dog = Dog()
        person.dogs.append(dog)
        person.dogs.append(objectsIn: [Dog(), dog])
        person.dogs.move(from: 0, to: 2)
        XCTAssertEqual(person.dogs.count, 3)
        XCTAssertEqual(person.dogs.index(of: dog), 1)
        XCTAssertNil(person.dogs.realm)
        XCTAssertFalse(person.dogs.isInvalidated)
        let list = List([1, 2, 3])
        list.swapAt(0, 2)
        list[1] = 5
        XCTAssertEqual(Array(list), [3, 5, 1])
        XCTAssertEqual(list.description, "List<Int>[3, 5, 1]")
        let set = MutableSet(["b", "a", "b"])
        set.formUnion(MutableSet(["c"]))
        XCTAssertEqual(Array(set), ["b", "a", "c"])
        XCTAssertNil(set.realm)
        let map = Map<String, Int>()
        map["b"] = 2
        map["a"] = 1
        XCTAssertEqual(map.keys, ["a", "b"])
        XCTAssertEqual(map.description, "Map<String, Int>[a: 1, b: 2]")
    }
}
