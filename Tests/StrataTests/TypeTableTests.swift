import StrataTestSupport
import XCTest

@testable import Strata

/// TypeTable against a dictionary model: random sets, removals and clears over many keys
/// (enough to grow the table several times), checking every key after each step.
final class TypeTableTests: XCTestCase {
    private final class Key {}

    func testLookupsMatchADictionaryAcrossRandomSetsRemovalsAndGrowth() {
        let keys = (0..<300).map { _ in Key() }
        let ids = keys.map { ObjectIdentifier($0) }
        for seed in UInt64(1)...5 {
            var random = SeededRandom(seed: seed)
            var table = TypeTable<Int>()
            var model: [ObjectIdentifier: Int] = [:]
            for step in 0..<3000 {
                let id = ids[random.below(ids.count)]
                switch random.below(20) {
                case 0..<14:
                    table[id] = step
                    model[id] = step
                case 14..<19:
                    table[id] = nil
                    model[id] = nil
                default:
                    if random.below(10) == 0 {
                        table.removeAll()
                        model.removeAll()
                    }
                }
                XCTAssertEqual(table.count, model.count, "seed \(seed) step \(step)")
                if step % 100 == 0 || step == 2999 {
                    for id in ids { XCTAssertEqual(table[id], model[id], "seed \(seed) step \(step)") }
                } else {
                    XCTAssertEqual(table[id], model[id], "seed \(seed) step \(step)")
                }
            }
            withExtendedLifetime(keys) {}
        }
    }

    func testAnEmptyTableFindsNothing() {
        let key = Key()
        var table = TypeTable<String>()
        XCTAssertNil(table[ObjectIdentifier(key)])
        table[ObjectIdentifier(key)] = "a"
        XCTAssertEqual(table[ObjectIdentifier(key)], "a")
        table.removeAll()
        XCTAssertNil(table[ObjectIdentifier(key)])
        XCTAssertEqual(table.count, 0)
    }
}
