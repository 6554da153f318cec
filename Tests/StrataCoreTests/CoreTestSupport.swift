import Foundation
import XCTest
@testable import StrataCore
import StrataStorage
@_exported import StrataTestSupport

/// Gives each test its own temporary directory and database, removed afterwards.
class CoreTestCase: TemporaryDirectoryTestCase {
    var directory: String { temporaryDirectory.path }
    var db: Database!

    override func setUpWithError() throws {
        try super.setUpWithError()
        db = try openDatabase()
    }

    override func tearDownWithError() throws {
        db?.close()
        db = nil
        try super.tearDownWithError()
    }

    func openDatabase() throws -> Database {
        var o = Database.Options()
        o.mapReserve = 64 << 20
        return try Database(path: directory + "/db", options: o)
    }

    /// Closes and reopens the database (what survives is what was committed).
    func reopen() throws {
        db.close()
        db = try openDatabase()
    }

    /// A write `StoreTransaction` that knows `tables`.
    func beginWrite(_ tables: [StoreTable]) throws -> StoreTransaction {
        let txn = StoreTransaction(write: try db.beginWrite())
        for t in tables { txn.tables[t.name] = t }
        return txn
    }

    /// Runs `body` in a write transaction over `tables` and commits it.
    @discardableResult
    func write<T>(_ tables: [StoreTable], _ body: (StoreTransaction) throws -> T) throws -> T {
        let txn = try beginWrite(tables)
        do {
            let result = try body(txn)
            try txn.commit()
            return result
        } catch {
            txn.write!.abort()
            throw error
        }
    }

    /// Runs `body` on a read `StoreTransaction` of the newest committed version.
    func read<T>(_ tables: [StoreTable] = [], _ body: (StoreTransaction) throws -> T) throws -> T {
        let r = try db.beginRead()
        defer { r.end() }
        let txn = StoreTransaction(read: r)
        for t in tables { txn.tables[t.name] = t }
        return try body(txn)
    }

    /// Every tree of the newest committed version with all its entries (for "nothing changed" checks).
    func snapshot() throws -> [String: [[UInt8]: [UInt8]]] {
        let r = try db.beginRead()
        defer { r.end() }
        var out: [String: [[UInt8]: [UInt8]]] = [:]
        for name in try r.treeNames() {
            guard let t = try r.tree(named: name) else { continue }
            var entries: [[UInt8]: [UInt8]] = [:]
            try r.forEach(in: t) { k, v in
                entries[Array(k)] = Array(v); return true
            }
            out[name] = entries
        }
        return out
    }

    /// The entries of one tree in key order, as seen by `txn`.
    func entries(_ txn: StoreTransaction, tree: String) throws -> [([UInt8], [UInt8])] {
        var out: [([UInt8], [UInt8])] = []
        try txn.forEach(tree: tree) { k, v in
            out.append((Array(k), Array(v))); return true
        }
        return out
    }

    /// Runs `Database.verify()` and checks that no page leaked.
    func verifyDatabase(file: StaticString = #filePath, line: UInt = #line) throws {
        let report = try db.verify()
        XCTAssertEqual(report.leakedPages, [], "leaked pages", file: file, line: line)
    }
}

typealias CoreRandom = SeededRandom

/// The storage key of an object key, as bytes.
func keyBytes(_ key: Int64) -> [UInt8] {
    withUnsafeBytes(of: objectKeyBytes(key)) { Array($0) }
}

func le32(_ v: UInt32) -> [UInt8] { withUnsafeBytes(of: v.littleEndian) { Array($0) } }
func le64(_ v: UInt64) -> [UInt8] { withUnsafeBytes(of: v.littleEndian) { Array($0) } }

/// Asserts that `body` throws exactly `expected`.
func assertThrows<T>(
    _ expected: StoreError, _ body: @autoclosure () throws -> T,
    file: StaticString = #filePath, line: UInt = #line
) {
    do {
        _ = try body()
        XCTFail("expected \(expected), nothing was thrown", file: file, line: line)
    } catch let e as StoreError {
        XCTAssertEqual(e, expected, file: file, line: line)
    } catch {
        XCTFail("expected \(expected), got \(error)", file: file, line: line)
    }
}
