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

/// When opening falls back past a torn commit, that commit's meta record stays in its slot; the
/// first write transaction erases it durably before writing any page (else, after a crash, the
/// record could verify against the new commit's pages and open at a version nobody committed).
/// A failure of that erase is a typed error, and since its sync failed, the handle cannot know
/// what reached the disk: it refuses writes until reopened, like a failed commit sync.
final class StaleRecordEraseFaultTests: FaultTestCase {
    /// A copy of a file taken while a handle had it open after rounds 1 and 2 (full commits),
    /// with one page that round 2 wrote damaged: opening it falls back to round 1.
    func makeFileWithTornNewestCommit(_ name: String) throws {
        let source = "source-" + name
        let db = try open(source)
        try writeRound(db, 1)
        try writeRound(db, 2)
        try FileManager.default.copyItem(atPath: path(source), toPath: path(name))
        db.close()
        var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path(name))))
        let newest = bytes.withUnsafeBytes { raw -> MetaRecord? in
            let metas = (0..<2).compactMap { slot -> MetaRecord? in
                guard
                    case .success(let m) = MetaRecord.decode(raw.baseAddress! + slot * 4096, pageSize: 4096, slot: slot)
                else { return nil }
                return m
            }
            return metas.max { $0.version < $1.version }
        }
        let page = try XCTUnwrap(newest?.inlineList.first, "round 2's record lists its pages inline")
        bytes[Int(page) * 4096 + 100] ^= 0xFF
        try Data(bytes).write(to: URL(fileURLWithPath: path(name)))
    }

    func testEraseFailureIsTypedAndTheHandleRefusesWritesUntilReopened() throws {
        for (label, point, kind, call, errno) in [
            ("sync EIO", FaultPoint.fdatasync, FaultKind.error(EIO), "fdatasync", EIO),
            ("write ENOSPC", .pwrite, .error(ENOSPC), "pwrite", ENOSPC),
            ("short write", .pwrite, .shortWrite(100), "pwrite", ENOSPC),
        ] {
            let name = "torn-\(label.replacingOccurrences(of: " ", with: "-")).strata"
            try makeFileWithTornNewestCommit(name)
            let db = try open(name)
            try assertIntact(db, round: 1)
            FaultInjector.arm(point, kind: kind, pathContaining: path(name))
            XCTAssertThrowsError(try writeRound(db, 3), label) {
                assertSystemError($0, call: call, path: path(name), errno: errno)
            }
            FaultInjector.disarmAll()
            // Whether or not the erase reached the disk is unknown: no page may be written now.
            XCTAssertThrowsError(try writeRound(db, 4), label) { error in
                XCTAssertTrue(isNeedsReopen(error), "\(label): a handle whose erase failed wrote again: \(error)")
            }
            XCTAssertEqual(try round(of: db), 1, "\(label): readers still see round 1")
            db.close()
            let reopened = try open(name)
            try assertIntact(reopened, round: 1)
            try writeRound(reopened, 5)
            reopened.close()
            let again = try open(name)
            try assertIntact(again, round: 5)
            again.close()
        }
    }
}
