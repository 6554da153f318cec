import Foundation
import XCTest
@_spi(StrataEngine) @testable import StrataStorage
import StrataPOSIX

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// `LeafView.inlineEntry`, the fast path of leaf scans, never reads outside the page of a damaged leaf.
final class LeafInlineEntryTests: CommitReorderTestCase {
    /// A leaf whose slot points past the page (0xFFFF, far beyond a 4 KiB page). `entry(_:)`
    /// checks the offset before reading and throws `corruptPage`; `inlineEntry(_:)` must return
    /// nil for it without reading the cell ("a damaged page is never trusted"). It once
    /// loaded the cell's key length and value word at the slot's offset before its
    /// bounds check (fixed: the offset is checked first). Here
    /// the leaf is near the end of a file that ends at its page count, so the loads land past the
    /// end of the file, inside the map: SIGBUS. The scan runs in a child process (this test binary,
    /// filtered to `testChildScansCorruptLeafInline`), which must exit normally.
    func testInlineEntryOfACellOffsetPastThePageReturnsNilWithoutReadingIt() throws {
        let name = "inline.strata"
        let db = try open(name)
        try db.write { txn in
            let t = try txn.openTree("t", create: true)
            for i in 0..<20 { try txn.put(key(i), Array(repeating: 7, count: 30), in: t) }
        }
        let leaf = try db.read { r in try XCTUnwrap(r.tree(named: "t")).root }
        let pageCount = try db.verify().pageCount
        db.close()
        let h = try FileHandle(forUpdating: URL(fileURLWithPath: path(name)))
        try h.seek(toOffset: UInt64(Int(leaf) * 4096 + PageHeader.size))
        h.write(Data([0xFF, 0xFF]))  // slot 0 -> offset 65535
        // The file ends at its page count (as after compact(), or any file whose length was not
        // rounded up): a read more than a few pages past the leaf is past the end of the file.
        try h.truncate(atOffset: UInt64(pageCount * 4096))
        try h.close()
        XCTAssertLessThan(
            Int(leaf) * 4096 + 65_535, pageCount * 4096 + 4096 * 16, "setup: the leaf is near the end of the file")

        // The checked paths report the damage: a scan refuses the leaf before handing it out
        // (its cells must fill the cell area), and `entry(_:)` checks the offset.
        let ro = try open(name, readOnly: true)
        try ro.read { r in
            XCTAssertThrowsError(
                try r.forEachLeaf(in: XCTUnwrap(r.tree(named: "t"))) { _ in
                    XCTFail("a damaged leaf reached the scan's body")
                    return true
                }
            ) { error in
                guard case StorageError.corruptPage(_, let page, _) = error else { return XCTFail("\(error)") }
                XCTAssertEqual(page, leaf)
            }
            let view = LeafView(page: try r.access.nodeHeader(leaf), access: r.access)
            XCTAssertThrowsError(try view.entry(0)) { error in
                guard case StorageError.corruptPage = error else { return XCTFail("\(error)") }
            }
        }
        ro.close()

        // The fast path, in a child process.
        let child = Process()
        child.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        child.arguments = ["StrataStorageTests.LeafInlineEntryTests/testChildScansCorruptLeafInline"]
        var env = ProcessInfo.processInfo.environment
        env["STRATA_REVIEW_CORRUPT_LEAF_FILE"] = path(name)
        child.environment = env
        let out = Pipe()
        child.standardOutput = out
        child.standardError = out
        try child.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        child.waitUntilExit()
        let signalled = child.terminationReason == .uncaughtSignal
        XCTAssertFalse(
            signalled,
            "inlineEntry read outside the page: the child died of signal \(child.terminationStatus) (SIGBUS = \(SIGBUS), SIGSEGV = \(SIGSEGV)); its output:\n\(text.prefix(4_000))"
        )
        if !signalled {
            XCTAssertEqual(child.terminationStatus, 0, text)
            XCTAssertTrue(text.contains("inlineEntry(0) = nil"), "child output: \(text)")
        }
    }

    /// Runs only as the child of the test above.
    func testChildScansCorruptLeafInline() throws {
        guard let file = ProcessInfo.processInfo.environment["STRATA_REVIEW_CORRUPT_LEAF_FILE"] else {
            throw XCTSkip(
                "runs as the child process of testInlineEntryOfACellOffsetPastThePageReturnsNilWithoutReadingIt")
        }
        var o = Database.Options()
        o.readOnly = true
        o.mapReserve = 64 << 20
        let db = try Database(path: file, options: o)
        defer { db.close() }
        try db.read { r in
            // Scans no longer hand out such a leaf (`forEachLeaf` checks its cells first): the
            // fast path is reached here on the leaf itself, as a scan would have reached it.
            let leaf = try r.access.nodeHeader(XCTUnwrap(r.tree(named: "t")).root)
            let e = LeafView(page: leaf, access: r.access).inlineEntry(0)
            print("inlineEntry(0) = \(e == nil ? "nil" : "an entry")")
        }
    }
}
