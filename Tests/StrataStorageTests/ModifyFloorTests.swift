import XCTest
@testable import StrataStorage

/// `modifyFloor` and `mutateFloorInPlace`: the greatest key <= a probe is found and rewritten in
/// one descent; values that grow or shrink are replaced where their cell stands
/// (`replaceCellInPlace`) or moved, and the pages stay well formed (`verify()` checks that no
/// two cells overlap).
final class ModifyFloorTests: StorageTestCase {
    func testFloorRewritesGrowAndShrinkValuesAgainstAModel() throws {
        let db = try open(pageSize: 8192)
        defer { db.close() }
        var rng = SeededRandom(seed: 5)
        var model: [UInt64: [UInt8]] = [:]
        // Keys 0, 100, 200, ...: a probe k lands on the entry floor(k / 100) * 100.
        try db.write { txn in
            let t = try txn.openTree("t", create: true)
            for i in 0..<400 {
                let v = [UInt8](repeating: UInt8(i % 251), count: Int.random(in: 1...1500, using: &rng))
                _ = try txn.put(key(i * 100), v, in: t)
                model[UInt64(i * 100)] = v
            }
        }
        for round in 0..<6 {
            try db.write { txn in
                let t = try txn.openTree("t", create: true)
                for _ in 0..<600 {
                    let probe = Int.random(in: 0..<40_000, using: &rng)
                    let floorKey = UInt64(probe / 100 * 100)
                    var newLength = Int.random(in: 0...2000, using: &rng)
                    let fill = UInt8.random(in: 0...255, using: &rng)
                    var seen: UInt64 = .max
                    // A quarter of the rewrites keep the length and edit the bytes in place.
                    let editInPlace = Int.random(in: 0..<4, using: &rng) == 0
                    var result = try key(probe).withUnsafeBytes { pk in
                        try txn.modifyFloor(pk, in: t) { k, old, inPlace, buffer in
                            seen = UInt64(bigEndian: k.loadUnaligned(as: UInt64.self))
                            XCTAssertEqual(Array(old), model[seen])
                            XCTAssertEqual(
                                inPlace.map { Array(UnsafeRawBufferPointer($0)) }, Array(old),
                                "an inline value is offered in place")
                            if editInPlace, let inPlace {
                                newLength = inPlace.count
                                for j in 0..<inPlace.count { inPlace[j] = fill }
                                return .editedInPlace
                            }
                            for j in 0..<newLength { buffer[j] = fill }
                            return .replaced(newLength)
                        }
                    }
                    if !result.found {
                        // The floor is the last entry of the leaf to the left: modify it by key.
                        let length = try key(Int(floorKey)).withUnsafeBytes { fk in
                            try txn.modify(fk, in: t) { old, buffer in
                                XCTAssertEqual(old.map(Array.init), model[floorKey])
                                for j in 0..<newLength { buffer[j] = fill }
                                return newLength
                            }
                        }
                        result = (true, length)
                        seen = floorKey
                    }
                    XCTAssertEqual(seen, floorKey)
                    XCTAssertEqual(result.length, newLength)
                    model[floorKey] = [UInt8](repeating: fill, count: newLength)
                    // In place, same length: one byte changed.
                    if Int.random(in: 0..<4, using: &rng) == 0, newLength > 0 {
                        let done =
                            try key(probe).withUnsafeBytes { pk in
                                try txn.mutateFloorInPlace(pk, in: t) { bytes in bytes[0] = fill &+ 1 }
                            } != nil
                        if done { model[floorKey]![0] = fill &+ 1 }
                    }
                }
                if round % 2 == 1 {
                    // The transaction sees its own changes.
                    var inTxn: [UInt64: [UInt8]] = [:]
                    try txn.forEach(in: t) { k, v in
                        inTxn[UInt64(bigEndian: k.loadUnaligned(as: UInt64.self))] = Array(v); return true
                    }
                    XCTAssertEqual(inTxn, model)
                }
            }
            let r = try db.beginRead()
            XCTAssertEqual(try r.entriesByNumber("t"), model, "round \(round)")
            r.end()
            let report = try db.verify()
            XCTAssertEqual(report.leakedPages, [])
            XCTAssertEqual(report.trees["t"], 400)
        }
    }
}
