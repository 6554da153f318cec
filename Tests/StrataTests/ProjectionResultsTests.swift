import Foundation
import Strata
import StrataTestSupport
import XCTest

/// `realm.objects(SomeProjection.self)` is a `Results` of the projection class, as in RealmSwift:
/// declared as `Results<P>`, queried in both forms on the projected class's properties, sorted,
/// iterated, aggregated, observed, frozen and thawed, and usable where generic code takes a
/// `RealmCollection`.
final class ProjectionResultsTests: SeedTestCase {
    private func addPeople(_ realm: Realm) throws {
        try realm.write {
            let ann = Person(value: ["id": 1, "name": "Ann"])
            ann.address = Address(value: ["street": "Main St", "city": "Oslo"])
            ann.dogs.append(objectsIn: [Dog(value: ["name": "Rex", "age": 3]), Dog(value: ["name": "Bo", "age": 5])])
            realm.add(ann)
            realm.add(Person(value: ["id": 2, "name": "Bob"]))
            realm.add(Person(value: ["id": 3, "name": "Cy"]))
        }
    }

    private func names<C: RealmCollection>(_ collection: C) -> [String] where C.Element == PersonProjection {
        collection.map(\.displayName)
    }

    func testObjectsOfAProjectionClassAreResultsOfProjections() throws {
        let realm = try open()
        try addPeople(realm)
        let people: Results<PersonProjection> = realm.objects(PersonProjection.self)
        XCTAssertEqual(people.count, 3)
        XCTAssertEqual(people.first?.name, "Ann")
        XCTAssertEqual(people.last?.displayName, "Cy")
        XCTAssertEqual(people[0].homeCity, "Oslo")
        XCTAssertEqual(Array(people[0].dogNames), ["Rex", "Bo"])
        var iterated: [String] = []
        for person in people { iterated.append(person.nameCaps) }
        XCTAssertEqual(iterated, ["ANN", "BOB", "CY"], "iteration projects every object")
        XCTAssertEqual(names(people), ["Ann", "Bob", "Cy"], "Results<P> is a RealmCollection")
        XCTAssertEqual(people.first?.rootObject, realm.object(ofType: Person.self, forPrimaryKey: 1))
        XCTAssertEqual(people.description, "Results<PersonProjection>(count: 3)")
    }

    func testProjectionResultsQuerySortAndAggregateOnTheProjectedClass() throws {
        let realm = try open()
        try addPeople(realm)
        let people = realm.objects(PersonProjection.self)
        let bob = people.filter("name == 'Bob'").first!
        XCTAssertEqual(bob.displayName, "Bob")
        XCTAssertNil(bob.homeCity)
        let notAnn: Results<PersonProjection> = people.where { $0.name != "Ann" && $0.id > 1 }
        XCTAssertEqual(notAnn.map(\.name), ["Bob", "Cy"])
        XCTAssertEqual(people.where { $0.dogs.age > 4 }.map(\.name), ["Ann"], "key paths through lists")
        XCTAssertEqual(people.sorted(byKeyPath: "name", ascending: false).map(\.name), ["Cy", "Bob", "Ann"])
        XCTAssertEqual(
            people.sorted(by: [SortDescriptor(keyPath: "id", ascending: false)]).first?.name, "Cy")
        XCTAssertEqual(people.max(ofProperty: "id") as Int?, 3)
        XCTAssertEqual(people.sum(ofProperty: "id") as Int, 6)
        XCTAssertEqual(people.distinct(by: ["name"]).count, 3)
        XCTAssertEqual(people.index(of: bob), 1)
    }

    func testFrozenProjectionResultsKeepTheirVersionAndThaw() throws {
        let realm = try open()
        try addPeople(realm)
        let people = realm.objects(PersonProjection.self)
        let frozen: Results<PersonProjection> = people.where { $0.name.starts(with: "B") }.freeze()
        try realm.write {
            realm.add(Person(value: ["id": 4, "name": "Bea"]))
            realm.object(ofType: Person.self, forPrimaryKey: 2)!.name = "Bart"
        }
        XCTAssertTrue(frozen.isFrozen)
        XCTAssertEqual(frozen.map(\.name), ["Bob"])
        XCTAssertTrue(frozen[0].isFrozen, "elements of frozen results project frozen objects")
        nonisolated(unsafe) let shared = frozen
        let read = Locked<String>("")
        let done = expectation(description: "read on another thread")
        Thread.detachNewThread {
            read.value = shared.map(\.displayName).joined(separator: ",")
            done.fulfill()
        }
        wait(for: [done], timeout: 10)
        XCTAssertEqual(read.value, "Bob")
        let thawed = try XCTUnwrap(frozen.thaw())
        XCTAssertFalse(thawed.isFrozen)
        XCTAssertEqual(thawed.map(\.name), ["Bart", "Bea"])
    }

    func testObservingProjectionResultsDeliversProjectionsAndPositions() throws {
        let realm = try open()
        try addPeople(realm)
        let bees = realm.objects(PersonProjection.self).where { $0.name.starts(with: "B") }
        var events: [String] = []
        let token = bees.observe { change in
            switch change {
            case .initial(let people): events.append("initial \(people.map(\.displayName))")
            case .update(let people, let d, let i, let m):
                events.append("update \(people.map(\.displayName)) \(d) \(i) \(m)")
            case .error(let e): events.append("error \(e)")
            }
        }
        spin(until: { events.count == 1 })
        try realm.write { realm.add(Person(value: ["id": 4, "name": "Bea"])) }
        spin(until: { events.count == 2 })
        XCTAssertEqual(events, ["initial [\"Bob\"]", "update [\"Bob\", \"Bea\"] [] [1] []"])
        token.invalidate()
    }

    @available(*, deprecated)
    func testDeprecatedProjectionResultsNameIsTheResultsType() throws {
        let realm = try open()
        try addPeople(realm)
        let people: ProjectionResults<DogProjection> = realm.objects(DogProjection.self)
        XCTAssertEqual(people.sorted(byKeyPath: "age").map(\.years), [3, 5])
    }
}
