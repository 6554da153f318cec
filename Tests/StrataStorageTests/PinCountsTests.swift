import StrataTestSupport
import XCTest

@testable import StrataStorage

/// PinCounts against a dictionary model: random pins and unpins over a small range of versions,
/// checking every version's count and the oldest pinned version after each step.
final class PinCountsTests: XCTestCase {
    func testCountsAndOldestMatchADictionaryAcrossRandomPinsAndUnpins() {
        for seed in UInt64(1)...20 {
            var random = SeededRandom(seed: seed)
            var pins = PinCounts()
            var model: [UInt64: Int] = [:]
            for _ in 0..<400 {
                let version = UInt64(1 + random.below(12))
                if random.below(3) == 0 {
                    let had = model[version] != nil
                    XCTAssertEqual(pins.unpin(version), had, "seed \(seed): unpin \(version)")
                    if let c = model[version] { model[version] = c > 1 ? c - 1 : nil }
                } else {
                    pins.pin(version)
                    model[version, default: 0] += 1
                }
                XCTAssertEqual(pins.oldest, model.keys.min(), "seed \(seed)")
                for v in UInt64(0)...13 {
                    XCTAssertEqual(pins.count(of: v), model[v] ?? 0, "seed \(seed): version \(v)")
                }
            }
        }
    }

    func testUnpinOfAVersionNeverPinnedChangesNothing() {
        var pins = PinCounts()
        pins.pin(5)
        pins.pin(5)
        pins.pin(9)
        XCTAssertFalse(pins.unpin(7))
        XCTAssertEqual(pins.count(of: 5), 2)
        XCTAssertEqual(pins.count(of: 9), 1)
        XCTAssertEqual(pins.oldest, 5)
        XCTAssertTrue(pins.unpin(5))
        XCTAssertTrue(pins.unpin(5))
        XCTAssertEqual(pins.oldest, 9)
        XCTAssertTrue(pins.unpin(9))
        XCTAssertNil(pins.oldest)
    }
}
