import Foundation
import Strata
import StrataTestSupport
import XCTest

/// `where { }` through `LinkingObjects` properties.
final class QueryLinkingObjectsTests: SeedTestCase {
    func testPathsThroughLinkingObjects() throws {
        let realm = try open()
        try realm.write {
            let rex = Dog(value: ["name": "Rex"])
            let bo = Dog(value: ["name": "Bo"])
            realm.add(Dog(value: ["name": "Stray"]))
            for (id, name, dogs) in [(1, "Ann", [rex]), (2, "Bob", [rex, bo])] {
                let person = Person()
                person.id = id
                person.name = name
                person.dogs.append(objectsIn: dogs)
                realm.add(person)
            }
        }
        let dogs = realm.objects(Dog.self)
        XCTAssertEqual(dogs.where { $0.owners.name == "Ann" }.map(\.name), ["Rex"])
        XCTAssertEqual(dogs.where { $0.owners.name == "Bob" }.map(\.name), ["Rex", "Bo"])
        XCTAssertEqual(dogs.where { $0.owners.count > 0 }.map(\.name), ["Rex", "Bo"])
        XCTAssertEqual(dogs.where { $0.owners.count == 0 }.map(\.name), ["Stray"])
        XCTAssertEqual(dogs.where { $0.owners.id > 1 && $0.name != "Rex" }.map(\.name), ["Bo"])
    }
}
