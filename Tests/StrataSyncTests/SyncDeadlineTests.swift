import Foundation
import XCTest

@testable import StrataSync

/// The time limit on an operation against the server, without a server: the operation's result
/// when it ends in time, `.connection` when it does not (its late result handed to `late`), and
/// a timer that never fires once the operation has ended.
final class SyncDeadlineTests: XCTestCase {
    func testAnOperationThatEndsInTimeGivesItsResultEveryTime() async throws {
        // A short limit and operations of about half of it: the timer is cancelled as each ends
        // and must neither fire afterwards nor take the wait from a result that came first.
        for i in 0..<200 {
            let v = try await SyncDeadline.run(0.02, "a quick statement") { () async throws -> Int in
                if i % 2 == 0 { try await Task.sleep(nanoseconds: 9_000_000) }
                return i
            }
            XCTAssertEqual(v, i)
        }
    }

    func testAnOperationPastItsLimitFailsWithConnectionAndHandsItsLateResultOn() async throws {
        let late = LateBox()
        let started = Date()
        do {
            _ = try await SyncDeadline.run(
                0.1, "a slow statement", late: { (v: Int) async in late.set(v) }
            ) { () async throws -> Int in
                // Ignores cancellation, as a client library waiting on a message may.
                usleep(2_000_000)
                return 7
            }
            XCTFail("the limit did not end the wait")
        } catch let error as SyncError {
            XCTAssertEqual(error.code, .connection)
            XCTAssertTrue(error.description.contains("a slow statement"), error.description)
        }
        XCTAssertLessThan(Date().timeIntervalSince(started), 1.5, "the wait ended at the limit, not with the operation")
        let deadline = Date().addingTimeInterval(5)
        while late.value == nil, Date() < deadline { try await Task.sleep(nanoseconds: 10_000_000) }
        XCTAssertEqual(late.value, 7)
    }

    func testAnOperationsErrorIsThrownAsItIs() async {
        struct Failed: Error {}
        do {
            _ = try await SyncDeadline.run(5, "a failing statement") { () async throws -> Int in throw Failed() }
            XCTFail("no error")
        } catch {
            XCTAssertTrue(error is Failed, "\(error)")
        }
    }
}

/// A value set from another task.
private final class LateBox: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Int?
    var value: Int? { lock.withLock { stored } }
    func set(_ v: Int) { lock.withLock { stored = v } }
}
