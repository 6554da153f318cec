import XCTest
@testable import StrataCore
import StrataStorage

/// Random inserts, updates and deletes against a dictionary model: after every transaction the
/// rows, primary-key lookups, secondary indexes and counts equal the model's, and the file verifies.
final class StoreTransactionModelTests: CoreTestCase {
    /// Int primary key: the object key is the primary key.
    static let person = StoreTable(
        name: "Person",
        columns: [
            StoreColumn(name: "name", type: .string, isIndexed: true),
            StoreColumn(name: "id", type: .int, isPrimaryKey: true),
            StoreColumn(name: "age", type: .int, isIndexed: true),
            StoreColumn(name: "score", type: .double, isNullable: true),
            StoreColumn(name: "bio", type: .string, isNullable: true),
            StoreColumn(name: "tags", type: .string, collection: .list),
        ])
    /// String primary key (the `p:` tree) and a nullable indexed string.
    static let dog = StoreTable(
        name: "Dog",
        columns: [
            StoreColumn(name: "name", type: .string, isPrimaryKey: true),
            StoreColumn(name: "age", type: .int, isIndexed: true),
            StoreColumn(name: "breed", type: .string, isNullable: true, isIndexed: true),
            StoreColumn(name: "weight", type: .float),
        ])
    /// No primary key: keys from the `k:` counter.
    static let event = StoreTable(
        name: "Event",
        columns: [
            StoreColumn(name: "title", type: .string, isIndexed: true),
            StoreColumn(name: "count", type: .int, isNullable: true, isIndexed: true),
            StoreColumn(name: "at", type: .timestamp),
            StoreColumn(name: "flag", type: .bool, isIndexed: true),
            StoreColumn(name: "payload", type: .data),
        ])
    static let tables = [person, dog, event]

    typealias Model = [String: [Int64: [StoreValue]]]

    struct Generator {
        var rng: CoreRandom
        /// Short strings that share prefixes and contain NUL, so index keys are tested at their edges.
        let names = ["", "a", "a\u{0}", "a\u{0}b", "ab", "b", "Ann", "Bob", "日本", "🐶", "ab\u{0}"]
        let dogNames = (0..<40).map { "dog\($0)" } + ["", "d\u{0}g", "Dög"]

        mutating func pick<T>(_ values: [T]) -> T { values.randomElement(using: &rng)! }
        mutating func chance(_ percent: Int) -> Bool { Int.random(in: 0..<100, using: &rng) < percent }

        mutating func value(_ table: StoreTable, _ c: Int) -> StoreValue {
            let column = table.columns[c]
            switch (table.name, column.name) {
            case ("Person", "name"), ("Event", "title"): return .string(pick(names))
            case ("Person", "id"): return .int(Int64.random(in: -30..<30, using: &rng))
            case (_, "age"): return .int(Int64.random(in: -2..<6, using: &rng))
            case ("Person", "score"): return chance(30) ? .null : .double(pick([0, -1.5, 2.25, 1e300]))
            case ("Person", "bio"):
                // Sometimes long enough that the row goes to an overflow run.
                if chance(20) { return .null }
                return .string(
                    String(
                        repeating: pick(["x", "é", "🐶"]), count: chance(15) ? 3000 : Int.random(in: 0..<20, using: &rng)
                    ))
            case ("Person", "tags"):
                return .list((0..<Int.random(in: 0..<4, using: &rng)).map { _ in .string(pick(names)) })
            case ("Dog", "name"): return .string(pick(dogNames))
            case ("Dog", "breed"): return chance(30) ? .null : .string(pick(["lab", "pug", "", "lab\u{0}"]))
            case ("Dog", "weight"): return .float(pick([0, 1.5, -2, 30.25]))
            case ("Event", "count"): return chance(25) ? .null : .int(pick([Int64.min, -1, 0, 1, 7, .max]))
            case ("Event", "at"):
                return .timestamp(seconds: Int64.random(in: -3...3, using: &rng), nanoseconds: pick([0, 5, -5]))
            case ("Event", "flag"): return .bool(chance(50))
            case ("Event", "payload"):
                return .data(
                    (0..<(chance(10) ? 6000 : Int.random(in: 0..<16, using: &rng))).map { _ in
                        UInt8.random(in: 0...255, using: &rng)
                    })
            default: fatalError("no generator for \(table.name).\(column.name)")
            }
        }

        mutating func row(_ table: StoreTable) -> [StoreValue] {
            table.columns.indices.map { value(table, $0) }
        }
    }

    /// The row as the store reads it: the Int primary key is the object key.
    func stored(_ values: [StoreValue], _ table: StoreTable, key: Int64) -> [StoreValue] {
        var v = values
        if let pk = table.layout.keyColumn { v[pk] = .int(key) }
        return v
    }

    func check(
        _ txn: StoreTransaction, _ model: Model, _ gen: inout Generator, _ context: String,
        file: StaticString = #filePath, line: UInt = #line
    ) throws {
        for table in Self.tables {
            let rows = model[table.name] ?? [:]
            XCTAssertEqual(
                try txn.count(table), rows.count, "\(context): count of \(table.name)", file: file, line: line)
            var scanned: [Int64: [StoreValue]] = [:]
            var order: [Int64] = []
            try txn.forEachRow(table) { r in
                scanned[r.key] = r.values(); order.append(r.key); return true
            }
            XCTAssertEqual(scanned, rows, "\(context): rows of \(table.name)", file: file, line: line)
            XCTAssertEqual(order, order.sorted(), "\(context): scan order of \(table.name)", file: file, line: line)
            for (key, values) in rows {
                XCTAssertEqual(
                    try txn.row(table, key: key)?.values(), values, "\(context): row \(key)", file: file, line: line)
            }
            // Primary keys: every stored one answers with its object key, absent ones with nil.
            if let pk = table.primaryKeyColumn {
                var byPK: [StoreValue: Int64] = [:]
                for (key, values) in rows { byPK[values[pk]] = key }
                XCTAssertEqual(
                    byPK.count, rows.count, "\(context): primary keys of \(table.name) are not unique", file: file,
                    line: line)
                for (value, key) in byPK {
                    XCTAssertEqual(
                        try txn.objectKey(table, primaryKey: value), key, "\(context): \(table.name) pk \(value)",
                        file: file, line: line)
                    XCTAssertEqual(try txn.indexLookup(table, column: pk, equals: value), [key], file: file, line: line)
                }
                for _ in 0..<10 {
                    let probe = gen.value(table, pk)
                    XCTAssertEqual(
                        try txn.objectKey(table, primaryKey: probe), byPK[probe],
                        "\(context): \(table.name) pk \(probe)", file: file, line: line)
                }
                if !table.primaryKeyIsObjectKey {
                    XCTAssertEqual(
                        try txn.count(tree: table.primaryKeyTree), rows.count, "\(context): p: entries", file: file,
                        line: line)
                }
            }
            // Secondary indexes: one entry per object, lookups equal a brute-force filter.
            for c in table.columns.indices where table.columns[c].hasIndexTree {
                XCTAssertEqual(
                    try txn.count(tree: table.indexTree(c)), rows.count, "\(context): entries of \(table.indexTree(c))",
                    file: file, line: line)
                var probes = Set(rows.values.map { $0[c] })
                for _ in 0..<5 { probes.insert(gen.value(table, c)) }
                probes.insert(.null)
                for probe in probes {
                    let expected = rows.filter { $0.value[c] == probe }.keys.sorted()
                    XCTAssertEqual(
                        try txn.indexLookup(table, column: c, equals: probe), expected,
                        "\(context): \(table.indexTree(c)) == \(probe)", file: file, line: line)
                }
            }
        }
    }

    func testRandomInsertsUpdatesAndDeletesMatchADictionaryModel() throws {
        try runModel(seed: 7, transactions: 200)
    }

    func testRandomWorkloadSecondSeedSurvivesReopen() throws {
        try runModel(seed: 99, transactions: 80)
    }

    func runModel(seed: UInt64, transactions: Int) throws {
        var gen = Generator(rng: CoreRandom(seed: seed))
        var model: Model = [:]
        /// Every object key a committed transaction gave a table without an Int primary key.
        var committedKeys: [String: Set<Int64>] = [:]
        var duplicates = 0, deletes = 0, updates = 0, inserts = 0
        try write(Self.tables) { txn in for t in Self.tables { try txn.storeTable(t) } }

        for n in 0..<transactions {
            let txn = try beginWrite(Self.tables)
            var working = model
            var newKeys: [String: Set<Int64>] = [:]
            for _ in 0..<Int.random(in: 1...25, using: &gen.rng) {
                let table = gen.pick(Self.tables)
                var rows = working[table.name] ?? [:]
                let roll = Int.random(in: 0..<100, using: &gen.rng)
                if roll < 45 || rows.isEmpty {
                    let values = gen.row(table)
                    if let pk = table.primaryKeyColumn, rows.values.contains(where: { $0[pk] == values[pk] }) {
                        XCTAssertThrowsError(try txn.insert(into: table, values: values)) { error in
                            guard case .duplicatePrimaryKey(let t, let c, _) = error as? StoreError else {
                                return XCTFail("expected duplicatePrimaryKey, got \(error)")
                            }
                            XCTAssertEqual(t, table.name)
                            XCTAssertEqual(c, table.columns[pk].name)
                        }
                        duplicates += 1
                    } else {
                        let key = try txn.insert(into: table, values: values)
                        XCTAssertNil(rows[key], "insert into \(table.name) reused live key \(key)")
                        if !table.primaryKeyIsObjectKey {
                            XCTAssertFalse(
                                committedKeys[table.name, default: []].contains(key), "\(table.name) key \(key) reused")
                            XCTAssertFalse(newKeys[table.name, default: []].contains(key))
                            newKeys[table.name, default: []].insert(key)
                        }
                        rows[key] = stored(values, table, key: key)
                        inserts += 1
                    }
                } else if roll < 80 {
                    let key = gen.pick(Array(rows.keys))
                    let c = gen.pick(table.columns.indices.filter { !table.columns[$0].isPrimaryKey })
                    let value = gen.value(table, c)
                    let old = try txn.set(table, key: key, column: c, to: value)
                    XCTAssertEqual(old, rows[key]![c])
                    rows[key]![c] = value
                    updates += 1
                } else if roll < 98 {
                    let key = gen.pick(Array(rows.keys))
                    XCTAssertTrue(try txn.delete(table, key: key))
                    XCTAssertFalse(try txn.delete(table, key: key), "deleted twice")
                    rows[key] = nil
                    deletes += 1
                } else {
                    try txn.deleteAll(table)
                    deletes += rows.count
                    rows = [:]
                }
                working[table.name] = rows
            }
            // The write transaction sees its own changes.
            try check(txn, working, &gen, "transaction \(n) before commit")
            if gen.chance(20) {
                txn.write!.abort()
            } else {
                try txn.commit()
                model = working
                for (t, keys) in newKeys { committedKeys[t, default: []].formUnion(keys) }
            }
            try read(Self.tables) { try check($0, model, &gen, "after transaction \(n)") }
            if n % 15 == 0 { try verifyDatabase() }
        }
        try verifyDatabase()
        try reopen()
        try read(Self.tables) { r in
            try check(r, model, &gen, "after reopen")
            let stored = try r.storedTables()
            XCTAssertEqual(Set(stored.keys), Set(Self.tables.map(\.name)))
            for t in Self.tables { XCTAssertTrue(stored[t.name]!.sameShape(as: t)) }
        }
        // The workload did what it claims to.
        XCTAssertGreaterThan(inserts, 200)
        XCTAssertGreaterThan(updates, 150)
        XCTAssertGreaterThan(deletes, 50)
        XCTAssertGreaterThan(duplicates, 10)
        XCTAssertGreaterThan(model.values.map(\.count).reduce(0, +), 20)
    }
}
