import Foundation
import Observation
@testable import Strata
import XCTest

// Observation's thread-local read directly: it answers whether a tracking collects reads on the
// calling thread, and with it a tracked read no longer passes through the probe's registrar.

final class ObservationTrackingSlotTests: ObservationTestCase {
    private func makeDog(_ realm: Realm) throws -> QuickDog {
        let dog = QuickDog(value: ["name": "Rex", "favoriteToy": "ball"])
        try realm.write { realm.add(dog) }
        return dog
    }

    func testSlotIsUsableWithThisToolchainAndTheGateUsesIt() {
        XCTAssertTrue(ObservationTrackingSlot.isUsable, "this toolchain's Observation keeps one thread-local pointer")
        XCTAssertTrue(ObservationGate.readsTrackingSlot)
    }

    func testSlotAnswersTrueOnlyInsideATracking() {
        XCTAssertFalse(ObservationTrackingSlot.isTracking)
        var inside = false
        var nested = false
        var afterNested = false
        withObservationTracking {
            inside = ObservationTrackingSlot.isTracking
            withObservationTracking {
                nested = ObservationTrackingSlot.isTracking
            } onChange: {
            }
            afterNested = ObservationTrackingSlot.isTracking
        } onChange: {
        }
        XCTAssertTrue(inside)
        XCTAssertTrue(nested)
        XCTAssertTrue(afterNested, "the outer tracking still runs after the nested one ended")
        XCTAssertFalse(ObservationTrackingSlot.isTracking)
    }

    func testSlotOfAnotherThreadAnswersFalseWhileThisThreadTracks() {
        let answer = Locked<Bool?>(nil)
        withObservationTracking {
            let done = DispatchSemaphore(value: 0)
            Thread {
                answer.mutate { $0 = ObservationTrackingSlot.isTracking }
                done.signal()
            }.start()
            done.wait()
        } onChange: {
        }
        XCTAssertEqual(answer.value, false)
    }

    func testSlotOfANewThreadAnswersTrueWhenItsFirstReadIsInsideATracking() {
        let answers = Locked<[Bool]>([])
        let done = DispatchSemaphore(value: 0)
        Thread {
            withObservationTracking {
                answers.mutate { $0.append(ObservationTrackingSlot.isTracking) }
            } onChange: {
            }
            answers.mutate { $0.append(ObservationTrackingSlot.isTracking) }
            done.signal()
        }.start()
        done.wait()
        XCTAssertEqual(answers.value, [true, false])
    }

    func testTrackedReadIsRecordedWithoutPassingThroughTheProbe() throws {
        let realm = try open()
        let dog = try makeDog(realm)
        let hub = ObservationHub.hub(for: realm.file)
        let probeHashes = ObservationProbe.hashes.load(ordering: .relaxed)
        let fired = track { XCTAssertEqual(dog.name, "Rex") }
        XCTAssertEqual(
            ObservationProbe.hashes.load(ordering: .relaxed), probeHashes,
            "the tracking did not record the probe's key path: it only records the dog's name")
        XCTAssertEqual(hub.recordedReadCount, 1)
        try realm.write { dog.name = "Max" }
        wait(for: fired, toReach: 1)
        XCTAssertEqual(dog.name, "Max")
    }

    func testWithTheProbeInsteadOfTheSlotTrackedReadsAreStillRecordedAndUntrackedOnesNot() throws {
        ObservationGate.set(true, mode: .probe)
        defer { ObservationGate.set(true) }
        XCTAssertFalse(ObservationGate.readsTrackingSlot)
        let realm = try open()
        let dog = try makeDog(realm)
        let hub = ObservationHub.hub(for: realm.file)
        XCTAssertEqual(dog.name, "Rex")
        XCTAssertEqual(hub.recordedReadCount, 0, "no tracking ran: nothing to record")
        let fired = track { XCTAssertEqual(dog.name, "Rex") }
        XCTAssertEqual(hub.recordedReadCount, 1)
        try realm.write { dog.name = "Max" }
        wait(for: fired, toReach: 1)
    }
}
