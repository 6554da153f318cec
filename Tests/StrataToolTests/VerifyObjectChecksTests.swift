import Foundation
import Strata
import StrataCore
import StrataStorage
import XCTest

/// `strata verify` beyond the page checks: index entries, primary keys and links that no longer
/// match the objects, in files whose pages are all intact.
final class VerifyObjectChecksTests: ToolTestCase {
    /// Changes the file's trees directly (as a bug or a tool writing the file could).
    func edit(_ body: (WriteTransaction) throws -> Void) throws {
        var options = Database.Options()
        options.pageSize = 8192
        let db = try Database(path: path("app.realm"), options: options)
        defer { db.close() }
        try db.write(body)
    }

    func testAMissingIndexEntryIsReported() throws {
        try makeAppFile()
        try edit { txn in
            let index = try txn.openTree("i:ToolDog:age")
            var first: [UInt8]?
            try txn.forEach(in: index) { k, _ in
                first = Array(k); return false
            }
            XCTAssertTrue(try txn.delete(XCTUnwrap(first), in: index))
        }
        let run = try strata(["verify", path("app.realm")])
        XCTAssertEqual(run.status, 1, run.stdout + run.stderr)
        XCTAssertTrue(run.stdout.contains("the index of age has no entry for it"), run.stdout)
        XCTAssertTrue(run.stdout.contains("the index of age has 2 entries for 3 objects"), run.stdout)
    }

    func testAPrimaryKeyEntryLeadingNowhereIsReported() throws {
        try makeAppFile()
        try edit { txn in
            let pk = try txn.openTree("p:ToolOwner")
            var keys: [[UInt8]] = []
            try txn.forEach(in: pk) { k, _ in
                keys.append(Array(k)); return true
            }
            for k in keys { _ = try txn.delete(k, in: pk) }
        }
        let run = try strata(["verify", path("app.realm")])
        XCTAssertEqual(run.status, 1, run.stdout + run.stderr)
        XCTAssertTrue(run.stdout.contains("ToolOwner: object"), run.stdout)
        XCTAssertTrue(run.stdout.contains("leads to no object"), run.stdout)
    }

    func testALinkToAMissingObjectIsReported() throws {
        try makeAppFile()
        // Rewrite an owner's row with its favorite pointing at a dog key that does not exist,
        // without the backlink upkeep (as a bug writing the row would).
        var options = Database.Options()
        options.pageSize = 8192
        let db = try Database(path: path("app.realm"), options: options)
        try db.write { w in
            let txn = StoreTransaction(write: w)
            txn.tables = try txn.storedTables()
            let owners = try XCTUnwrap(txn.tables["ToolOwner"])
            let favorite = try XCTUnwrap(owners.columnIndex["favorite"])
            var target: (Int64, [StoreValue])?
            try txn.forEachRow(owners) { row in
                if target == nil { target = (row.key, row.values()) }
                return true
            }
            var (key, values) = try XCTUnwrap(target)
            values[favorite] = .link(987_654)
            try txn.replaceRow(owners, key: key, values: values)
            try txn.flush()
        }
        db.close()
        let run = try strata(["verify", path("app.realm")])
        XCTAssertEqual(run.status, 1, run.stdout + run.stderr)
        XCTAssertTrue(run.stdout.contains("favorite links to ToolDog object 987654, which does not exist"), run.stdout)
    }
}
