import StrataTestSupport
import XCTest

@testable import StrataCore

/// The prefetches of a lookup by primary key (`ClusterView.likelyPosition(of:)`,
/// `ClusterView.prefetchSlots(at:table:)`, `RowReader.prefetchValues()`) are hints: the likely
/// position stays inside the cluster for every key (the slots' addresses are computed from it),
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
