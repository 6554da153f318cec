import XCTest
@testable import StrataStorage
import StrataPOSIX

/// Opening where the file lives somewhere unusual: a read-only volume (a database shipped with an
/// app), and how much space a new database takes.
final class OpenPathTests: CrashTestCase {
    /// Fills a database with `count` entries on `dir`, closes it, and returns its path.
    private func makeDatabase(in dir: String, count: Int = 400) throws -> String {
        let file = dir + "/shipped.strata"
        let db = try open(file)
        try db.write { txn in
            let t = try txn.openTree("t", create: true)
            for i in 0..<count { try txn.put(bytes("key-\(i)"), bytes("value-\(i)"), in: t) }
        }
        db.close()
        return file
    }

    private func readOnlyOptions() -> Database.Options {
        var o = Database.Options()
        o.readOnly = true
        return o
    }

    /// A database on a read-only volume without its lock file opens read-only (the lock file
    /// cannot be created there), reads every entry, and refuses writes; a read-write open fails
    /// with a typed error naming the read-only file system.
    func testReadOnlyOpenWorksOnAReadOnlyVolumeWithoutLockFile() throws {
        let dir = try mountSmallFileSystem()
        let file = try makeDatabase(in: dir)
        try FileManager.default.removeItem(atPath: file + ".lock")
        remount(dir, readOnly: true)

        let db = try Database(path: file, options: readOnlyOptions())
        XCTAssertFalse(db.sharesLockFile)
        try db.read { r in
            let t = try XCTUnwrap(try r.tree(named: "t"))
            XCTAssertEqual(t.count, 400)
            for i in stride(from: 0, to: 400, by: 37) {
                XCTAssertEqual(try r.get(bytes("key-\(i)"), in: t), bytes("value-\(i)"))
            }
        }
        XCTAssertThrowsError(try db.beginWrite()) { XCTAssertEqual($0 as? StorageError, .readOnly(path: file)) }
        let second = try Database(path: file, options: readOnlyOptions())
        XCTAssertEqual(try second.read { r in try r.tree(named: "t")?.count }, 400)
        second.close()
        db.close()
        XCTAssertFalse(FileManager.default.fileExists(atPath: file + ".lock"))

        XCTAssertThrowsError(try open(file)) { error in
            guard case StorageError.system(let e) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(e.errno, EROFS)
        }
    }

    /// A database shipped on a read-only volume with a lock file beside it (which cannot be
    /// written) opens read-only too.
    func testReadOnlyOpenWorksOnAReadOnlyVolumeWithAStaleLockFile() throws {
        let dir = try mountSmallFileSystem()
        let file = try makeDatabase(in: dir)
        XCTAssertTrue(FileManager.default.fileExists(atPath: file + ".lock"))
        remount(dir, readOnly: true)
        let db = try Database(path: file, options: readOnlyOptions())
        defer { db.close() }
        XCTAssertFalse(db.sharesLockFile)
        XCTAssertEqual(try db.read { r in try r.tree(named: "t")?.count }, 400)
    }

    /// A new database holding a little data takes tens of KiB, not megabytes: the file doubles
    /// while small. A file that grows past 4 MiB still grows in large steps (few fallocate calls).
    func testNewDatabaseIsSmallAndGrowsInDoublingsThenEighths() throws {
        let file = path()
        var o = Database.Options()
        o.pageSize = 8192
        let db = try Database(path: file, options: o)
        defer { db.close() }
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: file)[.size] as? Int, 2 * 8192)
        try db.write { txn in try txn.put(bytes("k"), bytes("v"), in: try txn.openTree("t", create: true)) }
        let afterOne = try XCTUnwrap(try FileManager.default.attributesOfItem(atPath: file)[.size] as? Int)
        XCTAssertLessThanOrEqual(afterOne, 64 << 10, "a one-entry database takes \(afterOne) bytes")

        FaultInjector.arm(.fallocate, kind: .error(0), after: Int.max)  // counts calls only
        try db.write { txn in
            let t = try txn.openTree("t")
            for i in 0..<3000 { try txn.put(bytes("big-\(i)"), [UInt8](repeating: 7, count: 3000), in: t) }
        }
        let grows = FaultInjector.hits(.fallocate)
        FaultInjector.disarmAll()
        let size = try XCTUnwrap(try FileManager.default.attributesOfItem(atPath: file)[.size] as? Int)
        XCTAssertGreaterThan(size, 9 << 20)
        XCTAssertLessThanOrEqual(grows, 12, "growing to \(size) bytes took \(grows) posix_fallocate calls")
    }
}
