import Foundation
import XCTest
@testable import StrataStorage
import StrataPOSIX

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Shared by the fault-injection tests: rounds of 150 entries in tree `t` whose values say which
/// round wrote them, checks that a file holds exactly one round (and verifies), and checks on the
/// errors a failed call produces.
class FaultTestCase: StorageTestCase {
    static let errorKinds: [(String, FaultKind, Int32)] = [
        ("EIO", .error(EIO), EIO), ("ENOSPC", .error(ENOSPC), ENOSPC),
    ]
    /// A short write ends with ENOSPC (the device took part of the data, then was full).
    static let writeKinds: [(String, FaultKind, Int32)] = errorKinds + [("short write", .shortWrite(100), ENOSPC)]

    // MARK: Helpers

    /// Replaces the contents of tree `t` with 150 entries tagged `round`.
    func writeRound(_ db: Database, _ round: Int, durability: Durability = .full, valueSize: Int = 120) throws {
        try db.write(durability: durability) { txn in
            let t = try txn.openTree("t", create: true)
            for i in 0..<150 { try txn.put(key(i), roundValue(round, i, valueSize), in: t) }
        }
    }

    func roundValue(_ round: Int, _ i: Int, _ size: Int = 120) -> [UInt8] {
        Array("r\(round)-\(i)-".utf8) + [UInt8](repeating: UInt8(truncatingIfNeeded: round), count: size)
    }

    /// Which round the data shows, after checking that every entry belongs to it.
    func round(of db: Database, file: StaticString = #filePath, line: UInt = #line) throws -> Int? {
        try db.read { r -> Int? in
            guard let t = try r.tree(named: "t") else { return nil }
            let entries = try r.allEntries(t)
            XCTAssertEqual(entries.count, 150, file: file, line: line)
            guard let first = entries.first,
                let tag = String(decoding: first.1, as: UTF8.self).split(separator: "-").first,
                let round = Int(tag.dropFirst())
            else { return nil }
            for (i, (k, v)) in entries.enumerated() {
                XCTAssertEqual(k, key(i), file: file, line: line)
                XCTAssertTrue(
                    v.starts(with: Array("r\(round)-\(i)-".utf8)), "entry \(i) is not from round \(round)", file: file,
                    line: line)
            }
            return round
        }
    }

    func assertIntact(_ db: Database, round expected: Int, file: StaticString = #filePath, line: UInt = #line) throws {
        XCTAssertEqual(
            try round(of: db, file: file, line: line), expected, "the data is not that of the last committed round",
            file: file, line: line)
        let report = try db.verify()
        XCTAssertEqual(report.leakedPages, [], file: file, line: line)
        XCTAssertEqual(report.trees["t"], 150, file: file, line: line)
    }

    /// The error is `StorageError.system` for `call` on `path` with `errno`, and says so.
    func assertSystemError(
        _ error: Error, call: String, path: String, errno expected: Int32, file: StaticString = #filePath,
        line: UInt = #line
    ) {
        guard case StorageError.system(let e) = error else {
            return XCTFail("expected StorageError.system from \(call), got \(error)", file: file, line: line)
        }
        XCTAssertEqual(e.call, call, file: file, line: line)
        XCTAssertEqual(e.path, path, file: file, line: line)
        XCTAssertEqual(e.errno, expected, file: file, line: line)
        let text = String(describing: error)
        XCTAssertTrue(text.contains(call), "'\(text)' does not name \(call)", file: file, line: line)
        XCTAssertTrue(text.contains(path), "'\(text)' does not name \(path)", file: file, line: line)
    }

    func assertNeedsReopen(_ db: Database, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try db.beginWrite(), file: file, line: line) { error in
            guard case StorageError.needsReopen(let p, _) = error else {
                return XCTFail("expected needsReopen, got \(error)", file: file, line: line)
            }
            XCTAssertEqual(p, db.path, file: file, line: line)
            XCTAssertTrue(String(describing: error).contains("reopen"), file: file, line: line)
        }
        // verify() and sync() give the same answer instead of reporting corruption.
        XCTAssertThrowsError(try db.verify(), file: file, line: line) { error in
            guard case StorageError.needsReopen = error else {
                return XCTFail("verify: expected needsReopen, got \(error)", file: file, line: line)
            }
        }
        XCTAssertThrowsError(try db.sync(), file: file, line: line) { error in
            guard case StorageError.needsReopen = error else {
                return XCTFail("sync: expected needsReopen, got \(error)", file: file, line: line)
            }
        }
    }

    /// Makes a file with round 1 committed and closed.
    func makeFile(_ name: String) throws {
        let db = try open(name)
        try writeRound(db, 1)
        db.close()
    }

    /// The descriptors this process has open (`/proc/self/fd`), to catch a failure path that leaks one.
    func openDescriptorCount() -> Int {
        ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []).count
    }

    /// Whether a `StorageError.needsReopen` came back.
    func isNeedsReopen(_ error: Error) -> Bool {
        if case StorageError.needsReopen = error { return true }
        return false
    }
}
