import Foundation
import Strata
import StrataTestSupport
import XCTest

/// A list of objects with an indexed property, for list queries an index answers.
class QueryTeam: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var members: List<Item>
}

/// Queries, sorting and aggregates of `List`, `MutableSet` and `LinkingObjects` properties, run by the store over the
/// collection's objects: results keep the collection's order (and repeated elements), follow the
/// collection as it changes, and agree with a plain Swift evaluation of the same predicate both
/// when the store reads the elements one by one (a short list) and when it scans the table beside
/// them (a list holding much of the table).
final class CollectionQueryTests: SeedTestCase {
    private func makeDogs(_ realm: Realm, count: Int, _ rng: inout SeededRandom) -> [Dog] {
        let names = ["Rex", "Maui", "Ben", "Bella", "Bo", "Luna", "Max"]
        let breeds: [String?] = [nil, "beagle", "collie", "pug"]
        var dogs: [Dog] = []
        for _ in 0..<count {
            let dog = Dog()
            dog.name = names[rng.below(names.count)]
            dog.age = rng.below(20)
            dog.breed = breeds[rng.below(breeds.count)]
            realm.add(dog)
            dogs.append(dog)
        }
        return dogs
    }

    private func describe<S: Sequence>(_ dogs: S) -> [String] where S.Element == Dog {
        dogs.map { "\($0.name)/\($0.age)/\($0.breed ?? "-")" }
    }

    func testWhereOnAListKeepsTheListOrderAndItsRepeatedElements() throws {
        let realm = try open()
        try realm.write {
            let person = Person()
            person.id = 1
            let rex = Dog(value: ["name": "Rex", "age": 5])
            let maui = Dog(value: ["name": "Maui", "age": 2])
            let ben = Dog(value: ["name": "Ben", "age": 9])
            person.dogs.append(objectsIn: [ben, maui, rex, ben, maui])
            realm.add(person)
        }
        let person = try XCTUnwrap(realm.object(ofType: Person.self, forPrimaryKey: 1))
        XCTAssertEqual(person.dogs.where { $0.age > 3 }.map(\.name), ["Ben", "Rex", "Ben"])
        XCTAssertEqual(person.dogs.filter("age < %@", 6).map(\.name), ["Maui", "Rex", "Maui"])
        XCTAssertEqual(person.dogs.filter("name BEGINSWITH 'M'").count, 2)
        XCTAssertEqual(person.dogs.sorted(byKeyPath: "age").map(\.name), ["Maui", "Maui", "Rex", "Ben", "Ben"])
        XCTAssertEqual(
            person.dogs.sorted(by: [SortDescriptor(keyPath: "name", ascending: false)]).map(\.name),
            ["Rex", "Maui", "Maui", "Ben", "Ben"])
        XCTAssertEqual(person.dogs.distinct(by: ["name"]).map(\.name), ["Ben", "Maui", "Rex"])
        XCTAssertEqual(person.dogs.where { $0.age > 3 }.where { $0.name == "Rex" }.count, 1)
        XCTAssertEqual(person.dogs.sum(ofProperty: "age") as Int, 9 + 2 + 5 + 9 + 2)
        XCTAssertEqual(person.dogs.min(ofProperty: "age") as Int?, 2)
        XCTAssertEqual(person.dogs.max(ofProperty: "name") as String?, "Rex")
        XCTAssertEqual(try XCTUnwrap(person.dogs.average(ofProperty: "age") as Double?), 27.0 / 5, accuracy: 1e-9)
        XCTAssertEqual(person.dogs.where { $0.age > 3 }.sum(ofProperty: "age") as Int, 23)
        XCTAssertEqual(realm.objects(Dog.self).count, 3, "the query did not touch the other dogs")
    }

    func testListQueriesAnIndexAnswersKeepOnlyTheListsObjects() throws {
        let realm = try open()
        try realm.write {
            var items: [Item] = []
            for i in 0..<300 {
                let item = Item()
                item._id = ObjectId.generate()
                item.status = ["open", "done", "blocked"][i % 3]
                item.priority = i
                items.append(item)
            }
            realm.add(items)
            let team = QueryTeam()
            team.id = 1
            team.members.append(objectsIn: [items[9], items[3], items[4], items[3], items[6], items[7]])
            realm.add(team)
        }
        let team = try XCTUnwrap(realm.object(ofType: QueryTeam.self, forPrimaryKey: 1))
        XCTAssertEqual(team.members.where { $0.status == "open" }.map(\.priority), [9, 3, 3, 6])
        XCTAssertEqual(team.members.filter("status IN {'done', 'blocked'}").map(\.priority), [4, 7])
        XCTAssertEqual(team.members.where { $0.status == "open" }.sum(ofProperty: "priority") as Int, 21)
        XCTAssertEqual(realm.objects(Item.self).where { $0.status == "open" }.count, 100)
    }

    func testLinkingObjectsQueriesFindTheLinkingObjects() throws {
        let realm = try open()
        let rex = Dog(value: ["name": "Rex", "age": 5])
        try realm.write {
            realm.add(rex)
            for (id, name) in [(1, "Ann"), (2, "Bob"), (3, "Cid"), (4, "Abe")] {
                let person = Person()
                person.id = id
                person.name = name
                if id != 3 { person.dogs.append(rex) }
                if id == 4 { person.dogs.append(rex) }
                realm.add(person)
            }
        }
        XCTAssertEqual(rex.owners.where { $0.name.starts(with: "A") }.map(\.id), [1, 4])
        XCTAssertEqual(rex.owners.filter("id > %@", 1).map(\.name), ["Bob", "Abe"])
        XCTAssertEqual(rex.owners.sorted(byKeyPath: "name").map(\.name), ["Abe", "Ann", "Bob"])
        XCTAssertEqual(rex.owners.sum(ofProperty: "id") as Int, 7)
        XCTAssertEqual(rex.owners.max(ofProperty: "name") as String?, "Bob")
        let starting = rex.owners.where { $0.name.starts(with: "C") }
        XCTAssertEqual(starting.count, 0)
        try realm.write { realm.object(ofType: Person.self, forPrimaryKey: 3)!.dogs.append(rex) }
        XCTAssertEqual(starting.map(\.name), ["Cid"], "the results follow the links")
        XCTAssertEqual(Dog().owners.where { $0.id > 0 }.count, 0, "an unmanaged object has no linking objects")
    }

    func testListQueryResultsAreLiveAndEmptyOnceTheOwnerIsDeleted() throws {
        let realm = try open()
        try realm.write {
            let person = Person()
            person.id = 1
            person.dogs.append(Dog(value: ["name": "Rex", "age": 5]))
            realm.add(person)
            realm.add(Dog(value: ["name": "Stray", "age": 7]))
        }
        let person = try XCTUnwrap(realm.object(ofType: Person.self, forPrimaryKey: 1))
        let old = person.dogs.where { $0.age > 3 }
        XCTAssertEqual(old.map(\.name), ["Rex"])
        try realm.write {
            person.dogs.insert(Dog(value: ["name": "Ada", "age": 11]), at: 0)
            person.dogs.append(Dog(value: ["name": "Pup", "age": 1]))
            XCTAssertEqual(old.map(\.name), ["Ada", "Rex"], "the write so far is seen inside it")
        }
        XCTAssertEqual(old.map(\.name), ["Ada", "Rex"])
        try realm.write { person.dogs.remove(at: 1) }
        XCTAssertEqual(old.map(\.name), ["Ada"])
        try realm.write { realm.delete(person) }
        XCTAssertEqual(old.count, 0)
        XCTAssertEqual(Array(old).count, 0)
        XCTAssertEqual(realm.objects(Dog.self).count, 4)
    }

    func testWhereOnASetOfObjects() throws {
        let realm = try open()
        try realm.write {
            let kennel = CollectionKennel()
            kennel.id = 1
            kennel.residents.insert(objectsIn: [
                Dog(value: ["name": "Rex", "age": 5]), Dog(value: ["name": "Maui", "age": 2]),
                Dog(value: ["name": "Ben", "age": 9]),
            ])
            realm.add(kennel)
            realm.add(Dog(value: ["name": "Outside", "age": 8]))
        }
        let kennel = try XCTUnwrap(realm.object(ofType: CollectionKennel.self, forPrimaryKey: 1))
        XCTAssertEqual(Set(kennel.residents.where { $0.age > 3 }.map(\.name)), ["Rex", "Ben"])
        XCTAssertEqual(kennel.residents.sorted(byKeyPath: "age", ascending: false).map(\.name), ["Ben", "Rex", "Maui"])
        XCTAssertEqual(kennel.residents.sum(ofProperty: "age") as Int, 16)
        XCTAssertEqual(kennel.residents.filter("age > 8").map(\.name), ["Ben"])
    }

    func testQueryingAnUnmanagedListIsReportedAndGivesNoResults() throws {
        let person = Person()
        person.dogs.append(Dog(value: ["name": "Rex", "age": 5]))
        let results = person.dogs.where { $0.age > 3 }
        XCTAssertEqual(results.count, 0)
        XCTAssertEqual(
            takeViolations(), ["This method may only be called on RLMArray instances retrieved from an RLMRealm"])
    }

    func testFrozenListQueriesReadTheFrozenVersion() throws {
        let realm = try open()
        try realm.write {
            let person = Person()
            person.id = 1
            person.dogs.append(objectsIn: [
                Dog(value: ["name": "Rex", "age": 5]), Dog(value: ["name": "Bo", "age": 1]),
            ])
            realm.add(person)
        }
        let person = try XCTUnwrap(realm.object(ofType: Person.self, forPrimaryKey: 1))
        let frozen = person.freeze()
        try realm.write { person.dogs.append(Dog(value: ["name": "Ada", "age": 11])) }
        XCTAssertEqual(frozen.dogs.where { $0.age > 3 }.map(\.name), ["Rex"])
        XCTAssertEqual(person.dogs.where { $0.age > 3 }.map(\.name), ["Rex", "Ada"])
        let fromFrozen = frozen.dogs.where { $0.age > 0 }
        let names = Locked<[String]>([])
        let sent = Unchecked(fromFrozen)
        let done = expectation(description: "read on another thread")
        DispatchQueue.global().async {
            names.mutate { $0 = sent.value.map(\.name) }
            done.fulfill()
        }
        wait(for: [done], timeout: 30)
        XCTAssertEqual(names.value, ["Rex", "Bo"], "frozen list results read from another thread")
    }

    /// Random lists and sets of random dogs, random predicates in both query forms, checked
    /// against Swift's evaluation of the same predicate over the collection's elements: the
    /// matches in order, their count, sorted and distinct forms, and aggregates. One list is long
    /// enough (a large share of the table) for the store to scan the table beside it; the other is
    /// short, read one element at a time.
    func testListAndSetQueriesAgreeWithSwiftEvaluation() throws {
        let realm = try open()
        var rng = SeededRandom(seed: 2_026)
        try realm.write {
            let dogs = makeDogs(realm, count: 6_000, &rng)
            let long = Person()
            long.id = 1
            for _ in 0..<5_000 { long.dogs.append(dogs[rng.below(dogs.count)]) }
            let short = Person()
            short.id = 2
            for _ in 0..<40 { short.dogs.append(dogs[rng.below(dogs.count)]) }
            realm.add([long, short])
            let kennel = CollectionKennel()
            kennel.id = 1
            for _ in 0..<3_000 { kennel.residents.insert(dogs[rng.below(dogs.count)]) }
            realm.add(kennel)
        }
        let long = try XCTUnwrap(realm.object(ofType: Person.self, forPrimaryKey: 1))
        let short = try XCTUnwrap(realm.object(ofType: Person.self, forPrimaryKey: 2))
        let kennel = try XCTUnwrap(realm.object(ofType: CollectionKennel.self, forPrimaryKey: 1))

        typealias Case = (
            label: String, format: String, args: [Any], query: (Query<Dog>) -> Query<Bool>, swift: (Dog) -> Bool
        )
        let names = ["Rex", "Maui", "Ben", "Bella", "Bo", "Luna", "Max"]
        for round in 0..<24 {
            let k = rng.below(20)
            let name = names[rng.below(names.count)]
            let prefix = String(name.prefix(1 + rng.below(2)))
            let cases: [Case] = [
                ("age > \(k)", "age > %@", [k], { $0.age > k }, { $0.age > k }),
                ("age <= \(k)", "age <= %@", [k], { $0.age <= k }, { $0.age <= k }),
                ("name == \(name)", "name == %@", [name], { $0.name == name }, { $0.name == name }),
                (
                    "name BEGINSWITH \(prefix)", "name BEGINSWITH %@", [prefix], { $0.name.starts(with: prefix) },
                    { $0.name.hasPrefix(prefix) }
                ),
                ("breed == nil", "breed == nil", [], { $0.breed == nil }, { $0.breed == nil }),
                (
                    "age > \(k) AND name != \(name)", "age > %@ AND name != %@", [k, name],
                    { $0.age > k && $0.name != name }, { $0.age > k && $0.name != name }
                ),
                (
                    "age < \(k) OR breed == pug", "age < %@ OR breed == 'pug'", [k],
                    { $0.age < k || $0.breed == "pug" }, { $0.age < k || $0.breed == "pug" }
                ),
            ]
            let c = cases[round % cases.count]
            for (label, elements, viaFormat, viaWhere) in [
                (
                    "long list", Array(long.dogs), long.dogs.filter(c.format, arguments: c.args),
                    long.dogs.where(c.query)
                ),
                (
                    "short list", Array(short.dogs), short.dogs.filter(c.format, arguments: c.args),
                    short.dogs.where(c.query)
                ),
                (
                    "set", Array(kennel.residents), kennel.residents.filter(c.format, arguments: c.args),
                    kennel.residents.where(c.query)
                ),
            ] {
                let what = "\(label), \(c.label)"
                let expected = elements.filter(c.swift)
                XCTAssertEqual(describe(viaFormat), describe(expected), what)
                XCTAssertEqual(describe(viaWhere), describe(expected), what)
                XCTAssertEqual(viaFormat.count, expected.count, what)
                XCTAssertEqual(viaWhere.sum(ofProperty: "age") as Int, expected.reduce(0) { $0 + $1.age }, what)
                XCTAssertEqual(viaWhere.max(ofProperty: "age") as Int?, expected.map(\.age).max(), what)
                XCTAssertEqual(viaFormat.min(ofProperty: "age") as Int?, expected.map(\.age).min(), what)
                let sortedExpected = expected.enumerated().sorted {
                    $0.element.age != $1.element.age ? $0.element.age > $1.element.age : $0.offset < $1.offset
                }.map(\.element)
                XCTAssertEqual(
                    describe(viaWhere.sorted(byKeyPath: "age", ascending: false)), describe(sortedExpected), what)
                var seen = Set<String>()
                let distinctExpected = expected.filter { seen.insert($0.name).inserted }
                XCTAssertEqual(describe(viaFormat.distinct(by: ["name"])), describe(distinctExpected), what)
            }
        }
        XCTAssertEqual(long.dogs.sum(ofProperty: "age") as Int, long.dogs.reduce(0) { $0 + $1.age })
        XCTAssertEqual(kennel.residents.count, Array(kennel.residents).count)
    }
}
