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

/// Large commits after deferred groups that left young pages, with a held snapshot,
/// `commitAndContinue` and readers on another thread: every version survives a kill and a power cut.
final class DeferredGroupReorderTests: CommitReorderTestCase {
    /// Durable base, then a deferred group whose second commit drops a large tree (its pages are
    /// young and reusable), then large commits that take those young pages (past the private
    /// table: written through the map) and pack and move them. Every state must open from the
    /// page cache as after a SIGKILL; before the group's sync, every mix of the durable file and
    /// the page cache (a power cut) opens at the durable version or the newest one, with its data.
    func testDeferredGroupThenLargeCommitsSurviveAKillAndAPowerCut() throws {
        for finalDurability in [Durability.deferred, .full] {
            let name = "young-\(finalDurability).strata"
            let db = try open(name)
            var rng = SeededRandom(seed: finalDurability == .full ? 1 : 2)
            var model: Model = [:]
            try db.write { txn in
                let t = try txn.openTree("t", create: true)
                for i in rng.shuffled(Array(0..<3_000)) {
                    let v = randomValue(&rng, pageSize: 4096, tag: i, packable: true)
                    try txn.put(key(i), v, in: t)
                    model["t", default: [:]][key(i)] = v
                }
            }
            let durable = db.latestVersion.rawValue
            let durableImage = try image(db.path)
            var models: [UInt64: Model] = [durable: model]
            let snapshot = try db.beginRead()
            try db.write(durability: .deferred) { txn in
                let b = try txn.openTree("big", create: true)
                for i in 0..<2_500 { try txn.put(key(i), Array(repeating: 3, count: 200), in: b) }
            }
            snapshot.end()
            try db.write(durability: .deferred) { txn in try txn.dropTree("big") }
            try assertKillOpensAt(db, db.latestVersion.rawValue, model, "\(finalDurability): control")

            for round in 0..<3 {
                let txn = try db.beginWrite()
                let young = txn.free.youngPool.count
                try randomLargeChanges(
                    txn, &model, ["t", "u"], keySpace: 6_000, ops: 2_500, deleteShare: 15, &rng, round: round + 1)
                if round == 0 {
                    XCTAssertGreaterThan(young, 100, "setup: the dropped tree's pages are young and reusable")
                    XCTAssertGreaterThan(txn.youngTaken.count, 64, "setup: the commit writes young pages")
                    XCTAssertNotEqual(
                        txn.shadow.pointee.generation, txn.access.shadowGeneration,
                        "setup: the commit spilled into the map")
                }
                let durability: Durability = round == 2 ? finalDurability : .deferred
                try txn.commit(durability: durability)
                models[db.latestVersion.rawValue] = model
                try assertHolds(db, model, "\(finalDurability) round \(round)")
                try assertPackedAndOrdered(db, "t", "\(finalDurability) round \(round)")
                try assertKillOpensAt(db, db.latestVersion.rawValue, model, "\(finalDurability) round \(round)")
                if round == 1 {
                    XCTAssertEqual(db.durableVersion.rawValue, durable)
                    let newest = db.latestVersion.rawValue
                    for (m, mix) in powerCutMixes(durableImage, try image(db.path), pageSize: 4096, count: 6, &rng)
                        .enumerated()
                    {
                        let cut = try openCopy(mix, "mix-\(m).strata")
                        let v = cut.latestVersion.rawValue
                        XCTAssertTrue(
                            v == durable || v == newest,
                            "\(finalDurability) mix \(m): opened at \(v), not \(durable) or \(newest)")
                        if m == 0 { XCTAssertEqual(v, durable, "mix 0 has none of the group's pages") }
                        if m == 5 { XCTAssertEqual(v, newest, "mix 5 is the page cache") }
                        try assertHolds(cut, models[v] ?? [:], "\(finalDurability) mix \(m) at version \(v)")
                        cut.close()
                    }
                }
            }
            try db.sync()
            try assertKillOpensAt(db, db.latestVersion.rawValue, model, "\(finalDurability) after sync")
            // A small full commit after the group.
            try db.write { txn in try txn.put(key(1), [1], in: txn.openTree("t")) }
            model["t"]![key(1)] = [1]
            try assertKillOpensAt(db, db.latestVersion.rawValue, model, "\(finalDurability) after a full commit")
            db.close()
            let reopened = try open(name)
            try assertHolds(reopened, model, "\(finalDurability) reopened")
            reopened.close()
        }
    }

    /// `commitAndContinue` chains large deferred commits (each new transaction starts from the
    /// state the previous commit's steps 0 and 5 left), ending with a full one.
    func testCommitAndContinueChainOfLargeCommits() throws {
        let db = try open()
        var rng = SeededRandom(seed: 31)
        var model: Model = [:]
        var txn = try db.beginWrite()
        for round in 0..<4 {
            try randomLargeChanges(
                txn, &model, ["t", "u", "v"], keySpace: 8_000, ops: 2_500, deleteShare: round == 0 ? 0 : 25, &rng,
                round: round)
            if round == 3 {
                try txn.commit(durability: .full)
            } else {
                txn = try txn.commitAndContinue(durability: .deferred).1
            }
        }
        try assertHolds(db, model, "after the chain")
        try assertPackedAndOrdered(db, "t", "after the chain")
        try assertKillOpensAt(db, db.latestVersion.rawValue, model, "after the chain")
        db.close()
        let reopened = try open()
        try assertHolds(reopened, model, "reopened")
        reopened.close()
    }

    /// Readers on another thread scan the tree while large commits (steps 0 and 5) run: each
    /// snapshot must read exactly the version it pinned.
    func testReadersOnAnotherThreadReadTheirVersionDuringLargeCommits() throws {
        final class Shared: @unchecked Sendable {
            let lock = NSLock()
            var models: [UInt64: [[UInt8]: [UInt8]]] = [:]
            var stop = false
            var reads = 0
            var problems: [String] = []
        }
        let db = try open()
        let shared = Shared()
        var rng = SeededRandom(seed: 64)
        var model: Model = [:]
        try db.write { txn in
            let t = try txn.openTree("t", create: true)
            for i in rng.shuffled(Array(0..<3_000)) {
                let v = randomValue(&rng, pageSize: 4096, tag: i, packable: true)
                try txn.put(key(i), v, in: t)
                model["t", default: [:]][key(i)] = v
            }
        }
        shared.models[db.latestVersion.rawValue] = model["t"]
        let done = DispatchSemaphore(value: 0)
        let reader = Thread {
            while true {
                shared.lock.lock()
                let stop = shared.stop
                shared.lock.unlock()
                if stop { break }
                do {
                    try db.read { r in
                        var got: [[UInt8]: [UInt8]] = [:]
                        if let t = try r.tree(named: "t") {
                            try r.forEachLeaf(in: t) { leaf in
                                for i in 0..<leaf.count {
                                    let (k, v) = try leaf.inlineEntry(i) ?? leaf.entry(i)
                                    got[Array(k)] = Array(v)
                                }
                                return true
                            }
                        }
                        shared.lock.lock()
                        defer { shared.lock.unlock() }
                        shared.reads += 1
                        if shared.models[r.version.rawValue] != got {
                            shared.problems.append("version \(r.version.rawValue) read differently")
                        }
                    }
                } catch {
                    shared.lock.lock()
                    shared.problems.append("\(error)")
                    shared.lock.unlock()
                }
            }
            done.signal()
        }
        reader.start()
        for round in 0..<4 {
            let txn = try db.beginWrite()
            try randomLargeChanges(txn, &model, ["t"], keySpace: 5_000, ops: 2_000, deleteShare: 20, &rng, round: round)
            shared.lock.lock()
            shared.models[txn.version.rawValue] = model["t"]
            shared.lock.unlock()
            try txn.commit(durability: round % 2 == 0 ? .deferred : .full)
        }
        shared.lock.lock()
        shared.stop = true
        shared.lock.unlock()
        done.wait()
        XCTAssertEqual(shared.problems, [])
        XCTAssertGreaterThan(shared.reads, 2)
        try assertHolds(db, model, "after the commits")
        db.close()
    }

    /// A large commit whose dirty run under a root branch fits one leaf: step 0 packs it into
    /// one, leaving a root branch with a single child. Later small and large changes, floor
    /// lookups and emptying the tree must work on that shape.
    func testARunPackedIntoOneLeafUnderTheRootKeepsWorking() throws {
        let db = try open()
        var model: [[UInt8]: [UInt8]] = [:]
        let value = [UInt8](repeating: 5, count: 30)  // cell 44 bytes + slot: 88 per leaf
        try db.write { txn in
            let t = try txn.openTree("two", create: true)
            for i in 0..<150 { try txn.put(key(i), value, in: t); model[key(i)] = value }
        }
        XCTAssertEqual(try db.verify().depths["two"], 2, "setup: two leaves under a root branch")
        try db.write { txn in
            let big = try txn.openTree("big", create: true)
            for i in 0..<6_000 { try txn.put(key(i), value, in: big) }
            let t = try txn.openTree("two")
            // Each leaf stays above a quarter full (no merge); together they fit one leaf.
            for i in 0..<150 where (i < 88 && i % 11 >= 5) || (i >= 88 && i % 2 == 1) {
                XCTAssertTrue(try txn.delete(key(i), in: t))
                model[key(i)] = nil
            }
        }
        var leaves = 0
        try db.read { r in
            try r.forEachLeaf(in: XCTUnwrap(r.tree(named: "two"))) { _ in
                leaves += 1; return true
            }
        }
        XCTAssertEqual(leaves, 1, "setup: step 0 packed the two leaves into one")
        XCTAssertEqual(try db.verify().depths["two"], 2, "a root branch with one child")
        try assertHolds(db, ["two": model], "packed", extraNames: [])
        // Floor lookups across the whole range.
        try db.read { r in
            let t = try XCTUnwrap(r.tree(named: "two"))
            let keys = model.keys.sorted { $0.lexicographicallyPrecedes($1) }
            for probe in 0..<160 {
                let expected = keys.last { !key(probe).lexicographicallyPrecedes($0) }
                let got = try key(probe).withUnsafeBytes { try r.floor($0, in: t) }.map { Array($0.key) }
                XCTAssertEqual(got, expected, "floor(\(probe))")
            }
        }
        // Small changes: inserts that split the leaf again, deletes.
        var rng = SeededRandom(seed: 8)
        for round in 0..<10 {
            try db.write { txn in
                let t = try txn.openTree("two")
                for _ in 0..<12 {
                    let i = rng.below(300)
                    if rng.below(3) == 0 {
                        if try txn.delete(key(i), in: t) { model[key(i)] = nil }
                    } else {
                        let v = [UInt8](repeating: UInt8(round), count: 10 + rng.below(50))
                        try txn.put(key(i), v, in: t)
                        model[key(i)] = v
                    }
                }
            }
            try assertHolds(db, ["two": model], "small round \(round)")
        }
        // Empty it in a large commit, then in a small one fill and empty it again.
        try db.write { txn in
            let big = try txn.openTree("big")
            for i in 0..<6_000 { try txn.put(key(i), [1], in: big) }
            let t = try txn.openTree("two")
            for k in model.keys { XCTAssertTrue(try txn.delete(k, in: t)) }
        }
        model = [:]
        try assertHolds(db, [:], "emptied", extraNames: ["two"])
        XCTAssertEqual(try db.verify().trees["two"], 0)
        db.close()
    }
}
