import Foundation
import XCTest
@testable import StrataStorage

/// A writer killed while it publishes a commit in the lock file (between its two sequence-number
/// stores) must not stop the other processes: their reads and writes go on from the last state
/// that was published whole.
final class InterruptedPublishTests: StorageTestCase {
    /// Runs `body` on another thread; fails if it has not returned within `seconds` (a reader
    /// spinning on a torn published state never returns; its thread is left spinning).
    private func finishes(within seconds: Double, _ what: String, _ body: @escaping @Sendable () throws -> Void) {
        let done = DispatchSemaphore(value: 0)
        let failure = Locked<Error?>(nil)
        Thread.detachNewThread {
            do { try body() } catch { failure.value = error }
            done.signal()
        }
        if done.wait(timeout: .now() + seconds) == .timedOut {
            XCTFail("\(what) did not finish within \(seconds) s: it waits on the torn published state")
            return
        }
        if let error = failure.value { XCTFail("\(what) threw \(error)") }
    }

    func testReadersAndWritersGoOnAfterAWriterDiesWhilePublishing() throws {
        let a = try open()
        defer { a.close() }
        try a.write { txn -> Void in try txn.put(bytes("k"), bytes("v1"), in: try txn.openTree("t", create: true)) }
        let before = a.lockFile.readState()

        // What a writer killed inside `publish` leaves: a half-written state, its sequence odd.
        a.lockFile.leaveTornPublish(
            PublishedState(
                version: before.version + 1, catalogRoot: 999_999, pageCount: 1,
                latestSlot: 0, durableVersion: 0, durableSlot: 0))

        let b = try open()
        defer { b.close() }
        finishes(within: 10, "a read in another handle") {
            try b.read { r in
                XCTAssertEqual(r.version, VersionID(before.version))
                XCTAssertEqual(try r.get(bytes("k"), in: XCTUnwrap(r.tree(named: "t"))), bytes("v1"))
            }
        }
        finishes(within: 10, "a write in another handle") {
            try b.write { txn -> Void in try txn.put(bytes("k"), bytes("v2"), in: try txn.openTree("t", create: true)) }
        }
        finishes(within: 10, "a read in the first handle") {
            try a.read { r in XCTAssertEqual(try r.get(bytes("k"), in: XCTUnwrap(r.tree(named: "t"))), bytes("v2")) }
        }
        finishes(within: 10, "verify") { XCTAssertEqual(try a.verify().leakedPages, []) }
    }
}
