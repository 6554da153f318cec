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

/// Crash safety of encrypted files: every fault-injection test runs again on files opened with a
/// key (inherited from FaultInjectionTests), and a commit whose sealed slots did not all reach the
/// disk (built byte by byte, as after a power cut) falls back to the commit before it.
final class EncryptedCrashSafetyTests: FaultInjectionTests {
    let encryptionKey = [UInt8]((0..<64).map { UInt8(255 - $0) })

    /// A commit writes its sealed slots with `pwrite`, before its meta record.
    override var dataPageWrite: (point: FaultPoint, call: String) { (.pwrite, "pwrite") }

    override func open(_ name: String = "test.strata", pageSize: Int = 4096, readOnly: Bool = false) throws -> Database
    {
        var o = Database.Options()
        o.pageSize = pageSize
        o.readOnly = readOnly
        o.mapReserve = 64 << 20
        o.encryptionKey = encryptionKey
        return try Database(path: path(name), options: o)
    }

    /// Commit A, then B; every slot B wrote is torn three ways (its bytes from before B, zeros,
    /// one changed byte) in a copy of the file taken before any clean close: opening the copy
    /// finds B's slot does not authenticate and opens at A, with A's data.
    func testATornSealedSlotFallsBackToThePreviousCommit() throws {
        let name = "original.strata"
        let db = try open(name)
        try writeRound(db, 1)
        try writeRound(db, 2, valueSize: 300)
        let versionA = db.latestVersion
        let afterA = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path(name))))
        try db.write { txn in
            let t = try txn.openTree("t")
            for i in stride(from: 0, to: 150, by: 4) { try txn.put(key(i), Array("torn \(i)".utf8), in: t) }
        }
        let afterB = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path(name))))
        let pages = db.lockFile.readState().pageCount
        db.close()
        let slotSize = 4096 + CipherLayout.trailerSize
        var cases = 0
        for n in UInt32(2)..<pages {
            let start = CipherLayout.slotOffset(n, pageSize: 4096)
            let before = (start..<start + slotSize).map { $0 < afterA.count ? afterA[$0] : 0 }
            guard Array(afterB[start..<start + slotSize]) != before else { continue }  // not written by B
            for kind in ["stale", "zeroed", "one byte"] {
                var torn = afterB
                switch kind {
                case "stale": torn.replaceSubrange(start..<start + slotSize, with: before)
                case "zeroed":
                    torn.replaceSubrange(start..<start + slotSize, with: [UInt8](repeating: 0, count: slotSize))
                default: torn[start + 2_000] ^= 0x5A
                }
                try Data(torn).write(to: URL(fileURLWithPath: path("torn.strata")))
                try? FileManager.default.removeItem(atPath: path("torn.strata") + ".lock")
                let reopened = try open("torn.strata")
                XCTAssertEqual(reopened.latestVersion, versionA, "page \(n) \(kind)")
                XCTAssertNotNil(reopened.recovery, "page \(n) \(kind)")
                try assertIntact(reopened, round: 2)
                reopened.close()
                cases += 1
            }
        }
        XCTAssertGreaterThanOrEqual(cases, 3 * 3, "B rewrites at least the catalog, a branch or root, and leaves")
    }
}
