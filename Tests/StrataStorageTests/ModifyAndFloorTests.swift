import XCTest
@testable import StrataStorage

final class ModifyAndFloorTests: StorageTestCase {
    /// floor(k) is the greatest key <= k, checked against a sorted model for many probes,
    /// including probes that fall between a separator prefix and its right node's first key.
    func testFloorMatchesSortedModel() throws {
        let db = try open()
        var rng = SeededRandom(seed: 11)
        var keys = Set<[UInt8]>()
        try db.write { txn in
            let t = try txn.openTree("t", create: true)
            for _ in 0..<4000 {
                let len = Int.random(in: 1...24, using: &rng)
                // few letters: long shared prefixes
                let k = (0..<len).map { _ in UInt8.random(in: 97...100, using: &rng) }
                keys.insert(k)
                try txn.put(k, k, in: t)
            }
        }
        let sorted = keys.sorted { $0.lexicographicallyPrecedes($1) }
        func expectedFloor(_ probe: [UInt8]) -> [UInt8]? {
            var lo = 0, hi = sorted.count
            while lo < hi {
                let m = (lo + hi) / 2; if !probe.lexicographicallyPrecedes(sorted[m]) { lo = m + 1 } else { hi = m }
            }
            return lo == 0 ? nil : sorted[lo - 1]
        }
        try db.read { r in
            let t = try r.tree(named: "t")!
            for _ in 0..<3000 {
                let len = Int.random(in: 0...26, using: &rng)
                let probe = (0..<len).map { _ in UInt8.random(in: 96...101, using: &rng) }
                let got = try probe.withUnsafeBytes { try r.floor($0, in: t) }
                XCTAssertEqual(got.map { Array($0.key) }, expectedFloor(probe), "probe \(probe)")
                if let got { XCTAssertEqual(Array(got.key), Array(got.value)) }
            }
        }
        // The same through a write transaction's view.
        try db.write { txn in
            let t = try txn.openTree("t")
            for probe in sorted.prefix(200) {
                let got = try probe.withUnsafeBytes { try txn.floor($0, in: t) }
                XCTAssertEqual(got.map { Array($0.key) }, probe)
            }
        }
    }

    /// modify and mutateInPlace against a Dictionary model: inserts, same-size rewrites,
    /// growing and shrinking values, no-op bodies, overflow values; verify() after each commit.
    func testModifyMatchesModel() throws {
        let db = try open()
        var rng = SeededRandom(seed: 12)
        var model: [[UInt8]: [UInt8]] = [:]
        for round in 0..<15 {
            try db.write { txn in
                let t = try txn.openTree("t", create: true)
                for _ in 0..<300 {
                    let k = key(Int.random(in: 0..<500, using: &rng))
                    let roll = Int.random(in: 0..<4, using: &rng)
                    switch roll {
                    case 0:  // append a byte (grows), or create
                        let b = UInt8.random(in: 0...255, using: &rng)
                        let n = try k.withUnsafeBytes { kp in
                            try txn.modify(kp, in: t) { old, buf in
                                let o = old.map(Array.init) ?? []
                                guard o.count < 900 else { return nil }
                                buf.copyBytes(from: o + [b])
                                return o.count + 1
                            }
                        }
                        if n != nil { model[k] = (model[k] ?? []) + [b] }
                    case 1:  // same-size rewrite in place
                        let changed =
                            try k.withUnsafeBytes { kp in
                                try txn.mutateInPlace(kp, in: t) { (v: UnsafeMutableRawBufferPointer) -> Void in
                                    for j in v.indices { v[j] = v[j] &+ 1 }
                                }
                            } != nil
                        XCTAssertEqual(changed, model[k] != nil)
                        if let v = model[k] { model[k] = v.map { $0 &+ 1 } }
                    case 2:  // a no-op body leaves the tree as it was
                        let versionBefore = txn.count(t)
                        _ = try k.withUnsafeBytes { kp in try txn.modify(kp, in: t) { _, _ in nil } }
                        XCTAssertEqual(txn.count(t), versionBefore)
                    default:  // shrink to one byte
                        _ = try k.withUnsafeBytes { kp in
                            try txn.modify(kp, in: t) { old, buf in
                                guard let old, old.count > 1 else { return nil }
                                buf[0] = old[0]
                                return 1
                            }
                        }
                        if let v = model[k], v.count > 1 { model[k] = [v[0]] }
                    }
                }
                XCTAssertEqual(txn.count(t), UInt64(model.count))
            }
            let report = try db.verify()
            XCTAssertEqual(report.leakedPages, [], "round \(round)")
            try db.read { r in
                let t = try r.tree(named: "t")!
                let entries = try r.allEntries(t)
                XCTAssertEqual(entries.count, model.count)
                for (k, v) in entries { XCTAssertEqual(model[k], v) }
            }
        }
    }

    func testMutateInPlaceOnOverflowValueCopiesTheRunOncePerTransaction() throws {
        let db = try open()
        let big = [UInt8](repeating: 1, count: 20_000)
        try db.write { txn in try txn.put(bytes("big"), big, in: try txn.openTree("t", create: true)) }
        let snapshot = try db.beginRead()
        try db.write { txn in
            let t = try txn.openTree("t")
            for i in 0..<5 {
                _ = try bytes("big").withUnsafeBytes { kp in try txn.mutateInPlace(kp, in: t) { v in v[i] = 9 } }
            }
        }
        // The old snapshot still sees the original run; the new version has all five edits.
        XCTAssertEqual(try snapshot.get(bytes("big"), in: try snapshot.tree(named: "t")!), big)
        snapshot.end()
        try db.read { r in
            let v = try r.get(bytes("big"), in: try r.tree(named: "t")!)!
            XCTAssertEqual(Array(v[0..<6]), [9, 9, 9, 9, 9, 1])
        }
        XCTAssertEqual(try db.verify().leakedPages, [])
    }

    func testModifyRollsBackWithTheTransaction() throws {
        let db = try open()
        try db.write { txn in try txn.put(bytes("k"), bytes("before"), in: try txn.openTree("t", create: true)) }
        let txn = try db.beginWrite()
        let t = try txn.openTree("t")
        _ = try bytes("k").withUnsafeBytes { kp in
            try txn.modify(kp, in: t) { _, buf in
                buf.copyBytes(from: bytes("after!")); return 6
            }
        }
        XCTAssertEqual(try txn.get(bytes("k"), in: t), bytes("after!"))
        txn.abort()
        try db.read { r in XCTAssertEqual(try r.get(bytes("k"), in: try r.tree(named: "t")!), bytes("before")) }
    }
}
