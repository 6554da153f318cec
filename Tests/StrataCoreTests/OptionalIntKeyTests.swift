import Foundation
import XCTest
@testable import StrataCore
import StrataStorage

/// An optional `Int` primary key is the object key, like a plain one; its nil key is stored as
/// object key `Int64.min` (FORMAT.md, "Object keys"), read back as null and found by a lookup
/// of null. `Int64.min` itself is refused as a key there.
final class OptionalIntKeyTests: CoreTestCase {
    static let table = StoreTable(
        name: "Tag",
        columns: [
            StoreColumn(name: "id", type: .int, isNullable: true, isPrimaryKey: true, isIndexed: true),
            StoreColumn(name: "label", type: .string),
        ])

    func testTheNilKeyIsObjectKeyInt64MinAndReadsBackAsNull() throws {
        XCTAssertEqual(Self.table.layout.nullKey, Int64.min)
        try write([Self.table]) { txn in
            XCTAssertEqual(try txn.insert(into: Self.table, values: [.int(5), .string("five")]), 5)
            XCTAssertEqual(try txn.insert(into: Self.table, values: [.null, .string("none")]), Int64.min)
            XCTAssertThrowsError(try txn.insert(into: Self.table, values: [.null, .string("again")])) { error in
                XCTAssertEqual(error as? StoreError, .duplicatePrimaryKey(table: "Tag", column: "id", value: "null"))
            }
        }
        try reopen()
        try read([Self.table]) { r in
            XCTAssertEqual(try r.objectKey(Self.table, primaryKey: .null), Int64.min)
            XCTAssertNil(try r.objectKey(Self.table, primaryKey: .int(Int64.min)))
            XCTAssertEqual(try r.row(Self.table, key: Int64.min)?.values(), [.null, .string("none")])
            XCTAssertEqual(try r.row(Self.table, key: Int64.min)?.isNull(0), true)
            XCTAssertEqual(try r.row(Self.table, key: 5)?.values(), [.int(5), .string("five")])
            // The nil key sorts first, as nil does.
            var keys: [Int64] = []
            try r.forEachRow(Self.table) {
                keys.append($0.key); return true
            }
            XCTAssertEqual(keys, [Int64.min, 5])
            XCTAssertEqual(try StoreQuery("id == nil").evaluate(in: r, table: Self.table), [Int64.min])
            XCTAssertEqual(try StoreQuery("id != nil").evaluate(in: r, table: Self.table), [5])
        }
    }

    func testInt64MinIsRefusedAsAnOptionalIntKeyOnly() throws {
        XCTAssertThrowsError(
            try write([Self.table]) { txn in
                try txn.insert(into: Self.table, values: [.int(Int64.min), .string("min")])
            }
        ) { error in
            XCTAssertEqual(error as? StoreError, .reservedPrimaryKey(table: "Tag", column: "id"))
        }
        let plain = StoreTable(
            name: "Plain", columns: [StoreColumn(name: "id", type: .int, isPrimaryKey: true, isIndexed: true)])
        XCTAssertNil(plain.layout.nullKey)
        try write([plain]) { txn in
            XCTAssertEqual(try txn.insert(into: plain, values: [.int(Int64.min)]), Int64.min)
            XCTAssertThrowsError(try txn.insert(into: plain, values: [.null])) { error in
                XCTAssertEqual(error as? StoreError, .nullNotAllowed(table: "Plain", column: "id"))
            }
        }
        try read([plain]) { r in
            XCTAssertEqual(try r.row(plain, key: Int64.min)?.values(), [.int(Int64.min)])
            XCTAssertNil(try r.objectKey(plain, primaryKey: .null))
        }
    }
}
