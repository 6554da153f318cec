import Foundation
import Observation
@testable import Strata
import XCTest

// The probe that tells whether a tracking collects reads on the calling thread, and the reads
// it keeps from being recorded: those made while tracking is enabled but no tracking runs.

final class ObservationProbeTests: ObservationTestCase {
    private func makeDog(_ realm: Realm) throws -> QuickDog {
        let dog = QuickDog(value: ["name": "Rex", "favoriteToy": "ball"])
        try realm.write { realm.add(dog) }
        return dog
    }

    func testProbeAnswersTrueOnlyInsideATracking() {
        XCTAssertTrue(ObservationProbe.isReliable, "this toolchain's Observation hashes the key paths it records")
        XCTAssertFalse(ObservationProbe.mayBeTracking)
        var inside = false
        var nested = false
        withObservationTracking {
            inside = ObservationProbe.mayBeTracking
            withObservationTracking {
                nested = ObservationProbe.mayBeTracking
            } onChange: {
            }
        } onChange: {
        }
        XCTAssertTrue(inside)
        XCTAssertTrue(nested)
        XCTAssertFalse(ObservationProbe.mayBeTracking)
    }

    func testProbeOfAnotherThreadAnswersFalseWhileThisThreadTracks() {
        let answer = Locked<Bool?>(nil)
        withObservationTracking {
            let done = DispatchSemaphore(value: 0)
            Thread {
                answer.mutate { $0 = ObservationProbe.mayBeTracking }
                done.signal()
            }.start()
            done.wait()
        } onChange: {
        }
        XCTAssertEqual(answer.value, false)
    }

    func testReadsOutsideAnyTrackingAreNotRecorded() throws {
        let realm = try open()
        let dog = try makeDog(realm)
        let hub = ObservationHub.hub(for: realm.file)
        XCTAssertEqual(dog.name, "Rex")
        XCTAssertEqual(realm.objects(QuickDog.self).count, 1)
        XCTAssertEqual(hub.recordedReadCount, 0, "no tracking ran: nothing to record")
        let fired = track { XCTAssertEqual(dog.name, "Rex") }
        XCTAssertEqual(hub.recordedReadCount, 1)
        try realm.write { dog.name = "Max" }
        wait(for: fired, toReach: 1)
        XCTAssertEqual(hub.recordedReadCount, 0)
    }

    func testReadsOnAThreadWithoutTrackingDoNotFireAnotherThreadsTracking() throws {
        let realm = try open()
        let dog = try makeDog(realm)
        let other = QuickDog(value: ["name": "Bella"])
        try realm.write { realm.add(other) }
        let otherID = other._id
        let config = self.config("test.realm")
        let fired = Locked(0)
        withObservationTracking {
            XCTAssertEqual(dog.name, "Rex")
            // Reads of another thread while this tracking runs are not this tracking's reads.
            let done = DispatchSemaphore(value: 0)
            Thread {
                let realm = try! Realm(configuration: config)
                _ = realm.object(ofType: QuickDog.self, forPrimaryKey: otherID)!.name
                done.signal()
            }.start()
            done.wait()
        } onChange: {
            fired.mutate { $0 += 1 }
        }
        try realm.write { other.name = "Luna" }
        settle(realm)
        XCTAssertEqual(fired.value, 0, "the other dog was read on another thread, outside the tracking")
        try realm.write { dog.name = "Max" }
        wait(for: fired, toReach: 1)
    }
}
