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

/// A database on a full file system (an 8 MiB tmpfs mounted for each test): every failure is a
/// typed `ENOSPC` error, never SIGBUS, and the last acknowledged commit survives. The work runs in
/// `strata-storage-stress` child processes, so a SIGBUS shows up as the child's death instead of
/// killing the test runner. Skipped, with the reason printed, where mounting is not permitted.
final class FullDiskTests: CrashTestCase {
    /// Fills the file system at `dir` with one file until it reports ENOSPC; returns its path.
    @discardableResult
    private func fillFileSystem(_ dir: String) throws -> String {
        let filler = dir + "/filler"
        let fd = Glibc.open(filler, O_CREAT | O_WRONLY | O_APPEND, 0o644)
        XCTAssertGreaterThanOrEqual(fd, 0)
        defer { Glibc.close(fd) }
        let chunk = [UInt8](repeating: 0xAB, count: 4096)
        while true {
            let n = chunk.withUnsafeBytes { Glibc.write(fd, $0.baseAddress!, $0.count) }
            if n <= 0 { break }
        }
        // Smaller pieces, down to single bytes' worth of blocks.
        while chunk.withUnsafeBytes({ Glibc.write(fd, $0.baseAddress!, 512) }) > 0 {}
        return filler
    }

    /// The lock file is created on a full file system: the open fails with ENOSPC (it used to be
    /// sized with ftruncate and zeroed through its map, which raised SIGBUS).
    func testOpeningWhenTheLockFileCannotGetSpaceFailsWithENOSPC() throws {
        let dir = try mountSmallFileSystem()
        let file = dir + "/db.strata"
        let db = try open(file)
        try db.write { txn in
            try txn.put(bytes("k"), bytes("before the disk filled"), in: try txn.openTree("t", create: true))
        }
        db.close()
        try FileManager.default.removeItem(atPath: file + ".lock")
        let filler = try fillFileSystem(dir)

        let child = try StressChild(["--mode", "open", "--path", file])
        let out = child.drain()
        let end = child.waitForExit()
        XCTAssertEqual(end, .exited(2), "the open must fail with an error, not a signal: \(child.summary())")
        XCTAssertTrue(child.summary().contains("ENOSPC"), "the error names ENOSPC: \(child.summary())")
        XCTAssertEqual(out, [])

        try FileManager.default.removeItem(atPath: filler)
        let reopened = try open(file)
        defer { reopened.close() }
        XCTAssertEqual(
            try reopened.read { r in try r.get(bytes("k"), in: try XCTUnwrap(try r.tree(named: "t"))) },
            bytes("before the disk filled"))
    }

    /// A new database cannot be created on a full file system: a typed ENOSPC error, and no file
    /// is left at the path (nor a temporary file beside it).
    func testCreatingADatabaseOnAFullDiskFailsWithENOSPCAndLeavesNothing() throws {
        let dir = try mountSmallFileSystem()
        try fillFileSystem(dir)
        let file = dir + "/new.strata"
        let child = try StressChild(["--mode", "open", "--path", file])
        _ = child.drain()
        XCTAssertEqual(child.waitForExit(), .exited(2), child.summary())
        XCTAssertTrue(child.summary().contains("ENOSPC"), child.summary())
        let left = try FileManager.default.contentsOfDirectory(atPath: dir).filter {
            $0.hasPrefix("new.strata") && $0 != "new.strata.lock"
        }
        XCTAssertEqual(left, [], "nothing but possibly the lock file is left")
    }

    /// Commits until the disk is full: the failing commit reports ENOSPC, the writer does not die
    /// of a signal, and after space is freed every acknowledged commit reads back.
    func testCommitsUntilTheDiskIsFullKeepEveryAcknowledgedCommit() throws {
        let dir = try mountSmallFileSystem()
        let file = dir + "/db.strata"
        let child = try StressChild(["--mode", "fill", "--path", file, "--value-bytes", "150000"])
        let lines = child.drain()
        let end = child.waitForExit()
        XCTAssertEqual(end, .exited(3), "the writer stops with an error, not a signal: \(child.summary())")
        let acknowledged = lines.compactMap { Int($0) }.last ?? 0
        XCTAssertGreaterThan(acknowledged, 5, "some commits fit in 8 MiB")
        let error = lines.last ?? ""
        XCTAssertTrue(error.hasPrefix("error ") && error.contains("ENOSPC"), "last line: \(error)")

        // Reopen on the still-full disk (read-only work needs no space), then after freeing some.
        for attempt in 0..<2 {
            if attempt == 1 { try fillFileSystem(dir) }
            let db = try open(file)
            try db.read { r in
                let t = try XCTUnwrap(try r.tree(named: "fill"))
                XCTAssertGreaterThanOrEqual(Int(t.count), acknowledged)
                for n in 1...acknowledged {
                    let v = try XCTUnwrap(try r.get(bytes("v\(n)"), in: t), "commit \(n)")
                    XCTAssertEqual(v.count, 150000)
                    XCTAssertTrue(v.allSatisfy { $0 == UInt8(truncatingIfNeeded: n) }, "commit \(n)'s value")
                }
            }
            XCTAssertEqual(try db.verify().leakedPages, [])
            db.close()
        }
    }
}
