import Foundation
import XCTest
@testable import StrataCore
@testable import StrataStorage

/// The object store's reads of a damaged file (clusters reached through damaged pages of the
/// `c:` tree) return the true objects or throw: never a wrong value, a missing object that
/// exists, or a wrong count. The damage is what the reliability campaign found giving wrong
/// data: leaves swapped whole, leaves swapped with page numbers and checksums forged, a leaf's
/// cell count cut short. The benchmark's shape (`strata-bench w1`): `Int` primary key, a string, an int and a double.
final class DamagedClusterReadTests: CoreTestCase {
    static let people = StoreTable(
        name: "People",
        columns: [
            StoreColumn(name: "id", type: .int, isPrimaryKey: true),
            StoreColumn(name: "name", type: .string),
            StoreColumn(name: "age", type: .int),
            StoreColumn(name: "score", type: .double),
        ])
    /// A second table with the same keys and the same kind of values: a page of one read as the
    /// other's would give plausible answers.
    static let others = StoreTable(name: "Others", columns: people.columns)
    static let objects = 6000

    static func values(_ id: Int, _ table: StoreTable) -> [StoreValue] {
        let shift = table.name == "Others" ? 1 : 0
        return [
            .int(Int64(id)), .string("person-\(id + shift)"), .int(Int64((id + shift) % 100)),
            .double(Double(id + shift) * 0.5),
        ]
    }

    /// Writes both tables in shuffled key order (clusters then fill leaves unevenly, as the benchmark's bulk
    /// load does) and closes the database; returns the file's path.
    func buildFile() throws -> String {
        var ids = Array(0..<Self.objects)
        var rng = CoreRandom(seed: 11)
        for i in stride(from: ids.count - 1, to: 0, by: -1) { ids.swapAt(i, Int(rng.next() % UInt64(i + 1))) }
        try write([Self.people, Self.others]) { txn in
            try txn.storeTable(Self.people)
            try txn.storeTable(Self.others)
            for id in ids {
                try txn.insert(into: Self.people, values: Self.values(id, Self.people))
                try txn.insert(into: Self.others, values: Self.values(id, Self.others))
            }
        }
        db.close()
        db = nil
        return directory + "/db"
    }

    /// The leaves of tree `name`, in key order, read from the file's bytes.
    func leaves(_ bytes: [UInt8], pageSize: Int, tree name: String) -> [UInt32] {
        func u16(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 }
        func u32(_ at: Int) -> UInt32 { UInt32(u16(at)) | UInt32(u16(at + 2)) << 16 }
        func u64(_ at: Int) -> UInt64 { UInt64(u32(at)) | UInt64(u32(at + 4)) << 32 }
        func walk(_ n: UInt32, _ out: inout [UInt32]) {
            let at = Int(n) * pageSize
            let count = u16(at + PageHeader.cellCount)
            if bytes[at + PageHeader.type] == PageType.leaf.rawValue { out.append(n); return }
            for i in 0..<count { walk(u32(at + u16(at + PageHeader.size + 2 * i)), &out) }
        }
        let slot = u64(MetaLayout.version) >= u64(pageSize + MetaLayout.version) ? 0 : 1
        var catalog: [UInt32] = []
        walk(u32(slot * pageSize + MetaLayout.catalogRoot), &catalog)
        for leaf in catalog {
            let at = Int(leaf) * pageSize
            for i in 0..<u16(at + PageHeader.cellCount) {
                let off = at + u16(at + PageHeader.size + 2 * i)
                let klen = u16(off)
                if Array(bytes[(off + 6)..<(off + 6 + klen)]) == Array(name.utf8) {
                    var out: [UInt32] = []
                    walk(u32(off + 6 + klen), &out)
                    return out
                }
            }
        }
        return []
    }

    /// Every object-store read of `People` over the damaged file at `path`: each returns the
    /// true objects or throws. Returns the errors seen (for checks that the damage was found).
    @discardableResult
    func readEverything(_ path: String, file: StaticString = #filePath, line: UInt = #line) throws -> [String] {
        var errors: [String] = []
        var o = Database.Options()
        o.mapReserve = 64 << 20
        let damaged: Database
        do { damaged = try Database(path: path, options: o) } catch { return ["open: \(error)"] }
        defer { damaged.close() }
        let r = try damaged.beginRead()
        defer { r.end() }
        let txn = StoreTransaction(read: r)
        txn.tables = ["People": Self.people, "Others": Self.others]
        func attempt(_ what: String, _ body: () throws -> String?) {
            do {
                if let wrong = try body() { XCTFail("\(what): \(wrong)", file: file, line: line) }
            } catch {
                errors.append("\(what): \(error)")
            }
        }
        for id in 0..<Self.objects {
            attempt("row \(id)") {
                guard let row = try txn.row(Self.people, key: Int64(id)) else { return "missing" }
                return row.values() == Self.values(id, Self.people) ? nil : "wrong values \(row.values())"
            }
        }
        attempt("row of an absent key") {
            try txn.row(Self.people, key: Int64(Self.objects + 5)) == nil ? nil : "found"
        }
        attempt("count") {
            let n = try txn.count(Self.people)
            return n == Self.objects ? nil : "count \(n)"
        }
        attempt("forEachRow") {
            var next = 0
            var problem: String?
            try txn.forEachRow(Self.people) { row in
                if row.key != Int64(next) || row.values() != Self.values(next, Self.people) {
                    problem = "object \(row.key) at \(next)"; return false
                }
                next += 1
                return true
            }
            return problem ?? (next == Self.objects ? nil : "ended after \(next) objects")
        }
        attempt("query count and sum") {
            let q = try StoreQuery("age > $0", arguments: [.int(50)])
            let want = (0..<Self.objects).filter { $0 % 100 > 50 }
            let count = try q.fastCount(in: txn, table: Self.people)
            let sum = try q.fastSum(in: txn, table: Self.people, column: 3)
            if count != want.count { return "count \(String(describing: count))" }
            if sum?.doubles != want.reduce(0.0, { $0 + Double($1) * 0.5 }) { return "sum \(String(describing: sum))" }
            return nil
        }
        return errors
    }

    func testForgedLeafSwapNeverGivesWrongObjects() throws {
        let path = try buildFile()
        var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        let pageSize = 4096
        let pristine = bytes
        let leaves = leaves(bytes, pageSize: pageSize, tree: "c:People")
        XCTAssertGreaterThan(leaves.count, 10)
        // Swap two leaves whole, fix their page numbers and checksums: only the keys show it.
        let (a, b) = (leaves[2], leaves[leaves.count / 2])
        for k in 0..<pageSize { bytes.swapAt(Int(a) * pageSize + k, Int(b) * pageSize + k) }
        for n in [a, b] {
            let at = Int(n) * pageSize
            withUnsafeBytes(of: n.littleEndian) { for k in 0..<4 { bytes[at + PageHeader.pageNumber + k] = $0[k] } }
            let sum = bytes.withUnsafeBytes { Checksum.ofPage($0.baseAddress! + at, length: pageSize) }
            withUnsafeBytes(of: sum.littleEndian) { for k in 0..<8 { bytes[at + k] = $0[k] } }
        }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let errors = try readEverything(path)
        XCTAssertTrue(errors.contains { $0.hasPrefix("row ") && $0.contains("at page \(a):") }, "\(errors.prefix(3))")
        XCTAssertTrue(errors.contains { $0.hasPrefix("count") }, "\(errors.suffix(3))")
        XCTAssertTrue(errors.contains { $0.hasPrefix("forEachRow") })
        XCTAssertTrue(errors.contains { $0.hasPrefix("query") })

        // The same pages swapped whole (page numbers as written): the page-number check.
        bytes = pristine
        for k in 0..<pageSize { bytes.swapAt(Int(a) * pageSize + k, Int(b) * pageSize + k) }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let swapped = try readEverything(path)
        XCTAssertTrue(
            swapped.contains { $0.hasPrefix("row ") && $0.contains("header names page \(b)") }, "\(swapped.prefix(3))")
    }

    func testFlippedValueByteIsFoundByRowReads() throws {
        let path = try buildFile()
        var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        let leaf = leaves(bytes, pageSize: 4096, tree: "c:People")[4]
        // A byte near the end of the leaf's first cell (inside a cluster's string bytes).
        let at = Int(leaf) * 4096
        let slot0 = Int(bytes[at + PageHeader.size]) | Int(bytes[at + PageHeader.size + 1]) << 8
        let klen = Int(bytes[at + slot0]) | Int(bytes[at + slot0 + 1]) << 8
        let vlen = Int(bytes[at + slot0 + 2]) | Int(bytes[at + slot0 + 3]) << 8
        bytes[at + slot0 + 6 + klen + vlen - 2] ^= 0x01
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        // Every object read by key comes back true or the read throws (its leaf's checksum).
        var o = Database.Options()
        o.mapReserve = 64 << 20
        let damaged = try Database(path: path, options: o)
        defer { damaged.close() }
        let r = try damaged.beginRead()
        defer { r.end() }
        let txn = StoreTransaction(read: r)
        var thrown = 0
        for id in 0..<Self.objects {
            do {
                let row = try txn.row(Self.people, key: Int64(id))
                XCTAssertEqual(row?.values(), Self.values(id, Self.people), "object \(id)")
            } catch {
                thrown += 1
                XCTAssertTrue("\(error)".contains("checksum mismatch"), "\(error)")
            }
        }
        XCTAssertGreaterThan(thrown, 0, "the objects of the damaged leaf are refused")
    }

    func testTruncatedLeafNeverGivesAWrongCountOrScan() throws {
        let path = try buildFile()
        var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        let leaves = leaves(bytes, pageSize: 4096, tree: "c:People")
        let leaf = leaves[leaves.count / 3]
        let at = Int(leaf) * 4096 + PageHeader.cellCount
        bytes[at] -= 1  // one cluster fewer
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let errors = try readEverything(path)
        XCTAssertTrue(
            errors.contains { $0.hasPrefix("count") && $0.contains("at page \(leaf):") }, "\(errors.suffix(3))")
        XCTAssertTrue(errors.contains { $0.hasPrefix("forEachRow") })
        XCTAssertTrue(errors.contains { $0.hasPrefix("query") })
    }
}
