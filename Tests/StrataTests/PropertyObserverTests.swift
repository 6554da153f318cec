import Foundation
import Strata
import XCTest

/// `willSet`/`didSet` on `@Persisted` properties run when Swift code assigns the property, on
/// unmanaged and managed objects alike, and not when Strata fills in an object from given or
/// stored values (as RealmSwift, which writes those through the property's storage).
final class PropertyObserverTests: SeedTestCase {
    func testObserversRunOnAssignmentToAnUnmanagedObject() {
        let dog = ObservedDog()
        dog.name = "Rex"
        dog.age = 3
        XCTAssertEqual(dog.log, ["willSet  -> Rex", "didSet  -> Rex", "age 0 -> 3"])
        XCTAssertEqual(dog.name, "Rex")
    }

    func testObserversRunOnAssignmentToAManagedObjectAndSeeTheStoredValues() throws {
        do {
            let realm = try open()
            let dog = ObservedDog()
            dog.name = "Rex"
            try realm.write { realm.add(dog) }
            dog.log = []
            try realm.write {
                dog.name = "Max"
                dog.age += 2
            }
            XCTAssertEqual(dog.log, ["willSet Rex -> Max", "didSet Rex -> Max", "age 0 -> 2"])
        }
        let dog = try XCTUnwrap(try open().objects(ObservedDog.self).first)
        XCTAssertEqual(dog.name, "Max")
        XCTAssertEqual(dog.age, 2)
        XCTAssertEqual(dog.log, [])
    }

    func testObserversDoNotRunWhenStrataFillsInAnObject() throws {
        let fromValue = ObservedDog(value: ["name": "Bo", "age": 4])
        XCTAssertEqual(fromValue.name, "Bo")
        XCTAssertEqual(fromValue.age, 4)
        XCTAssertEqual(fromValue.log, [])

        let realm = try open()
        try realm.write {
            let created = realm.create(ObservedDog.self, value: ["name": "Ace", "age": 1])
            XCTAssertEqual(created.log, [])
        }
        let stored = try XCTUnwrap(realm.objects(ObservedDog.self).where { $0.name == "Ace" }.first)
        XCTAssertEqual(stored.age, 1)
        XCTAssertEqual(stored.log, [])
        let copy = stored.detached()
        XCTAssertEqual(copy.name, "Ace")
        XCTAssertEqual(copy.log, [])
    }
}
