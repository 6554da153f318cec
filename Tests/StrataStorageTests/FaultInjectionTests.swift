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

/// EIO, ENOSPC and short writes injected at each system call the commit and open paths make.
///
/// For each: the caller gets a `StorageError.system` whose description names the C call and the
/// file; the last committed version stays intact (read back and `verify()`ed after reopening);
/// after a failure at the durability step the handle refuses writes with `needsReopen`, and
/// reopening works. Faults are armed with `pathContaining:` so the lock file's calls are only hit
/// on purpose; `StorageTestCase.tearDown` disarms everything. A subclass runs every test on files
/// opened another way (EncryptedCrashSafetyTests: with a key).
class FaultInjectionTests: FaultTestCase {
    /// The call a commit writes its data pages with: `pwritev` of the pages it holds in private
    /// memory (an encrypted file writes its sealed slots with `pwrite`).
    var dataPageWrite: (point: FaultPoint, call: String) { (.pwritev, "pwritev") }

    /// How many `pwrite`s a commit makes before the one that writes its meta record (its last):
    /// none on a plain file; an encrypted file writes its sealed slots with `pwrite` first. Found
    /// by making the same commits on a twin file and counting.
    func metaRecordWriteIndex(deferredFirst: Bool) throws -> Int {
        let twin = "twin-\(UUID().uuidString).strata"
        let db = try open(twin)
        defer { db.close() }
        try writeRound(db, 1)
        if deferredFirst { try writeRound(db, 2, durability: .deferred) }
        FaultInjector.arm(.pwrite, kind: .error(EIO), after: Int.max, pathContaining: path(twin))
        defer { FaultInjector.disarmAll() }
        try writeRound(db, 3)
        let writes = FaultInjector.hits(.pwrite)
        XCTAssertGreaterThan(writes, 0, "a commit writes its meta record with pwrite")
        return writes - 1
    }

    // MARK: Commit path

    func testMetaPageWriteFailureKeepsLastCommitAndHandleStaysUsable() throws {
        for (label, kind, errno) in Self.writeKinds {
            let name = "meta-\(label).strata"
            let metaWrite = try metaRecordWriteIndex(deferredFirst: false)
            let db = try open(name)
            try writeRound(db, 1)
            let committed = db.latestVersion
            FaultInjector.arm(.pwrite, kind: kind, after: metaWrite, pathContaining: path(name))
            XCTAssertThrowsError(try writeRound(db, 2), label) {
                assertSystemError($0, call: "pwrite", path: path(name), errno: errno)
            }
            FaultInjector.disarmAll()
            XCTAssertEqual(db.latestVersion, committed, label)
            try assertIntact(db, round: 1)
            // The previous version was durable, so nothing was lost: the handle keeps working.
            try writeRound(db, 3)
            db.close()
            let reopened = try open(name)
            try assertIntact(reopened, round: 3)
            reopened.close()
        }
    }

    /// A commit writes the pages it holds in private memory with `pwritev` before its meta
    /// record. When that fails, only free pages changed: the previous version stays current (with
    /// or without a deferred commit before it) and the handle keeps working.
    func testDataPageWriteFailureKeepsLastCommitAndHandleStaysUsable() throws {
        for deferred in [false, true] {
            for (label, kind, errno) in Self.writeKinds {
                let name = "data-\(deferred ? "deferred-" : "")\(label).strata"
                let db = try open(name)
                try writeRound(db, 1)
                if deferred { try writeRound(db, 2, durability: .deferred) }
                let committed = db.latestVersion
                FaultInjector.arm(dataPageWrite.point, kind: kind, pathContaining: path(name))
                XCTAssertThrowsError(try writeRound(db, 3), label) {
                    assertSystemError($0, call: dataPageWrite.call, path: path(name), errno: errno)
                }
                FaultInjector.disarmAll()
                XCTAssertEqual(db.latestVersion, committed, label)
                try assertIntact(db, round: deferred ? 2 : 1)
                try writeRound(db, 4)
                db.close()
                let reopened = try open(name)
                try assertIntact(reopened, round: 4)
                reopened.close()
            }
        }
    }

    func testMetaPageWriteFailureAfterDeferredCommitRequiresReopen() throws {
        for (label, kind, errno) in Self.writeKinds {
            let name = "meta-deferred-\(label).strata"
            let metaWrite = try metaRecordWriteIndex(deferredFirst: true)
            let db = try open(name)
            try writeRound(db, 1)
            try writeRound(db, 2, durability: .deferred)
            FaultInjector.arm(.pwrite, kind: kind, after: metaWrite, pathContaining: path(name))
            XCTAssertThrowsError(try writeRound(db, 3), label) {
                assertSystemError($0, call: "pwrite", path: path(name), errno: errno)
            }
            FaultInjector.disarmAll()
            // The slot that held the deferred commit's record may be torn: it can never become durable.
            assertNeedsReopen(db)
            XCTAssertEqual(try round(of: db), 2, "\(label): readers of the handle still see the published round")
            db.close()
            let reopened = try open(name)
            // Round 2 was never made durable: the file opens at it if its record survived, else at round 1.
            let r = try round(of: reopened)
            XCTAssertTrue(r == 1 || r == 2, "\(label): reopened at round \(r.map(String.init) ?? "none")")
            try assertIntact(reopened, round: r ?? -1)
            try writeRound(reopened, 4)
            try assertIntact(reopened, round: 4)
            reopened.close()
        }
    }

    func testFdatasyncFailureInCommitPoisonsHandleAndReopenShowsLastDurableCommit() throws {
        for (label, kind, errno) in Self.errorKinds {
            let name = "sync-\(label).strata"
            let db = try open(name)
            try writeRound(db, 1)
            let committed = db.latestVersion
            FaultInjector.arm(.fdatasync, kind: kind, pathContaining: path(name))
            XCTAssertThrowsError(try writeRound(db, 2), label) {
                assertSystemError($0, call: "fdatasync", path: path(name), errno: errno)
            }
            FaultInjector.disarmAll()
            XCTAssertEqual(db.latestVersion, committed, "\(label): a commit that failed to sync must not be published")
            // Reads still see the last committed round; verify() waits for the reopen (below).
            XCTAssertEqual(try round(of: db), 1, label)
            assertNeedsReopen(db)
            db.close()
            let reopened = try open(name)
            XCTAssertEqual(reopened.latestVersion, committed, label)
            try assertIntact(reopened, round: 1)
            try writeRound(reopened, 3)
            try assertIntact(reopened, round: 3)
            reopened.close()
        }
    }

    func testSyncFailureAfterDeferredCommitsPoisonsHandle() throws {
        for (label, kind, errno) in Self.errorKinds {
            let name = "group-\(label).strata"
            let db = try open(name)
            try writeRound(db, 1)
            try writeRound(db, 2, durability: .deferred)
            try writeRound(db, 3, durability: .deferred)
            FaultInjector.arm(.fdatasync, kind: kind, pathContaining: path(name))
            XCTAssertThrowsError(try db.sync(), label) {
                assertSystemError($0, call: "fdatasync", path: path(name), errno: errno)
            }
            FaultInjector.disarmAll()
            assertNeedsReopen(db)
            db.close()
            let reopened = try open(name)
            let r = try round(of: reopened)
            XCTAssertTrue(
                r == 1 || r == 3, "\(label): reopened at round \(r.map(String.init) ?? "none"), not a whole group")
            try assertIntact(reopened, round: r ?? -1)
            reopened.close()
        }
    }

    func testFallocateFailureWhenGrowingAbortsTheTransaction() throws {
        for (label, kind, errno) in Self.errorKinds {
            let name = "grow-\(label).strata"
            let db = try open(name)
            try writeRound(db, 1)
            FaultInjector.arm(.fallocate, kind: kind, pathContaining: path(name))
            // ~6 MiB of values: more than the first 4 MiB the file reserved.
            XCTAssertThrowsError(try writeRound(db, 2, valueSize: 40_000), label) {
                assertSystemError($0, call: "posix_fallocate", path: path(name), errno: errno)
            }
            XCTAssertGreaterThan(FaultInjector.hits(.fallocate), 0)
            FaultInjector.disarmAll()
            try assertIntact(db, round: 1)
            try writeRound(db, 3, valueSize: 40_000)
            db.close()
            let reopened = try open(name)
            try assertIntact(reopened, round: 3)
            reopened.close()
        }
    }

    /// A commit that follows this handle's own commit takes the file's length from it instead of
    /// calling `fstat`: on Linux 6.13+ a queried change time makes the next write stamp a
    /// fine-grained time, so the commit's `fdatasync` also wrote the inode (a fourth device
    /// request per small commit). A commit by another handle, or compact's truncation, makes the
    /// next transaction look the length up again.
    func testCommitsAfterOwnCommitDoNotStatTheFileButAfterOthersOrCompactDo() throws {
        let name = "stat.strata"
        let db = try open(name)
        try writeRound(db, 1)
        FaultInjector.arm(.fstat, kind: .error(EIO), pathContaining: path(name))
        for round in 2...4 { try writeRound(db, round) }
        XCTAssertEqual(FaultInjector.hits(.fstat), 0, "a commit after this handle's own commit called fstat")
        // Another handle (as another process would) commits: the first handle's cache is stale.
        FaultInjector.disarmAll()
        let other = try open(name)
        try writeRound(other, 5)
        FaultInjector.arm(.fstat, kind: .error(EIO), pathContaining: path(name))
        XCTAssertThrowsError(try writeRound(db, 6)) {
            assertSystemError($0, call: "fstat", path: path(name), errno: EIO)
        }
        FaultInjector.disarmAll()
        try assertIntact(db, round: 5)
        try writeRound(db, 6)
        // Grow the file by ~6 MiB, then shrink most of it away and compact: compact's last commit
        // shortens the file, and the next growth must reserve from the real length (a length
        // from before the truncation skipped posix_fallocate, and stores through the map past
        // the end of the file died of SIGBUS).
        try writeRound(db, 7, valueSize: 40_000)
        try writeRound(db, 8)
        let report = try db.compact()
        XCTAssertLessThan(report.bytesAfter, report.bytesBefore)
        XCTAssertEqual(
            db.writerCache?.fileBytes, report.bytesAfter, "the commit that shortened the file keeps its new length")
        XCTAssertEqual(
            db.writerCache?.version, db.lockFile.readState().version,
            "the file was shortened by the newest commit, not after it")
        // The other handle's length is from before: its next transaction looks it up.
        FaultInjector.arm(.fstat, kind: .error(EIO), pathContaining: path(name))
        XCTAssertThrowsError(try writeRound(other, 9)) {
            assertSystemError($0, call: "fstat", path: path(name), errno: EIO)
        }
        FaultInjector.disarmAll()
        try writeRound(db, 9, valueSize: 40_000)
        var st = stat()
        XCTAssertEqual(stat(path(name), &st), 0)
        XCTAssertGreaterThanOrEqual(Int64(st.st_size), Int64(db.pageSize) * Int64(try db.verify().pageCount))
        try assertIntact(db, round: 9)
        other.close()
        db.close()
        let reopened = try open(name)
        try assertIntact(reopened, round: 9)
        reopened.close()
    }

    func testMapFailureWhenOutgrowingTheMapAbortsTheTransaction() throws {
        var options = Database.Options()
        options.mapReserve = 0  // the map covers twice the file, rounded to 1 MiB: growth soon remaps
        for (label, kind, errno) in Self.errorKinds {
            let name = "map-\(label).strata"
            let db = try Database(path: path(name), options: options)
            try writeRound(db, 1)
            FaultInjector.arm(.mmap, kind: kind, pathContaining: path(name))
            XCTAssertThrowsError(try writeRound(db, 2, valueSize: 40_000), label) {
                assertSystemError($0, call: "mmap", path: path(name), errno: errno)
            }
            FaultInjector.disarmAll()
            try assertIntact(db, round: 1)
            try writeRound(db, 3, valueSize: 40_000)
            db.close()
            let reopened = try Database(path: path(name), options: options)
            try assertIntact(reopened, round: 3)
            reopened.close()
        }
    }

    // MARK: Open path

    func testOpenFailureNamesTheDataFileOrLockFile() throws {
        for (label, kind, errno) in Self.errorKinds {
            let name = "open-\(label).strata"
            try makeFile(name)
            // The data file is opened first.
            FaultInjector.arm(.open, kind: kind, times: 1, pathContaining: path(name))
            XCTAssertThrowsError(try open(name), label) {
                assertSystemError($0, call: "open", path: path(name), errno: errno)
            }
            FaultInjector.disarmAll()
            FaultInjector.arm(.open, kind: kind, pathContaining: path(name) + ".lock")
            XCTAssertThrowsError(try open(name), label) {
                assertSystemError($0, call: "open", path: path(name) + ".lock", errno: errno)
            }
            FaultInjector.disarmAll()
            let db = try open(name)
            try assertIntact(db, round: 1)
            db.close()
        }
    }

    func testLockFileTruncateFailureOnFirstOpen() throws {
        for (label, kind, errno) in Self.errorKinds {
            let name = "lock-\(label).strata"
            try makeFile(name)
            FaultInjector.arm(.ftruncate, kind: kind, pathContaining: path(name) + ".lock")
            XCTAssertThrowsError(try open(name), label) {
                assertSystemError($0, call: "ftruncate", path: path(name) + ".lock", errno: errno)
            }
            FaultInjector.disarmAll()
            let db = try open(name)
            try assertIntact(db, round: 1)
            db.close()
        }
    }

    func testDataFileMapFailureOnOpen() throws {
        for (label, kind, errno) in Self.errorKinds {
            let name = "open-map-\(label).strata"
            try makeFile(name)
            // Opening maps the lock file, then the data file.
            FaultInjector.arm(.mmap, kind: kind, after: 1, pathContaining: path(name))
            XCTAssertThrowsError(try open(name), label) {
                assertSystemError($0, call: "mmap", path: path(name), errno: errno)
            }
            FaultInjector.disarmAll()
            let db = try open(name)
            try assertIntact(db, round: 1)
            db.close()
        }
    }

    func testRecoverySyncFailureOnOpen() throws {
        for (label, kind, errno) in Self.errorKinds {
            let name = "open-sync-\(label).strata"
            // An uncleanly closed file: a byte copy taken while a handle still has it open.
            let source = "open-sync-source-\(label).strata"
            let db0 = try open(source)
            try writeRound(db0, 1)
            try FileManager.default.copyItem(atPath: path(source), toPath: path(name))
            db0.close()
            // After an unclean close the first writable opener syncs the version it opens at (it
            // may hold unsynced commits). (A clean close already synced, so that open does not.)
            FaultInjector.arm(.fdatasync, kind: kind, pathContaining: path(name))
            XCTAssertThrowsError(try open(name), label) {
                assertSystemError($0, call: "fdatasync", path: path(name), errno: errno)
            }
            FaultInjector.disarmAll()
            let db = try open(name)
            try assertIntact(db, round: 1)
            db.close()
        }
    }

    func testFailedCreateLeavesNoFileBehind() throws {
        for (label, kind, errno) in Self.writeKinds {
            let name = "create-\(label).strata"
            FaultInjector.arm(.pwrite, kind: kind, pathContaining: path(name))
            XCTAssertThrowsError(try open(name), label) { error in
                guard case StorageError.system(let e) = error else { return XCTFail("\(error)") }
                XCTAssertEqual(e.call, "pwrite")
                XCTAssertEqual(e.errno, errno)
                XCTAssertTrue(String(describing: error).contains(path(name)), "\(error)")
            }
            FaultInjector.disarmAll()
            XCTAssertFalse(FileManager.default.fileExists(atPath: path(name)), label)
            let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter {
                $0.hasPrefix(name)
            }
            XCTAssertEqual(leftovers, [], "\(label): a failed create left files behind")
            let db = try open(name)
            try writeRound(db, 1)
            try assertIntact(db, round: 1)
            db.close()
        }
    }
}
