import Foundation
import XCTest
@testable import StrataStorage

/// Two processes holding the key of one encrypted file: commits of each reach the other, whose
/// plaintext mirror holds pages the other process has since rewritten (and must open again).
final class EncryptedMultiProcessTests: CrashTestCase {
    let key: [UInt8] = (0..<64).map { UInt8(truncatingIfNeeded: $0 &* 13 &+ 5) }
    var keyHex: String { key.map { String(format: "%02x", $0) }.joined() }

    func openEncrypted(_ file: String) throws -> Database {
        var o = Database.Options()
        o.mapReserve = 64 << 20
        o.encryptionKey = key
        return try Database(path: file, options: o)
    }

    func value(worker: Int, _ n: UInt64) -> [UInt8] {
        [UInt8](repeating: UInt8(truncatingIfNeeded: worker &* 37 &+ Int(n)), count: 16 + Int(n % 300))
    }

    /// Worker `worker`'s counter in the newest snapshot, checked against its records: exactly
    /// `r-<worker>-1` ... `r-<worker>-<counter>`, each holding what the writer put there.
    func checkedCount(_ db: Database, worker: Int) throws -> UInt64 {
        try db.read { r in
            guard let counters = try r.tree(named: "counters"), let records = try r.tree(named: "records") else {
                return 0
            }
            let count = try r.get(bytes("w\(worker)"), in: counters).map {
                $0.reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            }
            let n = count ?? 0
            XCTAssertEqual(records.count, n, "records against the counter at \(r.version)")
            if n > 0 {
                for i in 1...n {
                    XCTAssertEqual(
                        try r.get(bytes("r-\(worker)-\(i)"), in: records), value(worker: worker, i), "record \(i)")
                }
            }
            return n
        }
    }

    func testParentReadsEveryCommitOfAWriterProcessOnAnEncryptedFile() throws {
        let file = path()
        let db = try openEncrypted(file)
        defer { db.close() }
        try db.write { txn in
            _ = try txn.openTree("counters", create: true)
            _ = try txn.openTree("records", create: true)
        }
        XCTAssertEqual(try checkedCount(db, worker: 0), 0)
        let commits = 150
        let child = try StressChild([
            "--mode", "counter", "--path", file, "--worker", "0", "--commits", "\(commits)", "--key-hex", keyHex,
        ])
        var seen: [UInt64] = []
        while let line = child.readLine() {
            let acknowledged = try XCTUnwrap(UInt64(line), "child printed '\(line)'")
            // The child's commit returned before it printed its number: this process sees it now.
            let count = try checkedCount(db, worker: 0)
            XCTAssertGreaterThanOrEqual(count, acknowledged)
            seen.append(count)
        }
        XCTAssertEqual(child.waitForExit(), .exited(0), child.summary())
        XCTAssertEqual(seen.count, commits, child.summary())
        XCTAssertEqual(seen, seen.sorted(), "a later snapshot showed fewer commits")
        XCTAssertEqual(try checkedCount(db, worker: 0), UInt64(commits))
        XCTAssertEqual(try db.verify().leakedPages, [])
    }

    func testReaderProcessSeesEveryCommitOfThisProcessOnAnEncryptedFile() throws {
        let file = path()
        let db = try openEncrypted(file)
        defer { db.close() }
        let commits: UInt64 = 150
        // The child checks every snapshot it reads for whole commits (counter = records, each
        // record present) and exits 0 once it has seen all of them.
        let reader = try StressChild([
            "--mode", "reader", "--path", file, "--workers", "1", "--target", "\(commits)", "--key-hex", keyHex,
        ])
        for n in 1...commits {
            try db.write { txn in
                let counters = try txn.openTree("counters", create: true)
                let records = try txn.openTree("records", create: true)
                try txn.put(bytes("w0"), withUnsafeBytes(of: n.bigEndian) { Array($0) }, in: counters)
                try txn.put(bytes("r-0-\(n)"), value(worker: 0, n), in: records)
            }
        }
        let verdict = reader.readLine()
        XCTAssertEqual(reader.waitForExit(), .exited(0), reader.summary())
        let snapshots = try XCTUnwrap(
            verdict.flatMap { $0.hasPrefix("ok ") ? Int($0.dropFirst(3)) : nil }, "\(verdict ?? "no output")")
        XCTAssertGreaterThan(snapshots, 1, "the reader read before the last commit too")
        XCTAssertEqual(try checkedCount(db, worker: 0), commits)
    }

    func testProcessWithAnotherKeyIsRefused() throws {
        let file = path()
        try openEncrypted(file).close()
        let wrong = String(repeating: "ab", count: 64)
        let child = try StressChild(["--mode", "open", "--path", file, "--key-hex", wrong])
        XCTAssertEqual(child.drain(), [])
        XCTAssertEqual(child.waitForExit(), .exited(2))
        XCTAssertTrue(child.stderrText().contains("another key"), child.summary())
    }
}
