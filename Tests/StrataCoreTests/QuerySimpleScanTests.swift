import Foundation
import XCTest
import StrataQuery
import StrataStorage
@testable import StrataCore

/// The simple scan (QuerySimpleScan.swift: one fixed-width comparison read from the rows' bytes)
/// against a brute force over the rows' decoded values: every operator, Int and Double columns,
/// nullable ones, NaN, -0.0, and rows written before the columns existed (they take the general
/// path inside the same scan).
final class QuerySimpleScanTests: CoreTestCase {
    static let v1 = StoreTable(
        name: "M",
        columns: [
            StoreColumn(name: "id", type: .int, isPrimaryKey: true),
            StoreColumn(name: "label", type: .string),
        ])
    static let v2 = StoreTable(
        name: "M",
        columns: v1.columns + [
            StoreColumn(name: "n", type: .int),
            StoreColumn(name: "on", type: .int, isNullable: true),
            StoreColumn(name: "d", type: .double),
            StoreColumn(name: "od", type: .double, isNullable: true),
        ])

    /// `value op constant` as the query language defines it: a null value satisfies only `!=`,
    /// and so does NaN.
    static func expected(_ value: StoreValue, _ op: String, _ constant: StoreValue) -> Bool {
        let order: Int?
        switch (value, constant) {
        case (.int(let a), .int(let b)): order = a < b ? -1 : (a == b ? 0 : 1)
        case (.double(let a), .double(let b)): order = a.isNaN || b.isNaN ? nil : (a < b ? -1 : (a == b ? 0 : 1))
        default: order = nil
        }
        guard let order else { return op == "!=" }
        switch op {
        case "==": return order == 0
        case "!=": return order != 0
        case "<": return order < 0
        case "<=": return order <= 0
        case ">": return order > 0
        default: return order >= 0
        }
    }

    /// 40 objects written before the numeric columns existed, then 1,460 with random values
    /// (nulls, NaN, -0.0, infinity); `body` gets the read transaction and every object's values.
    func withRows(_ body: (StoreTransaction, [(key: Int64, values: [StoreValue])]) throws -> Void) throws {
        var rng = CoreRandom(seed: 42)
        try write([Self.v1]) { txn in
            try txn.storeTable(Self.v1)
            for i in 0..<40 { try txn.insert(into: Self.v1, values: [.int(Int64(i)), .string("old \(i)")]) }
        }
        let doubles: [Double] = [-1.5, -0.0, 0.0, 0.5, 2.25, 7, .nan, .infinity]
        try write([Self.v2]) { txn in
            try txn.storeTable(Self.v2)
            for i in 40..<1_500 {
                let n = Int64(rng.next() % 9) - 4
                let on: StoreValue = rng.next() % 4 == 0 ? .null : .int(Int64(rng.next() % 9) - 4)
                let d = doubles[Int(rng.next() % UInt64(doubles.count))]
                let od: StoreValue =
                    rng.next() % 4 == 0 ? .null : .double(doubles[Int(rng.next() % UInt64(doubles.count))])
                try txn.insert(
                    into: Self.v2, values: [.int(Int64(i)), .string("row \(i)"), .int(n), on, .double(d), od])
            }
        }
        try read([Self.v2]) { txn in
            var rows: [(key: Int64, values: [StoreValue])] = []
            try txn.forEachRow(Self.v2) { row in
                rows.append((row.key, row.values()))
                return true
            }
            XCTAssertEqual(rows.count, 1_500)
            try body(txn, rows)
        }
    }

    func testSimpleScansMatchABruteForce() throws {
        try withRows { txn, rows in
            var checked = 0
            for (column, name) in [(2, "n"), (3, "on"), (4, "d"), (5, "od")] {
                let constants: [StoreValue] =
                    column < 4 ? [.int(-1), .int(0), .int(3)] : [.double(-0.0), .double(0.5), .double(7)]
                for op in ["==", "!=", "<", "<=", ">", ">="] {
                    for constant in constants {
                        let query = try StoreQuery("\(name) \(op) $0", arguments: [constant])
                        let prepared = try query.prepare(txn, Self.v2)
                        XCTAssertNotNil(prepared.simple, "\(name) \(op) should take the simple scan")
                        let want = rows.filter { Self.expected($0.values[column], op, constant) }.map(\.key)
                        XCTAssertEqual(try query.evaluate(in: txn, table: Self.v2), want, "\(name) \(op) \(constant)")
                        XCTAssertEqual(
                            try query.fastCount(in: txn, table: Self.v2), want.count,
                            "count of \(name) \(op) \(constant)")
                        // Sums of every summable column over the matches, against the same brute force.
                        for (sumColumn, isInt) in [(2, true), (3, true), (4, false), (5, false)] {
                            let sum = try XCTUnwrap(query.fastSum(in: txn, table: Self.v2, column: sumColumn))
                            var ints: Int64 = 0, doubles = 0.0, saw = false
                            for r in rows where Self.expected(r.values[column], op, constant) {
                                switch r.values[sumColumn] {
                                case .int(let i): ints &+= i; saw = true
                                case .double(let d): doubles += d; saw = true
                                default: break
                                }
                            }
                            if isInt {
                                XCTAssertEqual(sum.ints, ints, "sum of \(sumColumn) where \(name) \(op) \(constant)")
                            } else {
                                XCTAssertTrue(
                                    sum.doubles == doubles || (sum.doubles.isNaN && doubles.isNaN),
                                    "sum of \(sumColumn) where \(name) \(op) \(constant): \(sum.doubles) vs \(doubles)")
                            }
                            XCTAssertEqual(sum.sawValue, saw)
                        }
                        checked += 1
                    }
                }
            }
            XCTAssertEqual(checked, 4 * 6 * 3)
            // Not one comparison: two, a negation (those scan by match bytes, QueryMaskScan.swift),
            // a string column, the primary key, a mix with a string column.
            for filter in ["n > 0 AND d < 1.0", "NOT n > 0", "NOT (on == 2 OR od >= 0.5) AND n != 1"] {
                let prepared = try StoreQuery(filter).prepare(txn, Self.v2)
                XCTAssertNil(prepared.simple, filter)
                XCTAssertNotNil(prepared.compound, "\(filter): \(prepared.plan)")
            }
            for filter in ["label == 'row 41'", "id > 5", "n > 0 AND label == 'row 41'"] {
                XCTAssertNil(try StoreQuery(filter).prepare(txn, Self.v2).simple, filter)
                XCTAssertNil(try StoreQuery(filter).prepare(txn, Self.v2).compound, filter)
                XCTAssertNil(
                    try StoreQuery(filter).fastCount(in: txn, table: Self.v2), "\(filter): counted by the general path")
            }
            XCTAssertNil(try StoreQuery().fastCount(in: txn, table: Self.v2), "no predicate: the table's count")
            // Without a predicate the sum reads every row.
            let all = try XCTUnwrap(StoreQuery().fastSum(in: txn, table: Self.v2, column: 2))
            XCTAssertEqual(
                all.ints,
                rows.reduce(Int64(0)) { acc, r in
                    if case .int(let i) = r.values[2] { return acc &+ i }; return acc
                })
        }
    }

    /// Deltas stored in 1, 2, 4 and 8 bytes, against constants at and beyond the ends of each
    /// width's range (a constant outside it makes every delta compare alike: the scan then
    /// tests no object), for every operator: keys, count and sum against the brute force.
    func testDeltaWidthsAndConstantsBeyondTheirRange() throws {
        let table = StoreTable(
            name: "W",
            columns: [
                StoreColumn(name: "id", type: .int, isPrimaryKey: true),
                StoreColumn(name: "n", type: .int),
            ])
        var rng = CoreRandom(seed: 7)
        // Four runs of keys, each with values spanning about one width above a base of 10^6.
        let base: Int64 = 1_000_000
        let spans: [Int64] = [200, 60_000, 4_000_000_000, 1 << 40]
        var values: [Int64: Int64] = [:]
        try write([table]) { txn in
            try txn.storeTable(table)
            for (run, span) in spans.enumerated() {
                for j in 0..<400 {
                    let key = Int64(run * 1_000 + j)
                    // Every 16 objects hold both ends of the run, so each cluster's base is
                    // `base` and its deltas use the whole width.
                    let v =
                        j % 16 == 0 ? base : (j % 16 == 1 ? base + span : base + Int64(rng.next() % UInt64(span + 1)))
                    try txn.insert(into: table, values: [.int(key), .int(v)])
                    values[key] = v
                }
            }
        }
        var constants: Set<Int64> = [Int64.min, Int64.max, 0, -1]
        for span in spans {
            for d in [-2, -1, 0, 1, 2] { constants.insert(base + Int64(d)); constants.insert(base + span + Int64(d)) }
            constants.insert(base + span / 2)
            constants.insert(base + (span + 1) * 2)
        }
        // The ends of each delta width's range, relative to the clusters' base.
        for bits in [8, 16, 32] {
            for d in [-1, 0, 1] { constants.insert(base + (Int64(1) << bits) + Int64(d)) }
        }
        try read([table]) { txn in
            for op in ["==", "!=", "<", "<=", ">", ">="] {
                for constant in constants.sorted() {
                    let query = try StoreQuery("n \(op) $0", arguments: [.int(constant)])
                    XCTAssertNotNil(try query.prepare(txn, table).simple)
                    let want = values.keys.sorted().filter { Self.expected(.int(values[$0]!), op, .int(constant)) }
                    XCTAssertEqual(try query.evaluate(in: txn, table: table), want, "n \(op) \(constant)")
                    XCTAssertEqual(
                        try query.fastCount(in: txn, table: table), want.count, "count of n \(op) \(constant)")
                    let sum = try XCTUnwrap(query.fastSum(in: txn, table: table, column: 1))
                    XCTAssertEqual(
                        sum.ints, want.reduce(Int64(0)) { $0 &+ values[$1]! }, "sum where n \(op) \(constant)")
                }
            }
        }
    }

    /// AND, OR and NOT over simple comparisons (the match-byte scan) against the brute force:
    /// 300 random predicates up to three levels deep over the four numeric columns, nullable
    /// ones included; keys, count and sums, in clusters with and without the columns.
    func testCompoundScansMatchABruteForce() throws {
        indirect enum P {
            case cmp(column: Int, name: String, op: String, constant: StoreValue)
            case and([P]), or([P]), not(P)
            var text: String {
                switch self {
                case .cmp(_, let name, let op, let constant):
                    switch constant {
                    case .int(let i): return "\(name) \(op) \(i)"
                    case .double(let d): return "\(name) \(op) \(d)"
                    default: return "?"
                    }
                case .and(let ps): return "(" + ps.map(\.text).joined(separator: " AND ") + ")"
                case .or(let ps): return "(" + ps.map(\.text).joined(separator: " OR ") + ")"
                case .not(let p): return "NOT " + p.text
                }
            }
            func holds(_ values: [StoreValue]) -> Bool {
                switch self {
                case .cmp(let column, _, let op, let constant):
                    return QuerySimpleScanTests.expected(values[column], op, constant)
                case .and(let ps): return ps.allSatisfy { $0.holds(values) }
                case .or(let ps): return ps.contains { $0.holds(values) }
                case .not(let p): return !p.holds(values)
                }
            }
        }
        var rng = CoreRandom(seed: 7)
        func random(_ depth: Int) -> P {
            let kind = depth >= 3 ? 0 : Int(rng.next() % 4)
            switch kind {
            case 1, 2:
                let children = (0..<(2 + Int(rng.next() % 2))).map { _ in random(depth + 1) }
                return kind == 1 ? .and(children) : .or(children)
            case 3 where depth > 0:
                return .not(random(depth + 1))
            default:
                let (column, name) = [(2, "n"), (3, "on"), (4, "d"), (5, "od")][Int(rng.next() % 4)]
                let op = ["==", "!=", "<", "<=", ">", ">="][Int(rng.next() % 6)]
                let constant: StoreValue =
                    column < 4 ? .int(Int64(rng.next() % 7) - 3) : .double([-0.0, 0.5, 2.25, 7][Int(rng.next() % 4)])
                return .cmp(column: column, name: name, op: op, constant: constant)
            }
        }
        try withRows { txn, rows in
            var compound = 0
            for _ in 0..<300 {
                let p = random(0)
                let query = try StoreQuery(p.text)
                if try query.prepare(txn, Self.v2).compound != nil { compound += 1 }
                let want = rows.filter { p.holds($0.values) }
                XCTAssertEqual(try query.evaluate(in: txn, table: Self.v2), want.map(\.key), p.text)
                if case .cmp = p {
                } else {
                    XCTAssertEqual(try query.fastCount(in: txn, table: Self.v2), want.count, "count of \(p.text)")
                }
                let ints = try XCTUnwrap(query.fastSum(in: txn, table: Self.v2, column: 3))
                XCTAssertEqual(
                    ints.ints,
                    want.reduce(Int64(0)) { acc, r in
                        if case .int(let i) = r.values[3] { return acc &+ i }; return acc
                    }, "sum of on where \(p.text)")
                let doubles = try XCTUnwrap(query.fastSum(in: txn, table: Self.v2, column: 5))
                let wantD = want.reduce(0.0) { acc, r in
                    if case .double(let d) = r.values[5] { return acc + d }; return acc
                }
                XCTAssertTrue(
                    doubles.doubles == wantD || (doubles.doubles.isNaN && wantD.isNaN),
                    "sum of od where \(p.text): \(doubles.doubles) vs \(wantD)")
            }
            XCTAssertGreaterThan(compound, 120, "the compound predicates (about half) take the match-byte scan")
        }
    }
}
