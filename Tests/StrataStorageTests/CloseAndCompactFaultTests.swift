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

/// Faults while closing (sync of deferred commits, the clean mark, close(2)) and compacting
/// (fstat, the final truncation and its sync). `close` cannot fail: each failure leaves a file
/// that opens, with recovery where needed, at the newest commit that reached it. Compact's
/// truncation is best effort: the commits stand and the file keeps its length.
final class CloseAndCompactFaultTests: FaultTestCase {
    func testSyncFailureAtCloseLeavesTheDeferredGroupWholeOrAbsent() throws {
        for (label, kind, _) in Self.errorKinds {
            let name = "close-sync-\(label).strata"
            let db = try open(name)
            try writeRound(db, 1)
            try writeRound(db, 2, durability: .deferred)
            FaultInjector.arm(.fdatasync, kind: kind, pathContaining: path(name))
            db.close()
            XCTAssertGreaterThan(FaultInjector.hits(.fdatasync), 0, label)
            FaultInjector.disarmAll()
            let reopened = try open(name)
            let r = try round(of: reopened)
            XCTAssertTrue(r == 1 || r == 2, "\(label): reopened at round \(r.map(String.init) ?? "none")")
            try assertIntact(reopened, round: r ?? -1)
            try writeRound(reopened, 3)
            reopened.close()
            let again = try open(name)
            try assertIntact(again, round: 3)
            again.close()
        }
    }

    func testCleanMarkFailureAtCloseIsTolerated() throws {
        for (label, point) in [("pwrite", FaultPoint.pwrite), ("fdatasync", .fdatasync)] {
            let name = "clean-\(label).strata"
            let db = try open(name)
            try writeRound(db, 1)
            FaultInjector.arm(point, kind: .error(EIO), pathContaining: path(name))
            db.close()
            XCTAssertEqual(FaultInjector.hits(point), 1, "\(label): the clean mark was not attempted")
            FaultInjector.disarmAll()
            let reopened = try open(name)
            try assertIntact(reopened, round: 1)
            try writeRound(reopened, 2)
            reopened.close()
            let again = try open(name)
            try assertIntact(again, round: 2)
            again.close()
        }
    }

    func testCloseErrorsStillReleaseEveryDescriptor() throws {
        let name = "close.strata"
        let before = openDescriptorCount()
        let db = try open(name)
        try writeRound(db, 1)
        FaultInjector.arm(.close, kind: .error(EIO), pathContaining: path(name))
        db.close()
        XCTAssertEqual(FaultInjector.hits(.close), 2, "the data file and the lock file")
        FaultInjector.disarmAll()
        XCTAssertEqual(openDescriptorCount(), before)
        let reopened = try open(name)
        try assertIntact(reopened, round: 1)
        reopened.close()
    }

    /// Grows the file by ~6 MiB, then shrinks the data back to round `round`'s 150 small entries.
    func makeCompactable(_ db: Database, round: Int) throws {
        try writeRound(db, round - 1, valueSize: 40_000)
        try writeRound(db, round)
    }

    func testCompactStatFailureIsTypedAndChangesNothing() throws {
        let name = "compact-stat.strata"
        let db = try open(name)
        try makeCompactable(db, round: 2)
        let version = db.latestVersion
        FaultInjector.arm(.fstat, kind: .error(EIO), pathContaining: path(name))
        XCTAssertThrowsError(try db.compact()) { assertSystemError($0, call: "fstat", path: path(name), errno: EIO) }
        FaultInjector.disarmAll()
        XCTAssertEqual(db.latestVersion, version)
        try assertIntact(db, round: 2)
        XCTAssertLessThan(try db.compact().bytesAfter, 4 << 20)
        db.close()
        let reopened = try open(name)
        try assertIntact(reopened, round: 2)
        reopened.close()
    }

    /// The truncation that ends a compaction, and the sync after it, may fail without failing
    /// the compaction: its commits are durable, the file keeps (or reaches) its length.
    func testCompactTruncationFailuresKeepTheCommitsAndTheFileWorks() throws {
        for (label, point) in [("ftruncate", FaultPoint.ftruncate), ("fdatasync", .fdatasync)] {
            let name = "compact-\(label).strata"
            let db = try open(name)
            try makeCompactable(db, round: 2)
            // Count the calls the same compaction of a twin file makes (a fault that never fires),
            // then fail the last of them.
            let probe = try open("probe-\(label).strata")
            try makeCompactable(probe, round: 2)
            FaultInjector.arm(point, kind: .error(EIO), after: Int.max, pathContaining: path("probe-\(label).strata"))
            let probeReport = try probe.compact()
            let calls = FaultInjector.hits(point)
            probe.close()
            FaultInjector.disarmAll()
            XCTAssertGreaterThan(calls, 0, label)
            FaultInjector.arm(point, kind: .error(EIO), after: calls - 1, pathContaining: path(name))
            let report = try db.compact()
            XCTAssertEqual(FaultInjector.hits(point), calls, "\(label): the compactions made different calls")
            FaultInjector.disarmAll()
            if point == .ftruncate {
                XCTAssertGreaterThan(report.bytesAfter, probeReport.bytesAfter, "the last truncation happened")
            } else {
                XCTAssertEqual(report.bytesAfter, probeReport.bytesAfter, "only the sync after the truncation failed")
            }
            try assertIntact(db, round: 2)
            try writeRound(db, 3)
            XCTAssertLessThan(try db.compact().bytesAfter, 4 << 20, label)
            db.close()
            let reopened = try open(name)
            try assertIntact(reopened, round: 3)
            reopened.close()
        }
    }
}
