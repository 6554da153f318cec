import Foundation
import XCTest

@testable import StrataStorage

/// Pages written to a file hold nothing but what the file stores: the process's other memory
/// (freed buffers of another database, or any heap data) never reaches the disk through the
/// unused part of a page.
final class UninitializedMemoryTests: StorageTestCase {
    func testNewPagesCarryNoBytesOfOtherMemoryToTheFile() throws {
        let marker = Array("SECRET-OF-ANOTHER-FILE-".utf8)
        // Leave freed heap memory full of the marker, in blocks the size of the private page
        // buffers a database allocates (64 pages): the allocator hands such blocks out again.
        // A large block first, so that blocks of this size come from the heap, not fresh maps.
        for size in [8 << 20, 64 * 4096, 64 * 4096 + 4096] {
            let block = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 4096)
            for offset in stride(from: 0, to: size - marker.count, by: marker.count) {
                marker.withUnsafeBytes { (block + offset).copyMemory(from: $0.baseAddress!, byteCount: marker.count) }
            }
            block.deallocate()
        }
        let name = "clean.strata"
        let db = try open(name)
        try db.write { txn in
            let t = try txn.openTree("t", create: true)
            for i in 0..<10 { try txn.put(key(i), [UInt8](repeating: 1, count: 10), in: t) }
        }
        db.close()
        let bytes = try Array(Data(contentsOf: URL(fileURLWithPath: path(name))))
        let found = bytes.indices.contains { i in
            i + marker.count <= bytes.count && bytes[i] == marker[0] && Array(bytes[i..<(i + marker.count)]) == marker
        }
        XCTAssertFalse(found, "bytes of freed process memory were written into the file")
    }
}
