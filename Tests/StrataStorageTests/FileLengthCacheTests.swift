import Foundation
import XCTest
@testable import StrataStorage
import StrataPOSIX
#if canImport(Glibc)
    import Glibc
#endif

/// A handle's cached file length (`WriterState.fileBytes`) is trusted while the published version
/// is the one the handle committed. Every change of the file's length must therefore come with a
/// new version. compact() used to shorten the file after its last commit, having released and
/// re-taken the writer lock in between: a handle that committed in that gap kept a matching
/// version and a length larger than the file, skipped `posix_fallocate`, and its stores through
/// the map past the end of the file raised SIGBUS (found in review; reproduced at about the 24th
/// attempt below).
final class FileLengthCacheTests: StorageTestCase {
    func fileSize(_ name: String) -> Int64 {
        var st = stat()
        XCTAssertEqual(stat(path(name), &st), 0)
        return Int64(st.st_size)
    }

    func testCompactRacingWithAnotherHandlesCommitsNeverLeavesALengthPastTheFile() throws {
        let name = "race.strata"
        let a = try open(name)
        let b = try open(name)
        defer { a.close(); b.close() }
        try a.write { txn in
            let t = try txn.openTree("t", create: true)
            for i in 0..<300 { try txn.put(key(i), [UInt8](repeating: 1, count: 3_000), in: t) }
        }
        var compacted = 0
        for attempt in 0..<30 {
            // Grow the file again so that compact has something to cut.
            try a.write { txn in
                let t = try txn.openTree("t")
                for i in 0..<300 {
                    try txn.put(key(i), [UInt8](repeating: UInt8(truncatingIfNeeded: attempt), count: 3_000), in: t)
                }
            }
            let done = Flag()
            let thread = Thread {
                if (try? b.compact()) != nil { done.set(compactedOK: true) } else { done.set(compactedOK: false) }
            }
            thread.start()
            var n = 0
            while !done.isSet {
                try a.write { txn in
                    try txn.put(key(n % 300), [UInt8(truncatingIfNeeded: n)], in: try txn.openTree("t"))
                }
                n += 1
            }
            if done.compactedOK { compacted += 1 }
            let st = a.lockFile.readState()
            if let cache = a.writerCache, cache.version == st.version {
                XCTAssertLessThanOrEqual(
                    cache.fileBytes, fileSize(name), "attempt \(attempt): a's cached length is past the end of the file"
                )
            }
            // A value that needs an overflow run at the end of the file, written through the map.
            try a.write { txn in
                try txn.put(key(1_000_000), [UInt8](repeating: 7, count: 64 << 10), in: try txn.openTree("t"))
            }
        }
        XCTAssertEqual(compacted, 30)
        let report = try a.verify()
        XCTAssertEqual(report.leakedPages, [])
    }
}

private final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    private var ok = false
    func set(compactedOK: Bool) { lock.lock(); value = true; ok = compactedOK; lock.unlock() }
    var isSet: Bool { lock.lock(); defer { lock.unlock() }; return value }
    var compactedOK: Bool { lock.lock(); defer { lock.unlock() }; return ok }
}
