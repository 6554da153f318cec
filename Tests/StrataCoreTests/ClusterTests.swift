import XCTest
@testable import StrataCore
import StrataStorage

/// Objects stored many to a cluster, column by column (FORMAT.md, "Clusters"): random changes
/// across many clusters against a model, the documented bytes, splits, in-place patches,
/// corrupt clusters and the upgrade of files written with one row per object.
final class ClusterTests: CoreTestCase {
    static let wide = StoreTable(
        name: "Wide",
        columns: [
            StoreColumn(name: "id", type: .int, isPrimaryKey: true),
            StoreColumn(name: "n", type: .int),
            StoreColumn(name: "maybe", type: .int, isNullable: true),
            StoreColumn(name: "score", type: .double),
            StoreColumn(name: "ratio", type: .double, isNullable: true),
            StoreColumn(name: "flag", type: .bool),
            StoreColumn(name: "f", type: .float, isNullable: true),
            StoreColumn(name: "at", type: .timestamp),
            StoreColumn(name: "oid", type: .objectId, isNullable: true),
            StoreColumn(name: "uuid", type: .uuid),
            StoreColumn(name: "name", type: .string),
            StoreColumn(name: "note", type: .string, isNullable: true),
            StoreColumn(name: "blob", type: .data),
            StoreColumn(name: "tags", type: .int, collection: .list),
            StoreColumn(name: "any", type: .mixed),
        ])

    struct Gen {
        var rng: CoreRandom
        mutating func int() -> Int64 {
            switch Int.random(in: 0..<6, using: &rng) {
            case 0: return Int64.random(in: 0..<100, using: &rng)
            case 1: return Int64.random(in: -300...300, using: &rng)
            case 2: return Int64.random(in: 0..<70_000, using: &rng)
            case 3: return Int64.random(in: Int64.min...Int64.max, using: &rng)
            case 4: return Int.random(in: 0..<2, using: &rng) == 0 ? Int64.min : Int64.max
            default: return Int64.random(in: -5_000_000_000...5_000_000_000, using: &rng)
            }
        }
        mutating func string(long: Bool) -> String {
            let n = long ? Int.random(in: 900...3000, using: &rng) : Int.random(in: 0...24, using: &rng)
            return String((0..<n).map { _ in "abcdé日🐶\u{0}".randomElement(using: &rng)! })
        }
        mutating func bytes(_ n: Int) -> [UInt8] { (0..<n).map { _ in UInt8.random(in: 0...255, using: &rng) } }
        mutating func chance(_ percent: Int) -> Bool { Int.random(in: 0..<100, using: &rng) < percent }

        mutating func value(_ c: Int) -> StoreValue {
            switch c {
            case 1: return .int(int())
            case 2: return chance(30) ? .null : .int(int())
            case 3: return .double(chance(10) ? -0.0 : Double(int()) / 7)
            case 4: return chance(30) ? .null : .double(chance(5) ? .infinity : Double(int()) / 3)
            case 5: return .bool(chance(50))
            case 6: return chance(30) ? .null : .float(Float(Int.random(in: -1000...1000, using: &rng)) / 8)
            case 7: return .timestamp(seconds: int() / 2, nanoseconds: Int32.random(in: 0..<1_000_000_000, using: &rng))
            case 8: return chance(30) ? .null : .objectId(bytes(12))
            case 9: return .uuid(bytes(16))
            case 10: return .string(string(long: chance(2)))
            case 11: return chance(40) ? .null : .string(string(long: false))
            case 12: return .data(bytes(Int.random(in: 0...40, using: &rng)))
            case 13: return .list((0..<Int.random(in: 0...5, using: &rng)).map { _ in .int(int()) })
            default:
                switch Int.random(in: 0..<4, using: &rng) {
                case 0: return .null
                case 1: return .int(int())
                case 2: return .string(string(long: false))
                default: return .double(Double(int()))
                }
            }
        }
        mutating func row(_ key: Int64) -> [StoreValue] {
            [.int(key)] + (1..<ClusterTests.wide.columns.count).map { value($0) }
        }
    }

    /// Every cluster of `table` validates, its tree key is its first object key, keys rise
    /// across clusters, and a cluster of several objects fits inline in a leaf.
    func checkClusters(
        _ txn: StoreTransaction, _ table: StoreTable, file: StaticString = #filePath, line: UInt = #line
    ) throws -> (clusters: Int, objects: Int) {
        var previous: Int64?
        var clusters = 0, objects = 0
        // The inline limit of a 4096-byte page less a leaf cell's header and an 8-byte key.
        let capacity = (4096 - 32) / 4 - 2 - 6 - 8
        for (k, v) in try entries(txn, tree: table.objectTree) {
            let view = try v.withUnsafeBytes { raw -> (Int64, Int, [Int64]) in
                let view = try XCTUnwrap(
                    ClusterView(raw, table: table), "cluster does not validate", file: file, line: line)
                return (view.firstKey, view.count, (0..<view.count).map(view.key(at:)))
            }
            XCTAssertEqual(k, keyBytes(view.0), "tree key is not the first object key", file: file, line: line)
            XCTAssertEqual(view.2, view.2.sorted(), file: file, line: line)
            if let previous { XCTAssertGreaterThan(view.2[0], previous, file: file, line: line) }
            previous = view.2.last
            if view.1 > 1 {
                XCTAssertLessThanOrEqual(
                    v.count, capacity, "a cluster of \(view.1) objects overflows", file: file, line: line)
            }
            clusters += 1
            objects += view.1
        }
        XCTAssertEqual(try txn.count(table), objects, file: file, line: line)
        return (clusters, objects)
    }

    /// What the general path reads for each object equals the model, in key order.
    func checkModel(
        _ txn: StoreTransaction, _ model: [Int64: [StoreValue]], table: StoreTable = ClusterTests.wide,
        file: StaticString = #filePath, line: UInt = #line
    ) throws {
        var seen: [Int64] = []
        try txn.forEachRow(table) { r in
            seen.append(r.key)
            XCTAssertEqual(r.values(), model[r.key], "object \(r.key)", file: file, line: line)
            return true
        }
        XCTAssertEqual(seen, model.keys.sorted(), file: file, line: line)
        for key in model.keys.shuffled().prefix(50) {
            XCTAssertEqual(try txn.row(table, key: key)?.values(), model[key], file: file, line: line)
        }
        XCTAssertNil(try txn.row(table, key: (model.keys.max() ?? 0) + 1))
    }

    /// Inserts object `key` and records it in `model`; a key the model holds must be refused.
    func insertOrExpectDuplicate(
        _ txn: StoreTransaction, _ table: StoreTable, _ key: Int64, _ values: [StoreValue],
        into model: inout [Int64: [StoreValue]], file: StaticString = #filePath, line: UInt = #line
    ) throws {
        if model[key] != nil {
            XCTAssertThrowsError(try txn.insert(into: table, values: values), file: file, line: line)
        } else {
            try txn.insert(into: table, values: values)
            model[key] = values
        }
    }

    /// Inserts that fit their cluster's reserve are made in place (`ClusterSplice.insertInPlace`):
    /// every column kind the in-place path takes (ints of every width, nulls crossing bitmap
    /// bytes, fixed-width values, strings and data), random and appended keys, aborts and a
    /// reopen, against a model. Both paths must run.
    func testInPlaceInsertsAcrossColumnKindsMatchAModel() throws {
        var gen = Gen(rng: CoreRandom(seed: 7))
        // Columns of the wide table the in-place path takes (lists and AnyRealmValue take the
        // copying one), few enough that several objects fit a reserve.
        let picked = [0, 1, 2, 4, 5, 6, 7, 10, 11, 12]
        let table = StoreTable(name: "Flat", columns: picked.map { Self.wide.columns[$0] })
        func value(_ c: Int) -> StoreValue {
            switch c {
            // Mostly small ints (within the cluster's base and width), now and then any.
            case 1: return gen.chance(90) ? .int(Int64.random(in: 0..<200, using: &gen.rng)) : .int(gen.int())
            case 2: return gen.chance(30) ? .null : .int(Int64.random(in: -50..<50, using: &gen.rng))
            case 10: return .string(String(gen.string(long: gen.chance(1)).prefix(gen.chance(99) ? 8 : 5000)))
            case 11: return gen.chance(40) ? .null : .string(String(gen.string(long: false).prefix(6)))
            case 12: return .data(gen.bytes(Int.random(in: 0...6, using: &gen.rng)))
            default: return gen.value(c)
            }
        }
        var model: [Int64: [StoreValue]] = [:]
        try write([table]) { try $0.storeTable(table) }
        var inPlace = 0, rewritten = 0
        for round in 0..<10 {
            let txn = try beginWrite([table])
            var working = model
            for i in 0..<300 {
                // Random keys, then runs of appended keys (dense clusters keep key width 0).
                let key =
                    round % 3 == 2 ? 10_000 + Int64(round * 300 + i) : Int64.random(in: -3000...3000, using: &gen.rng)
                let values = [StoreValue.int(key)] + picked.dropFirst().map { value($0) }
                try insertOrExpectDuplicate(txn, table, key, values, into: &working)
            }
            for _ in 0..<30 where !working.isEmpty {
                let key = working.keys.randomElement(using: &gen.rng)!
                XCTAssertTrue(try txn.delete(table, key: key))
                working[key] = nil
            }
            inPlace += txn.insertsInPlace
            rewritten += txn.insertsRewritten
            try checkModel(txn, working, table: table)
            _ = try checkClusters(txn, table)
            if round % 4 == 1 {
                txn.write!.abort()
            } else {
                try txn.commit()
                model = working
            }
            try read([table]) { r in
                try checkModel(r, model, table: table)
                _ = try checkClusters(r, table)
            }
        }
        XCTAssertGreaterThan(inPlace, 1000, "most inserts should be made in place (rewritten: \(rewritten))")
        XCTAssertGreaterThan(rewritten, 50, "the reserve runs out and clusters are rewritten")
        try reopen()
        try read([table]) { try checkModel($0, model, table: table) }
        try verifyDatabase()
    }

    func testRandomChangesAcrossManyClustersMatchAModel() throws {
        var gen = Gen(rng: CoreRandom(seed: 42))
        let table = Self.wide
        var model: [Int64: [StoreValue]] = [:]
        try write([table]) { try $0.storeTable(table) }
        for round in 0..<12 {
            let txn = try beginWrite([table])
            var working = model
            let inserts = round < 4 ? 400 : 60
            for _ in 0..<inserts {
                let key = Int64.random(in: -2000...2000, using: &gen.rng)
                let values = gen.row(key)
                try insertOrExpectDuplicate(txn, table, key, values, into: &working)
            }
            for _ in 0..<300 where !working.isEmpty {
                let key = working.keys.randomElement(using: &gen.rng)!
                let c = Int.random(in: 1..<table.columns.count, using: &gen.rng)
                let value = gen.value(c)
                let old = try txn.set(table, key: key, column: c, to: value)
                XCTAssertEqual(old, working[key]![c])
                working[key]![c] = value
            }
            for _ in 0..<(round < 8 ? 40 : 150) where !working.isEmpty {
                let key = working.keys.randomElement(using: &gen.rng)!
                XCTAssertTrue(try txn.delete(table, key: key))
                working[key] = nil
            }
            try checkModel(txn, working)
            _ = try checkClusters(txn, table)
            if round % 5 == 3 {
                txn.write!.abort()
            } else {
                try txn.commit()
                model = working
            }
            try read([table]) { r in
                try checkModel(r, model)
                _ = try checkClusters(r, table)
            }
        }
        let (clusters, objects) = try read([table]) { try checkClusters($0, table) }
        XCTAssertGreaterThan(clusters, 20, "the test must span many clusters")
        XCTAssertEqual(objects, model.count)
        try reopen()
        try read([table]) { try checkModel($0, model) }
        try verifyDatabase()
    }

    /// Objects appended in key order fill their clusters: a split leaves the full cluster as it
    /// was and starts a new one.
    func testAppendsFillClusters() throws {
        let table = StoreTable(
            name: "Log",
            columns: [
                StoreColumn(name: "n", type: .int),
                StoreColumn(name: "text", type: .string),
            ])
        try write([table]) { txn in
            try txn.storeTable(table)
            for i in 0..<20_000 { try txn.insert(into: table, values: [.int(Int64(i % 100)), .string("line \(i)")]) }
        }
        try read([table]) { r in
            let (clusters, objects) = try checkClusters(r, table)
            XCTAssertEqual(objects, 20_000)
            var sizes: [Int] = []
            for (_, v) in try entries(r, tree: table.objectTree) { sizes.append(v.count) }
            // All but the last cluster are within one object of full (each object takes about
            // 13 bytes here, so a full cluster is over 1000 - 13 bytes).
            XCTAssertGreaterThan(sizes.dropLast().min() ?? 1000, 1000 - 40, "clusters: \(clusters)")
            // Keys 0..<20000 are dense: no per-object key bytes.
            for (_, v) in try entries(r, tree: table.objectTree) { XCTAssertEqual(v[4], 0) }
        }
        try verifyDatabase()
    }

    /// The bytes of a small cluster, field by field as FORMAT.md documents them.
    func testClusterBytesAreAsDocumented() throws {
        let table = StoreTable(
            name: "T",
            columns: [
                StoreColumn(name: "id", type: .int, isPrimaryKey: true),
                StoreColumn(name: "age", type: .int),
                StoreColumn(name: "score", type: .double, isNullable: true),
                StoreColumn(name: "name", type: .string),
            ])
        try write([table]) { txn in
            try txn.storeTable(table)
            try txn.insert(into: table, values: [.int(10), .int(300), .double(1.5), .string("ab")])
            try txn.insert(into: table, values: [.int(12), .int(302), .null, .string("")])
            try txn.insert(into: table, values: [.int(13), .int(301), .double(-2), .string("xyz")])
        }
        let cluster = try read([table]) { r in try XCTUnwrap(entries(r, tree: table.objectTree).first) }
        XCTAssertEqual(cluster.0, keyBytes(10))
        var expected: [UInt8] = []
        func u16(_ v: Int) { expected += [UInt8(v & 0xFF), UInt8(v >> 8)] }
        func u32(_ v: Int) { u16(v & 0xFFFF); u16(v >> 16) }
        func u64(_ v: UInt64) { for i in 0..<8 { expected.append(UInt8((v >> (8 * UInt64(i))) & 0xFF)) } }
        u16(3); u16(4); expected += [1, 0]; u16(0); u64(10)  // m, n, key width 1, first key 10
        // Descriptors at 16: id (none), age (int), score (fixed, nulls), name (variable).
        let keys = 16 + 4 * 6, age = keys + 3, score = age + 8 + 3, name = score + 1 + 24
        u32(0); expected += [0, 0]
        u32(age); expected += [1, 0]
        u32(score); expected += [8, 1]
        u32(name); expected += [2, 0]
        expected += [0, 2, 3]  // key deltas
        u64(300); expected += [0, 2, 1]  // age: base 300, deltas
        expected += [0b010]  // score: object 1 is null
        u64((1.5).bitPattern); u64(0); u64((-2.0).bitPattern)
        u16(2); u16(2); u16(5)  // name: end offsets
        expected += Array("abxyz".utf8)
        // The third insert rewrote the cluster (the editor's leaves no reserve) with a reserve of
        // zero bytes for the next: max(32, 90 / 16, 2 * 90 / 3) = 60.
        expected += [UInt8](repeating: 0, count: 60)
        XCTAssertEqual(cluster.1, expected)
    }

    /// A fixed-width update is written in place when the column's encoding holds the value, and
    /// re-encodes the cluster when it does not (an integer outside the column's range, a null
    /// where the cluster has no null bitmap).
    func testPatchInPlaceAndRewrite() throws {
        let table = StoreTable(
            name: "P",
            columns: [
                StoreColumn(name: "id", type: .int, isPrimaryKey: true),
                StoreColumn(name: "age", type: .int),
                StoreColumn(name: "score", type: .double, isNullable: true),
            ])
        try write([table]) { txn in
            try txn.storeTable(table)
            for i in 0..<10 {
                try txn.insert(into: table, values: [.int(Int64(i)), .int(Int64(50 + i)), .double(Double(i))])
            }
        }
        func cluster() throws -> [UInt8] {
            try read([table]) { r in try XCTUnwrap(entries(r, tree: table.objectTree).first?.1) }
        }
        let before = try cluster()
        try write([table]) { txn in XCTAssertEqual(try txn.set(table, key: 3, column: 1, to: .int(60)), .int(53)) }
        let patched = try cluster()
        XCTAssertEqual(patched.count, before.count, "in range: patched in place")
        XCTAssertEqual(patched.enumerated().filter { $0.element != before[$0.offset] }.count, 1, "one byte changed")
        try write([table]) { txn in
            XCTAssertEqual(try txn.set(table, key: 4, column: 1, to: .int(1_000_000)), .int(54))
            XCTAssertEqual(try txn.set(table, key: 5, column: 1, to: .int(-7)), .int(55))
            XCTAssertEqual(try txn.set(table, key: 6, column: 2, to: .null), .double(6))
        }
        let rewritten = try cluster()
        func content(_ bytes: [UInt8]) -> Int {
            bytes.withUnsafeBytes { ClusterView($0, table: table)!.contentEnd(table: table) }
        }
        XCTAssertGreaterThan(content(rewritten), content(before), "wider ints and a null bitmap")
        try read([table]) { r in
            let ages = try (0..<10).map { try r.row(table, key: $0)!.int(1)! }
            XCTAssertEqual(ages, [50, 51, 52, 60, 1_000_000, -7, 56, 57, 58, 59])
            XCTAssertNil(try r.row(table, key: 6)!.double(2))
            XCTAssertEqual(try r.row(table, key: 7)!.double(2), 7)
        }
        try verifyDatabase()
    }

    /// A cluster whose header or offsets lie is refused with an error, not a crash.
    func testCorruptClustersAreErrors() throws {
        let table = StoreTable(
            name: "C",
            columns: [
                StoreColumn(name: "id", type: .int, isPrimaryKey: true),
                StoreColumn(name: "name", type: .string),
            ])
        try write([table]) { txn in
            try txn.storeTable(table)
            for i in 0..<5 { try txn.insert(into: table, values: [.int(Int64(i)), .string("n\(i)")]) }
        }
        let good = try read([table]) { r in try XCTUnwrap(entries(r, tree: table.objectTree).first?.1) }
        var lies: [[UInt8]] = []
        var m = good; m[0] = 0xFF; m[1] = 0xFF; lies.append(m)  // too many objects
        var n = good; n[2] = 9; lies.append(n)  // more columns than the table
        var kw = good; kw[4] = 3; lies.append(kw)  // no such key width
        var off = good; off[16 + 6 + 3] = 0x7F; lies.append(off)  // name area past the end
        var ends = good
        let nameArea = Int(good[16 + 6]) | Int(good[16 + 7]) << 8
        ends[nameArea] = 0xF0; lies.append(ends)  // end offsets fall
        lies.append(Array(good.prefix(10)))  // truncated
        for (i, bytes) in lies.enumerated() {
            try write([table]) { txn in try txn.putRaw(keyBytes(0), bytes, tree: table.objectTree) }
            try read([table]) { r in
                // Object 0 is the one whose name range the falling offsets break (a point read
                // checks the cluster's extents and its own object's ranges; a scan checks all).
                XCTAssertThrowsError(try r.row(table, key: 0), "lie \(i)") { error in
                    guard case .corrupt(let message) = error as? StoreError else { return XCTFail("\(error)") }
                    XCTAssertTrue(message.contains("corrupt"), message)
                }
                XCTAssertThrowsError(try r.forEachRow(table) { _ in true }, "lie \(i)")
            }
            XCTAssertThrowsError(
                try write([table]) { txn in try txn.insert(into: table, values: [.int(3), .string("x")]) }, "lie \(i)")
        }
    }

    /// A table written with one row per object (`o:<T>`) is rewritten as clusters, values intact,
    /// and the row tree is dropped.
    func testLegacyRowsUpgradeToClusters() throws {
        let table = StoreTable(
            name: "Old",
            columns: [
                StoreColumn(name: "id", type: .int, isPrimaryKey: true),
                StoreColumn(name: "name", type: .string),
                StoreColumn(name: "n", type: .int, isNullable: true),
                StoreColumn(name: "tags", type: .string, collection: .list),
            ])
        var model: [Int64: [StoreValue]] = [:]
        try write([table]) { txn in
            try txn.storeTable(table)
            for i in 0..<9000 {
                let key = Int64(i * 3 - 5000)
                let values: [StoreValue] = [
                    .int(key), .string("row \(i)"), i % 7 == 0 ? .null : .int(Int64(i * i)),
                    .list([.string("t\(i % 5)")]),
                ]
                try txn.putRaw(keyBytes(key), RowEncoder.encode(values, table: table), tree: table.legacyRowTree)
                model[key] = values
            }
        }
        try read([table]) { r in XCTAssertTrue(try r.hasLegacyRows(table)) }
        try write([table]) { txn in try txn.upgradeLegacyRows(table) }
        try read([table]) { r in
            XCTAssertFalse(try r.hasLegacyRows(table))
            XCTAssertFalse(try r.read!.treeNames().contains(table.legacyRowTree))
            var seen = 0
            try r.forEachRow(table) { row in
                XCTAssertEqual(row.values(), model[row.key])
                seen += 1
                return true
            }
            XCTAssertEqual(seen, model.count)
            _ = try checkClusters(r, table)
        }
        try verifyDatabase()
    }
}
