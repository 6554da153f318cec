import Foundation
import XCTest
@_spi(StrataEngine) @testable import StrataStorage
import StrataPOSIX

/// Areas (FORMAT.md, "Area pages"): byte ranges of area pages that the values of a tree that
/// holds areas refer to. Each test keeps a model of what every value's areas hold and checks it
/// against what the engine reads back, and against `verify()`, which counts every reference.
final class AreaTests: CommitReorderTestCase {
    /// Key `i` -> the contents of the areas its value refers to, in order.
    typealias AreaModel = [Int: [[UInt8]]]

    let secretKey = [UInt8]((0..<64).map { UInt8(truncatingIfNeeded: $0 &* 11 &+ 3) })

    func areaBytes(_ i: Int, _ k: Int, _ generation: Int, length: Int) -> [UInt8] {
        (0..<length).map { UInt8(truncatingIfNeeded: i &* 31 &+ k &* 7 &+ generation &* 13 &+ $0) }
    }

    /// The references `value` begins with.
    func references(_ value: [UInt8]) throws -> [AreaReference] {
        try value.withUnsafeBytes { v in
            let n = try XCTUnwrap(AreaPrefix.count(of: v))
            return (0..<n).map { AreaPrefix.reference($0, of: v) }
        }
    }

    /// Stores key `i` with a value referring to new areas holding `areas` (the engine uncounts
    /// the areas of the value it replaces).
    func put(_ w: WriteTransaction, _ t: TreeHandle, _ i: Int, _ areas: [[UInt8]], tail: [UInt8] = [1, 2, 3]) throws {
        var value = [UInt8](repeating: 0, count: AreaPrefix.size(references: areas.count)) + tail
        value[0] = UInt8(areas.count)
        for (k, a) in areas.enumerated() {
            let (ref, p) = try w.allocateArea(length: a.count)
            a.withUnsafeBytes { p.copyMemory(from: $0.baseAddress!, byteCount: a.count) }
            value.withUnsafeMutableBytes { ref.store(at: $0.baseAddress! + 1 + k * AreaReference.size) }
        }
        try w.put(key(i), value, in: t)
    }

    /// A value that begins with `refs` and holds nothing else.
    func valueReferring(to refs: [AreaReference]) -> [UInt8] {
        var value = [UInt8](repeating: 0, count: AreaPrefix.size(references: refs.count))
        value[0] = UInt8(refs.count)
        value.withUnsafeMutableBytes { v in
            for (k, r) in refs.enumerated() { r.store(at: v.baseAddress! + 1 + k * AreaReference.size) }
        }
        return value
    }

    /// Deletes key `i` (the engine uncounts its areas).
    func remove(_ w: WriteTransaction, _ t: TreeHandle, _ i: Int) throws {
        _ = try w.delete(key(i), in: t)
    }

    /// What the newest version of tree `name` holds, areas resolved.
    func readAreas(_ db: Database, _ name: String = "t") throws -> AreaModel {
        try db.read { r in
            var out: AreaModel = [:]
            guard let t = try r.tree(named: name) else { return out }
            XCTAssertTrue(t.holdsAreas)
            try r.forEach(in: t) { k, v in
                let i = Int(Array(k).reduce(UInt64(0)) { $0 << 8 | UInt64($1) })
                let refs = try self.references(Array(v))
                out[i] = try refs.map { Array(try r.area($0)) }
                return true
            }
            return out
        }
    }

    /// The newest version holds `model` and verifies: no leaked page, every reference counted.
    func assertAreas(
        _ db: Database, _ model: AreaModel, _ what: String, file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let got = try readAreas(db)
        XCTAssertEqual(got.count, model.count, "\(what): values", file: file, line: line)
        for (i, areas) in model where got[i] != areas {
            XCTFail("\(what): the areas of key \(i) differ", file: file, line: line)
            break
        }
        let report = try db.verify()
        XCTAssertEqual(report.leakedPages, [], "\(what): leaked pages", file: file, line: line)
        if model.values.contains(where: { !$0.isEmpty }) {
            XCTAssertGreaterThan(report.areaPages, 0, "\(what): area pages", file: file, line: line)
        } else {
            XCTAssertEqual(report.areaPages, 0, "\(what): area pages", file: file, line: line)
        }
    }

    /// The area pages the area-counts tree lists in the newest version.
    func areaPages(_ db: Database) throws -> [UInt32] {
        try db.read { r in
            guard let counts = try Catalog.lookup("", root: r.catalogRoot, r.access) else { return [] }
            var out: [UInt32] = []
            try r.forEach(in: counts) { k, _ in
                out.append(try XCTUnwrap(AreaCountsLayout.page(k)))
                return true
            }
            return out
        }
    }

    func openTree(_ w: WriteTransaction) throws -> TreeHandle {
        try w.openTree("t", create: true, holdsAreas: true)
    }

    func testAreasReadBackAfterCommitAndReopenAndEveryReferenceIsCounted() throws {
        var db = try open(pageSize: 4096)
        var model: AreaModel = [:]
        try db.write { w in
            let t = try openTree(w)
            for i in 0..<300 {
                let areas = (0..<(i % 4)).map { areaBytes(i, $0, 0, length: 1 + (i * 37 + $0 * 101) % 900) }
                try put(w, t, i, areas)
                model[i] = areas
            }
            // Inside the transaction the areas read back before the commit.
            let v = try XCTUnwrap(try w.get(key(7), in: t))
            XCTAssertEqual(try references(v).map { Array(try w.area($0)) }, model[7])
        }
        try assertAreas(db, model, "after the commit")
        XCTAssertEqual(try db.read { r in try r.treeNames() }, ["t"], "the area-counts tree is not listed")
        XCTAssertNil(try db.read { r in try r.tree(named: "") })
        let areaPages = try db.verify().areaPages
        // 300 values of 0-3 areas of about 450 bytes: many areas share a page.
        let bytes = model.values.flatMap { $0 }.reduce(0) { $0 + $1.count }
        XCTAssertLessThanOrEqual(areaPages, bytes / 3000 + 2, "areas are packed into pages")
        db.close()
        db = try open(pageSize: 4096)
        try assertAreas(db, model, "after a reopen")
        db.close()
    }

    func testAnAreaPageIsFreedWhenNoValueRefersToItAnyMore() throws {
        let db = try open(pageSize: 4096)
        defer { db.close() }
        var model: AreaModel = [:]
        try db.write { w in
            let t = try openTree(w)
            for i in 0..<40 {
                model[i] = [areaBytes(i, 0, 0, length: 500)]
                try put(w, t, i, model[i]!)
            }
        }
        let before = try db.verify()
        XCTAssertGreaterThanOrEqual(before.areaPages, 5)
        // Replacing every area: the old pages' counts reach zero, they are freed, the new ones counted.
        try db.write { w in
            let t = try openTree(w)
            for i in 0..<40 {
                model[i] = [areaBytes(i, 0, 1, length: 500)]
                try put(w, t, i, model[i]!)
            }
        }
        try assertAreas(db, model, "after replacing every area")
        XCTAssertEqual(try db.verify().areaPages, before.areaPages)
        // Half the values lose their areas (kept with none), the rest are deleted with theirs.
        try db.write { w in
            let t = try openTree(w)
            for i in 0..<20 {
                model[i] = []
                try put(w, t, i, [])
            }
            for i in 20..<40 {
                model[i] = nil
                try remove(w, t, i)
            }
        }
        try assertAreas(db, model, "after releasing every area")
        let after = try db.verify()
        XCTAssertEqual(after.areaPages, 0)
        XCTAssertGreaterThan(after.freePages, before.freePages)
        // The area-counts tree is empty.
        try db.read { r in
            XCTAssertEqual(try Catalog.lookup("", root: r.catalogRoot, r.access)?.count ?? 0, 0)
        }
    }

    func testAreasAllocatedAndReleasedInOneTransactionLeaveNothing() throws {
        let db = try open(pageSize: 4096)
        defer { db.close() }
        try db.write { w in
            let t = try openTree(w)
            for i in 0..<30 { try put(w, t, i, [areaBytes(i, 0, 0, length: 700)]) }
            for i in 0..<30 { try remove(w, t, i) }
        }
        try assertAreas(db, [:], "all released before the commit")
        XCTAssertEqual(try db.verify().areaPages, 0)
        // An aborted transaction leaves the counts as they were.
        try db.write { w in try put(w, try openTree(w), 1, [areaBytes(1, 0, 0, length: 10)]) }
        let w = try db.beginWrite()
        let t = try openTree(w)
        try put(w, t, 1, [areaBytes(1, 0, 9, length: 3000)])
        try put(w, t, 2, [areaBytes(2, 0, 9, length: 30)])
        w.abort()
        try assertAreas(db, [1: [areaBytes(1, 0, 0, length: 10)]], "after an abort")
    }

    func testOnlyATransactionsOwnAreasChangeInPlace() throws {
        let db = try open(pageSize: 4096)
        defer { db.close() }
        var committed: AreaReference? = nil
        try db.write { w in
            let t = try openTree(w)
            try put(w, t, 1, [areaBytes(1, 0, 0, length: 100)])
            committed = try references(try XCTUnwrap(try w.get(key(1), in: t)))[0]
        }
        try db.write { w in
            let t = try openTree(w)
            XCTAssertNil(try w.writableArea(try XCTUnwrap(committed)), "a committed area is copied, never changed")
            XCTAssertNil(try w.resizeArea(try XCTUnwrap(committed), to: 50))
            let (ref, p) = try w.allocateArea(length: 16)
            p.initializeMemory(as: UInt8.self, repeating: 7, count: 16)
            let q = try XCTUnwrap(try w.writableArea(ref))
            q.storeBytes(of: 9, toByteOffset: 3, as: UInt8.self)
            // The last area of the page grows and shrinks in place.
            let grown = try XCTUnwrap(try w.resizeArea(ref, to: 64))
            XCTAssertEqual(grown.page, ref.page)
            XCTAssertEqual(grown.offset, ref.offset)
            XCTAssertEqual(grown.length, 64)
            let shrunk = try XCTUnwrap(try w.resizeArea(grown, to: 8))
            XCTAssertEqual(Array(try w.area(shrunk)), [7, 7, 7, 9, 7, 7, 7, 7])
            // Not the last area any more: no resize.
            _ = try w.allocateArea(length: 8).0
            XCTAssertNil(try w.resizeArea(shrunk, to: 16))
            try w.put(key(2), valueReferring(to: [shrunk]), in: t)
            // The second area is never referred to: it is not kept, and not counted.
        }
        try assertAreas(
            db, [1: [areaBytes(1, 0, 0, length: 100)], 2: [[7, 7, 7, 9, 7, 7, 7, 7]]], "after in-place changes")
        XCTAssertThrowsError(try db.write { w in _ = try w.allocateArea(length: 5000) }) { error in
            guard case .valueTooLarge(5000, let limit) = error as? StorageError else { return XCTFail("\(error)") }
            XCTAssertEqual(limit, 4096 - 32)
        }
    }

    func testASnapshotKeepsReadingTheAreasAWriterReleased() throws {
        let db = try open(pageSize: 4096)
        defer { db.close() }
        var model: AreaModel = [:]
        try db.write { w in
            let t = try openTree(w)
            for i in 0..<50 {
                model[i] = [areaBytes(i, 0, 0, length: 300), areaBytes(i, 1, 0, length: 40)]
                try put(w, t, i, model[i]!)
            }
        }
        let snapshot = try db.beginRead()
        // The writer replaces every area many times over: the old pages are freed but must not be
        // reused while the snapshot can reach them.
        for generation in 1...6 {
            try db.write { w in
                let t = try openTree(w)
                for i in 0..<50 { try put(w, t, i, [areaBytes(i, 0, generation, length: 300)]) }
            }
        }
        let t = try XCTUnwrap(try snapshot.tree(named: "t"))
        var seen = 0
        try snapshot.forEach(in: t) { k, v in
            let i = Int(Array(k).reduce(UInt64(0)) { $0 << 8 | UInt64($1) })
            XCTAssertEqual(try self.references(Array(v)).map { Array(try snapshot.area($0)) }, model[i])
            seen += 1
            return true
        }
        XCTAssertEqual(seen, 50)
        snapshot.end()
        try db.write { _ in }
        try db.write { _ in }
        try assertAreas(
            db, Dictionary(uniqueKeysWithValues: (0..<50).map { ($0, [areaBytes($0, 0, 6, length: 300)]) }),
            "after the snapshot ended")
    }

    func testDamagedReferencesAndCountsAreErrorsNotReads() throws {
        let db = try open(pageSize: 4096)
        defer { db.close() }
        try db.write { w in
            let t = try openTree(w)
            for i in 0..<10 { try put(w, t, i, [areaBytes(i, 0, 0, length: 200)]) }
        }
        let good = try db.read { r in
            try references(try XCTUnwrap(try r.get(key(3), in: try XCTUnwrap(r.tree(named: "t")))))[0]
        }
        let root = try db.read { r in try XCTUnwrap(r.tree(named: "t")).root }
        // References a reader must refuse: a leaf page, past the page's areas, misaligned, past the file.
        let forged = [
            AreaReference(page: root, offset: 32, length: 8),
            AreaReference(page: good.page, offset: 4000, length: 64),
            AreaReference(page: good.page, offset: good.offset + 1, length: 8),
            AreaReference(page: 1_000_000, offset: 32, length: 8),
        ]
        for ref in forged {
            XCTAssertThrowsError(try db.read { r in try r.area(ref) }, "\(ref)") { error in
                guard case .corruptPage = error as? StorageError else { return XCTFail("\(error)") }
            }
        }
        // Storing a value that refers to something other than an area is refused, and changes nothing.
        for ref in forged {
            XCTAssertThrowsError(
                try db.write { w in
                    try w.put(key(100), valueReferring(to: [ref]), in: try openTree(w))
                }, "\(ref)"
            ) { error in
                guard case .corruptPage = error as? StorageError else { return XCTFail("\(error)") }
            }
        }
        XCTAssertNil(try readAreas(db)[100])
        // Two values that refer to one area: verify names the page.
        try db.write { w in
            try w.put(key(100), valueReferring(to: [good]), in: try openTree(w))
        }
        XCTAssertThrowsError(try db.verify()) { error in
            guard case .corruptPage(_, let page, let reason) = error as? StorageError else {
                return XCTFail("\(error)")
            }
            XCTAssertEqual(page, good.page)
            XCTAssertTrue(reason.contains("overlaps"), reason)
        }
        try db.write { w in XCTAssertTrue(try w.delete(key(100), in: try openTree(w))) }
        XCTAssertEqual(try db.verify().leakedPages, [])
        // An area allocated and never stored is not kept.
        try db.write { w in _ = try w.allocateArea(length: 12) }
        XCTAssertEqual(try db.verify().leakedPages, [])
        // Counts that disagree with the references (damage): verify says which page and how.
        try db.write { w in
            let counts = try XCTUnwrap(try w.areaCountsTree(create: false))
            var wrong = [UInt8](repeating: 0, count: 8)
            AreaCountsLayout.encode(areas: 3, bytes: 600, into: &wrong)
            try w.put(AreaCountsLayout.key(good.page), wrong, in: counts)
        }
        XCTAssertThrowsError(try db.verify()) { error in
            guard case .corruptPage(_, let page, let reason) = error as? StorageError else {
                return XCTFail("\(error)")
            }
            XCTAssertEqual(page, good.page)
            XCTAssertTrue(reason.contains("the area-counts tree says 3"), reason)
        }
        // A commit that removes more references than the counts hold fails and changes nothing.
        XCTAssertThrowsError(
            try db.write { w in
                let t = try openTree(w)
                for i in 0..<10 { XCTAssertTrue(try w.delete(key(i), in: t)) }
            }
        ) { error in
            guard case .corruptPage(_, let page, let reason) = error as? StorageError else {
                return XCTFail("\(error)")
            }
            XCTAssertEqual(page, good.page)
            XCTAssertTrue(reason.contains("damaged counts"), reason)
        }
        XCTAssertEqual(try readAreas(db)[3], [areaBytes(3, 0, 0, length: 200)])
    }

    func testAReferenceKeptAfterItsAreaWasFreedIsRefusedAtTheCommit() throws {
        let db = try open(pageSize: 4096)
        defer { db.close() }
        try db.write { w in try put(w, try openTree(w), 1, [areaBytes(1, 0, 0, length: 64)]) }
        let stale = try db.read { r in
            try references(try XCTUnwrap(try r.get(key(1), in: try XCTUnwrap(r.tree(named: "t")))))[0]
        }
        try db.write { w in _ = try w.delete(key(1), in: try openTree(w)) }
        XCTAssertEqual(try db.verify().areaPages, 0)
        XCTAssertThrowsError(try db.write { w in try w.put(key(2), valueReferring(to: [stale]), in: try openTree(w)) })
        {
            error in
            guard case .corruptPage(_, let page, let reason) = error as? StorageError else {
                return XCTFail("\(error)")
            }
            XCTAssertEqual(page, stale.page)
            XCTAssertTrue(reason.contains("a reference kept after its area was gone"), reason)
        }
        XCTAssertEqual(try readAreas(db), [:])
        XCTAssertEqual(try db.verify().leakedPages, [])
    }

    func testOnlyValuesInALeafReferToAreas() throws {
        let db = try open(pageSize: 4096)
        defer { db.close() }
        // A large value without references goes to an overflow run like any value.
        var large = [UInt8](repeating: 7, count: 9000)
        large[0] = 0
        try db.write { w in try w.put(key(1), large, in: try openTree(w)) }
        XCTAssertEqual(try db.read { r in try r.get(key(1), in: try XCTUnwrap(r.tree(named: "t"))) }, large)
        XCTAssertEqual(try db.verify().leakedPages, [])
        // One that begins with references and does not fit its leaf is refused.
        XCTAssertThrowsError(
            try db.write { w in
                var value = [UInt8](repeating: 0, count: 3000)
                value[0] = 1
                try w.put(key(2), value, in: try openTree(w))
            }
        ) { error in
            guard case .valueTooLarge(3000, _) = error as? StorageError else { return XCTFail("\(error)") }
        }
        // An edit in place may not give the large value references.
        XCTAssertThrowsError(
            try db.write { w in
                let t = try openTree(w)
                _ = try key(1).withUnsafeBytes { k in try w.mutateInPlace(k, in: t) { $0[0] = 1 } }
            }
        ) { error in
            guard case .corruptPage = error as? StorageError else { return XCTFail("\(error)") }
        }
        XCTAssertEqual(try db.read { r in try r.get(key(1), in: try XCTUnwrap(r.tree(named: "t"))) }, large)
    }

    func testDroppingATreeReleasesItsAreas() throws {
        let db = try open(pageSize: 4096)
        defer { db.close() }
        try db.write { w in
            let t = try openTree(w)
            for i in 0..<60 { try put(w, t, i, [areaBytes(i, 0, 0, length: 900)]) }
            let u = try w.openTree("u", create: true, holdsAreas: true)
            try put(w, u, 1, [areaBytes(1, 0, 0, length: 50)])
        }
        XCTAssertGreaterThan(try db.verify().areaPages, 10)
        try db.write { w in try w.dropTree("t") }
        let report = try db.verify()
        XCTAssertEqual(report.leakedPages, [])
        XCTAssertEqual(report.areaPages, 1)
        XCTAssertEqual(try readAreas(db, "u"), [1: [areaBytes(1, 0, 0, length: 50)]])
        // A tree created again under the name is empty and holds areas as asked.
        try db.write { w in
            let t = try w.openTree("t", create: true, holdsAreas: false)
            XCTAssertFalse(w.tree(t).holdsAreas)
        }
    }

    func testCompactMovesAreaPagesAndRepointsTheirReferences() throws {
        let db = try open(pageSize: 4096)
        defer { db.close() }
        var model: AreaModel = [:]
        try db.write { w in
            let t = try openTree(w)
            let filler = try w.openTree("filler", create: true)
            for i in 0..<400 { try w.put(key(i), [UInt8](repeating: 1, count: 900), in: filler) }
            for i in 0..<120 {
                model[i] = [areaBytes(i, 0, 0, length: 1500), areaBytes(i, 1, 0, length: 20)]
                try put(w, t, i, model[i]!)
            }
        }
        // Free the low pages: the areas sit above them.
        try db.write { w in try w.dropTree("filler") }
        let before = try db.verify()
        let pagesBefore = try areaPages(db)
        let report = try db.compact()
        let pagesAfter = try areaPages(db)
        XCTAssertEqual(pagesAfter.count, pagesBefore.count)
        XCTAssertLessThan(
            try XCTUnwrap(pagesAfter.max()), try XCTUnwrap(pagesBefore.min()), "every area page moved down")
        XCTAssertLessThan(report.bytesAfter, report.bytesBefore)
        try assertAreas(db, model, "after compact")
        let after = try db.verify()
        XCTAssertEqual(after.areaPages, before.areaPages)
        XCTAssertLessThan(after.pageCount, before.pageCount)
        // And again after a rebuild of every tree.
        try db.compact(rebuildingTrees: true)
        try assertAreas(db, model, "after compact(rebuildingTrees:)")
    }

    func testWriteCopyCopiesTheAreasIntoTheNewFile() throws {
        let db = try open(pageSize: 4096)
        defer { db.close() }
        var model: AreaModel = [:]
        try db.write { w in
            let t = try openTree(w)
            for i in 0..<200 {
                model[i] = (0..<(1 + i % 3)).map { areaBytes(i, $0, 0, length: 1 + (i * 53 + $0) % 1200) }
                try put(w, t, i, model[i]!)
            }
        }
        _ = try db.read { try $0.writeCopy(toPath: path("copy.strata")) }
        _ = try db.write { try $0.writeCopy(toPath: path("copy2.strata"), encryptionKey: secretKey) }
        let copy = try open("copy.strata")
        try assertAreas(copy, model, "the copy")
        copy.close()
        var o = Database.Options()
        o.encryptionKey = secretKey
        o.mapReserve = 64 << 20
        let encrypted = try Database(path: path("copy2.strata"), options: o)
        try assertAreas(encrypted, model, "the encrypted copy")
        encrypted.close()
    }

    func testAreasInAnEncryptedFile() throws {
        var o = Database.Options()
        o.encryptionKey = secretKey
        o.mapReserve = 64 << 20
        var db = try Database(path: path("enc.strata"), options: o)
        var model: AreaModel = [:]
        for generation in 0..<3 {
            try db.write { w in
                let t = try openTree(w)
                for i in 0..<150 where i % 3 != generation {
                    model[i] = [areaBytes(i, 0, generation, length: 1 + (i * 29) % 2000)]
                    try put(w, t, i, model[i]!)
                }
            }
        }
        try assertAreas(db, model, "encrypted")
        db.close()
        db = try Database(path: path("enc.strata"), options: o)
        try assertAreas(db, model, "encrypted, reopened")
        db.close()
    }

    /// Random commits that allocate, replace and release areas: after each, the file as a kill
    /// would leave it opens at that version with its areas; files a power cut could leave between
    /// two durable commits open at one of the two, whole, and verify.
    func testKillsAndPowerCutsDuringAreaCommitsOpenAtAWholeVersion() throws {
        var rng = SeededRandom(seed: 0xA7EA)
        let db = try open("crash.strata", pageSize: 4096)
        defer { db.close() }
        var model: AreaModel = [:]
        var versions: [UInt64: AreaModel] = [:]
        var previousImage = try image(db.path)
        var previousVersion = db.latestVersion.rawValue
        versions[previousVersion] = model
        for round in 0..<12 {
            try db.write { w in
                let t = try openTree(w)
                for _ in 0..<(20 + rng.below(120)) {
                    let i = rng.below(300)
                    switch rng.below(10) {
                    case 0..<2:
                        try remove(w, t, i)
                        model[i] = nil
                    default:
                        let areas = (0..<rng.below(4)).map { areaBytes(i, $0, round, length: 1 + rng.below(1800)) }
                        try put(w, t, i, areas)
                        model[i] = areas
                    }
                }
            }
            let version = db.latestVersion.rawValue
            versions[version] = model
            let now = try image(db.path)
            let killed = try openCopy(now, "kill-\(round).strata")
            XCTAssertEqual(killed.latestVersion.rawValue, version, "round \(round): a kill opens at the wrong version")
            try assertAreas(killed, model, "round \(round), after a kill")
            killed.close()
            for (m, mix) in powerCutMixes(previousImage, now, pageSize: 4096, count: 4, &rng).enumerated() {
                let cut = try openCopy(mix, "cut-\(round)-\(m).strata")
                let at = cut.latestVersion.rawValue
                XCTAssertTrue(at == version || at == previousVersion, "round \(round) mix \(m): opened at \(at)")
                try assertAreas(cut, versions[at] ?? [:], "round \(round) mix \(m), at \(at)")
                cut.close()
            }
            previousImage = now
            previousVersion = version
        }
    }
}
