import XCTest
@testable import StrataCore

/// Index keys compare (memcmp) exactly as their values do, alone and followed by an object key.
final class IndexKeyTests: XCTestCase {

    func memcmpOrder(_ a: [UInt8], _ b: [UInt8]) -> Int {
        if a == b { return 0 }
        return a.lexicographicallyPrecedes(b) ? -1 : 1
    }

    func check<T>(
        _ values: [T], _ make: (T) -> StoreValue, _ less: (T, T) -> Bool, _ equal: (T, T) -> Bool,
        file: StaticString = #filePath, line: UInt = #line
    ) {
        for a in values {
            for b in values {
                let expected = equal(a, b) ? 0 : (less(a, b) ? -1 : 1)
                XCTAssertEqual(
                    memcmpOrder(IndexKey.encode(make(a)), IndexKey.encode(make(b))), expected, "\(a) vs \(b)",
                    file: file, line: line)
                // With object keys appended, equal values order by object key; others by value.
                let ea = IndexKey.entry(make(a), objectKey: 7), eb = IndexKey.entry(make(b), objectKey: 3)
                XCTAssertEqual(
                    memcmpOrder(ea, eb), expected == 0 ? 1 : expected, "entries \(a) vs \(b)", file: file, line: line)
            }
        }
    }

    func testIntegersOrderNumerically() {
        var rng = SeededRandom(seed: 1)
        var values: [Int64] = [.min, .min + 1, -1_000_000, -256, -1, 0, 1, 255, 256, 65_535, .max - 1, .max]
        for _ in 0..<40 { values.append(Int64(bitPattern: rng.next()) >> Int64.random(in: 0..<63, using: &rng)) }
        check(values, StoreValue.int, <, ==)
    }

    func testDoublesOrderNumerically() {
        var rng = SeededRandom(seed: 2)
        var values: [Double] = [
            -.infinity, -.greatestFiniteMagnitude, -1e300, -1.5, -1, -.leastNonzeroMagnitude, 0, .leastNonzeroMagnitude,
            1e-300, 0.5, 1, 2, 1e300, .greatestFiniteMagnitude, .infinity,
        ]
        for _ in 0..<40 { values.append(Double.random(in: -1e6...1e6, using: &rng)) }
        check(values, StoreValue.double, <, ==)
        // -0.0 equals 0.0; NaN sorts after +infinity and equals itself.
        XCTAssertEqual(IndexKey.encode(.double(-0.0)), IndexKey.encode(.double(0.0)))
        XCTAssertTrue(IndexKey.encode(.double(.infinity)).lexicographicallyPrecedes(IndexKey.encode(.double(.nan))))
        XCTAssertEqual(IndexKey.encode(.double(.nan)), IndexKey.encode(.double(-.nan)))
        XCTAssertEqual(IndexKey.encode(.float(1.5)), IndexKey.encode(.double(1.5)))
    }

    func testStringsOrderByUTF8BytesAndPrefixesComeFirst() {
        let values = [
            "", "\u{0}", "\u{0}\u{0}", "a", "a\u{0}", "a\u{0}b", "ab", "abc", "b", "B", "ä", "日本", "日本語", "z\u{0}",
            "zz",
        ]
        check(values, StoreValue.string, { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }, ==)
    }

    func testDataOrdersLikeBytes() {
        var rng = SeededRandom(seed: 3)
        var values: [[UInt8]] = [[], [0], [0, 0], [0, 1], [0, 255], [1], [255], [255, 0], [255, 255]]
        for _ in 0..<30 {
            values.append(
                (0..<Int.random(in: 0...4, using: &rng)).map { _ in [0, 1, 255, 7][Int.random(in: 0..<4, using: &rng)] }
            )
        }
        check(values, StoreValue.data, { $0.lexicographicallyPrecedes($1) }, ==)
    }

    func testTimestampsOrderBySecondsThenNanoseconds() {
        let values: [(Int64, Int32)] = [
            (-100, -5), (-100, 0), (-1, -999_999_999), (0, 0), (0, 1), (1, 0), (1, 999_999_999), (1_700_000_000, 5),
        ]
        check(
            values, { StoreValue.timestamp(seconds: $0.0, nanoseconds: $0.1) },
            { $0.0 != $1.0 ? $0.0 < $1.0 : $0.1 < $1.1 }, { $0 == $1 })
    }

    func testTypesNeverCollideAndNullSortsFirst() {
        let values: [StoreValue] = [
            .null, .bool(false), .int(0), .double(0), .string(""), .data([]), .timestamp(seconds: 0, nanoseconds: 0),
            .objectId([UInt8](repeating: 0, count: 12)), .uuid([UInt8](repeating: 0, count: 16)),
            .decimal128([UInt8](repeating: 0, count: 16)),
        ]
        let keys = values.map(IndexKey.encode)
        XCTAssertEqual(Set(keys).count, keys.count)
        XCTAssertEqual(keys, keys.sorted { $0.lexicographicallyPrecedes($1) })
        XCTAssertEqual(IndexKey.encode(.null), [0])
        check([false, true], StoreValue.bool, { !$0 && $1 }, ==)
    }

    func testEqualityRangeCoversExactlyTheValuesEntries() {
        let (lower, upper) = IndexKey.range(equalTo: .string("rex"))
        for key in [UInt64(0), 1, .max] {
            let e = IndexKey.entry(.string("rex"), objectKey: key)
            XCTAssertTrue(!e.lexicographicallyPrecedes(lower) && e.lexicographicallyPrecedes(upper))
        }
        for other in ["re", "rex\u{0}", "rexa", "rey"] {
            let e = IndexKey.entry(.string(other), objectKey: 5)
            XCTAssertFalse(!e.lexicographicallyPrecedes(lower) && e.lexicographicallyPrecedes(upper), other)
        }
    }
}
