import Foundation
import XCTest
@testable import StrataStorage

/// Step 8 writes only the meta record's first 4 KiB when the rest of the page is zero in the new
/// record and in the slot as the file holds it (`metaWriteLength`). The slot's page in the file
/// must still be the record's whole page: a record whose list reached past 4 KiB leaves bytes
/// there that the next, short record in the same slot must overwrite, or that record's checksum
/// (over the whole page) fails and the file opens at an older version.
final class MetaWriteTests: StorageTestCase {
    struct SlotError: Error { let message: String }

    /// Both meta slots as the file holds them, decoded.
    func slots(_ name: String, pageSize: Int) throws -> [MetaRecord] {
        let data = try Data(contentsOf: URL(fileURLWithPath: path(name)))
        return try (0..<2).map { slot in
            try data.withUnsafeBytes { raw in
                switch MetaRecord.decode(raw.baseAddress! + slot * pageSize, pageSize: pageSize, slot: slot) {
                case .success(let m): return m
                case .failure(let problem): throw SlotError(message: "slot \(slot) does not decode: \(problem)")
                }
            }
        }
    }

    func testAShortRecordAfterALongOneInTheSameSlotLeavesAValidPage() throws {
        let pageSize = 8192
        let name = "meta.strata"
        let db = try open(name, pageSize: pageSize)
        // One commit that writes about 1,500 pages: its inline page list (4 bytes per page after
        // a 104-byte header) reaches past the first 4 KiB of its slot.
        let value = [UInt8](repeating: 0x5A, count: 1_900)
        try db.write { txn in
            let t = try txn.openTree("t", create: true)
            for i in 0..<6_000 { try txn.put(key(i), value, in: t) }
        }
        let long = try XCTUnwrap(try slots(name, pageSize: pageSize).max { $0.version < $1.version })
        XCTAssertGreaterThan(
            MetaLayout.inlineList + 4 * long.inlineList.count, 4096, "the long record must reach past 4 KiB")
        // Small commits alternate slots; the second lands in the long record's slot.
        for round in 0..<4 {
            try db.write { txn in try txn.put(key(round), [UInt8(round)], in: try txn.openTree("t")) }
            let records = try slots(name, pageSize: pageSize)
            XCTAssertEqual(
                records.map(\.version).max(), long.version + UInt64(round) + 1,
                "round \(round): the newest record verifies")
        }
        // Short records in both slots now: their pages' second halves are zero, so later commits
        // write 4 KiB; the file still holds valid records of the two newest versions. (The probe's
        // transaction commits too: version + 5.)
        XCTAssertEqual(try db.write { txn in txn.metaWriteLengthProbe() }, 4096)
        try db.write { txn in try txn.put(key(9), [9], in: try txn.openTree("t")) }
        let final = try slots(name, pageSize: pageSize).map(\.version).sorted()
        XCTAssertEqual(final, [long.version + 5, long.version + 6])
        db.close()
        let reopened = try open(name, pageSize: pageSize)
        defer { reopened.close() }
        XCTAssertEqual(reopened.latestVersion.rawValue, long.version + 6)
        let report = try reopened.verify()
        XCTAssertEqual(report.leakedPages, [])
        XCTAssertEqual(report.trees["t"], 6_000)
    }
}

extension WriteTransaction {
    /// What step 8 would write for a short record into the slot this transaction's commit uses.
    func metaWriteLengthProbe() -> Int {
        let slot = 1 - Int(base.durableSlot)
        MetaRecord(
            version: 0, catalogRoot: 0, freeListHead: 0, pageCount: 2, flags: 0, durableBase: 0, freeListPages: 0,
            listHead: 0, listPagesOwn: 0, inlineList: [], inlineFree: []
        ).encode(into: scratch, pageSize: pageSize, slot: slot)
        return metaWriteLength(slot: slot)
    }
}
