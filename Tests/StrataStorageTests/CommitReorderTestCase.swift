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

/// The shared helpers of the tests that attack the commit's reordering steps (step 0,
/// `repackDirtyLeaves`, and step 5, `orderDirtyLeaves`) and `LeafView.inlineEntry`: a model of
/// every tree, read back through `forEach` and `forEachLeaf`, checks against the model and
/// `verify()`, page images as a kill or a power cut would leave the file, and random large commits.
class CommitReorderTestCase: StorageTestCase {
    typealias Model = [String: [[UInt8]: [UInt8]]]

    /// Every tree of `model` read back through `forEach` and through `forEachLeaf` (inline fast
    /// path, else the checked one), in strictly increasing key order.
    func readBack(_ r: ReadTransaction, _ names: [String]) throws -> Model {
        var out: Model = [:]
        for name in names {
            guard let t = try r.tree(named: name) else { continue }
            var viaForEach: [([UInt8], [UInt8])] = []
            try r.forEach(in: t) { k, v in
                viaForEach.append((Array(k), Array(v))); return true
            }
            var viaLeaves: [([UInt8], [UInt8])] = []
            try r.forEachLeaf(in: t) { leaf in
                for i in 0..<leaf.count {
                    let (k, v) = try leaf.inlineEntry(i) ?? leaf.entry(i)
                    viaLeaves.append((Array(k), Array(v)))
                }
                return true
            }
            XCTAssertTrue(
                viaForEach.elementsEqual(viaLeaves) { $0.0 == $1.0 && $0.1 == $1.1 },
                "\(name): forEachLeaf differs from forEach")
            for k in viaForEach.indices.dropFirst() {
                XCTAssertTrue(
                    viaForEach[k - 1].0.lexicographicallyPrecedes(viaForEach[k].0), "\(name): keys out of order at \(k)"
                )
            }
            var d: [[UInt8]: [UInt8]] = [:]
            for (k, v) in viaForEach { d[k] = v }
            if !d.isEmpty { out[name] = d }
        }
        return out
    }

    func nonEmpty(_ m: Model) -> Model { m.filter { !$0.value.isEmpty } }

    /// The newest version of `db` holds `model` (trees not in it are empty or absent) and verifies.
    func assertHolds(
        _ db: Database, _ model: Model, _ what: String, extraNames: [String] = [],
        file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let names = Array(Set(model.keys).union(extraNames))
        let got = try db.read { r in try readBack(r, names) }
        let want = nonEmpty(model)
        XCTAssertEqual(Set(got.keys), Set(want.keys), "\(what): trees", file: file, line: line)
        for (name, entries) in want {
            let g = got[name] ?? [:]
            if g != entries {
                let missing = entries.keys.filter { g[$0] == nil }.count
                let extra = g.keys.filter { entries[$0] == nil }.count
                let wrong = entries.keys.filter { g[$0] != nil && g[$0] != entries[$0] }.count
                XCTFail(
                    "\(what): tree \(name): \(missing) missing, \(extra) extra, \(wrong) wrong values of \(entries.count)",
                    file: file, line: line)
            }
        }
        let report = try db.verify()
        XCTAssertEqual(report.leakedPages, [], "\(what): leaked pages", file: file, line: line)
        for (name, entries) in want {
            XCTAssertEqual(report.trees[name], UInt64(entries.count), "\(what): \(name) count", file: file, line: line)
        }
    }

    /// The file as a SIGKILL of this process right now would leave it (the page cache).
    func image(_ p: String) throws -> Data {
        guard let data = FileManager.default.contents(atPath: p) else { throw CocoaError(.fileReadNoSuchFile) }
        return data
    }

    /// Opens a copy of `data` as a first opener (its own lock file), as after a crash.
    func openCopy(_ data: Data, _ name: String) throws -> Database {
        let q = path(name)
        try? FileManager.default.removeItem(atPath: q)
        try? FileManager.default.removeItem(atPath: q + ".lock")
        try data.write(to: URL(fileURLWithPath: q))
        return try open(name)
    }

    /// A SIGKILL now opens at `version` with `model`, and that version verifies.
    func assertKillOpensAt(
        _ db: Database, _ version: UInt64, _ model: Model, _ what: String,
        file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let cut = try openCopy(try image(db.path), "cut-\(UUID().uuidString.prefix(8)).strata")
        defer { cut.close() }
        XCTAssertEqual(
            cut.latestVersion.rawValue, version, "\(what): a kill opens at the wrong version", file: file, line: line)
        try assertHolds(cut, model, "\(what) (after a kill)", file: file, line: line)
    }

    /// Leaves of tree `name` in the newest version: the page numbers, in key order, of those the
    /// newest commit wrote, and the average fill of all of them.
    func leafStats(
        _ db: Database, _ name: String
    ) throws -> (written: [UInt32], leaves: Int, fill: Double, writtenFill: Double) {
        try db.read { r in
            var written: [UInt32] = []
            var leaves = 0, used = 0, writtenUsed = 0
            try r.forEachLeaf(in: XCTUnwrap(r.tree(named: name))) { leaf in
                leaves += 1
                let u = Node.usedBytes(leaf.page, pageSize: leaf.pageSize)
                used += u
                if leaf.page.u64(PageHeader.version) == r.version.rawValue {
                    written.append(leaf.page.u32(PageHeader.pageNumber))
                    writtenUsed += u
                }
                return true
            }
            let capacity = Double(r.access.pageSize - PageHeader.size)
            return (
                written, leaves, Double(used) / (Double(max(1, leaves)) * capacity),
                Double(writtenUsed) / (Double(max(1, written.count)) * capacity)
            )
        }
    }

    /// Evidence that steps 0 and 5 ran on tree `name` in the newest commit: the leaves it wrote
    /// are packed and in key order.
    func assertPackedAndOrdered(
        _ db: Database, _ name: String, _ what: String, file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let s = try leafStats(db, name)
        XCTAssertGreaterThan(s.written.count, 16, "\(what): \(name): leaves written", file: file, line: line)
        XCTAssertGreaterThan(
            s.writtenFill, 0.85, "\(what): \(name): the leaves written are packed", file: file, line: line)
        XCTAssertEqual(
            s.written, s.written.sorted(), "\(what): \(name): the leaves written are in key order", file: file,
            line: line)
    }

    /// Files a power cut could leave after `a` was durable and `b` is the page cache: each page
    /// that differs comes from either (pages past `a`'s end read as zeros). The first mix takes
    /// the meta pages from `b` and every other page from `a` (the newest record reached the disk,
    /// none of its pages did); the last is `b` itself.
    func powerCutMixes(_ a: Data, _ b: Data, pageSize: Int, count: Int, _ rng: inout SeededRandom) -> [Data] {
        let pages = b.count / pageSize
        let zero = Data(count: pageSize)
        func pageOf(_ d: Data, _ i: Int) -> Data {
            let lo = i * pageSize
            return lo + pageSize <= d.count ? d.subdata(in: lo..<(lo + pageSize)) : zero
        }
        var differing: [Int] = []
        for i in 0..<pages where pageOf(a, i) != pageOf(b, i) { differing.append(i) }
        var mixes: [Data] = []
        for m in 0..<count {
            var out = b
            for i in differing {
                let fromA: Bool
                if m == 0 { fromA = i >= 2 } else if m == count - 1 { fromA = false } else { fromA = rng.below(2) == 0 }
                if fromA { out.replaceSubrange((i * pageSize)..<((i + 1) * pageSize), with: pageOf(a, i)) }
            }
            mixes.append(out)
        }
        return mixes
    }

    /// A key of tree `name`: 8-byte integers for "a", strings with long shared prefixes for "b".
    func treeKey(_ name: String, _ i: Int) -> [UInt8] {
        switch name {
        case "b":
            // Groups of keys share prefixes of 20-300 bytes, so separators are long and differ
            // deep inside the key.
            let group = i % 17
            let prefix = String(repeating: Character(UnicodeScalar(UInt8(97 + group))), count: 20 + group * 17)
            return Array("\(prefix)/\(i * 7919 % 100_003)".utf8)
        default:
            return key(i)
        }
    }

    /// A value: mostly small; some near the inline limit (cells of almost a quarter page, which
    /// an even deal can overfill); some overflow runs of 1-3 pages.
    /// With `packable`, no values near the limit (one such cell in a run makes step 0 leave the
    /// run unpacked: `RepackFillTests`), so step 0 packs and moves pages.
    func randomValue(_ rng: inout SeededRandom, pageSize: Int, tag: Int, packable: Bool = false) -> [UInt8] {
        let inlineMax = (pageSize - PageHeader.size) / 4 - 2 - 6 - 40
        let size: Int
        switch rng.below(100) {
        case 0..<6: size = pageSize / 4 + rng.below(pageSize * 3)  // overflow
        case 6..<16 where !packable: size = inlineMax - 60 + rng.below(60)  // near the limit
        default: size = 1 + rng.below(80)
        }
        var v = [UInt8](repeating: UInt8(truncatingIfNeeded: tag), count: size)
        if size >= 4 {
            withUnsafeBytes(of: UInt32(truncatingIfNeeded: tag &* 2654435761)) { for j in 0..<4 { v[j] = $0[j] } }
        }
        return v
    }

    /// One large random transaction over `names`: puts of new and existing keys, value size
    /// changes (inline <-> overflow), deletes. Trees other than "a" and "b" get packable values.
    func randomLargeChanges(
        _ txn: WriteTransaction, _ model: inout Model, _ names: [String], keySpace: Int,
        ops: Int, deleteShare: Int, _ rng: inout SeededRandom, round: Int
    ) throws {
        let handles = try names.map { try txn.openTree($0, create: true) }
        for op in 0..<ops {
            let t = rng.below(names.count)
            let name = names[t]
            let k = treeKey(name, rng.below(keySpace))
            if rng.below(100) < deleteShare {
                let removed = try txn.delete(k, in: handles[t])
                XCTAssertEqual(removed, model[name]?[k] != nil)
                model[name]?[k] = nil
            } else {
                let v = randomValue(
                    &rng, pageSize: txn.pageSize, tag: round * 1_000_003 + op, packable: name != "a" && name != "b")
                try txn.put(k, v, in: handles[t])
                model[name, default: [:]][k] = v
            }
        }
    }
}
