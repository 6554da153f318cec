import Foundation
import XCTest
@testable import StrataStorage
import StrataPOSIX

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Faults in the lock file's byte locks while the database is in use: taking the writer lock
/// fails with a typed error and leaves the handle usable; the best-effort calls (releasing a
/// lock, asking whether a reader's owner is alive, the last-closer check) are tolerated, each in
/// the direction that keeps data safe.
final class LockFaultTests: FaultTestCase {
    func testWriterLockFailureIsTypedAndTheHandleKeepsWorking() throws {
        for (label, kind, errno) in Self.errorKinds {
            let name = "writer-\(label).strata"
            let db = try open(name)
            try writeRound(db, 1)
            FaultInjector.arm(.fcntlLock, kind: kind, times: 1, pathContaining: path(name) + ".lock")
            XCTAssertThrowsError(try writeRound(db, 2), label) {
                assertSystemError($0, call: "fcntl(F_OFD_SETLKW)", path: path(name) + ".lock", errno: errno)
            }
            FaultInjector.arm(.fcntlLock, kind: kind, times: 1, pathContaining: path(name) + ".lock")
            XCTAssertThrowsError(try db.tryBeginWrite(), label) {
                assertSystemError($0, call: "fcntl(F_OFD_SETLK)", path: path(name) + ".lock", errno: errno)
            }
            FaultInjector.arm(.fcntlLock, kind: kind, times: 1, pathContaining: path(name) + ".lock")
            XCTAssertThrowsError(try db.sync(), label) {
                assertSystemError($0, call: "fcntl(F_OFD_SETLKW)", path: path(name) + ".lock", errno: errno)
            }
            FaultInjector.disarmAll()
            try assertIntact(db, round: 1)
            // Nothing was left half-taken: this handle and another one both write.
            try writeRound(db, 3)
            let other = try open(name)
            try writeRound(other, 4)
            other.close()
            db.close()
            let reopened = try open(name)
            try assertIntact(reopened, round: 4)
            reopened.close()
        }
    }

    /// Releasing the writer lock is best effort: a failure does not fail the commit that was
    /// already durable. The lock stays with this handle until it closes; then other handles write.
    func testWriterUnlockFailureKeepsTheCommitAndTheLockIsFreedByClose() throws {
        let name = "unlock.strata"
        let db = try open(name)
        try writeRound(db, 1)
        FaultInjector.arm(.fcntlUnlock, kind: .error(EIO), times: 1, pathContaining: path(name) + ".lock")
        try writeRound(db, 2)
        XCTAssertEqual(FaultInjector.hits(.fcntlUnlock), 1)
        FaultInjector.disarmAll()
        try assertIntact(db, round: 2)
        try writeRound(db, 3)  // the same handle takes its own lock again
        let other = try open(name)
        db.close()
        try writeRound(other, 4)
        other.close()
        let reopened = try open(name)
        try assertIntact(reopened, round: 4)
        reopened.close()
    }

    /// When the writer cannot tell whether the owner of an old snapshot is alive, it assumes it
    /// is: the snapshot's pages are not reused, so that snapshot still reads its version whole.
    func testReaderLivenessCheckFailureKeepsOldSnapshotsIntact() throws {
        let name = "getlk.strata"
        let writer = try open(name)
        try writeRound(writer, 1)
        let reader = try open(name)
        let snapshot = try reader.beginRead()
        FaultInjector.arm(.fcntlGetLock, kind: .error(EIO), pathContaining: path(name) + ".lock")
        for round in 2...8 { try writeRound(writer, round) }
        XCTAssertGreaterThan(FaultInjector.hits(.fcntlGetLock), 0, "the writer did not ask about the reader")
        FaultInjector.disarmAll()
        // The snapshot still shows round 1, entry by entry.
        let t = try XCTUnwrap(try snapshot.tree(named: "t"))
        let entries = try snapshot.allEntries(t)
        XCTAssertEqual(entries.count, 150)
        for (i, (k, v)) in entries.enumerated() {
            XCTAssertEqual(k, key(i))
            XCTAssertEqual(v, roundValue(1, i))
        }
        snapshot.end()
        reader.close()
        try assertIntact(writer, round: 8)
        writer.close()
        let reopened = try open(name)
        try assertIntact(reopened, round: 8)
        reopened.close()
    }

    /// Close cannot take the writer lock: it skips its sync and the clean mark (it cannot fail),
    /// so the file opens next as after a crash, with recovery, at the newest commit in the page
    /// cache, or at the last durable one.
    func testCloseThatCannotTakeTheWriterLockLeavesARecoverableFile() throws {
        let name = "close-lock.strata"
        let db = try open(name)
        try writeRound(db, 1)
        try writeRound(db, 2, durability: .deferred)
        let before = openDescriptorCount()
        FaultInjector.arm(.fcntlLock, kind: .error(EIO), pathContaining: path(name) + ".lock")
        db.close()
        XCTAssertEqual(FaultInjector.hits(.fdatasync), 0, "close synced without the writer lock")
        FaultInjector.disarmAll()
        XCTAssertLessThan(openDescriptorCount(), before, "close released no descriptor")
        let reopened = try open(name)
        let r = try round(of: reopened)
        XCTAssertTrue(r == 1 || r == 2, "reopened at round \(r.map(String.init) ?? "none")")
        try assertIntact(reopened, round: r ?? -1)
        try writeRound(reopened, 3)
        reopened.close()
        let again = try open(name)
        try assertIntact(again, round: 3)
        again.close()
    }

    /// The last-closer check (upgrading the open lock) failing means "maybe not the last":
    /// the file is not marked clean, and the next open verifies the newest commit, which is whole.
    func testLastCloserCheckFailureOnlySkipsTheCleanMark() throws {
        let name = "last.strata"
        let db = try open(name)
        try writeRound(db, 1)
        try writeRound(db, 2)
        FaultInjector.arm(.fcntlLock, kind: .error(EIO), after: 1, pathContaining: path(name) + ".lock")
        db.close()
        XCTAssertGreaterThanOrEqual(FaultInjector.hits(.fcntlLock), 2)
        FaultInjector.disarmAll()
        let copy = try Data(contentsOf: URL(fileURLWithPath: path(name)))
        let latest = copy.withUnsafeBytes { raw -> [UInt32] in
            (0..<2).map {
                raw.loadUnaligned(fromByteOffset: $0 * 4096 + MetaLayout.flags, as: UInt32.self) & MetaLayout.flagClean
            }
        }
        XCTAssertEqual(latest, [0, 0], "marked clean without knowing it was the last handle")
        let reopened = try open(name)
        try assertIntact(reopened, round: 2)
        reopened.close()
    }

    /// Releasing the lock file's locks at close is best effort: a failure leaves them until the
    /// handle is gone, and the next opener works.
    func testLockReleaseFailuresAtCloseAreTolerated() throws {
        let name = "release.strata"
        do {
            let db = try open(name)
            try writeRound(db, 1)
            FaultInjector.arm(.fcntlUnlock, kind: .error(EIO), pathContaining: path(name) + ".lock")
            db.close()
            XCTAssertGreaterThanOrEqual(FaultInjector.hits(.fcntlUnlock), 3, "writer, open and slot locks")
            FaultInjector.disarmAll()
        }
        let reopened = try open(name)
        try assertIntact(reopened, round: 1)
        try writeRound(reopened, 2)
        reopened.close()
        let again = try open(name)
        try assertIntact(again, round: 2)
        again.close()
    }
}
