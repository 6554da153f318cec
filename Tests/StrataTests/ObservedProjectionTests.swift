import Foundation
import Observation
@testable import Strata
import XCTest

// `@ObservedRealmObject` and `@StateRealmObject` of a `Projection` (RealmSwift's
// `init(wrappedValue:) where ObjectType: ProjectionObservable`): the wrapped projection is
// frozen, follows commits to its projected object, and its `$`-bindings write implicitly.

final class ObservedProjectionTests: QuickWriteTestCase {
    private func addDog(_ realm: Realm) throws -> Dog {
        let dog = Dog(value: ["name": "Rex", "age": 3])
        try realm.write { realm.add(dog) }
        return dog
    }

    func testObservedProjectionFollowsCommitsAndWritesThroughItsBindings() throws {
        let realm = try open()
        let rex = try addDog(realm)
        @ObservedRealmObject var dogView = DogProjection(projecting: rex)
        XCTAssertTrue(dogView.isFrozen)
        XCTAssertEqual(dogView.name, "Rex")
        let fired = track { _ = dogView.name }
        $dogView.name.wrappedValue = "Max"
        XCTAssertEqual(rex.name, "Max", "the binding wrote the projected object's property")
        wait(for: fired, toReach: 1)
        spin(until: { dogView.name == "Max" })
        $dogView.years.wrappedValue = 4
        XCTAssertEqual(rex.age, 4)
        $dogView.delete()
        XCTAssertTrue(rex.isInvalidated)
        spin(until: { dogView.realm == nil })
        XCTAssertEqual(dogView.name, "", "a deleted object reads as a projection of a new unmanaged one")
        XCTAssertEqual(reported.value, [])
    }

    func testStateProjectionCanBeReplacedAndWritesThroughItsBinding() throws {
        let realm = try open()
        let rex = try addDog(realm)
        let bo = Dog(value: ["name": "Bo", "age": 7])
        try realm.write { realm.add(bo) }
        @StateRealmObject var dogView = DogProjection(projecting: rex)
        XCTAssertEqual(dogView.name, "Rex")
        dogView = DogProjection(projecting: bo)
        XCTAssertEqual(dogView.name, "Bo")
        XCTAssertTrue(dogView.isFrozen)
        $dogView.name.wrappedValue = "Bobo"
        XCTAssertEqual(bo.name, "Bobo")
        XCTAssertEqual(rex.name, "Rex")
        spin(until: { dogView.name == "Bobo" })
        XCTAssertEqual(reported.value, [])
    }
}
