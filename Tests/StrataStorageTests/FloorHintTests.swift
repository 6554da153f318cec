import XCTest
@testable import StrataStorage

/// `floor` remembers where it found its entry (`FloorHint`), and a `mutateFloorInPlace` of the
/// same key right after it writes there without a second descent. The hint must never be used
/// after anything that can move a cell or a page: these tests interleave floors and in-place
/// edits with puts, deletes and edits of other trees, against a model.
final class FloorHintTests: StorageTestCase {
    /// Random floors, each followed by nothing, a put or delete in the same tree (which can
    /// split or merge the very leaf the hint points at), a change to another tree, or a floor of
    /// another key; then an in-place edit of the first probe. Every edit lands on the right entry.
    func testInPlaceEditsAfterFloorAgainstAModel() throws {
        let db = try open(pageSize: 4096)
        defer { db.close() }
        var rng = SeededRandom(seed: 11)
        var model: [UInt64: [UInt8]] = [:]
        var other: [UInt64: [UInt8]] = [:]
        try db.write { txn in
            let t = try txn.openTree("t", create: true)
            let o = try txn.openTree("o", create: true)
            for i in 0..<600 {
                let v = [UInt8](repeating: UInt8(i % 251), count: 1 + rng.below(300))
                _ = try txn.put(key(i * 10), v, in: t)
                model[UInt64(i * 10)] = v
                _ = try txn.put(key(i), v, in: o)
                other[UInt64(i)] = v
            }
        }
        var fastEdits = 0
        for round in 0..<8 {
            try db.write { txn in
                let t = try txn.openTree("t", create: true)
                let o = try txn.openTree("o", create: true)
                for step in 0..<800 {
                    let probe = rng.below(6_500)
                    let found = try key(probe).withUnsafeBytes { try txn.floor($0, in: t) }
                    let floorKey = model.keys.filter { $0 <= UInt64(probe) }.max()
                    XCTAssertEqual(found.map { UInt64(bigEndian: $0.key.loadUnaligned(as: UInt64.self)) }, floorKey)
                    switch rng.below(6) {
                    case 0:
                        // A put into the same tree: may grow a cell, split the leaf, or add a
                        // new floor for the probe.
                        let k = rng.below(6_500)
                        let v = [UInt8](repeating: UInt8(step % 251), count: 1 + rng.below(900))
                        _ = try txn.put(key(k), v, in: t)
                        model[UInt64(k)] = v
                    case 1:
                        // A delete from the same tree (may merge leaves, or remove the floor).
                        if let k = model.keys.randomElement(using: &rng), model.count > 50 {
                            _ = try txn.delete(key(Int(k)), in: t)
                            model[k] = nil
                        }
                    case 2:
                        let k = rng.below(2_000)
                        let v = [UInt8](repeating: 7, count: 1 + rng.below(900))
                        _ = try txn.put(key(k), v, in: o)
                        other[UInt64(k)] = v
                    case 3:
                        // A floor of another key of the same tree replaces the hint.
                        _ = try key(rng.below(6_500)).withUnsafeBytes { try txn.floor($0, in: t) }
                    default:
                        break
                    }
                    let stamp = txn.changeStamp
                    let fill = UInt8(truncatingIfNeeded: step &+ round)
                    let done =
                        try key(probe).withUnsafeBytes { pk in
                            try txn.mutateFloorInPlace(pk, in: t) { (bytes: UnsafeMutableRawBufferPointer) -> Void in
                                if !bytes.isEmpty { bytes[0] = fill }
                            }
                        } != nil
                    if txn.changeStamp == stamp { fastEdits += 1 }
                    let target = model.keys.filter { $0 <= UInt64(probe) }.max()
                    if done {
                        let target = try XCTUnwrap(target)
                        if !model[target]!.isEmpty { model[target]![0] = fill }
                    }
                }
                var inTxn: [UInt64: [UInt8]] = [:]
                try txn.forEach(in: t) { k, v in
                    inTxn[UInt64(bigEndian: k.loadUnaligned(as: UInt64.self))] = Array(v); return true
                }
                XCTAssertEqual(inTxn, model, "round \(round), inside the transaction")
            }
            let r = try db.beginRead()
            XCTAssertEqual(try r.entriesByNumber("t"), model, "round \(round)")
            XCTAssertEqual(try r.entriesByNumber("o"), other, "round \(round)")
            r.end()
            XCTAssertEqual(try db.verify().leakedPages, [])
        }
        // The hint is actually taken (an edit without `beginChange`) in a good share of the edits.
        XCTAssertGreaterThan(fastEdits, 1_000)
    }

    /// The hint is taken only when the leaf already belongs to the transaction: the first edit
    /// of a committed leaf descends (copying the path); the next floor and edit of it do not.
    func testHintIsTakenOnlyForALeafTheTransactionOwns() throws {
        let db = try open(pageSize: 4096)
        defer { db.close() }
        try db.write { txn in
            let t = try txn.openTree("t", create: true)
            for i in 0..<2_000 { _ = try txn.put(key(i), [UInt8](repeating: 1, count: 40), in: t) }
        }
        try db.write { txn in
            let t = try txn.openTree("t", create: true)
            let edit: (Int, UInt8) throws -> Bool = { k, b in
                _ = try key(k).withUnsafeBytes { try txn.floor($0, in: t) }
                let before = txn.changeStamp
                try key(k).withUnsafeBytes { pk in _ = try txn.mutateFloorInPlace(pk, in: t) { $0[0] = b } }
                return txn.changeStamp == before
            }
            XCTAssertFalse(try edit(1_000, 2), "a committed leaf is copied first")
            XCTAssertTrue(try edit(1_001, 3), "the copied leaf is edited where it is")
            XCTAssertTrue(try edit(1_000, 4))
            // A put anywhere invalidates the hint.
            _ = try key(1_001).withUnsafeBytes { try txn.floor($0, in: t) }
            _ = try txn.put(key(5_000), [9], in: t)
            let before = txn.changeStamp
            try key(1_001).withUnsafeBytes { pk in _ = try txn.mutateFloorInPlace(pk, in: t) { $0[0] = 5 } }
            XCTAssertNotEqual(txn.changeStamp, before)
            XCTAssertTrue(try edit(1_003, 6))
            // A hint for another key is not used.
            _ = try key(1_002).withUnsafeBytes { try txn.floor($0, in: t) }
            let stamp = txn.changeStamp
            try key(1_004).withUnsafeBytes { pk in _ = try txn.mutateFloorInPlace(pk, in: t) { $0[0] = 7 } }
            XCTAssertNotEqual(txn.changeStamp, stamp)
        }
        let r = try db.beginRead()
        let entries = try r.entriesByNumber("t")
        XCTAssertEqual(entries[1_000]?.first, 4)
        XCTAssertEqual(entries[1_001]?.first, 5)
        XCTAssertEqual(entries[1_003]?.first, 6)
        XCTAssertEqual(entries[1_004]?.first, 7)
        XCTAssertEqual(entries[999]?.first, 1)
        r.end()
    }
}
