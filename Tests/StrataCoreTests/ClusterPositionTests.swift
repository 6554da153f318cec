import StrataTestSupport
import XCTest

@testable import StrataCore

/// `ClusterView.position(of:)` (an interpolation search over the cluster's key deltas) finds
/// every key a cluster holds, and for every other key the place it would go, for even keys and
/// for the uneven spreads that defeat a first guess: compared with a linear walk of the keys.
final class ClusterPositionTests: XCTestCase {
    private static let table = StoreTable(
        name: "Keys",
        columns: [StoreColumn(name: "id", type: .int, isPrimaryKey: true), StoreColumn(name: "n", type: .int)])

    /// Encodes a cluster of `keys` (ascending) and checks `position(of:)` for each key, each
    /// neighbour of a key, the ends of `Int64` and `extra` probes.
    private func check(_ keys: [Int64], extra: [Int64] = [], _ what: String) throws {
        let editor = ClusterEditor(table: Self.table)
        for (i, k) in keys.enumerated() { try editor.insert(key: k, values: [.int(k), .int(Int64(i))], at: i) }
        var bytes: [UInt8] = []
        editor.encode(0..<keys.count, into: &bytes)
        var probes = extra + [Int64.min, Int64.max]
        for k in keys { probes += [k, k &- 1, k &+ 1] }
        try bytes.withUnsafeBytes { raw in
            let view = try XCTUnwrap(ClusterView(raw, table: Self.table), "\(what): cluster does not validate")
            XCTAssertEqual(view.count, keys.count, what)
            for probe in probes {
                let expected = keys.firstIndex { $0 >= probe } ?? keys.count
                let found = expected < keys.count && keys[expected] == probe
                let got = view.position(of: probe)
                XCTAssertEqual(got.index, expected, "\(what): position of \(probe)")
                XCTAssertEqual(got.found, found, "\(what): whether \(probe) is found")
            }
        }
    }

    func testEvenKeysAreFoundAndMissingKeysPlaced() throws {
        var rng = SeededRandom(seed: 7)
        for count in [1, 2, 3, 8, 9, 10, 17, 100, 280, 600] {
            // A run with one gap (so the cluster stores key deltas), ids drawn at random from a
            // range, and every third id.
            try check(Array(0..<Int64(count - 1)) + [Int64(count + 5)], "run of \(count) with a gap")
            var drawn = Set<Int64>()
            while drawn.count < count { drawn.insert(Int64(rng.below(count * 4))) }
            try check(
                drawn.sorted(), extra: (0..<200).map { _ in Int64(rng.below(count * 4 + 10)) - 5 }, "\(count) drawn")
            try check((0..<Int64(count)).map { 1_000 + 3 * $0 }, "\(count) every third")
        }
    }

    func testUnevenKeysAreFoundAndMissingKeysPlaced() throws {
        var rng = SeededRandom(seed: 8)
        for count in [9, 33, 280, 1_000] {
            // Gaps growing as squares; two dense runs far apart; one outlier past a dense run;
            // one outlier before it; keys at the ends of Int64 (deltas of eight bytes).
            try check((0..<Int64(count)).map { $0 * $0 }, "\(count) squares")
            let half = Int64(count / 2)
            try check(Array(0..<half) + Array((1 << 40)..<((1 << 40) + Int64(count) - half)), "\(count) in two runs")
            try check(Array(0..<Int64(count - 1)) + [1 << 50], "\(count) and an outlier above")
            try check([-(1 << 50)] + Array(0..<Int64(count - 1)), "\(count) and an outlier below")
            var extremes = Set<Int64>([.min, .max])
            while extremes.count < count { extremes.insert(Int64(bitPattern: rng.next())) }
            try check(extremes.sorted(), "\(count) across Int64")
        }
    }
}
