import StrataTestSupport
import XCTest

@testable import StrataCore

/// `KeyPositions` finds each key's position, and only the keys it holds, both with its direct
/// table (dense keys) and with binary search (sparse keys, keys near the ends of `Int64`).
final class KeyPositionsTests: XCTestCase {
    private func check(_ keys: [Int64], probes: [Int64], _ what: String) {
        let positions = KeyPositions(keys)
        let expected = Dictionary(uniqueKeysWithValues: keys.enumerated().map { ($1, $0) })
        for key in probes {
            XCTAssertEqual(positions.position(of: key), expected[key], "\(what): key \(key)")
        }
    }

    func testDenseAndSparseKeysGiveTheirPositionsAndNothingElse() {
        var rng = SeededRandom(seed: 91)
        for round in 0..<40 {
            let count = 1 + rng.below(3_000)
            let spread = [1, 2, 7, 9, 100, 1 << 20][round % 6]
            let base = Int64(rng.below(1_000)) - 500
            var keys = Set<Int64>()
            while keys.count < count { keys.insert(base + Int64(rng.below(count * spread))) }
            let sorted = keys.sorted()
            var probes = sorted
            for _ in 0..<2_000 { probes.append(base - 10 + Int64(rng.below(count * spread + 20))) }
            probes += [Int64.min, Int64.max, sorted[0] - 1, sorted[sorted.count - 1] + 1]
            check(sorted, probes: probes, "round \(round), \(count) keys, spread \(spread)")
        }
    }

    func testEmptyAndExtremeKeys() {
        check([], probes: [0, 1, -1, .min, .max], "empty")
        check([.min, -1, 0, .max], probes: [.min, .min + 1, -1, 0, 1, .max - 1, .max], "extremes")
        check([.max - 2, .max], probes: [.max - 3, .max - 2, .max - 1, .max, .min], "top of the range")
        check([.min, .min + 3], probes: [.min, .min + 1, .min + 3, .min + 4, .max], "bottom of the range")
    }
}
