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

/// `mutateInPlace` on an absent key marks its tree dirty, so commit steps 0 and 5 (which skip
/// trees whose `dirty` flag is false) visit it.
final class MutateInPlaceAbsentKeyTests: StorageTestCase {
    /// `mutateInPlace(checkPresence: false)` on an absent key copies the path (the documented
    /// cost) into the tree's state. Before the fix, `t.dirty = true` came after `guard found`,
    /// so `dirty` stayed false.
    /// The commit then did not record the new root in the catalog (`commitChanges`
    /// skips trees that are not dirty), while the copy freed the old root: the catalog refers to
    /// a free page (reused by a later commit) and the copies leak.
    func testMutateInPlaceWithoutPresenceCheckOnAnAbsentKeyKeepsTheTreeConsistent() throws {
        let db = try open()
        defer { db.close() }
        try db.write { txn in
            let t = try txn.openTree("t", create: true)
            for i in 0..<10 { try txn.put(key(i), [UInt8(i)], in: t) }
        }
        try db.write { txn in
            let t = try txn.openTree("t")
            let found =
                try key(99).withUnsafeBytes { try txn.mutateInPlace($0, in: t, checkPresence: false) { _ in } } != nil
            XCTAssertFalse(found)
        }
        XCTAssertNoThrow(
            try {
                let report = try db.verify()
                XCTAssertEqual(report.leakedPages, [])
                XCTAssertEqual(report.trees["t"], 10)
            }())
    }
}
