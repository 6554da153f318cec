import Foundation
import StrataPOSIX
import StrataTestSupport
import XCTest

@testable import StrataStorage

/// `Database.deleteFiles` racing an open of the same file elsewhere (another process, or another
/// handle of this one: the open lock belongs to an open file description). The delete holds the
/// open lock exclusively while it unlinks the files, so an open that opened the lock file's name
/// just before may be granted the lock on a removed file; it must open the name again rather than
/// fail or use the removed file.
final class DeleteWhileOpeningTests: StorageTestCase {
    func testRefersToPathIsFalseOnceTheNameIsRemovedOrReplaced() throws {
        let name = path("probe")
        let fd = try System.open(name, create: true)
        defer { System.close(fd) }
        XCTAssertTrue(System.refersToPath(fd, name))
        try System.unlink(name)
        XCTAssertFalse(System.refersToPath(fd, name))
        let other = try System.open(name, create: true)
        defer { System.close(other) }
        XCTAssertFalse(System.refersToPath(fd, name), "a new file under the old name is another file")
        XCTAssertTrue(System.refersToPath(other, name))
    }

    /// Each round starts a delete and an open at the same moment (a deleter that deletes in a
    /// tight loop could starve an open forever; real deletes do not come in such storms).
    func testOpensRacingDeletesNeverFailAndWriteToTheFileTheNameNames() throws {
        let name = path("race.strata")
        var options = Database.Options()
        options.pageSize = 4096
        options.mapReserve = 16 << 20
        let rounds = 200
        let failures = Locked<[String]>([])
        let deleted = Locked(0)
        let go = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        let deleter = Thread {
            for _ in 0..<rounds {
                go.wait()
                do {
                    if try Database.deleteFiles(path: name) { deleted.mutate { $0 += 1 } }
                } catch StorageError.inUse {
                    // The open got there first and holds the file: expected.
                } catch {
                    failures.mutate { $0.append("delete: \(error)") }
                }
                done.signal()
            }
        }
        deleter.start()
        for i in 0..<rounds {
            go.signal()
            do {
                let db = try Database(path: name, options: options)
                try db.write { txn in
                    let t = try txn.openTree("t", create: true)
                    try txn.put(Array("k\(i)".utf8), Array("v".utf8), in: t)
                }
                // Another handle opens the file by its name (nobody can delete it while `db` is
                // open): it sees the commit, so `db` wrote to that file, not to a removed one.
                let check = try Database(path: name, options: options)
                try check.read { txn in
                    let t = try XCTUnwrap(try txn.tree(named: "t"))
                    XCTAssertEqual(try txn.get(Array("k\(i)".utf8), in: t), Array("v".utf8), "open \(i)")
                }
                check.close()
                db.close()
            } catch {
                failures.mutate { $0.append("open \(i): \(error)") }
            }
            done.wait()
        }
        XCTAssertEqual(failures.value, [])
        XCTAssertGreaterThan(deleted.value, 0, "no delete ran: the race was not exercised")
    }
}
