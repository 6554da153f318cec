import Foundation
import XCTest
import StrataQuery
import StrataStorage
@testable import StrataCore

/// Columnar clusters at their edges: splices and slices at the edges
/// of their encodings, in-place patches, deletes, simple scans and older clusters, each against
/// an in-memory model.
final class ClusterEdgeCaseTests: CoreTestCase {
    static let t = StoreTable(
        name: "R",
        columns: [
            StoreColumn(name: "id", type: .int, isPrimaryKey: true),  // 0
            StoreColumn(name: "i", type: .int),  // 1
            StoreColumn(name: "ni", type: .int, isNullable: true),  // 2
            StoreColumn(name: "d", type: .double),  // 3
            StoreColumn(name: "nd", type: .double, isNullable: true),  // 4
            StoreColumn(name: "b", type: .bool, isNullable: true),  // 5
            StoreColumn(name: "f", type: .float),  // 6
            StoreColumn(name: "ts", type: .timestamp, isNullable: true),  // 7
            StoreColumn(name: "u", type: .uuid, isNullable: true),  // 8
            StoreColumn(name: "s", type: .string),  // 9
            StoreColumn(name: "ns", type: .string, isNullable: true),  // 10
            StoreColumn(name: "any", type: .mixed),  // 11
            StoreColumn(name: "l", type: .int, collection: .list),  // 12
        ])

    // MARK: Model helpers

    /// A value with doubles and floats compared by their bits (sign of zero, NaN).
    static func canon(_ v: StoreValue) -> String {
        switch v {
        case .double(let d): return "d\(d.bitPattern)"
        case .float(let f): return "f\(f.bitPattern)"
        case .list(let l): return "[" + l.map(canon).joined(separator: ",") + "]"
        case .map(let m): return "{" + m.keys.sorted().map { "\($0):\(canon(m[$0]!))" }.joined(separator: ",") + "}"
        default: return "\(v)"
        }
    }
    static func canon(_ vs: [StoreValue]?) -> [String]? { vs.map { $0.map(canon) } }

    struct Gen {
        var rng: CoreRandom
        mutating func chance(_ percent: Int) -> Bool { Int.random(in: 0..<100, using: &rng) < percent }
        mutating func int() -> Int64 {
            switch Int.random(in: 0..<8, using: &rng) {
            case 0: return [Int64.min, Int64.max, Int64.min + 1, Int64.max - 1, 0, -1].randomElement(using: &rng)!
            case 1: return Int64.random(in: -3...3, using: &rng)
            case 2: return Int64.random(in: 250...260, using: &rng)
            case 3: return Int64.random(in: -70_000...70_000, using: &rng)
            case 4: return Int64.random(in: Int64.min...Int64.max, using: &rng)
            case 5: return Int64.random(in: 4_294_967_290...4_294_967_300, using: &rng)
            case 6: return Int64.max - Int64.random(in: 0...300, using: &rng)
            default: return Int64.min + Int64.random(in: 0...300, using: &rng)
            }
        }
        mutating func double() -> Double {
            [
                -0.0, 0.0, .nan, .infinity, -.infinity, 1.5, -2.25, .greatestFiniteMagnitude, .leastNonzeroMagnitude,
                Double(int()),
            ].randomElement(using: &rng)!
        }
        mutating func string(_ big: Bool = false) -> String {
            let n = big ? Int.random(in: 1200...5000, using: &rng) : Int.random(in: 0...20, using: &rng)
            return String((0..<n).map { _ in "ab日🐶\u{0}z".randomElement(using: &rng)! })
        }
        mutating func value(_ c: Int) -> StoreValue {
            switch c {
            case 1: return .int(int())
            case 2: return chance(35) ? .null : .int(int())
            case 3: return .double(double())
            case 4: return chance(35) ? .null : .double(double())
            case 5: return chance(35) ? .null : .bool(chance(50))
            case 6: return .float([-0.0, 0.0, 1, -3.5, .nan, .infinity].randomElement(using: &rng)!)
            case 7:
                if chance(35) { return .null }
                let sec = int()
                return .timestamp(
                    seconds: sec,
                    nanoseconds: sec >= 0
                        ? Int32.random(in: 0...999_999_999, using: &rng)
                        : -Int32.random(in: 0...999_999_999, using: &rng))
            case 8: return chance(35) ? .null : .uuid((0..<16).map { _ in UInt8.random(in: 0...255, using: &rng) })
            case 9: return .string(string(chance(1)))
            case 10: return chance(35) ? .null : .string(string())
            case 11:
                switch Int.random(in: 0..<4, using: &rng) {
                case 0: return .null
                case 1: return .int(int())
                case 2: return .string(string())
                default: return .double(double())
                }
            default: return .list((0..<Int.random(in: 0...3, using: &rng)).map { _ in .int(int()) })
            }
        }
        mutating func row(_ key: Int64, _ table: StoreTable = ClusterEdgeCaseTests.t) -> [StoreValue] {
            [.int(key)] + (1..<table.columns.count).map { value($0) }
        }
        /// Keys in dense runs, sparse gaps and at both ends of Int64.
        mutating func key() -> Int64 {
            switch Int.random(in: 0..<6, using: &rng) {
            case 0: return Int64.random(in: 0..<300, using: &rng)
            case 1: return Int64.random(in: -40...40, using: &rng) * 1000
            case 2: return Int64.max - Int64.random(in: 0..<40, using: &rng)
            case 3: return Int64.min + Int64.random(in: 0..<40, using: &rng)
            case 4: return Int64.random(in: Int64.min...Int64.max, using: &rng)
            default: return Int64.random(in: 100_000...100_100, using: &rng) * 300
            }
        }
    }

    /// Cluster invariants: validates, tree key = first key, keys rise within and across clusters,
    /// clusters of several objects fit inline, counts agree.
    @discardableResult
    func checkClusters(
        _ txn: StoreTransaction, _ table: StoreTable, file: StaticString = #filePath, line: UInt = #line
    ) throws -> (clusters: Int, objects: Int) {
        var previous: Int64?
        var clusters = 0, objects = 0
        let capacity = (4096 - 32) / 4 - 2 - 6 - 8
        for (k, v) in try entries(txn, tree: table.objectTree) {
            let info = try v.withUnsafeBytes { raw -> (Int64, Int, [Int64]) in
                let view = try XCTUnwrap(
                    ClusterView(raw, table: table), "cluster does not validate", file: file, line: line)
                return (view.firstKey, view.count, (0..<view.count).map(view.key(at:)))
            }
            XCTAssertEqual(k, keyBytes(info.0), "tree key is not the first object key", file: file, line: line)
            XCTAssertEqual(info.2.first, info.0, file: file, line: line)
            for j in info.2.indices.dropFirst() {
                XCTAssertGreaterThan(info.2[j], info.2[j - 1], "keys rise", file: file, line: line)
            }
            if let previous {
                XCTAssertGreaterThan(info.2[0], previous, "keys rise across clusters", file: file, line: line)
            }
            previous = info.2.last
            if info.1 > 1 {
                XCTAssertLessThanOrEqual(
                    v.count, capacity, "a cluster of \(info.1) objects overflows", file: file, line: line)
            }
            clusters += 1
            objects += info.1
        }
        XCTAssertEqual(try txn.count(table), objects, file: file, line: line)
        return (clusters, objects)
    }

    func checkModel(
        _ txn: StoreTransaction, _ table: StoreTable, _ model: [Int64: [StoreValue]], file: StaticString = #filePath,
        line: UInt = #line
    ) throws {
        var seen: [Int64] = []
        try txn.forEachRow(table) { r in
            seen.append(r.key)
            XCTAssertEqual(Self.canon(r.values()), Self.canon(model[r.key]), "object \(r.key)", file: file, line: line)
            return true
        }
        XCTAssertEqual(seen, model.keys.sorted(), file: file, line: line)
        for key in model.keys.sorted().prefix(40) {
            XCTAssertEqual(
                Self.canon(try txn.row(table, key: key)?.values()), Self.canon(model[key]), "row \(key)", file: file,
                line: line)
        }
    }

    // MARK: Random model

    /// Random inserts (keys dense, sparse and at both ends of Int64; values at the edges of each
    /// encoding), sets and deletes against a model, checking the clusters after each round.
    func testRandomEdgeValuesAndKeysMatchAModel() throws {
        var gen = Gen(rng: CoreRandom(seed: 7))
        let table = Self.t
        var model: [Int64: [StoreValue]] = [:]
        try write([table]) { try $0.storeTable(table) }
        for round in 0..<8 {
            let txn = try beginWrite([table])
            var working = model
            for _ in 0..<(round < 3 ? 300 : 80) {
                let key = gen.key()
                let values = gen.row(key)
                if working[key] != nil {
                    XCTAssertThrowsError(try txn.insert(into: table, values: values))
                } else {
                    try txn.insert(into: table, values: values)
                    working[key] = values
                }
            }
            for _ in 0..<250 where !working.isEmpty {
                let key = working.keys.sorted()[Int.random(in: 0..<working.count, using: &gen.rng)]
                let c = Int.random(in: 1..<table.columns.count, using: &gen.rng)
                let value = gen.value(c)
                let old = try txn.set(table, key: key, column: c, to: value)
                XCTAssertEqual(Self.canon(old), Self.canon(working[key]![c]), "set \(key).\(c)")
                working[key]![c] = value
            }
            for _ in 0..<(round < 5 ? 40 : 120) where !working.isEmpty {
                let key = working.keys.sorted()[Int.random(in: 0..<working.count, using: &gen.rng)]
                XCTAssertTrue(try txn.delete(table, key: key))
                working[key] = nil
            }
            try checkModel(txn, table, working)
            try checkClusters(txn, table)
            try txn.commit()
            model = working
        }
        try reopen()
        try read([table]) { r in
            try checkModel(r, table, model)
            let (clusters, objects) = try checkClusters(r, table)
            XCTAssertGreaterThan(clusters, 10, "the test must span many clusters")
            XCTAssertEqual(objects, model.count)
        }
        try verifyDatabase()
    }

    // MARK: Splice edge cases

    /// Integer columns through every rebase and widening a splice does: a new minimum, a new
    /// maximum that needs a wider width, width 0 columns, Int64.min/max in one cluster, nulls
    /// whose deltas must not be shifted.
    func testSpliceIntegerRebaseAndWidening() throws {
        let table = StoreTable(
            name: "I",
            columns: [
                StoreColumn(name: "id", type: .int, isPrimaryKey: true),
                StoreColumn(name: "a", type: .int),
                StoreColumn(name: "n", type: .int, isNullable: true),
            ])
        let sequences: [[Int64]] = [
            [5, 5, 5, 4, 6, 255 + 4, 256 + 4, -1, Int64.max, Int64.min],
            [Int64.max, Int64.max - 1, Int64.min, 0],
            [Int64.min, Int64.max],
            [0, 0, 0, 0, 0, 0, 0, 0, 0, -5],
            [-1, -2, -3, -300, -70_000, -5_000_000_000],
            [100, 355, 99, 65_635, 4_294_967_395, 4_294_967_396],
            [Int64.max, Int64.max, Int64.max - 255, Int64.max - 256],
        ]
        try write([table]) { try $0.storeTable(table) }
        var model: [Int64: [StoreValue]] = [:]
        var base: Int64 = 0
        for (s, seq) in sequences.enumerated() {
            // Appends, then middle inserts into the same cluster (odd keys between even ones).
            try write([table]) { txn in
                for (j, v) in seq.enumerated() {
                    let key = base + Int64(j) * 2
                    // n: null at j = 1 and 3 (the bitmap exists from the second object on).
                    let nv: StoreValue = j % 2 == 1 ? .null : .int(v &* 3)
                    let values: [StoreValue] = [.int(key), .int(v), nv]
                    try txn.insert(into: table, values: values)
                    model[key] = values
                }
                for (j, v) in seq.enumerated().reversed() {
                    let key = base + Int64(j) * 2 + 1
                    let values: [StoreValue] = [.int(key), .int(v &- 1), j % 3 == 0 ? .null : .int(v)]
                    try txn.insert(into: table, values: values)
                    model[key] = values
                }
                try checkModel(txn, table, model)
                try checkClusters(txn, table)
            }
            base += 1000
            _ = s
        }
        // Null an integer in place (its delta stays), then splice a new minimum: the null must stay null.
        try write([table]) { txn in
            let key = base
            for j in 0..<4 {
                let values: [StoreValue] = [.int(key + Int64(j) * 2), .int(1000), .int(Int64(1000 + j))]
                try txn.insert(into: table, values: values)
                model[key + Int64(j) * 2] = values
            }
            try txn.insert(into: table, values: [.int(key + 7), .int(1000), .null])
            model[key + 7] = [.int(key + 7), .int(1000), .null]
            XCTAssertEqual(try txn.set(table, key: key + 2, column: 2, to: .null), .int(1001))
            model[key + 2]![2] = .null
            try txn.insert(into: table, values: [.int(key + 3), .int(1000), .int(Int64.min)])
            model[key + 3] = [.int(key + 3), .int(1000), .int(Int64.min)]
            try txn.insert(into: table, values: [.int(key + 5), .int(1000), .int(Int64.max)])
            model[key + 5] = [.int(key + 5), .int(1000), .int(Int64.max)]
            try checkModel(txn, table, model)
        }
        try read([table]) { r in
            try checkModel(r, table, model)
            try checkClusters(r, table)
        }
        try verifyDatabase()
    }

    /// Null bitmaps: a null spliced in at every position around byte boundaries (7, 8, 15, 16),
    /// into clusters that do and do not have a bitmap yet, in every nullable column kind.
    func testSpliceNullBitmapsAtByteBoundaries() throws {
        let table = StoreTable(
            name: "N",
            columns: [
                StoreColumn(name: "id", type: .int, isPrimaryKey: true),
                StoreColumn(name: "ni", type: .int, isNullable: true),
                StoreColumn(name: "nd", type: .double, isNullable: true),
                StoreColumn(name: "ns", type: .string, isNullable: true),
                StoreColumn(name: "any", type: .mixed),
            ])
        try write([table]) { try $0.storeTable(table) }
        var model: [Int64: [StoreValue]] = [:]
        for (round, size) in [7, 8, 9, 15, 16, 17, 24].enumerated() {
            for nullAt in Set([1, 6, 7, 8, 9, 14, 15, 16, size]).sorted() where nullAt <= size {
                let base = Int64(round * 100_000 + nullAt * 1000)
                try write([table]) { txn in
                    // Even keys first, one object null or not (so some clusters have a bitmap).
                    for j in 0..<size {
                        let key = base + Int64(j) * 2
                        let null = round % 2 == 0 && j == 3
                        let values: [StoreValue] = [
                            .int(key), null ? .null : .int(Int64(j)), null ? .null : .double(Double(j)),
                            null ? .null : .string("v\(j)"), null ? .null : .int(Int64(j)),
                        ]
                        try txn.insert(into: table, values: values)
                        model[key] = values
                    }
                    // A null at position nullAt (between objects nullAt - 1 and nullAt).
                    let key = base + Int64(nullAt) * 2 - 1
                    let values: [StoreValue] = [.int(key), .null, .null, .null, .null]
                    try txn.insert(into: table, values: values)
                    model[key] = values
                    // And a non-null after it.
                    let k2 = base + Int64(nullAt) * 2 + 1
                    if model[k2] == nil {
                        let v2: [StoreValue] = [.int(k2), .int(-9), .double(-9), .string("after"), .string("x")]
                        try txn.insert(into: table, values: v2)
                        model[k2] = v2
                    }
                }
            }
        }
        try read([table]) { r in
            try checkModel(r, table, model)
            try checkClusters(r, table)
            // The simple scan reads the null bitmaps too.
            let q = try StoreQuery("ni >= $0", arguments: [.int(-9)])
            let want = model.keys.sorted().filter {
                if case .int = model[$0]![1] { return true }; return false
            }
            XCTAssertEqual(try q.evaluate(in: r, table: table), want)
            XCTAssertEqual(try q.fastCount(in: r, table: table), want.count)
        }
        try verifyDatabase()
    }

    /// Key widths: dense keys that become sparse, key deltas that need 1, 2, 4 and 8 bytes, keys
    /// at Int64.min and Int64.max in one cluster, inserts below every existing key.
    func testKeyWidthsAndExtremeKeys() throws {
        let table = StoreTable(
            name: "K",
            columns: [
                StoreColumn(name: "id", type: .int, isPrimaryKey: true),
                StoreColumn(name: "a", type: .int),
            ])
        try write([table]) { try $0.storeTable(table) }
        var model: [Int64: [StoreValue]] = [:]
        let batches: [[Int64]] = [
            [0, 1, 2, 3, 4, 5],  // dense
            [7, 300, 70_000, 5_000_000_000],  // kw 1 -> 2 -> 4 -> 8
            [6, 8, 299],  // middle
            [Int64.max, Int64.max - 1, Int64.max - 3],
            [Int64.min, Int64.min + 1, Int64.min + 2],  // below every key: a new first cluster key
            [-1, -2, Int64.min + 3, Int64.max - 2],
        ]
        for batch in batches {
            try write([table]) { txn in
                for k in batch {
                    let values: [StoreValue] = [.int(k), .int(k &* 7)]
                    try txn.insert(into: table, values: values)
                    model[k] = values
                }
                try checkModel(txn, table, model)
                try checkClusters(txn, table)
            }
        }
        try read([table]) { r in
            try checkModel(r, table, model)
            try checkClusters(r, table)
            XCTAssertNil(try r.row(table, key: Int64.max - 4))
            XCTAssertNil(try r.row(table, key: 9))
        }
        // Deletes of each cluster's first object re-key it; then everything goes.
        try write([table]) { txn in
            for k in [Int64.min, 0, 7, Int64.max - 3] {
                XCTAssertTrue(try txn.delete(table, key: k))
                model[k] = nil
            }
            try checkModel(txn, table, model)
            try checkClusters(txn, table)
        }
        try write([table]) { txn in
            try txn.deleteAll(table)
            XCTAssertEqual(try txn.count(table), 0)
            XCTAssertEqual(try entries(txn, tree: table.objectTree).count, 0)
            try txn.insert(into: table, values: [.int(Int64.max), .int(1)])
            try txn.insert(into: table, values: [.int(Int64.min), .int(2)])
            try checkClusters(txn, table)
            XCTAssertEqual(try txn.row(table, key: Int64.max)?.int(1), 1)
            XCTAssertEqual(try txn.row(table, key: Int64.min)?.int(1), 2)
        }
        try verifyDatabase()
    }

    /// Variable-width columns: totals that cross 0xFFFF (u16 offsets), single huge values in
    /// clusters of one object, inserts next to them and updates that grow and shrink them.
    func testVariableOffsetsAndHugeValues() throws {
        let table = StoreTable(
            name: "V",
            columns: [
                StoreColumn(name: "id", type: .int, isPrimaryKey: true),
                StoreColumn(name: "s", type: .string),
                StoreColumn(name: "bin", type: .data, isNullable: true),
                StoreColumn(name: "n", type: .int),
            ])
        try write([table]) { try $0.storeTable(table) }
        var model: [Int64: [StoreValue]] = [:]
        let sizes = [0, 1, 999, 1000, 1001, 65_535, 65_536, 70_000, 3]
        try write([table]) { txn in
            for (j, size) in sizes.enumerated() {
                let key = Int64(j * 10)
                let values: [StoreValue] = [
                    .int(key), .string(String(repeating: "x", count: size)),
                    .data(Array(repeating: UInt8(j), count: size / 2)), .int(Int64(j)),
                ]
                try txn.insert(into: table, values: values)
                model[key] = values
            }
            // Small objects before, between and after the big ones.
            for j in 0..<sizes.count {
                for d in [1, 2, 9] {
                    let key = Int64(j * 10 + d)
                    let values: [StoreValue] = [
                        .int(key), .string("s\(key)"), d == 2 ? .null : .data([1, 2, 3]), .int(-Int64(d)),
                    ]
                    try txn.insert(into: table, values: values)
                    model[key] = values
                }
            }
            try checkModel(txn, table, model)
            try checkClusters(txn, table)
        }
        try write([table]) { txn in
            // Grow small values past the limits, shrink big ones, null the data.
            for (key, size) in [(Int64(1), 70_000), (Int64(50), 2), (Int64(61), 1200), (Int64(70), 0)] {
                let v = StoreValue.string(String(repeating: "y", count: size))
                try txn.set(table, key: key, column: 1, to: v)
                model[key]![1] = v
                try txn.set(table, key: key, column: 2, to: .null)
                model[key]![2] = .null
            }
            try checkModel(txn, table, model)
            try checkClusters(txn, table)
        }
        try reopen()
        try read([table]) { r in
            try checkModel(r, table, model)
            try checkClusters(r, table)
        }
        try verifyDatabase()
    }

    /// A table whose objects take no bytes in a cluster (an `Int` primary key and an integer
    /// column that is always the same, dense keys) must still split before 65,535 objects.
    func testZeroByteObjectsPastTheObjectCountLimit() throws {
        let table = StoreTable(
            name: "Z",
            columns: [
                StoreColumn(name: "id", type: .int, isPrimaryKey: true),
                StoreColumn(name: "a", type: .int),
            ])
        try write([table]) { txn in
            try txn.storeTable(table)
            for k in 0..<65_600 { try txn.insert(into: table, values: [.int(Int64(k)), .int(0)]) }
        }
        try read([table]) { r in
            let (_, objects) = try checkClusters(r, table)
            XCTAssertEqual(objects, 65_600)
            XCTAssertEqual(try r.row(table, key: 65_599)?.int(1), 0)
        }
        try verifyDatabase()
    }

    // MARK: Patches

    /// In-place updates of every fixed-width kind (and the rewrites when a value does not fit),
    /// read back by bits: -0.0 and +0.0, NaN, nulls where a bitmap does and does not exist.
    func testPatchesOfEveryFixedKind() throws {
        let table = Self.t
        var gen = Gen(rng: CoreRandom(seed: 99))
        var model: [Int64: [StoreValue]] = [:]
        try write([table]) { txn in
            try txn.storeTable(table)
            for k in 0..<40 {
                var values = gen.row(Int64(k))
                // Start without nulls in the nullable fixed columns of the first cluster.
                values[2] = .int(Int64(k)); values[4] = .double(0.0); values[5] = .bool(true)
                values[7] = .timestamp(seconds: 1, nanoseconds: 2); values[8] = .uuid(Array(repeating: 7, count: 16))
                values[9] = .string("s"); values[12] = .list([])
                try txn.insert(into: table, values: values)
                model[Int64(k)] = values
            }
        }
        let changes: [(Int, StoreValue)] = [
            (3, .double(-0.0)), (3, .double(0.0)), (3, .double(-0.0)), (3, .double(.nan)),
            (4, .double(-0.0)), (4, .null), (4, .double(0.0)), (4, .null),
            (6, .float(-0.0)), (6, .float(.nan)), (6, .float(0.0)),
            (5, .bool(false)), (5, .null), (5, .bool(true)),
            (7, .timestamp(seconds: Int64.min, nanoseconds: -999_999_999)), (7, .null),
            (7, .timestamp(seconds: -1, nanoseconds: -1)),
            (8, .null), (8, .uuid(Array(0..<16))),
            (1, .int(Int64.min)), (1, .int(Int64.max)), (1, .int(0)), (1, .int(-1)),
            (2, .null), (2, .int(Int64.max)), (2, .int(Int64.min)), (2, .null), (2, .int(5)),
        ]
        for (round, (c, v)) in changes.enumerated() {
            try write([table]) { txn in
                for k in stride(from: Int64(round % 3), to: 40, by: 3) {
                    let old = try txn.set(table, key: k, column: c, to: v)
                    XCTAssertEqual(Self.canon(old), Self.canon(model[k]![c]), "set \(k).\(c) = \(v)")
                    model[k]![c] = v
                    XCTAssertEqual(
                        Self.canon(try XCTUnwrap(txn.row(table, key: k)).value(c)), Self.canon(v), "read back \(k).\(c)"
                    )
                }
            }
        }
        try read([table]) { r in
            try checkModel(r, table, model)
            try checkClusters(r, table)
        }
        try verifyDatabase()
    }

    // MARK: Simple scans

    /// `column op constant` on Int and Double columns whose values and constants sit at the
    /// ends of Int64 (so `k - base` overflows), with nulls and negative numbers, against a
    /// brute force; count, keys and sums.
    func testSimpleScansAtTheEndsOfInt64() throws {
        let table = StoreTable(
            name: "S",
            columns: [
                StoreColumn(name: "id", type: .int, isPrimaryKey: true),
                StoreColumn(name: "i", type: .int),
                StoreColumn(name: "ni", type: .int, isNullable: true),
                StoreColumn(name: "d", type: .double),
                StoreColumn(name: "nd", type: .double, isNullable: true),
            ])
        var gen = Gen(rng: CoreRandom(seed: 3))
        var model: [Int64: [StoreValue]] = [:]
        try write([table]) { txn in
            try txn.storeTable(table)
            // Groups of clusters each with a different value range: narrow near min, narrow near
            // max, wide, constant (width 0), negative.
            for k in 0..<1_200 {
                let group = k / 150
                let i: Int64
                switch group {
                case 0: i = Int64.min + Int64(k % 7)
                case 1: i = Int64.max - Int64(k % 7)
                case 2: i = gen.int()
                case 3: i = -5
                case 4: i = -Int64(k % 300)
                case 5: i = Int64(k % 2) * 4_294_967_295
                case 6: i = Int64.min + Int64(k % 2) * 70_000
                default: i = Int64.max - Int64(k % 2) * 256
                }
                let ni: StoreValue = k % 5 == 0 ? .null : .int(i &+ Int64(k % 3))
                let d = Double(i) * (k % 2 == 0 ? 1 : -1)
                let nd: StoreValue = k % 4 == 0 ? .null : .double(gen.double())
                let values: [StoreValue] = [.int(Int64(k)), .int(i), ni, .double(d), nd]
                try txn.insert(into: table, values: values)
                model[Int64(k)] = values
            }
        }
        let intConstants: [Int64] = [
            Int64.min, Int64.min + 1, Int64.min + 3, Int64.min + 70_000, -5, -1, 0, 1, 4_294_967_295,
            Int64.max - 256, Int64.max - 3, Int64.max - 1, Int64.max,
        ]
        let doubleConstants: [Double] = [-.infinity, -9.3e18, -5, -0.0, 0, 1.5, 9.3e18, .infinity, .nan]
        try read([table]) { r in
            let keys = model.keys.sorted()
            for (column, name) in [(1, "i"), (2, "ni"), (3, "d"), (4, "nd")] {
                let constants: [StoreValue] =
                    column < 3 ? intConstants.map { .int($0) } : doubleConstants.map { .double($0) }
                for op in ["==", "!=", "<", "<=", ">", ">="] {
                    for constant in constants {
                        let q = try StoreQuery("\(name) \(op) $0", arguments: [constant])
                        XCTAssertNotNil(try q.prepare(r, table).simple)
                        let want = keys.filter { QuerySimpleScanTests.expected(model[$0]![column], op, constant) }
                        XCTAssertEqual(try q.evaluate(in: r, table: table), want, "\(name) \(op) \(constant)")
                        XCTAssertEqual(
                            try q.fastCount(in: r, table: table), want.count, "count \(name) \(op) \(constant)")
                        let sum = try XCTUnwrap(q.fastSum(in: r, table: table, column: 1))
                        var ints: Int64 = 0
                        for k in want { if case .int(let v) = model[k]![1] { ints &+= v } }
                        XCTAssertEqual(sum.ints, ints, "sum where \(name) \(op) \(constant)")
                    }
                }
            }
        }
        // After in-place nulls and patches (bitmaps with no nulls left, stale deltas under nulls).
        try write([table]) { txn in
            for k in stride(from: Int64(1), to: 1_200, by: 7) {
                try txn.set(table, key: k, column: 2, to: .null)
                model[k]![2] = .null
            }
            for k in stride(from: Int64(1), to: 1_200, by: 14) {
                let v = StoreValue.int(Int64.max)
                try txn.set(table, key: k, column: 2, to: v)
                model[k]![2] = v
            }
        }
        try read([table]) { r in
            let keys = model.keys.sorted()
            for op in ["==", "!=", "<", "<=", ">", ">="] {
                for c in intConstants {
                    let q = try StoreQuery("ni \(op) $0", arguments: [.int(c)])
                    let want = keys.filter { QuerySimpleScanTests.expected(model[$0]![2], op, .int(c)) }
                    XCTAssertEqual(try q.evaluate(in: r, table: table), want, "ni \(op) \(c)")
                    XCTAssertEqual(try q.fastCount(in: r, table: table), want.count)
                }
            }
        }
    }

    /// A simple scan's sum reads a second column: a cluster whose second column's descriptor
    /// points outside the cluster must be reported as corrupt, as every other read does.
    func testSimpleSumChecksTheSummedColumn() throws {
        let table = StoreTable(
            name: "SC",
            columns: [
                StoreColumn(name: "id", type: .int, isPrimaryKey: true),
                StoreColumn(name: "a", type: .int),
                StoreColumn(name: "b", type: .int),
            ])
        try write([table]) { txn in
            try txn.storeTable(table)
            for k in 0..<5 { try txn.insert(into: table, values: [.int(Int64(k)), .int(Int64(k)), .int(100)]) }
        }
        var bytes = try read([table]) { r in try XCTUnwrap(entries(r, tree: table.objectTree).first?.1) }
        // Column b's area offset: just past the end of the cluster.
        let d = 16 + 2 * 6
        bytes[d] = UInt8(bytes.count & 0xFF); bytes[d + 1] = UInt8(bytes.count >> 8)
        try write([table]) { txn in try txn.putRaw(keyBytes(0), bytes, tree: table.objectTree) }
        try read([table]) { r in
            XCTAssertThrowsError(try r.row(table, key: 1), "the cluster is corrupt")
            XCTAssertThrowsError(try StoreQuery().fastSum(in: r, table: table, column: 2), "unfiltered sum checks")
            XCTAssertThrowsError(
                try StoreQuery("a >= $0", arguments: [.int(0)]).fastSum(in: r, table: table, column: 2),
                "a filtered sum must check the summed column too")
        }
    }

    // MARK: Older clusters

    /// Clusters written with fewer columns, then read, patched, rewritten, spliced into, split,
    /// scanned and deleted from under a table with more columns.
    func testOlderClustersUnderMoreColumns() throws {
        let v1 = StoreTable(
            name: "E",
            columns: [
                StoreColumn(name: "id", type: .int, isPrimaryKey: true),
                StoreColumn(name: "a", type: .int),
                StoreColumn(name: "s", type: .string),
            ])
        let v2 = StoreTable(
            name: "E",
            columns: v1.columns + [
                StoreColumn(name: "x", type: .int),
                StoreColumn(name: "nx", type: .int, isNullable: true),
                StoreColumn(name: "d", type: .double),
                StoreColumn(name: "ns", type: .string, isNullable: true),
                StoreColumn(name: "l", type: .string, collection: .list),
                StoreColumn(name: "any", type: .mixed),
                StoreColumn(name: "b", type: .bool),
            ])
        var model: [Int64: [StoreValue]] = [:]
        let defaults: [StoreValue] = [.int(0), .null, .double(0), .null, .list([]), .null, .bool(false)]
        try write([v1]) { txn in
            try txn.storeTable(v1)
            for k in 0..<300 {
                let key = Int64(k * 2)
                try txn.insert(into: v1, values: [.int(key), .int(Int64(k) - 150), .string("old \(k)")])
                model[key] = [.int(key), .int(Int64(k) - 150), .string("old \(k)")] + defaults
            }
        }
        try write([v2]) { txn in
            try txn.storeTable(v2)
            try checkModel(txn, v2, model)
            try checkClusters(txn, v2)
            // Patches of old columns (in place) and new columns (rewrite).
            for k in stride(from: Int64(0), to: 600, by: 22) {
                try txn.set(v2, key: k, column: 1, to: .int(-150))
                model[k]![1] = .int(-150)
            }
            for k in stride(from: Int64(4), to: 600, by: 34) {
                try txn.set(v2, key: k, column: 3, to: .int(Int64.min))
                model[k]![3] = .int(Int64.min)
                try txn.set(v2, key: k + 2, column: 4, to: .null)
                model[k + 2]![4] = .null
                try txn.set(v2, key: k + 2, column: 9, to: .bool(true))
                model[k + 2]![9] = .bool(true)
            }
            // Inserts into old clusters (middle and end), which must be rewritten with every column.
            for k in stride(from: Int64(1), to: 601, by: 10) {
                let values: [StoreValue] = [
                    .int(k), .int(k), .string("new"), .int(-k), .int(k), .double(-0.0), .string("n"),
                    .list([.string("q")]), .int(k), .bool(true),
                ]
                try txn.insert(into: v2, values: values)
                model[k] = values
            }
            for k in stride(from: Int64(8), to: 600, by: 40) {
                XCTAssertTrue(try txn.delete(v2, key: k))
                model[k] = nil
            }
            try checkModel(txn, v2, model)
            try checkClusters(txn, v2)
        }
        // Older clusters that nothing touched still exist alongside new ones.
        let columnCounts = try read([v2]) { r in
            try entries(r, tree: v2.objectTree).map { Int($0.1[2]) | Int($0.1[3]) << 8 }
        }
        try read([v2]) { r in
            try checkModel(r, v2, model)
            let keys = model.keys.sorted()
            for (c, name, k) in [
                (3, "x", StoreValue.int(0)), (4, "nx", .int(1)), (1, "a", .int(-150)), (5, "d", .double(0)),
            ] {
                for op in ["==", "!=", "<", ">="] {
                    let q = try StoreQuery("\(name) \(op) $0", arguments: [k])
                    let want = keys.filter { QuerySimpleScanTests.expected(model[$0]![c], op, k) }
                    XCTAssertEqual(try q.evaluate(in: r, table: v2), want, "\(name) \(op) \(k)")
                    XCTAssertEqual(try q.fastCount(in: r, table: v2), want.count)
                    let sum = try XCTUnwrap(q.fastSum(in: r, table: v2, column: 3))
                    var ints: Int64 = 0
                    for key in want { if case .int(let v) = model[key]![3] { ints &+= v } }
                    XCTAssertEqual(sum.ints, ints, "sum x where \(name) \(op) \(k)")
                }
            }
        }
        XCTAssertTrue(columnCounts.contains(10), "some clusters were rewritten: \(columnCounts)")
        try verifyDatabase()
    }

    /// Deleting objects until clusters are empty, deleting each cluster's first object, and
    /// inserting below every key afterwards, checking the invariants after each step.
    func testDeletesDownToEmptyAndReinsertBelow() throws {
        let table = Self.t
        var gen = Gen(rng: CoreRandom(seed: 11))
        var model: [Int64: [StoreValue]] = [:]
        try write([table]) { txn in
            try txn.storeTable(table)
            for k in 0..<400 {
                let key = Int64(k) * 3
                let values = gen.row(key)
                try txn.insert(into: table, values: values)
                model[key] = values
            }
        }
        // Repeatedly delete the first object of every cluster.
        for _ in 0..<6 {
            try write([table]) { txn in
                let firsts = try entries(txn, tree: table.objectTree).map { e in
                    e.1.withUnsafeBytes { Int64(littleEndian: $0.loadUnaligned(fromByteOffset: 8, as: Int64.self)) }
                }
                for k in firsts {
                    XCTAssertTrue(try txn.delete(table, key: k))
                    model[k] = nil
                }
                try checkClusters(txn, table)
                try checkModel(txn, table, model)
            }
        }
        // Inserts below every key, one at a time.
        try write([table]) { txn in
            for k in stride(from: Int64(-1), through: -60, by: -1) {
                let values = gen.row(k)
                try txn.insert(into: table, values: values)
                model[k] = values
            }
            try checkClusters(txn, table)
            try checkModel(txn, table, model)
        }
        try write([table]) { txn in
            try txn.deleteAll(table)
            model = [:]
            XCTAssertEqual(try txn.count(table), 0)
            try checkModel(txn, table, model)
            for k in [Int64(5), 4, 3, -100, Int64.min] {
                let values = gen.row(k)
                try txn.insert(into: table, values: values)
                model[k] = values
            }
            try checkClusters(txn, table)
            try checkModel(txn, table, model)
        }
        try verifyDatabase()
    }

    /// A corrupt row of the format clusters replaced (a variable slot longer than its row) is
    /// refused by the upgrade with an error, not a trap.
    func testCorruptLegacyRowIsAnErrorNotATrap() throws {
        let table = StoreTable(
            name: "L",
            columns: [
                StoreColumn(name: "id", type: .int, isPrimaryKey: true),
                StoreColumn(name: "name", type: .string),
            ])
        try write([table]) { txn in
            try txn.storeTable(table)
            var row = try RowEncoder.encode([.int(1), .string("hello")], table: table)
            // name's slot: u32 offset at 3, u32 length at 7 (header 2 + 1 bitmap byte).
            row[7] = 0xFF; row[8] = 0xFF
            try txn.putRaw(keyBytes(1), row, tree: table.legacyRowTree)
        }
        XCTAssertThrowsError(try write([table]) { txn in try txn.upgradeLegacyRows(table) }) { error in
            guard case .corrupt = error as? StoreError else { return XCTFail("\(error)") }
        }
    }
}
