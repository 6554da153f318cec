import Foundation
import XCTest
@testable import StrataStorage

#if canImport(Glibc)
    import Glibc
#endif

/// The memory a commit of an encrypted file uses to seal its pages: a small commit reuses memory
/// the process already has, as a plain file's commit does, rather than touching fresh pages.
final class EncryptedCommitMemoryTests: StorageTestCase {
    let secretKey = [UInt8]((0..<64).map { UInt8(truncatingIfNeeded: $0 &* 13 &+ 5) })

    /// Minor page faults of the calling thread so far (getrusage(2), `RUSAGE_THREAD`).
    func threadMinorFaults() -> Int {
        var usage = rusage()
        #if os(Linux)
            _ = getrusage(__rusage_who_t(1), &usage)  // RUSAGE_THREAD
        #else
            _ = getrusage(RUSAGE_SELF, &usage)
        #endif
        return usage.ru_minflt
    }

    /// Page faults of `commits` one-entry commits (after a few unmeasured ones), and checks that
    /// every entry reads back.
    func faultsOfSmallCommits(_ name: String, encryptionKey: [UInt8]?, commits: Int) throws -> Int {
        var o = Database.Options()
        o.encryptionKey = encryptionKey
        o.mapReserve = 64 << 20
        let db = try Database(path: path(name), options: o)
        defer { db.close() }
        func commit(_ i: Int) throws {
            try db.write(durability: .deferred) { txn in
                let t = try txn.openTree("t", create: true)
                try txn.put(key(i), Array("value \(i)".utf8), in: t)
            }
        }
        for i in 0..<20 { try commit(i) }
        let before = threadMinorFaults()
        for i in 20..<(20 + commits) { try commit(i) }
        let faults = threadMinorFaults() - before
        try db.read { r in
            let t = try XCTUnwrap(try r.tree(named: "t"))
            for i in 0..<(20 + commits) { XCTAssertEqual(try r.get(key(i), in: t), Array("value \(i)".utf8)) }
        }
        return faults
    }

    func testSmallCommitsOfAnEncryptedFileFaultAboutAsFewPagesAsAPlainFilesDo() throws {
        let commits = 200
        let plain = try faultsOfSmallCommits("plain.strata", encryptionKey: nil, commits: commits)
        let encrypted = try faultsOfSmallCommits("sealed.strata", encryptionKey: secretKey, commits: commits)
        // Each commit writes a few new pages (the mirror's or the file's first touch of them);
        // sealing them must not add fresh memory of its own on every commit.
        XCTAssertLessThanOrEqual(
            encrypted, plain + 2 * commits,
            "\(commits) encrypted commits faulted \(encrypted) pages, plain ones \(plain)")
    }
}
