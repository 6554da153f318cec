import Foundation
import XCTest
@testable import StrataStorage
import StrataPOSIX

final class DatabaseBasicsTests: StorageTestCase {
    func testPutGetAcrossReopen() throws {
        do {
            let db = try open()
            try db.write { txn in
                let t = try txn.openTree("people", create: true)
                try txn.put(bytes("k1"), bytes("Ada"), in: t)
                try txn.put(bytes("k2"), bytes("Grace"), in: t)
                XCTAssertEqual(try txn.get(bytes("k1"), in: t), bytes("Ada"))
            }
            db.close()
        }
        let db = try open()
        try db.read { txn in
            let t = try XCTUnwrap(try txn.tree(named: "people"))
            XCTAssertEqual(t.count, 2)
            XCTAssertEqual(try txn.get(bytes("k1"), in: t), bytes("Ada"))
            XCTAssertEqual(try txn.get(bytes("k2"), in: t), bytes("Grace"))
            XCTAssertNil(try txn.get(bytes("k3"), in: t))
            XCTAssertEqual(try txn.treeNames(), ["people"])
        }
        let report = try db.verify()
        XCTAssertEqual(report.leakedPages, [])
        XCTAssertEqual(report.trees, ["people": 2])
    }

    /// A commit's first 64 new pages live in private memory until the commit writes them; a
    /// transaction that allocates more moves them into the map at its next change and goes on
    /// there. Small and large transactions, durable and deferred, read their own writes and
    /// commit whole.
    func testPrivatePagesSmallAndLargeTransactionsReadTheirWritesAndCommitWhole() throws {
        let db = try open()
        var model: [[UInt8]: [UInt8]] = [:]
        for (round, count) in [(0, 3), (1, 4000), (2, 5), (3, 8000)] {
            let durability: Durability = round % 2 == 0 ? .deferred : .full
            let txn = try db.beginWrite()
            let t = try txn.openTree("t", create: true)
            for i in 0..<count {
                let k = bytes("k\(round)-\(i)"), v = bytes("v\(round)-\(i)-" + String(repeating: "x", count: i % 50))
                try txn.put(k, v, in: t)
                model[k] = v
                if i % 97 == 0 {
                    // Read back something written earlier in this transaction and something older.
                    let j = i / 2
                    let kj = bytes("k\(round)-\(j)")
                    XCTAssertEqual(try txn.get(kj, in: t), model[kj])
                    if let (ok, ov) = model.first { XCTAssertEqual(try txn.get(ok, in: t), ov) }
                }
            }
            if count > 1000 {
                XCTAssertEqual(txn.shadow.pointee.generation, 0, "a large transaction continues in the map")
            }
            try txn.commit(durability: durability)
            let report = try db.verify()
            XCTAssertEqual(report.leakedPages, [])
            XCTAssertEqual(report.trees["t"].map { Int($0) }, model.count)
        }
        try db.sync()
        db.close()
        let reopened = try open()
        defer { reopened.close() }
        try reopened.read { r in
            let t = try XCTUnwrap(try r.tree(named: "t"))
            let entries = try r.allEntries(t)
            XCTAssertEqual(entries.count, model.count)
            for (k, v) in entries { XCTAssertEqual(model[k], v) }
        }
    }

    /// Random-order inserts place each new cell below the others; a commit rewrites such leaves
    /// with their cells in key order (so scans read them front to back), and the data survives.
    func testCommittedLeavesHoldTheirCellsInKeyOrder() throws {
        let db = try open()
        defer { db.close() }
        var rng = SeededRandom(seed: 11)
        let keys = (0..<5_000).shuffled(using: &rng)
        try db.write { txn in
            let t = try txn.openTree("t", create: true)
            for k in keys { try txn.put(bytes(String(format: "k%06d", k)), bytes("value \(k)"), in: t) }
        }
        try db.write { txn in
            let t = try txn.openTree("t")
            for k in keys.prefix(300) { try txn.put(bytes(String(format: "k%06d", k + 10_000)), bytes("more"), in: t) }
        }
        let st = db.lockFile.readState()
        var leaves = 0
        for n in 2..<Int(st.pageCount) {
            let p = db.mapping.base + n * db.pageSize
            guard p.u8(PageHeader.type) == PageType.leaf.rawValue else { continue }
            leaves += 1
            XCTAssertTrue(Node.cellsInKeyOrder(p), "leaf \(n) was committed out of key order")
        }
        XCTAssertGreaterThan(leaves, 20)
        try db.read { txn in
            let t = try XCTUnwrap(try txn.tree(named: "t"))
            XCTAssertEqual(try txn.get(bytes("k004321"), in: t), bytes("value 4321"))
            XCTAssertEqual(t.count, 5_300)
        }
        XCTAssertEqual(try db.verify().leakedPages, [])
    }

    func testAbortLeavesNoTrace() throws {
        let db = try open()
        try db.write { txn in
            let t = try txn.openTree("t", create: true)
            try txn.put(bytes("a"), bytes("1"), in: t)
        }
        let before = db.latestVersion
        let txn = try db.beginWrite()
        let t = try txn.openTree("t")
        for i in 0..<2000 { try txn.put(key(i), Array(repeating: 7, count: 100), in: t) }
        try txn.delete(bytes("a"), in: t)
        txn.abort()
        XCTAssertEqual(db.latestVersion, before)
        try db.read { r in
            let t = try XCTUnwrap(try r.tree(named: "t"))
            XCTAssertEqual(try r.allEntries(t).map { $0.0 }, [bytes("a")])
        }
        XCTAssertEqual(try db.verify().leakedPages, [])
    }

    func testThrowingWriteBlockAborts() throws {
        struct Boom: Error {}
        let db = try open()
        XCTAssertThrowsError(
            try db.write { txn in
                let t = try txn.openTree("t", create: true)
                try txn.put(bytes("a"), bytes("1"), in: t)
                throw Boom()
            })
        try db.read { r in XCTAssertNil(try r.tree(named: "t")) }
        // The writer lock was released: another write succeeds.
        try db.write { txn in _ = try txn.openTree("t", create: true) }
    }

    func testLargeValuesUseOverflowRunsAndAreFreed() throws {
        let db = try open()
        let big = (0..<50_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        try db.write { txn in
            let t = try txn.openTree("blobs", create: true)
            try txn.put(bytes("big"), big, in: t)
            try txn.put(bytes("small"), bytes("x"), in: t)
        }
        try db.read { r in
            let t = try XCTUnwrap(try r.tree(named: "blobs"))
            XCTAssertEqual(try r.get(bytes("big"), in: t), big)
        }
        let withBlob = try db.verify()
        XCTAssertGreaterThanOrEqual(withBlob.treePages, 13)
        try db.write { txn in try txn.delete(bytes("big"), in: try txn.openTree("blobs")) }
        let after = try db.verify()
        XCTAssertEqual(after.leakedPages, [])
        XCTAssertEqual(after.trees["blobs"], 1)
        XCTAssertGreaterThanOrEqual(after.freePages, 13)
    }

    func testDropTreeFreesPages() throws {
        let db = try open()
        try db.write { txn in
            let t = try txn.openTree("a", create: true)
            for i in 0..<5000 { try txn.put(key(i), key(i * 2), in: t) }
            _ = try txn.openTree("b", create: true)
        }
        try db.write { txn in try txn.dropTree("a") }
        let r = try db.verify()
        XCTAssertEqual(r.trees, ["b": 0])
        XCTAssertEqual(r.leakedPages, [])
        try db.read { XCTAssertEqual(try $0.treeNames(), ["b"]) }
    }

    func testKeyTooLargeIsATypedError() throws {
        let db = try open()
        XCTAssertThrowsError(
            try db.write { txn in
                try txn.put(Array(repeating: 1, count: 5000), bytes("v"), in: try txn.openTree("t", create: true))
            }
        ) { error in
            guard case StorageError.keyTooLarge(let size, _) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(size, 5000)
        }
    }

    func testCursorSeekAndIterate() throws {
        let db = try open()
        try db.write { txn in
            let t = try txn.openTree("t", create: true)
            for i in stride(from: 0, to: 3000, by: 2) { try txn.put(key(i), key(i), in: t) }
        }
        try db.read { r in
            let t = try XCTUnwrap(try r.tree(named: "t"))
            var c = r.cursor(over: t)
            try c.seek(to: key(1001))
            var seen: [[UInt8]] = []
            while let (k, _) = try c.next(), seen.count < 3 { seen.append(Array(k)) }
            XCTAssertEqual(seen, [key(1002), key(1004), key(1006)])
            var all = 0
            var c2 = r.cursor(over: t)
            while try c2.next() != nil { all += 1 }
            XCTAssertEqual(all, 1500)
        }
    }

    func testWriteInReadOnlyDatabaseIsRefused() throws {
        try open().close()
        let ro = try open(readOnly: true)
        XCTAssertThrowsError(try ro.beginWrite()) { error in
            guard case StorageError.readOnly = error else { return XCTFail("\(error)") }
        }
    }
}

final class DatabaseLifecycleTests: StorageTestCase {
    func testTransactionsOnAClosedHandleAreRefused() throws {
        let db = try open()
        db.close()
        XCTAssertThrowsError(try db.beginRead()) {
            XCTAssertEqual($0 as? StorageError, .databaseClosed(path: self.path()))
        }
        XCTAssertThrowsError(try db.beginWrite()) {
            XCTAssertEqual($0 as? StorageError, .databaseClosed(path: self.path()))
        }
    }

    func testSnapshotOutlivesClose() throws {
        let db = try open()
        try db.write { txn in try txn.put(bytes("a"), bytes("1"), in: try txn.openTree("t", create: true)) }
        let snap = try db.beginRead()
        db.close()
        XCTAssertEqual(try snap.get(bytes("a"), in: try snap.tree(named: "t")!), bytes("1"))
        snap.end()
    }

    func testTwoHandlesInOneProcessShareTheFile() throws {
        let a = try open()
        let b = try open()
        try a.write { txn in try txn.put(bytes("k"), bytes("from a"), in: try txn.openTree("t", create: true)) }
        try b.read { r in XCTAssertEqual(try r.get(bytes("k"), in: try r.tree(named: "t")!), bytes("from a")) }
        try b.write { txn in try txn.put(bytes("k"), bytes("from b"), in: try txn.openTree("t")) }
        try a.read { r in XCTAssertEqual(try r.get(bytes("k"), in: try r.tree(named: "t")!), bytes("from b")) }
        // A snapshot held through handle b pins its pages against writes through handle a.
        let old = try b.beginRead()
        for i in 0..<50 {
            try a.write { txn in
                try txn.put(bytes("k"), Array(repeating: UInt8(i), count: 300), in: try txn.openTree("t"))
            }
        }
        XCTAssertEqual(try old.get(bytes("k"), in: try old.tree(named: "t")!), bytes("from b"))
        old.end()
        XCTAssertEqual(try a.verify().leakedPages, [])
    }

    func testInsertStoresOnlyAbsentKeys() throws {
        let db = try open()
        func insert(_ txn: WriteTransaction, _ k: String, _ v: String) throws -> Bool {
            try bytes(k).withUnsafeBytes { kb in
                try bytes(v).withUnsafeBytes { try txn.insert(kb, $0, in: try txn.openTree("t", create: true)) }
            }
        }
        try db.write { txn in
            XCTAssertTrue(try insert(txn, "k", "first"))
            XCTAssertFalse(try insert(txn, "k", "second"), "present in this transaction")
        }
        try db.write { txn in
            XCTAssertFalse(try insert(txn, "k", "third"), "present in the committed version")
            XCTAssertEqual(try txn.get(bytes("k"), in: try txn.openTree("t")), bytes("first"))
        }
        try db.read { r in
            let t = try r.tree(named: "t")!
            XCTAssertEqual(t.count, 1)
            XCTAssertEqual(try r.get(bytes("k"), in: t), bytes("first"))
        }
        XCTAssertEqual(try db.verify().leakedPages, [])
    }

    func testInsertOfAPresentKeyInAFreshTransactionKeepsTheTreeIntact() throws {
        let db = try open()
        try db.write { txn in
            let t = try txn.openTree("t", create: true)
            for i in 0..<500 { try txn.put(bytes("key-\(i)"), bytes("v\(i)"), in: t) }
        }
        // A refused insert still copies the path's pages; the tree must stay whole after commit.
        try db.write { txn in
            let t = try txn.openTree("t")
            XCTAssertFalse(
                try bytes("key-250").withUnsafeBytes { k in
                    try bytes("x").withUnsafeBytes { try txn.insert(k, $0, in: t) }
                })
            XCTAssertTrue(
                try bytes("new").withUnsafeBytes { k in try bytes("y").withUnsafeBytes { try txn.insert(k, $0, in: t) }
                })
        }
        try db.read { r in
            let t = try r.tree(named: "t")!
            XCTAssertEqual(t.count, 501)
            XCTAssertEqual(try r.get(bytes("key-250"), in: t), bytes("v250"))
            XCTAssertEqual(try r.get(bytes("new"), in: t), bytes("y"))
        }
        XCTAssertEqual(try db.verify().leakedPages, [])
    }

    func testCommitAndContinueKeepsTheLockAndPublishesEachCommit() throws {
        let a = try open()
        let b = try open()
        try a.write { txn in _ = try txn.openTree("t", create: true) }
        var txn = try a.beginWrite()
        for i in 0..<20 {
            try txn.put(bytes("k\(i)"), bytes("v\(i)"), in: try txn.openTree("t"))
            let (version, next) = try txn.commitAndContinue(durability: i % 5 == 4 ? .full : .deferred)
            txn = next
            // Published: a reader sees commit i at once; the writer lock never came free.
            XCTAssertEqual(b.latestVersion, version)
            try b.read { r in XCTAssertEqual(try r.get(bytes("k\(i)"), in: try r.tree(named: "t")!), bytes("v\(i)")) }
            XCTAssertNil(try b.tryBeginWrite())
            XCTAssertEqual(txn.version.rawValue, version.rawValue + 1)
        }
        txn.abort()
        XCTAssertNotNil(try b.tryBeginWrite().map { $0.abort() })
        try a.sync()
        XCTAssertEqual(a.durableVersion, a.latestVersion)
        try b.read { r in XCTAssertEqual(try r.tree(named: "t")!.count, 20) }
        XCTAssertEqual(try a.verify().leakedPages, [])
    }

    func testTryBeginWriteReturnsNilWhileAnotherWriterHoldsTheLock() throws {
        let a = try open()
        let b = try open()
        try a.write { txn in _ = try txn.openTree("t", create: true) }
        // Held by another thread of this handle: the in-process gate says no.
        let held = try a.beginWrite()
        XCTAssertNil(try a.tryBeginWrite())
        // Held through another handle (another open file description): the byte lock says no.
        held.abort()
        let other = try b.beginWrite()
        XCTAssertNil(try a.tryBeginWrite())
        other.abort()
        // Free: it begins a transaction that commits like any other.
        let txn = try XCTUnwrap(try a.tryBeginWrite())
        try txn.put(bytes("k"), bytes("v"), in: try txn.openTree("t"))
        try txn.commit()
        try b.read { r in XCTAssertEqual(try r.get(bytes("k"), in: try r.tree(named: "t")!), bytes("v")) }
        a.close()
        XCTAssertThrowsError(try a.tryBeginWrite()) {
            XCTAssertEqual($0 as? StorageError, .databaseClosed(path: self.path()))
        }
    }

    func testWritersOnManyThreadsAreSerialised() throws {
        let db = try open()
        try db.write { txn in _ = try txn.openTree("t", create: true) }
        let threads = 4, perThread = 50
        let errors = Locked<[String]>([])
        let group = DispatchGroup()
        for w in 0..<threads {
            group.enter()
            Thread.detachNewThread {
                defer { group.leave() }
                for i in 0..<perThread {
                    do {
                        try db.write(durability: .deferred) { txn in
                            let t = try txn.openTree("t")
                            // Read-modify-write of a shared counter: lost updates would show.
                            let c =
                                try txn.get(bytes("counter"), in: t).map { Int(String(decoding: $0, as: UTF8.self))! }
                                ?? 0
                            try txn.put(bytes("counter"), Array(String(c + 1).utf8), in: t)
                            try txn.put(Array("w\(w)-\(i)".utf8), bytes("x"), in: t)
                        }
                    } catch { errors.mutate { $0.append("\(error)") } }
                }
            }
        }
        group.wait()
        XCTAssertEqual(errors.value, [])
        try db.read { r in
            let t = try r.tree(named: "t")!
            XCTAssertEqual(try r.get(bytes("counter"), in: t), Array(String(threads * perThread).utf8))
            XCTAssertEqual(t.count, UInt64(threads * perThread + 1))
        }
    }
}
