import Foundation
import XCTest
import StrataPOSIX

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// How `FaultInjector.arm` counts: `after` calls succeed, then `times` fail; only calls on
/// matching paths count; `hits` counts every call while something is armed; `disarmAll` resets.
final class FaultInjectorTests: POSIXTestCase {
    func testAfterAndTimesSelectWhichCallsFail() throws {
        let fd = try makeFile("a", pattern(100))
        defer { System.close(fd) }
        FaultInjector.arm(.fstat, kind: .error(EIO), after: 2, times: 2)
        var outcomes: [Bool] = []
        for _ in 0..<6 { outcomes.append((try? System.fileSize(fd)) != nil) }
        XCTAssertEqual(outcomes, [true, true, false, false, true, true])
        XCTAssertEqual(FaultInjector.hits(.fstat), 6)
    }

    func testPathFilterLeavesOtherFilesAlone() throws {
        let a = try makeFile("data.strata", pattern(10))
        let b = try makeFile("data.strata.lock", pattern(10))
        defer { System.close(a); System.close(b) }
        FaultInjector.arm(.fdatasync, kind: .error(ENOSPC), pathContaining: "data.strata.lock")
        XCTAssertNoThrow(try System.fdatasync(a))
        XCTAssertThrowsError(try System.fdatasync(b))
        // A call on a descriptor counts by the path it was opened from.
        XCTAssertEqual(FaultInjector.hits(.fdatasync), 2)
    }

    func testDisarmAllStopsFaultsAndResetsCounters() throws {
        let fd = try makeFile("d", [])
        defer { System.close(fd) }
        FaultInjector.arm(.ftruncate, kind: .error(EIO))
        XCTAssertThrowsError(try System.ftruncate(fd, length: 10))
        FaultInjector.disarmAll()
        XCTAssertEqual(FaultInjector.hits(.ftruncate), 0)
        XCTAssertNoThrow(try System.ftruncate(fd, length: 10))
        XCTAssertEqual(FaultInjector.hits(.ftruncate), 0, "nothing armed: calls are not counted")
        XCTAssertEqual(try System.fileSize(fd), 10)
    }

    /// Arming one point never affects another.
    func testEachPointIsIndependent() throws {
        let fd = try makeFile("i", pattern(10))
        defer { System.close(fd) }
        for point in FaultPoint.allCases where point != .fstat {
            FaultInjector.arm(point, kind: .error(EIO))
        }
        XCTAssertEqual(try System.fileSize(fd), 10)
    }
}
