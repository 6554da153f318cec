import Foundation
import XCTest
@testable import StrataStorage

/// Commit step 11 (`giveBackSpace`): after a durable commit, preallocated space far past the pages
/// in use is given back; both meta records still fit the file (a crash may fall back to the
/// older one).
final class GiveBackSpaceTests: StorageTestCase {
    func fileLength() throws -> Int64 {
        (try FileManager.default.attributesOfItem(atPath: path())[.size] as! NSNumber).int64Value
    }

    func testARandomOrderLoadLeavesNoLargeUnusedTail() throws {
        let db = try open()
        var rng = SeededRandom(seed: 17)
        let count = 60_000
        try db.write { txn in
            let t = try txn.openTree("t", create: true)
            for i in rng.shuffled(Array(0..<count)) {
                try txn.put(key(i), Array(repeating: UInt8(i % 251), count: 1_000), in: t)
            }
        }
        let report = try db.verify()
        XCTAssertEqual(report.leakedPages, [])
        let used = Int64(report.pageCount) * 4096
        let length = try fileLength()
        // Kept: the pages in use plus a sixteenth (at least 1 MiB), rounded up to 1 MiB.
        XCTAssertLessThanOrEqual(
            length, used + max(1 << 20, used / 16) + (1 << 20), "file \(length) for \(used) bytes in use")
        XCTAssertGreaterThanOrEqual(length, used)
        // Later commits grow it again as they need.
        try db.write { txn in
            let t = try txn.openTree("t", create: true)
            for i in count..<(count + 20_000) { try txn.put(key(i), Array(repeating: 9, count: 1_000), in: t) }
        }
        XCTAssertEqual(try db.verify().trees["t"], UInt64(count + 20_000))
        db.close()

        // Both meta records fit the file (the older one is what a crash falls back to): each
        // one's page count is within the file's length.
        let h = try FileHandle(forReadingFrom: URL(fileURLWithPath: path()))
        for slot in 0..<2 {
            try h.seek(toOffset: UInt64(slot * 4096 + 64))
            let pages = try XCTUnwrap(h.readData(ofLength: 4)).withUnsafeBytes {
                UInt32(littleEndian: $0.loadUnaligned(as: UInt32.self))
            }
            XCTAssertLessThanOrEqual(Int64(pages) * 4096, try fileLength(), "meta slot \(slot)")
        }
        try h.close()
        let reopened = try open()
        defer { reopened.close() }
        try reopened.read { r in
            let t = try XCTUnwrap(r.tree(named: "t"))
            XCTAssertEqual(t.count, UInt64(count + 20_000))
            XCTAssertEqual(try r.get(key(123), in: t), Array(repeating: UInt8(123 % 251), count: 1_000))
        }
        XCTAssertEqual(try reopened.verify().leakedPages, [])
    }
}
