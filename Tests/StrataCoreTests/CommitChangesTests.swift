import XCTest
@testable import StrataCore
import StrataStorage

/// The change record a write transaction fills while a recorder is attached, and the
/// per-object query test notifications use.
final class CommitChangesTests: CoreTestCase {
    static let plain = StoreTable(
        name: "Plain",
        columns: [
            StoreColumn(name: "n", type: .int),
            StoreColumn(name: "title", type: .string, isIndexed: true),
        ])

    func testRecorderListsInsertsDeletesAndWrittenColumns() throws {
        var keys: [Int64] = []
        try write([Self.plain]) { txn in
            for i in 0..<4 {
                keys.append(try txn.insert(into: Self.plain, values: [.int(Int64(i)), .string("t\(i)")]))
            }
        }
        let record = CommitChanges()
        try write([Self.plain]) { txn in
            txn.changeRecorder = record
            let fresh = try txn.insert(into: Self.plain, values: [.int(9), .string("new")])
            try txn.set(Self.plain, key: fresh, column: 0, to: .int(10))  // inserted: stays an insert
            try txn.set(Self.plain, key: keys[0], column: 0, to: .int(100))  // in-place patch
            try txn.set(Self.plain, key: keys[1], column: 1, to: .string("x"))  // rewrite with an index
            try txn.set(Self.plain, key: keys[2], column: 0, to: .int(2))  // same value: no change
            try txn.delete(Self.plain, key: keys[3])
            let gone = try txn.insert(into: Self.plain, values: [.int(0), .string("gone")])
            try txn.delete(Self.plain, key: gone)  // inserted and deleted: nothing
        }
        let t = try XCTUnwrap(record.tables["Plain"])
        XCTAssertTrue(record.isComplete)
        XCTAssertEqual(t.inserted.count, 1)
        XCTAssertEqual(t.deleted, [keys[3]])
        XCTAssertEqual(Set(t.modified.keys), [keys[0], keys[1]])
        XCTAssertEqual(t.modified[keys[0]], .column(0))
        XCTAssertEqual(t.modified[keys[1]], .column(1))
    }

    func testAppendedSpansMergeAsOneChange() {
        var a = TableChanges()
        a.noteInsert(1)
        a.noteModify(2, .column(0))
        a.noteDelete(3)
        var b = TableChanges()
        b.noteDelete(1)  // inserted earlier: gone without a trace
        b.noteModify(2, .column(1))  // columns add up
        b.noteInsert(3)  // deleted earlier, back under the same key: modified
        a.append(b)
        XCTAssertEqual(a.inserted, [])
        XCTAssertEqual(a.deleted, [])
        XCTAssertEqual(a.modified[2], ColumnSet(bits: 0b11))
        XCTAssertEqual(a.modified[3], .all)
    }

    func testMatchingKeysTestsOnlyTheGivenObjects() throws {
        var keys: [Int64] = []
        try write([Self.plain]) { txn in
            for i in 0..<10 { keys.append(try txn.insert(into: Self.plain, values: [.int(Int64(i)), .string("t")])) }
        }
        let query = try StoreQuery("n >= 5")
        XCTAssertTrue(query.isInKeyOrder)
        XCTAssertTrue(query.readsOnlyItsTable)
        let matching = try read([Self.plain]) { txn in
            try query.matchingKeys([keys[1], keys[6], keys[9], 999_999], in: txn, table: Self.plain)
        }
        XCTAssertEqual(matching, [keys[6], keys[9]])
        XCTAssertFalse(try StoreQuery("owner.name == 'x'").readsOnlyItsTable)
        XCTAssertFalse(try StoreQuery("n > 1").sorted(by: "n").isInKeyOrder)
    }
}
