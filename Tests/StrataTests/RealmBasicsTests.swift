import Foundation
import Strata
import StrataTestSupport
import XCTest

final class RealmBasicsTests: TemporaryDirectoryTestCase {
    var dir: String { temporaryDirectory.path }

    override func setUp() {
    }

    override func tearDown() {
    }

    func config(_ name: String = "test.realm") -> Realm.Configuration {
        Realm.Configuration(fileURL: URL(fileURLWithPath: dir + "/" + name))
    }

    /// `count` of a one-comparison query is counted from the rows' bytes (no keys collected);
    /// it must agree with the collected keys before and after writes, inside a write (uncommitted
    /// rows), and with a frozen copy that keeps its version.
    func testCountOfASimpleComparisonTracksWrites() throws {
        let realm = try Realm(configuration: config())
        try realm.write {
            for i in 0..<500 { realm.create(Dog.self, value: ["name": "d\(i)", "age": i % 20]) }
        }
        let old = realm.objects(Dog.self).where { $0.age > 14 }
        XCTAssertEqual(old.count, 125)
        XCTAssertEqual(Array(old).count, 125, "count agrees with the objects iterated")
        let frozen = old.freeze()
        try realm.write {
            for dog in realm.objects(Dog.self).where({ $0.age == 3 }) { dog.age = 30 }
            XCTAssertEqual(old.count, 150, "inside the write: the uncommitted changes count")
            realm.create(Dog.self, value: ["name": "new", "age": 99])
            XCTAssertEqual(old.count, 151)
        }
        XCTAssertEqual(old.count, 151)
        XCTAssertEqual(realm.objects(Dog.self).filter("age > %@", 14).count, 151)
        XCTAssertEqual(old.map(\.name).count, 151, "the keys, evaluated now, agree")
        XCTAssertEqual(frozen.count, 125, "a frozen copy keeps its version")
    }

    func testAddReadUpdateDeleteAndReopen() throws {
        do {
            let realm = try Realm(configuration: config())
            let dog = Dog()
            dog.name = "Rex"
            dog.age = 10
            try realm.write { realm.add(dog) }
            XCTAssertNotNil(dog.realm)
            XCTAssertEqual(dog.name, "Rex")
            try realm.write { dog.age = 11 }
            XCTAssertEqual(dog.age, 11)
            XCTAssertEqual(realm.objects(Dog.self).count, 1)
        }
        let realm = try Realm(configuration: config())
        let dogs = realm.objects(Dog.self)
        XCTAssertEqual(dogs.count, 1)
        XCTAssertEqual(dogs.first?.name, "Rex")
        XCTAssertEqual(dogs.first?.age, 11)
        let d = dogs[0]
        try realm.write { realm.delete(d) }
        XCTAssertTrue(d.isInvalidated)
        XCTAssertEqual(realm.objects(Dog.self).count, 0)
    }

    func testPrimaryKeyLookupUpsertAndDuplicate() throws {
        let realm = try Realm(configuration: config())
        try realm.write {
            let person1 = Person(value: ["id": 1234, "name": "Jones"])
            realm.add(person1, update: .modified)
            let person2 = Person(value: ["id": 1234, "name": "Bowie"])
            realm.add(person2, update: .modified)
        }
        XCTAssertEqual(realm.objects(Person.self).count, 1)
        XCTAssertEqual(realm.object(ofType: Person.self, forPrimaryKey: 1234)?.name, "Bowie")
        XCTAssertThrowsError(try realm.write { realm.add(Person(value: ["id": 1234, "name": "Dup"])) }) { error in
            XCTAssertEqual((error as? Realm.Error)?.realmCode, .primaryKeyExists)
            XCTAssertTrue("\(error)".contains("1234"), "\(error)")
        }
        XCTAssertEqual(realm.object(ofType: Person.self, forPrimaryKey: 1234)?.name, "Bowie")
    }

    func testLinksListsAndBacklinks() throws {
        let realm = try Realm(configuration: config())
        try realm.write {
            realm.create(Person.self, value: ["id": 123, "dogs": [["Buster", 5, nil, nil]]], update: .modified)
        }
        let p = realm.object(ofType: Person.self, forPrimaryKey: 123)!
        XCTAssertEqual(p.dogs.count, 1)
        XCTAssertEqual(p.dogs[0].name, "Buster")
        XCTAssertEqual(p.dogs[0].age, 5)
        XCTAssertEqual(p.dogs[0].owners.count, 1)
        XCTAssertEqual(p.dogs[0].owners.first?.id, 123)
        let buster = p.dogs[0]
        try realm.write { realm.delete(buster) }
        XCTAssertEqual(p.dogs.count, 0)
    }

    func testJSONCreate() throws {
        let data = "{\"name\": \"Tennis ball\", \"unknown\": 3}".data(using: .utf8)!
        let realm = try Realm(configuration: config())
        try realm.write {
            let json = try! JSONSerialization.jsonObject(with: data, options: [])
            realm.create(DogToy.self, value: json)
        }
        XCTAssertEqual(realm.objects(DogToy.self).first?.name, "Tennis ball")
    }

    func testOverlongIndexedStringFailsTheWholeWrite() throws {
        let realm = try Realm(configuration: config())
        let long = String(repeating: "x", count: 20_000)
        XCTAssertThrowsError(
            try realm.write {
                realm.add(Item(value: ["status": "open", "title": "first"]))
                realm.add(Item(value: ["status": long, "title": "second"]))
            }
        ) { error in
            XCTAssertEqual((error as? Realm.Error)?.realmCode, .invalidValue)
            XCTAssertTrue("\(error)".contains("Item.status"), "\(error)")
        }
        XCTAssertEqual(realm.objects(Item.self).count, 0)
        try realm.write { realm.add(Item(value: ["status": "open", "title": "ok"])) }
        XCTAssertEqual(realm.objects(Item.self).count, 1)
    }

    func testAggregatesMatchABruteForceFold() throws {
        let realm = try Realm(configuration: config())
        var rng = SystemRandomNumberGenerator()
        var model: [(priority: Int, score: Double)] = []
        try realm.write {
            for i in 0..<500 {
                let p = Int.random(in: -50...50, using: &rng)
                let s = Double.random(in: -10...10, using: &rng)
                model.append((p, s))
                realm.add(Item(value: ["status": i % 3 == 0 ? "open" : "done", "priority": p, "score": s]))
            }
        }
        let all = realm.objects(Item.self)
        XCTAssertEqual(all.sum(ofProperty: "priority") as Int, model.map(\.priority).reduce(0, +))
        XCTAssertEqual(all.sum(ofProperty: "score") as Double, model.map(\.score).reduce(0, +), accuracy: 1e-9)
        XCTAssertEqual(all.min(ofProperty: "priority") as Int?, model.map(\.priority).min())
        XCTAssertEqual(all.max(ofProperty: "score") as Double?, model.map(\.score).max())
        let positive = all.filter("priority > 0")
        let expected = model.filter { $0.priority > 0 }
        XCTAssertEqual(positive.count, expected.count)
        XCTAssertEqual(positive.sum(ofProperty: "score") as Double, expected.map(\.score).reduce(0, +), accuracy: 1e-9)
        XCTAssertEqual(
            positive.average(ofProperty: "priority") as Double?,
            Double(expected.map(\.priority).reduce(0, +)) / Double(expected.count))
        XCTAssertEqual(positive.min(ofProperty: "priority") as Int?, expected.map(\.priority).min())
        let open = all.where { $0.status == "open" }
        XCTAssertEqual(open.count, 167)
        XCTAssertNil(all.filter("priority > 1000").average(ofProperty: "score") as Double?)
    }
}
