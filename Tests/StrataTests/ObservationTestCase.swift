import Foundation
import Observation
@testable import Strata
import XCTest

/// Base of the observation and quick-write tests: `Realm.isObservationTrackingEnabled` on for
/// the test (and back off after it, so later tests read without registering), helpers to track
/// reads, to commit from another thread and to wait for the file's notifier.
class ObservationTestCase: SeedTestCase {
    override func setUp() {
        super.setUp()
        Realm.isObservationTrackingEnabled = true
    }

    override func tearDown() {
        Realm.isObservationTrackingEnabled = false
        ObservationHub.forgetAllReads()
        super.tearDown()
    }

    /// Runs `read` inside `withObservationTracking`; the box counts the calls of `onChange`.
    func track(_ read: () -> Void) -> Locked<Int> {
        let fired = Locked(0)
        withObservationTracking {
            read()
        } onChange: {
            fired.mutate { $0 += 1 }
        }
        return fired
    }

    /// Commits `body` from a realm on another thread, and waits for the commit.
    func writeElsewhere(_ name: String = "test.realm", _ body: @escaping @Sendable (Realm) -> Void) {
        let config = self.config(name)
        let done = DispatchSemaphore(value: 0)
        Thread {
            let realm = try! Realm(configuration: config)
            try! realm.write { body(realm) }
            done.signal()
        }.start()
        done.wait()
    }

    /// Waits until `fired` reaches `count` (failing after `timeout`).
    func wait(
        for fired: Locked<Int>, toReach count: Int, timeout: TimeInterval = 10, file: StaticString = #filePath,
        line: UInt = #line
    ) {
        spin(until: { fired.value >= count }, timeout: timeout, file: file, line: line)
    }

    /// Waits until the file's notifier ran a round that started after this call, so that any
    /// commit made before it was looked at.
    func settle(_ realm: Realm) {
        realm.file.notifier.waitForRound()
        spin(for: 0.05)
    }
}
