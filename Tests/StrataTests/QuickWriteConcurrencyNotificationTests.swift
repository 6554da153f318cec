import Foundation
import Observation
@testable import Strata
import XCTest

// Quick writes through bindings of frozen objects while another thread commits to the same
// objects: each write lands whole, none is lost.

final class QuickWriteConcurrencyNotificationTests: ObservationTestCase {
    func testBindingWritesFromAFrozenObjectWhileAnotherThreadWrites() throws {
        let realm = try open()
        let rex = QuickDog(value: ["name": "Rex", "favoriteToy": "ball"])
        try realm.write { realm.add(rex) }
        let id = rex._id
        @ObservedRealmObject var dog = rex
        let rounds = 40
        let config = self.config()
        let done = DispatchSemaphore(value: 0)
        Thread {
            let other = try! Realm(configuration: config)
            for i in 0..<rounds {
                try! other.write { other.object(ofType: QuickDog.self, forPrimaryKey: id)!.weight = i }
            }
            done.signal()
        }.start()
        for i in 0..<rounds {
            $dog.favoriteToy.wrappedValue = "toy \(i)"
        }
        done.wait()
        realm.refresh()
        XCTAssertEqual(rex.favoriteToy, "toy \(rounds - 1)")
        XCTAssertEqual(rex.weight, rounds - 1)
        spin(until: { dog.favoriteToy == "toy \(rounds - 1)" && dog.weight == rounds - 1 })
        XCTAssertEqual(violations, [])
    }

    func testTrackingsOnTwoThreadsEachFireOnce() throws {
        let realm = try open()
        let rex = QuickDog(value: ["name": "Rex"])
        try realm.write { realm.add(rex) }
        let frozen = UncheckedSendable(rex.freeze())
        let fired = Locked(0)
        let registered = DispatchSemaphore(value: 0)
        Thread {
            withObservationTracking {
                _ = frozen.value.name
            } onChange: {
                fired.mutate { $0 += 1 }
            }
            registered.signal()
        }.start()
        registered.wait()
        let here = track { _ = rex.name }
        try realm.write { rex.name = "Max" }
        wait(for: here, toReach: 1)
        spin(until: { fired.value == 1 })
        try realm.write { rex.name = "Bo" }
        settle(realm)
        XCTAssertEqual(fired.value, 1)
        XCTAssertEqual(here.value, 1)
    }
}
