import Foundation
import Strata
import StrataTestSupport
import XCTest

/// `SORT`, `DISTINCT` and `LIMIT` in a query string order and limit `Results` (and list queries)
/// as the equivalent methods do; `checkedFilter` throws for a query that does not parse or does
/// not fit the schema, where `filter` reports through `Realm.violationHandler`.
final class QueryStringOrderingTests: SeedTestCase {
    private func addDogs(_ realm: Realm) throws {
        try realm.write {
            for (name, age) in [("Rex", 5), ("Bo", 2), ("Ada", 8), ("Bo", 3), ("Max", 1), ("Ada", 4)] {
                realm.add(Dog(value: ["name": name, "age": age]))
            }
        }
    }

    func testSortDistinctAndLimitClauses() throws {
        let realm = try open()
        try addDogs(realm)
        let dogs = realm.objects(Dog.self)
        XCTAssertEqual(dogs.filter("age > 1 SORT(age DESC)").map(\.age), [8, 5, 4, 3, 2])
        XCTAssertEqual(dogs.filter("TRUEPREDICATE SORT(name ASC, age DESC)").map(\.age), [8, 4, 3, 2, 1, 5])
        XCTAssertEqual(
            dogs.filter("TRUEPREDICATE SORT(age ASC) SORT(name ASC)").map(\.age), [4, 8, 2, 3, 1, 5],
            "a later SORT decides first; the earlier one breaks ties")
        XCTAssertEqual(dogs.filter("age > 0 SORT(age ASC) DISTINCT(name)").map(\.name), ["Max", "Bo", "Ada", "Rex"])
        XCTAssertEqual(dogs.filter("age > 0 SORT(age DESC) LIMIT(2)").map(\.age), [8, 5])
        XCTAssertEqual(dogs.filter("age > 2 LIMIT(2)").map(\.age), [5, 8], "the first two in key order")
        let limited = dogs.filter("age > 0 SORT(age DESC) LIMIT(3)")
        XCTAssertEqual(limited.count, 3)
        XCTAssertEqual(limited.sum(ofProperty: "age") as Int, 17, "aggregates see only the limited objects")
        XCTAssertEqual(
            limited.filter("name != 'Rex'").map(\.age), [8, 4, 3], "a later filter applies before the limit")
        XCTAssertEqual(dogs.filter("age > 100 LIMIT(3)").count, 0)
        XCTAssertEqual(dogs.filter("TRUEPREDICATE LIMIT(0)").count, 0)
        try realm.write {
            let person = Person()
            person.id = 1
            person.dogs.append(objectsIn: dogs.filter("TRUEPREDICATE SORT(age ASC)"))
            realm.add(person)
        }
        let person = try XCTUnwrap(realm.object(ofType: Person.self, forPrimaryKey: 1))
        XCTAssertEqual(person.dogs.filter("age > 1 LIMIT(2)").map(\.age), [2, 3], "a list's order, then the limit")
    }

    func testSortingALimitedResultIsRefusedNotWrong() throws {
        let realm = try open()
        try addDogs(realm)
        let sorted = realm.objects(Dog.self).filter("age > 0 LIMIT(2)").sorted(byKeyPath: "age")
        XCTAssertEqual(sorted.count, 0)
        XCTAssertEqual(takeViolations().count, 1)
    }

    func testCheckedFilterThrowsWhatFilterWouldReport() throws {
        let realm = try open()
        try addDogs(realm)
        let dogs = realm.objects(Dog.self)
        XCTAssertEqual(try dogs.checkedFilter("age > %@ SORT(age ASC)", 3).map(\.age), [4, 5, 8])
        let bad: [(String, [Any], String)] = [
            ("labels[0] == 'blue'", [], "column 7"),
            ("age >", [], "column 6"),
            ("weight > 3", [], "weight"),
            ("name > %@", [Data()], "name"),
            ("age > %@ AND name == %@", [3], "2 arguments"),
            ("age > 3 SORT(age)", [], "ASC or DESC"),
        ]
        for (text, args, mentions) in bad {
            XCTAssertThrowsError(try dogs.checkedFilter(text, arguments: args), text) { error in
                guard let error = error as? Realm.Error else { return XCTFail("\(text): \(error)") }
                XCTAssertEqual(error.realmCode, .invalidQuery, text)
                XCTAssertTrue("\(error)".contains(mentions), "\(text): \(error)")
            }
        }
        XCTAssertEqual(takeViolations(), [], "checkedFilter reports nothing through the violation handler")
        XCTAssertEqual(dogs.filter("labels[0] == 'blue'").count, 0)
        XCTAssertEqual(takeViolations().count, 1, "filter reports it")
    }
}
