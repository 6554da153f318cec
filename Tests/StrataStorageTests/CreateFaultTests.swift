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

/// Faults in the calls that create a new file (`Database.createFile`: open a temporary file,
/// pwrite both meta pages, fdatasync, close, link it into place, unlink the temporary name, open
/// and fsync the directory). Each failure is a typed error naming the call;
/// none leaves a half-made file at the path or a descriptor open; the next open creates a working
/// file whose commits survive reopening.
final class CreateFaultTests: FaultTestCase {
    /// After a failed create: a retry creates the file, a commit survives closing and reopening,
    /// and no temporary file is left.
    func assertCreateWorksAfterwards(
        _ name: String, _ label: String, file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let db = try open(name)
        try writeRound(db, 1)
        db.close()
        let reopened = try open(name)
        try assertIntact(reopened, round: 1, file: file, line: line)
        reopened.close()
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter {
            $0.contains(".creating-")
        }
        XCTAssertEqual(leftovers, [], "\(label): temporary files left behind", file: file, line: line)
    }

    func testTemporaryFileOpenAndSyncFailuresLeaveNoFileBehind() throws {
        let cases: [(String, FaultPoint, String)] = [("open", .open, "open"), ("fdatasync", .fdatasync, "fdatasync")]
        for (label, point, call) in cases {
            for (errLabel, kind, errno) in Self.errorKinds {
                let name = "tmp-\(label)-\(errLabel).strata"
                let before = openDescriptorCount()
                FaultInjector.arm(point, kind: kind, times: 1, pathContaining: path(name) + ".creating-")
                XCTAssertThrowsError(try open(name), label) { error in
                    guard case StorageError.system(let e) = error else { return XCTFail("\(label): \(error)") }
                    XCTAssertEqual(e.call, call)
                    XCTAssertEqual(e.errno, errno)
                    XCTAssertTrue(String(describing: error).contains(path(name)), "\(error)")
                }
                XCTAssertEqual(FaultInjector.hits(point), 1, label)
                FaultInjector.disarmAll()
                XCTAssertEqual(openDescriptorCount(), before, "\(label): a descriptor leaked")
                XCTAssertFalse(System.fileExists(path(name)), label)
                try assertCreateWorksAfterwards(name, "\(label) \(errLabel)")
            }
        }
    }

    func testLinkFailureLeavesNoFileBehind() throws {
        for (label, kind, errno) in Self.errorKinds {
            let name = "link-\(label).strata"
            FaultInjector.arm(.link, kind: kind, pathContaining: path(name))
            XCTAssertThrowsError(try open(name), label) { error in
                guard case StorageError.system(let e) = error else { return XCTFail("\(error)") }
                XCTAssertEqual(e.call, "link")
                XCTAssertEqual(e.errno, errno)
                XCTAssertEqual(e.path, path(name), "names the file: \(error)")
            }
            FaultInjector.disarmAll()
            XCTAssertFalse(System.fileExists(path(name)), label)
            try assertCreateWorksAfterwards(name, label)
        }
    }

    /// The directory sync comes after the rename: the file is complete at its path (a valid,
    /// empty database), only its directory entry may not be durable yet. The error says so by
    /// naming `fsync` (or `open`) on the directory; the next open uses the file.
    func testDirectorySyncFailureIsReportedAndTheFileIsUsableAfterwards() throws {
        for (label, point, call) in [("fsync", FaultPoint.fsync, "fsync"), ("open", .open, "open")] {
            for (errLabel, kind, errno) in Self.errorKinds {
                let name = "dir-\(label)-\(errLabel).strata"
                let before = openDescriptorCount()
                // The directory's path is a prefix of every file's: skip the temporary file's open.
                FaultInjector.arm(
                    point, kind: kind, after: point == .open ? 1 : 0, times: 1, pathContaining: directory.path)
                XCTAssertThrowsError(try open(name), label) { error in
                    assertSystemError(error, call: call, path: directory.path, errno: errno)
                }
                FaultInjector.disarmAll()
                XCTAssertEqual(openDescriptorCount(), before, "\(label): a descriptor leaked")
                try assertCreateWorksAfterwards(name, "\(label) \(errLabel)")
            }
        }
    }

    /// `close` errors are ignored by design (the file was synced before): creation succeeds and
    /// the descriptors are released.
    func testCloseFailuresDuringCreateAreTolerated() throws {
        let before = openDescriptorCount()
        FaultInjector.arm(.close, kind: .error(EIO), pathContaining: directory.path)
        let db = try open("close.strata")
        XCTAssertGreaterThanOrEqual(
            FaultInjector.hits(.close), 2, "the temporary file's and the directory's descriptors")
        try writeRound(db, 1)
        db.close()
        FaultInjector.disarmAll()
        XCTAssertEqual(openDescriptorCount(), before, "a descriptor whose close reported an error leaked")
        let reopened = try open("close.strata")
        try assertIntact(reopened, round: 1)
        reopened.close()
    }

    /// When the cleanup after a failed write fails too, the error reported is the write's (the
    /// cause); the temporary file left behind does not stop the next create, which removes it
    /// (it belongs to this process and to no creation in progress).
    func testUnlinkFailureDuringCleanupReportsTheOriginalError() throws {
        let name = "unlink.strata"
        FaultInjector.arm(.pwrite, kind: .error(ENOSPC), pathContaining: path(name))
        FaultInjector.arm(.unlink, kind: .error(EIO), pathContaining: path(name))
        XCTAssertThrowsError(try open(name)) { error in
            guard case StorageError.system(let e) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(e.call, "pwrite")
            XCTAssertEqual(e.errno, ENOSPC)
        }
        XCTAssertEqual(FaultInjector.hits(.unlink), 1)
        FaultInjector.disarmAll()
        XCTAssertFalse(System.fileExists(path(name)))
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter {
            $0.contains(".creating-")
        }
        XCTAssertEqual(leftovers.count, 1, "the temporary file stays when unlink fails")
        try assertCreateWorksAfterwards(name, "unlink")  // and no temporary file is left after it
    }
}
