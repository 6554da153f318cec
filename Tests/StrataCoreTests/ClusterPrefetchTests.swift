import StrataTestSupport
import XCTest

@testable import StrataCore

/// The prefetches of a lookup by primary key (`ClusterView.likelyPosition(of:)`,
/// `ClusterView.guessedPosition`, `ClusterView.prefetchSlots(at:table:)`,
/// `RowReader.prefetchValues()`) are hints: the likely and the guessed positions stay inside the
/// cluster for every key (the slots' addresses are computed from them),
/// and reading an object after its prefetches gives what was stored, for every column kind, with
/// nulls, empty values, first and last positions and clusters of one object.
final class ClusterPrefetchTests: XCTestCase {
    private static let table = StoreTable(
        name: "Mixed",
        columns: [
            StoreColumn(name: "id", type: .int, isPrimaryKey: true),
            StoreColumn(name: "name", type: .string, isNullable: true),
            StoreColumn(name: "age", type: .int, isNullable: true),
            StoreColumn(name: "score", type: .double),
            StoreColumn(name: "blob", type: .data),
            StoreColumn(name: "flag", type: .bool, isNullable: true),
        ])

    /// The values of object `i` of a cluster: nulls, empty strings and data, and long strings
    /// (several cache lines) among ordinary values.
    private func values(_ key: Int64, _ i: Int) -> [StoreValue] {
        let name: StoreValue =
            i % 5 == 0 ? .null : i % 7 == 0 ? .string("") : .string(String(repeating: "n\(i)", count: 1 + i % 90))
        let age: StoreValue = i % 3 == 0 ? .null : .int(Int64(i) * 1_000_003 - 500)
        let blob: StoreValue = .data(Array(repeating: UInt8(i & 0xFF), count: i % 4 == 0 ? 0 : i % 300))
        let flag: StoreValue = i % 2 == 0 ? .null : .bool(i % 4 == 1)
        return [.int(key), name, age, .double(Double(i) / 3), blob, flag]
    }

    private func check(_ keys: [Int64], _ what: String) throws {
        let t = Self.table
        let editor = ClusterEditor(table: t)
        for (i, k) in keys.enumerated() { try editor.insert(key: k, values: values(k, i), at: i) }
        var bytes: [UInt8] = []
        editor.encode(0..<keys.count, into: &bytes)
        try bytes.withUnsafeBytes { raw in
            let view = try XCTUnwrap(ClusterView(raw, table: t, rising: false), "\(what): cluster does not validate")
            var probes: [Int64] = [.min, .max, keys[0] &- 1, keys[keys.count - 1] &+ 1]
            for k in keys { probes += [k, k &+ 1] }
            for probe in probes {
                let g = view.likelyPosition(of: probe)
                XCTAssertTrue((0..<view.count).contains(g), "\(what): likely position \(g) of \(probe)")
                view.prefetchSlots(at: g, table: t)
            }
            // The guess from the next cluster's first key: inside the cluster for every bound,
            // exact for a run of keys bounded by the key after its last.
            let last = keys[keys.count - 1]
            let (span, overflow) = last.subtractingReportingOverflow(keys[0])
            let dense = !overflow && span == Int64(keys.count - 1)  // sorted, distinct: a run
            for (i, k) in keys.enumerated() {
                for upper in [last &+ 1, last &+ 1_000, Int64.max] where upper > last {
                    let g = try XCTUnwrap(
                        ClusterView.guessedPosition(raw, key: k, upper: upper, table: t), "\(what): guess for \(k)")
                    XCTAssertTrue((0..<view.count).contains(g), "\(what): guess \(g) for \(k) below \(upper)")
                    if dense && upper == last &+ 1 { XCTAssertEqual(g, i, "\(what): guess for \(k) in a run") }
                    ClusterView.prefetchGuess(raw, key: k, upper: upper, table: t)
                }
                XCTAssertNil(ClusterView.guessedPosition(raw, key: k, upper: k, table: t), "\(what): bound at the key")
            }
            for (i, k) in keys.enumerated() {
                let (p, found) = view.position(of: k)
                XCTAssertTrue(found, "\(what): key \(k)")
                XCTAssertTrue(view.rangesRise(at: p, table: t), "\(what): ranges of \(k)")
                let reader = RowReader(cluster: view, position: p, table: t)
                reader.prefetchValues()
                XCTAssertEqual(reader.values(), values(k, i), "\(what): object \(k) after its prefetches")
            }
        }
    }

    /// Bytes that are not a cluster (random, of every short length, and real clusters with a
    /// damaged count) give no guess or one below the count their header claims, and prefetching
    /// by them does not trap.
    func testGuessesOnDamagedHeadersStayBelowTheirCount() throws {
        var rng = SeededRandom(seed: 12)
        for length in 0..<200 {
            for _ in 0..<20 {
                let bytes = (0..<length).map { _ in UInt8(rng.below(256)) }
                let key = Int64(bitPattern: UInt64(rng.below(1 << 30)) << 33) &+ Int64(rng.below(1 << 20))
                let upper = key &+ Int64(rng.below(1 << 20)) &+ 1
                bytes.withUnsafeBytes { raw in
                    if let g = ClusterView.guessedPosition(raw, key: key, upper: upper, table: Self.table) {
                        let m = Int(UInt16(littleEndian: raw.loadUnaligned(as: UInt16.self)))
                        XCTAssertTrue((0..<m).contains(g), "guess \(g) in \(length) random bytes claiming \(m) objects")
                    }
                    ClusterView.prefetchGuess(raw, key: key, upper: upper, table: Self.table)
                }
            }
        }
    }

    func testPrefetchedLookupsReadWhatWasStored() throws {
        var rng = SeededRandom(seed: 11)
        for count in [1, 2, 3, 9, 40, 280] {
            try check(Array(0..<Int64(count)), "dense run of \(count)")
            try check((0..<Int64(count)).map { 10 + 7 * $0 }, "every seventh of \(count)")
            var drawn = Set<Int64>()
            while drawn.count < count { drawn.insert(Int64(rng.below(count * 50)) - Int64(count * 25)) }
            try check(drawn.sorted(), "\(count) drawn around zero")
            try check([Int64.min + 1] + (0..<Int64(count - 1)).map { $0 * $0 }, "\(count) uneven from Int64.min")
        }
    }
}
