import Foundation
import XCTest
@_spi(StrataEngine) @testable import StrataStorage

/// Reads of damaged files either return the true data or throw `StorageError.corruptPage`;
/// never a wrong value, a missing or extra entry, entries out of order, or a crash. The damage is
/// what a reliability campaign did to copies of real files: pages swapped whole, pages swapped
/// with their page numbers and checksums forged, cell counts cut short, zeroed overflow pages,
/// header fields changed (FORMAT.md, "What reads check").
final class DamagedPageReadTests: StorageTestCase {
    /// The pristine file's entries per tree, in key order.
    var model: [String: [([UInt8], [UInt8])]] = [:]
    /// The keys of each leaf of the pristine file.
    var keysOfLeaf: [UInt32: (tree: String, keys: [[UInt8]])] = [:]

    static func value(_ i: Int, tree: String) -> [UInt8] {
        // Every 97th value is too large for a leaf and lives in an overflow run.
        let count = i % 97 == 5 ? 5000 + i % 300 : 40 + i % 23
        let seed = UInt8(truncatingIfNeeded: i &* 31 &+ (tree == "u" ? 7 : 0))
        return (0..<count).map { UInt8(truncatingIfNeeded: Int(seed) &+ $0) }
    }

    /// A key of tree "s": 200 bytes that differ only at the end, so that its separators are long
    /// and the tree has three levels.
    static func longKey(_ i: Int) -> [UInt8] {
        Array(repeating: UInt8(ascii: "s"), count: 192) + Array(String(format: "%08d", i).utf8)
    }

    /// Writes the pristine file "pristine.strata": trees "t" and "u" with the same 8-byte keys
    /// (even numbers: odd ones are absent) and different values (so that a page of one read as
    /// the other's would give plausible values), and tree "s" with long keys.
    func buildPristine() throws -> DamagedFile {
        let db = try open("pristine.strata")
        var t: [([UInt8], [UInt8])] = [], u: [([UInt8], [UInt8])] = [], s: [([UInt8], [UInt8])] = []
        try db.write { txn in
            let tt = try txn.openTree("t", create: true), tu = try txn.openTree("u", create: true)
            let ts = try txn.openTree("s", create: true)
            for i in 0..<4000 {
                try txn.put(key(2 * i), Self.value(i, tree: "t"), in: tt)
                try txn.put(key(2 * i), Self.value(i, tree: "u"), in: tu)
                t.append((key(2 * i), Self.value(i, tree: "t")))
                u.append((key(2 * i), Self.value(i, tree: "u")))
            }
            for i in 0..<3000 {
                let v = Array(Self.value(i, tree: "s").prefix(20))
                try txn.put(Self.longKey(i), v, in: ts)
                s.append((Self.longKey(i), v))
            }
        }
        db.close()
        model = ["t": t, "u": u, "s": s]
        let file = try DamagedFile(path: path("pristine.strata"))
        XCTAssertEqual(file.walk(file.treeRoot("s")!).branches.isEmpty, false)
        keysOfLeaf = pages(file).keysOf
        return file
    }

    /// Opens `file` as "damaged.strata" and runs every read API over it (read and write
    /// transactions); returns the probe. Opening may itself find the damage. Lookups (`get`,
    /// `floor`) take `lookupKeys`, by default every key of the `damaged` leaves and every eighth
    /// key of each tree (every key would take a debug build minutes over the sweep).
    func probe(_ file: DamagedFile, damaged: [UInt32] = [], lookupKeys: [String: [[UInt8]]]? = nil) throws -> ReadProbe
    {
        try file.write(to: path("damaged.strata"))
        let probe = ReadProbe(model: model)
        if let lookupKeys {
            probe.lookupKeys = lookupKeys
        } else {
            for (tree, entries) in model {
                probe.lookupKeys[tree] = stride(from: 0, to: entries.count, by: 8).map { entries[$0].0 }
                // And every key whose value lives in an overflow run.
                if tree != "s" { probe.lookupKeys[tree]! += (0..<4000).filter { $0 % 97 == 5 }.map { key(2 * $0) } }
            }
            for n in damaged { if let (tree, keys) = keysOfLeaf[n] { probe.lookupKeys[tree, default: []] += keys } }
        }
        let db: Database
        do {
            db = try open("damaged.strata")
        } catch let e as StorageError {
            guard case .corruptPage = e else { XCTFail("open threw \(e)"); return probe }
            return probe
        }
        defer { db.close() }
        probe.run(db)
        probe.runWrite(db)
        return probe
    }

    func assertNoWrongData(_ probe: ReadProbe, _ what: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertTrue(
            probe.wrong.isEmpty,
            "\(what): \(probe.wrong.count) reads returned wrong data, e.g. \(probe.wrong.prefix(5))",
            file: file, line: line)
    }

    /// Whether some read of `api` (a prefix of the probe's names) found the damage and named `page`.
    func detected(_ probe: ReadProbe, _ api: String, page: UInt32) -> Bool {
        probe.detected.contains { $0.hasPrefix(api) && $0.contains("at page \(page):") }
    }

    // MARK: Each kind of damage

    func testSwappedLeavesAreReportedNotRead() throws {
        var file = try buildPristine()
        let leaves = file.walk(file.treeRoot("t")!).leaves
        let (a, b) = (leaves[3], leaves[leaves.count - 4])
        let keysA = file.leafKeys(a)
        file.swap(a, b)
        let probe = try probe(file, damaged: [a, b])
        assertNoWrongData(probe, "two leaves swapped")
        // The page-number check names the page that is not where it should be.
        XCTAssertTrue(detected(probe, "get t \(keysA[0])", page: a), "\(probe.detected.prefix(3))")
        XCTAssertTrue(probe.detected.contains { $0.contains("header names page \(b)") })
    }

    func testLeavesSwappedBetweenTwoTreesAreReportedNotRead() throws {
        var file = try buildPristine()
        // Trees "t" and "u" have the same keys and values of the same sizes, so their leaves hold
        // the same key ranges: a leaf of one in the other's place passes every key check and its
        // own checksum. Only its page-number field shows that it is not where it was written.
        let (lt, lu) = (file.walk(file.treeRoot("t")!).leaves, file.walk(file.treeRoot("u")!).leaves)
        XCTAssertEqual(file.leafKeys(lt[5]), file.leafKeys(lu[5]), "setup: the two leaves hold the same keys")
        file.swap(lt[5], lu[5])
        let probe = try probe(file, damaged: [lt[5], lu[5]])
        assertNoWrongData(probe, "a leaf of t and a leaf of u swapped")
        XCTAssertTrue(
            probe.detected.contains { $0.contains("at page \(lt[5]): the page's header names page \(lu[5])") })
    }

    func testForgedLeafSwapIsCaughtByKeyOrderAndSeparators() throws {
        var file = try buildPristine()
        let leaves = file.walk(file.treeRoot("t")!).leaves
        let (a, b) = (leaves[2], leaves[9])
        let keysA = file.leafKeys(a)
        // Both pages now name themselves and carry valid checksums: only their keys give them away.
        file.swapAndForge(a, b)
        let probe = try probe(file, damaged: [a, b])
        assertNoWrongData(probe, "two leaves swapped, page numbers and checksums forged")
        XCTAssertTrue(detected(probe, "get t \(keysA[0])", page: a), "get of a key whose leaf moved")
        XCTAssertTrue(detected(probe, "floor t \(keysA[1])", page: a), "floor of a key whose leaf moved")
        XCTAssertTrue(probe.detected.contains { $0.hasPrefix("forEach t:") }, "a full scan")
        XCTAssertTrue(probe.detected.contains { $0.hasPrefix("cursor t:") }, "a cursor scan")
        XCTAssertTrue(probe.detected.contains { $0.hasPrefix("forEachLeaf t:") }, "a leaf scan")
    }

    func testForgedLeafIsRefusedBeforeAWriteEditsIt() throws {
        var file = try buildPristine()
        let leaves = file.walk(file.treeRoot("t")!).leaves
        let (a, b) = (leaves[2], leaves[9])
        let keysB = file.leafKeys(b)
        // Page b now holds a's cells: every key there is below the separator that leads to b.
        file.swapAndForge(a, b)
        try file.write(to: path("damaged.strata"))
        let db = try open("damaged.strata")
        defer { db.close() }
        // The read-modify-writes the object store uses to insert into and patch a cluster must
        // not hand a body the entry of a leaf from elsewhere (it would be rewritten as if it were
        // the right one, under a fresh checksum).
        for k in [keysB[1], keysB[keysB.count - 1] + [0]] {
            var called = false
            do {
                let txn = try db.beginWrite()
                defer { txn.abort() }
                let t = try txn.openTree("t")
                XCTAssertThrowsError(
                    try k.withUnsafeBytes { kb in
                        try txn.modifyFloor(kb, in: t) { _, _, _, _ in
                            called = true; return .unchanged
                        }
                    }
                ) { error in
                    guard case StorageError.corruptPage(_, let page, _) = error else { return XCTFail("\(error)") }
                    XCTAssertEqual(page, b)
                }
                XCTAssertFalse(called, "modifyFloor handed the body an entry of a misplaced leaf")
            }
            do {
                let txn = try db.beginWrite()
                defer { txn.abort() }
                let t = try txn.openTree("t")
                XCTAssertThrowsError(
                    try k.withUnsafeBytes { kb in
                        try txn.mutateFloorInPlace(kb, in: t) { _ in called = true }
                    }
                ) { error in
                    guard case StorageError.corruptPage(_, let page, _) = error else { return XCTFail("\(error)") }
                    XCTAssertEqual(page, b)
                }
                XCTAssertFalse(called, "mutateFloorInPlace handed the body a value of a misplaced leaf")
            }
        }
    }

    func testForgedCopyOfAnEarlierLeafIsCaughtByKeyOrder() throws {
        var file = try buildPristine()
        let leaves = file.walk(file.treeRoot("t")!).leaves
        let (a, b) = (leaves[2], leaves[9])
        let keysB = file.leafKeys(b)
        // Page b becomes a copy of page a, its page number and checksum fixed up: its keys lie
        // below the separator on its left, which only the key order shows.
        for k in 0..<file.pageSize { file.bytes[Int(b) * file.pageSize + k] = file.bytes[Int(a) * file.pageSize + k] }
        file.setU32(b, PageHeader.pageNumber, b)
        file.resum(b)
        let probe = try probe(file, damaged: [a, b])
        assertNoWrongData(probe, "a leaf overwritten by a forged copy of an earlier one")
        XCTAssertTrue(detected(probe, "get t \(keysB[0])", page: b), "get of a key the copy hid")
        XCTAssertTrue(detected(probe, "floor t \(keysB[1])", page: b), "floor of a key the copy hid")
        XCTAssertTrue(
            probe.detected.contains { $0.hasPrefix("forEach t:") && $0.contains("at page \(b):") }, "a full scan")
        XCTAssertTrue(
            probe.detected.contains { $0.hasPrefix("cursor t:") && $0.contains("at page \(b):") }, "a cursor scan")
    }

    func testFlippedValueByteIsFoundByLookups() throws {
        var file = try buildPristine()
        let leaf = file.walk(file.treeRoot("t")!).leaves[6]
        let keys = file.leafKeys(leaf)
        // A byte inside the last value of the leaf (keys and layout intact).
        let off = file.u16(leaf, PageHeader.size + 2 * (keys.count - 1))
        file.flip(page: leaf, offset: off + 6 + 8 + 3, mask: 0x10)
        let probe = try probe(file, damaged: [leaf])
        // Lookups checksum each page the first time they reach it.
        XCTAssertTrue(detected(probe, "get t \(keys.last!)", page: leaf), "\(probe.wrong.prefix(2))")
        XCTAssertTrue(probe.detected.contains { $0.hasPrefix("write get t") && $0.contains("checksum mismatch") })
        XCTAssertTrue(
            probe.wrong.allSatisfy {
                !$0.hasPrefix("get") && !$0.hasPrefix("floor") && !$0.hasPrefix("write get")
                    && !$0.hasPrefix("write floor")
            },
            "\(probe.wrong.prefix(3))")
        // Scans do not checksum the leaves they step to (FORMAT.md, "What reads check"): the
        // changed value reads back changed, and `verify()` finds it.
        XCTAssertTrue(probe.wrong.contains { $0.hasPrefix("forEach t:") }, "documented: scans do not checksum leaves")
        let db = try open("damaged.strata")
        defer { db.close() }
        XCTAssertThrowsError(try db.verify()) { error in
            guard case StorageError.corruptPage(_, let page, let reason) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(page, leaf)
            XCTAssertTrue(reason.contains("checksum"))
        }
    }

    func testZeroedOverflowPageIsReportedByEveryRead() throws {
        var file = try buildPristine()
        let runs = file.walk(file.treeRoot("t")!).runs
        let run = try XCTUnwrap(runs.first { $0.pages >= 2 })
        // The second page of the run: only the run's checksum covers it.
        file.zero(page: run.first + 1)
        let probe = try probe(file)
        assertNoWrongData(probe, "a zeroed page inside an overflow run")
        XCTAssertTrue(probe.detected.contains { $0.hasPrefix("get t") && $0.contains("at page \(run.first):") })
        XCTAssertTrue(probe.detected.contains { $0.hasPrefix("forEach t:") && $0.contains("at page \(run.first):") })
    }

    func testThreadsSharingASnapshotCheckEachPageAndReadTrueData() throws {
        // Several threads reach the same pages for the first time at once: each may check a page
        // and record it in the shared table; every read returns the true value, and a page
        // damaged on disk is refused on every thread.
        var file = try buildPristine()
        let leaf = file.walk(file.treeRoot("t")!).leaves[3]
        let damagedKeys = Set(file.leafKeys(leaf))
        let off = file.u16(leaf, PageHeader.size)
        file.flip(page: leaf, offset: off + 6 + 8 + 1, mask: 0x40)
        try file.write(to: path("damaged.strata"))
        let db = try open("damaged.strata")
        defer { db.close() }
        let r = try db.beginRead()
        defer { r.end() }
        let t = try XCTUnwrap(r.tree(named: "t"))
        let entries = model["t"]!
        final class Tally: @unchecked Sendable {
            let lock = NSLock()
            var wrong: [String] = []
            var refused = 0
        }
        let tally = Tally()
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            for (i, (k, v)) in entries.enumerated() where i % 2 == thread % 2 {
                do {
                    let got = try r.get(k, in: t)
                    if got != v { tally.lock.withLock { tally.wrong.append("thread \(thread): key \(k)") } }
                } catch {
                    tally.lock.withLock {
                        if damagedKeys.contains(k), "\(error)".contains("checksum mismatch") {
                            tally.refused += 1
                        } else {
                            tally.wrong.append("thread \(thread): \(error)")
                        }
                    }
                }
            }
        }
        XCTAssertEqual(tally.wrong, [])
        XCTAssertEqual(tally.refused, 2 * damagedKeys.count, "every thread that looked a damaged key up was refused")
    }

    func testTruncatedCellCountIsReportedByScans() throws {
        var file = try buildPristine()
        let leaves = file.walk(file.treeRoot("t")!).leaves
        let leaf = leaves[5]
        let count = file.u16(leaf, PageHeader.cellCount)
        file.setU16(leaf, PageHeader.cellCount, count - 3)
        file.resum(leaf)
        let probe = try probe(file, damaged: [leaf])
        XCTAssertTrue(
            probe.detected.contains { $0.hasPrefix("forEach t:") && $0.contains("at page \(leaf):") },
            "\(probe.detected.prefix(3))")
        XCTAssertTrue(probe.detected.contains { $0.hasPrefix("cursor t:") && $0.contains("do not fill the cell area") })
        XCTAssertTrue(
            probe.wrong.allSatisfy { !$0.hasPrefix("forEach") && !$0.hasPrefix("cursor") }, "\(probe.wrong.prefix(3))")
    }

    func testTruncatedBranchIsReportedByScans() throws {
        var file = try buildPristine()
        let branches = file.walk(file.treeRoot("s")!).branches
        // A branch below the root, not on the path to the first leaf (a scan reaches it from the
        // side): cut its last two children off.
        let branch = branches[branches.count - 1]
        let count = file.u16(branch, PageHeader.cellCount)
        file.setU16(branch, PageHeader.cellCount, count - 2)
        file.resum(branch)
        let probe = try probe(file, lookupKeys: ["s": []])
        XCTAssertTrue(
            probe.detected.contains { $0.hasPrefix("forEach s:") && $0.contains("at page \(branch):") },
            "\(probe.detected.prefix(3))")
        XCTAssertTrue(probe.detected.contains { $0.hasPrefix("cursor s:") && $0.contains("at page \(branch):") })
        assertNoWrongData(probe, "a branch's cell count cut short, scans only")
    }

    func testLeafAtTheWrongDepthIsReportedByScans() throws {
        var file = try buildPristine()
        let tree = file.walk(file.treeRoot("s")!)
        let root = file.treeRoot("s")!
        // Point the root's second child (a branch) at a leaf of that subtree instead, and forge the
        // root's checksum: a leaf now sits one level above the others.
        let cell = file.u16(root, PageHeader.size + 2 * 1)
        let child = file.u32(root, cell)
        let grandchild = file.u32(child, file.u16(child, PageHeader.size))
        XCTAssertEqual(file.type(grandchild), PageType.leaf.rawValue)
        file.setU32(root, cell, grandchild)
        file.resum(root)
        XCTAssertTrue(tree.leaves.contains(grandchild))
        let probe = try probe(file, lookupKeys: ["s": []])
        XCTAssertTrue(
            probe.detected.contains {
                $0.hasPrefix("forEach s:") && $0.contains("at depth 1 of a tree whose leaves are at depth 2")
            },
            "\(probe.detected.filter { $0.hasPrefix("forEach s:") })")
        assertNoWrongData(probe, "a leaf where a branch belongs, scans only")
    }

    func testPageOfANewerVersionIsRefused() throws {
        var file = try buildPristine()
        let leaf = file.walk(file.treeRoot("t")!).leaves[4]
        let keys = file.leafKeys(leaf)
        file.setU64(leaf, PageHeader.version, 1 << 40)
        file.resum(leaf)
        let probe = try probe(file, damaged: [leaf])
        assertNoWrongData(probe, "a leaf stamped with a future version")
        XCTAssertTrue(
            probe.detected.contains {
                $0.hasPrefix("get t \(keys[0])") && $0.contains("newer than this snapshot's version")
            })
    }

    func testOverflowRunHeaderMustMatchItsCell() throws {
        var file = try buildPristine()
        let runs = file.walk(file.treeRoot("t")!).runs
        XCTAssertGreaterThan(runs.count, 10)
        // A run header claiming one page more than its value needs; one naming another length;
        // one whose first page is zeroed (type 0).
        file.setU32(runs[0].first, PageHeader.runPages, UInt32(runs[0].pages + 1))
        file.resum(runs[0].first, pages: runs[0].pages + 1)  // a checksum that matches the claim
        file.setU32(runs[1].first, PageHeader.valueLength, file.u32(runs[1].first, PageHeader.valueLength) - 1)
        file.resum(runs[1].first, pages: runs[1].pages)
        file.zero(page: runs[2].first)
        let probe = try probe(file)
        assertNoWrongData(probe, "overflow run headers damaged")
        for run in runs.prefix(3) {
            XCTAssertTrue(
                probe.detected.contains { $0.hasPrefix("get t") && $0.contains("at page \(run.first):") },
                "run at \(run.first)")
        }
    }

    // MARK: A seeded sweep over many damaged copies

    /// The pages of every tree of `file`: nodes (leaves and branches), and every page of every
    /// overflow run, with the keys each leaf holds (read from the pristine bytes).
    struct Pages {
        var leaves: [(tree: String, page: UInt32)] = []
        var branches: [UInt32] = []
        var runs: [(first: UInt32, pages: Int)] = []
        var keysOf: [UInt32: (tree: String, keys: [[UInt8]])] = [:]
    }

    func pages(_ file: DamagedFile) -> Pages {
        var out = Pages()
        for name in ["t", "u", "s"] {
            let w = file.walk(file.treeRoot(name)!)
            out.leaves += w.leaves.map { (name, $0) }
            out.branches += w.branches
            out.runs += w.runs
            for leaf in w.leaves { out.keysOf[leaf] = (name, file.leafKeys(leaf)) }
        }
        return out
    }

    /// Lookup keys for a probe of a copy whose damage touched `damaged` pages: every key of the
    /// damaged leaves, a sample of the others, and absent keys beside them.
    func lookupKeys(_ pages: Pages, damaged: [UInt32], _ rng: inout SeededRandom) -> [String: [[UInt8]]] {
        var keys: [String: [[UInt8]]] = [:]
        for n in damaged { if let (tree, ks) = pages.keysOf[n] { keys[tree, default: []] += ks } }
        for (tree, entries) in model {
            for _ in 0..<24 { keys[tree, default: []].append(entries[rng.below(entries.count)].0) }
            if tree != "s" { keys[tree, default: []] += (0..<4).map { _ in key(2 * rng.below(4000) + 1) } }
        }
        return keys
    }

    /// Damage that the checks are meant to find wherever a read meets it, a copy at a time, each
    /// read by every read API: no read may return wrong data. Kinds: two tree pages swapped
    /// whole; two leaves of a tree swapped with page numbers and checksums forged; a node's cell
    /// count cut short (checksum fixed up or not); a page zeroed (nodes and every page of overflow
    /// runs); a header byte changed (checksum fixed up or not); a slot byte changed (idem); a byte
    /// of a branch changed.
    func testSeededSweepOfDamagedCopiesNeverReadsWrongData() throws {
        let pristine = try buildPristine()
        let all = pages(pristine)
        let nodes = all.leaves.map(\.page) + all.branches
        let everyRunPage = all.runs.flatMap { r in (0..<r.pages).map { r.first + UInt32($0) } }
        var rng = SeededRandom(seed: 17)
        var found = 0, harmless = 0
        var kinds: [String: Int] = [:]
        for copy in 0..<70 {
            var file = pristine
            var damaged: [UInt32] = []
            let what: String
            let forge = rng.below(2) == 0
            switch copy % 7 {
            case 0:
                let pool = nodes + all.runs.map(\.first)
                let (a, b) = (pool[rng.below(pool.count)], pool[rng.below(pool.count)])
                file.swap(a, b)
                damaged = [a, b]
                what = "pages \(a) and \(b) swapped"
            case 1:
                let tree = ["t", "u", "s"][rng.below(3)]
                let leaves = all.leaves.filter { $0.tree == tree }.map(\.page)
                let a = leaves[rng.below(leaves.count)]
                var b = leaves[rng.below(leaves.count)]
                if b == a { b = leaves[(leaves.firstIndex(of: a)! + 1) % leaves.count] }
                file.swapAndForge(a, b)
                damaged = [a, b]
                what = "leaves \(a) and \(b) of \(tree) swapped and forged"
            case 2:
                let n = nodes[rng.below(nodes.count)]
                let count = file.u16(n, PageHeader.cellCount)
                let floor = file.type(n) == PageType.branch.rawValue ? 1 : 0
                let cut = count - 1 - rng.below(max(1, count - floor))
                file.setU16(n, PageHeader.cellCount, max(floor, cut))
                if forge { file.resum(n) }
                damaged = [n]
                what = "cell count of \(n) cut from \(count) to \(max(floor, cut))\(forge ? ", checksum fixed" : "")"
            case 3:
                let pool = nodes + everyRunPage
                let n = pool[rng.below(pool.count)]
                file.zero(page: n)
                damaged = [n]
                what = "page \(n) zeroed"
            case 4:
                let n = nodes[rng.below(nodes.count)]
                let offset = 8 + rng.below(24)
                file.flip(page: n, offset: offset, mask: UInt8(1 + rng.below(255)))
                if forge { file.resum(n) }
                damaged = [n]
                what = "header byte \(offset) of \(n) changed\(forge ? ", checksum fixed" : "")"
            case 5:
                let n = nodes[rng.below(nodes.count)]
                let offset = PageHeader.size + rng.below(2 * file.u16(n, PageHeader.cellCount))
                file.flip(page: n, offset: offset, mask: UInt8(1 + rng.below(255)))
                if forge { file.resum(n) }
                damaged = [n]
                what = "slot byte \(offset) of \(n) changed\(forge ? ", checksum fixed" : "")"
            default:
                let n = all.branches[rng.below(all.branches.count)]
                let offset =
                    file.u16(n, PageHeader.cellStart) + rng.below(pristine.pageSize - file.u16(n, PageHeader.cellStart))
                file.flip(page: n, offset: offset, mask: UInt8(1 + rng.below(255)))
                damaged = [n]
                what = "cell byte \(offset) of branch \(n) changed"
            }
            let probe = try probe(file, lookupKeys: lookupKeys(all, damaged: damaged, &rng))
            assertNoWrongData(probe, "copy \(copy): \(what)")
            if probe.detected.isEmpty { harmless += 1 } else { found += 1 }
            kinds[String(what.prefix(while: { !$0.isNumber })), default: 0] += 1
        }
        // Most of this damage is found; what is not changed nothing a read returns (a header
        // byte such as `flags`, an older version number, a slot byte rewritten to itself).
        XCTAssertGreaterThan(found, 60, "\(found) copies found damaged, \(harmless) read back whole")
        print("damaged copies: \(found) found by a read, \(harmless) read back true data; kinds \(kinds)")
    }
}

extension ReadProbe {
    /// The reads of a write transaction (its own view of the committed data); aborted after.
    func runWrite(_ db: Database) {
        let txn: WriteTransaction
        do {
            txn = try db.beginWrite()
        } catch let e as StorageError {
            if case .corruptPage = e { return }
            recordWrong("beginWrite: threw \(e)")
            return
        } catch {
            recordWrong("beginWrite: threw \(error)")
            return
        }
        defer { txn.abort() }
        for name in model.keys.sorted() {
            let entries = model[name]!
            let truth = Dictionary(uniqueKeysWithValues: entries.map { ($0.0, $0.1) })
            var handle: TreeHandle?
            record("write openTree \(name)") {
                handle = try txn.openTree(name)
                return txn.count(handle!) == UInt64(entries.count) ? nil : "count \(txn.count(handle!))"
            }
            guard let h = handle else { continue }
            for k in lookupKeys[name] ?? entries.map(\.0) {
                record("write get \(name) \(k)") {
                    let v = try txn.get(k, in: h)
                    return v == truth[k] ? nil : (v == nil ? "nil for a key that exists" : "wrong value")
                }
                record("write floor \(name) \(k + [0])") {
                    let f = try (k + [0]).withUnsafeBytes { try txn.floor($0, in: h) }.map {
                        (Array($0.key), Array($0.value))
                    }
                    let want = Self.floor(entries, k + [0])
                    return f?.0 == want?.0 && f?.1 == want?.1 ? nil : "wrong floor"
                }
            }
            recordScan("write forEach \(name)", entries, from: 0) { got in
                try txn.forEach(in: h) { k, v in
                    got.append((Array(k), Array(v))); return true
                }
            }
        }
    }
}
