import XCTest

@testable import StrataStorage

/// The branch search's first guess (an interpolation over 8-byte keys read as numbers) never
/// changes an answer: `floor` (and `floorAndNextKey`, whose next key is the floor's successor
/// when it shares the floor's leaf) and `get` through trees of 8-byte keys spread evenly and unevenly,
/// and of 8-byte keys mixed with shorter and longer ones, agree with a sorted model, in a read
/// and in a write transaction.
final class BranchSearchTests: StorageTestCase {
    private func bytes(_ v: UInt64) -> [UInt8] { withUnsafeBytes(of: v.bigEndian, Array.init) }

    /// Writes `keys` (values of 40 bytes: about 70 a 4096-byte leaf, so that branches hold tens
    /// of children) and checks each key, its neighbours and `extra` probes.
    private func check(_ keys: [[UInt8]], extra: [[UInt8]] = [], _ what: String) throws {
        let db = try open("\(what.filter(\.isLetter)).strata")
        try db.write { txn in
            let t = try txn.openTree("t", create: true)
            for k in keys { try txn.put(k, Array(repeating: UInt8(k.count), count: 40), in: t) }
        }
        let sorted = Set(keys).sorted { $0.lexicographicallyPrecedes($1) }
        func expectedFloor(_ probe: [UInt8]) -> [UInt8]? {
            var lo = 0
            var hi = sorted.count
            while lo < hi {
                let m = (lo + hi) / 2
                if !probe.lexicographicallyPrecedes(sorted[m]) { lo = m + 1 } else { hi = m }
            }
            return lo == 0 ? nil : sorted[lo - 1]
        }
        var probes = extra + [[], [0], Array(repeating: 0xFF, count: 9), bytes(0), bytes(.max)]
        for k in sorted where k.count == 8 {
            let v = UInt64(bigEndian: k.withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) })
            probes += [k, bytes(v &- 1), bytes(v &+ 1)]
        }
        try db.read { r in
            let t = try XCTUnwrap(r.tree(named: "t"))
            var withNext = 0
            var atLeafEnd = 0
            for probe in probes {
                let got = try probe.withUnsafeBytes { try r.floor($0, in: t) }
                XCTAssertEqual(got.map { Array($0.key) }, expectedFloor(probe), "\(what): floor of \(probe)")
                // The same floor with the next key of its leaf: the floor's successor, or nil at
                // the leaf's end.
                let both = try probe.withUnsafeBytes { try r.floorAndNextKey($0, in: t) }
                XCTAssertEqual(both.map { Array($0.key) }, expectedFloor(probe), "\(what): floor of \(probe) with next")
                XCTAssertEqual(both.map { Array($0.value) }, got.map { Array($0.value) }, "\(what): value of \(probe)")
                guard let both, let floorKey = expectedFloor(probe) else { continue }
                if let next = both.next {
                    let at = sorted.firstIndex(of: floorKey)!
                    XCTAssertTrue(at + 1 < sorted.count, "\(what): a next key after the last key, for \(probe)")
                    if at + 1 < sorted.count {
                        XCTAssertEqual(Array(next), sorted[at + 1], "\(what): next of \(probe)")
                    }
                    withNext += 1
                } else {
                    atLeafEnd += 1
                }
            }
            if sorted.count > 1_000 {
                XCTAssertGreaterThan(withNext, 0, "\(what): no floor had a next key in its leaf")
                XCTAssertGreaterThan(atLeafEnd, 0, "\(what): no floor was the last of its leaf")
            }
        }
        try db.write { txn in
            let t = try txn.openTree("t")
            for probe in probes.prefix(3_000) {
                let got = try probe.withUnsafeBytes { try txn.floor($0, in: t) }
                XCTAssertEqual(got.map { Array($0.key) }, expectedFloor(probe), "\(what): floor of \(probe) (write)")
            }
        }
    }

    func testEvenlySpreadKeys() throws {
        var rng = SeededRandom(seed: 21)
        try check((0..<5_000).map { bytes($0) }, "a run")
        try check((0..<5_000).map { bytes(1 << 40 + 7 * $0) }, "every seventh")
        var drawn = Set<UInt64>()
        while drawn.count < 5_000 { drawn.insert(UInt64(rng.below(20_000))) }
        try check(drawn.map(bytes), extra: (0..<2_000).map { _ in bytes(UInt64(rng.below(20_100))) }, "drawn")
    }

    func testUnevenlySpreadKeys() throws {
        var rng = SeededRandom(seed: 22)
        try check((0..<5_000).map { bytes($0 * $0 * $0) }, "cubes")
        try check((0..<2_500).map { bytes($0) } + (0..<2_500).map { bytes(1 << 60 + $0) }, "two runs")
        try check((0..<5_000).map { bytes($0) } + [bytes(.max - 1)], "an outlier above")
        try check([bytes(0)] + (0..<5_000).map { bytes(1 << 50 + $0) }, "an outlier below")
        try check((0..<5_000).map { _ in bytes(rng.next()) }, "across UInt64")
    }

    func testEightByteKeysMixedWithOthers() throws {
        var rng = SeededRandom(seed: 23)
        var keys: [[UInt8]] = []
        for i in 0..<4_000 {
            switch rng.below(4) {
            case 0: keys.append(Array(bytes(UInt64(i) << 20).prefix(1 + rng.below(7))))
            case 1: keys.append(bytes(UInt64(i) << 20) + [UInt8(rng.below(256)), UInt8(rng.below(256))])
            default: keys.append(bytes(UInt64(i) << 20))
            }
        }
        try check(keys, extra: (0..<2_000).map { _ in bytes(UInt64(rng.below(4_001)) << 20 + 5) }, "mixed lengths")
    }
}
