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

/// Faults in the calls that open an existing file, as the first opener (which resets the lock
/// file) and as a later opener (another handle has the file open): each is a typed error naming
/// the call, errno and file; no descriptor leaks; the other handle is undisturbed; a retry opens
/// at the last commit.
final class OpenFaultTests: FaultTestCase {
    struct Step {
        let label: String
        let point: FaultPoint
        let after: Int
        let file: String  // "" for the data file, ".lock" for the lock file
        let call: String
    }

    /// Opens `name` with the fault of `step` armed and checks the error, the descriptors, and
    /// that a retry works and shows round `expected`.
    func assertOpenFails(
        _ name: String, _ step: Step, errno: Int32, kind: FaultKind, expected: Int, file: StaticString = #filePath,
        line: UInt = #line
    ) throws {
        let target = path(name) + step.file
        let before = openDescriptorCount()
        // Only the data file's calls (the filter would also match the lock file's path).
        FaultInjector.arm(step.point, kind: kind, after: step.after, times: 1, pathContaining: target)
        XCTAssertThrowsError(try open(name), step.label, file: file, line: line) { error in
            assertSystemError(error, call: step.call, path: target, errno: errno, file: file, line: line)
        }
        XCTAssertGreaterThan(
            FaultInjector.hits(step.point), step.after, "\(step.label): the call was not reached", file: file,
            line: line)
        FaultInjector.disarmAll()
        XCTAssertEqual(openDescriptorCount(), before, "\(step.label): a descriptor leaked", file: file, line: line)
        let db = try open(name)
        try assertIntact(db, round: expected, file: file, line: line)
        db.close()
    }

    func testFirstOpenerFailuresAreTypedAndLeakNothing() throws {
        // The data file's calls are filtered by "<name>" alone when the lock file has no call of
        // that kind; else counted with `after`.
        let steps = [
            Step(label: "pread of the header", point: .pread, after: 0, file: "", call: "pread"),
            Step(label: "fstat of the data file", point: .fstat, after: 0, file: "", call: "fstat"),
            Step(label: "fstat after recovery", point: .fstat, after: 1, file: "", call: "fstat"),
            Step(label: "open lock (try)", point: .fcntlLock, after: 0, file: ".lock", call: "fcntl(F_OFD_SETLK)"),
            Step(label: "lock file mmap", point: .mmap, after: 0, file: ".lock", call: "mmap"),
            Step(label: "reader slot claim", point: .fcntlLock, after: 1, file: ".lock", call: "fcntl(F_OFD_SETLK)"),
            Step(label: "open lock downgrade", point: .fcntlLock, after: 2, file: ".lock", call: "fcntl(F_OFD_SETLKW)"),
        ]
        for step in steps {
            for (label, kind, errno) in Self.errorKinds {
                let name = "first-\(step.point)-\(step.after)-\(label).strata"
                try makeFile(name)
                try assertOpenFails(name, step, errno: errno, kind: kind, expected: 1)
            }
        }
    }

    func testLaterOpenerFailuresAreTypedAndLeaveTheOtherHandleWorking() throws {
        let steps = [
            Step(
                label: "open lock (wait, shared)", point: .fcntlLock, after: 1, file: ".lock",
                call: "fcntl(F_OFD_SETLKW)"),
            Step(label: "lock file fstat", point: .fstat, after: 0, file: ".lock", call: "fstat"),
            Step(label: "lock file mmap", point: .mmap, after: 0, file: ".lock", call: "mmap"),
            Step(label: "data file mmap", point: .mmap, after: 1, file: "", call: "mmap"),
            Step(label: "reader slot claim", point: .fcntlLock, after: 2, file: ".lock", call: "fcntl(F_OFD_SETLK)"),
        ]
        for step in steps {
            for (label, kind, errno) in Self.errorKinds {
                let name = "later-\(step.point)-\(step.after)-\(label).strata"
                let first = try open(name)
                try writeRound(first, 1)
                try assertOpenFails(name, step, errno: errno, kind: kind, expected: 1)
                // The handle that stayed open still commits, and its commit survives reopening.
                try writeRound(first, 2)
                first.close()
                let reopened = try open(name)
                try assertIntact(reopened, round: 2)
                reopened.close()
            }
        }
    }

    /// An injected `EAGAIN` on the open lock reads as "another process is opening or closing":
    /// the opener waits for a shared lock instead of resetting the lock file, and finds it
    /// already set up.
    func testOpenLockHeldElsewhereMakesALaterOpener() throws {
        let name = "eagain.strata"
        let first = try open(name)
        try writeRound(first, 1)
        FaultInjector.arm(.fcntlLock, kind: .error(EAGAIN), times: 1, pathContaining: path(name) + ".lock")
        let second = try open(name)
        FaultInjector.disarmAll()
        XCTAssertFalse(second.lockFile.wasFirstOpener)
        try assertIntact(second, round: 1)
        try writeRound(second, 2)
        try assertIntact(first, round: 2)
        second.close()
        first.close()
    }
}
