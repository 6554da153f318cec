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
    static let v1 = CoreTable(name: "M", columns: [
        CoreColumn(name: "id", type: .int, isPrimaryKey: true),
        CoreColumn(name: "label", type: .string),
    ])
    static let v2 = CoreTable(name: "M", columns: v1.columns + [
        CoreColumn(name: "n", type: .int),
        CoreColumn(name: "on", type: .int, isNullable: true),
        CoreColumn(name: "d", type: .double),
        CoreColumn(name: "od", type: .double, isNullable: true),
    ])

    /// `value op constant` as the query language defines it: a null value satisfies only `!=`,
    /// and so does NaN.
    static func expected(_ value: CoreValue, _ op: String, _ constant: CoreValue) -> Bool {
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

    func testSimpleScansMatchABruteForce() throws {
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
                let on: CoreValue = rng.next() % 4 == 0 ? .null : .int(Int64(rng.next() % 9) - 4)
                let d = doubles[Int(rng.next() % UInt64(doubles.count))]
                let od: CoreValue = rng.next() % 4 == 0 ? .null : .double(doubles[Int(rng.next() % UInt64(doubles.count))])
                try txn.insert(into: Self.v2, values: [.int(Int64(i)), .string("row \(i)"), .int(n), on, .double(d), od])
            }
        }
        try read([Self.v2]) { txn in
            var rows: [(key: Int64, values: [CoreValue])] = []
            try txn.forEachRow(Self.v2) { row in
                rows.append((row.key, row.values()))
                return true
            }
            XCTAssertEqual(rows.count, 1_500)
            var checked = 0
            for (column, name) in [(2, "n"), (3, "on"), (4, "d"), (5, "od")] {
                let constants: [CoreValue] = column < 4 ? [.int(-1), .int(0), .int(3)] : [.double(-0.0), .double(0.5), .double(7)]
                for op in ["==", "!=", "<", "<=", ">", ">="] {
                    for constant in constants {
                        let query = try CoreQuery("\(name) \(op) $0", arguments: [constant])
                        let prepared = try query.prepare(txn, Self.v2)
                        XCTAssertNotNil(prepared.simple, "\(name) \(op) should take the simple scan")
                        let want = rows.filter { Self.expected($0.values[column], op, constant) }.map(\.key)
                        XCTAssertEqual(try query.evaluate(in: txn, table: Self.v2), want, "\(name) \(op) \(constant)")
                        XCTAssertEqual(try query.fastCount(in: txn, table: Self.v2), want.count, "count of \(name) \(op) \(constant)")
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
                            if isInt { XCTAssertEqual(sum.ints, ints, "sum of \(sumColumn) where \(name) \(op) \(constant)") }
                            else { XCTAssertTrue(sum.doubles == doubles || (sum.doubles.isNaN && doubles.isNaN), "sum of \(sumColumn) where \(name) \(op) \(constant): \(sum.doubles) vs \(doubles)") }
                            XCTAssertEqual(sum.sawValue, saw)
                        }
                        checked += 1
                    }
                }
            }
            XCTAssertEqual(checked, 4 * 6 * 3)
            // Not simple: two comparisons, a negation, a string column, the primary key.
            for filter in ["n > 0 AND d < 1", "NOT n > 0", "label == 'row 41'", "id > 5"] {
                XCTAssertNil(try CoreQuery(filter).prepare(txn, Self.v2).simple, filter)
                XCTAssertNil(try CoreQuery(filter).fastCount(in: txn, table: Self.v2), "\(filter): counted by the general path")
            }
            XCTAssertNil(try CoreQuery().fastCount(in: txn, table: Self.v2), "no predicate: the table's count")
            // Without a predicate the sum reads every row.
            let all = try XCTUnwrap(CoreQuery().fastSum(in: txn, table: Self.v2, column: 2))
            XCTAssertEqual(all.ints, rows.reduce(Int64(0)) { acc, r in if case .int(let i) = r.values[2] { return acc &+ i }; return acc })
        }
    }
}
