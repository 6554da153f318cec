import Foundation
@testable import Strata
import XCTest

// Change sets checked against a model: random inserts, deletes, modifications and moves in sort
// order, committed from another thread in bursts that land between two notifier rounds (so they
// are coalesced); after each delivery, removing the deleted indices from the previously
// delivered array and inserting the new elements at the inserted indices must give exactly the
// new array, and every kept object whose value changed must be reported (as a modification, or
// as a move).

class ModelItem: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var score = 0
    @Persisted var note = ""
}

final class ChangeSetModelTests: SeedTestCase {
    private func settle(_ realm: Realm) {
        realm.file.notifier.waitForRound()
        let end = Date(timeIntervalSinceNow: 0.02)
        while Date() < end { _ = RunLoop.current.run(mode: .default, before: Date(timeIntervalSinceNow: 0.002)) }
    }

    /// A small deterministic generator (SplitMix64), so a failure can be replayed.
    private struct Generator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    private func runModel(seed: UInt64, rounds: Int, makeResults: (Realm) -> Results<ModelItem>) throws {
        // A file per seed: a realm of the previous seed's file may still be cached.
        let realm = try open("model-\(seed).realm")
        let config = self.config("model-\(seed).realm")
        let worker = WorkerThread("writer")
        defer { worker.stop() }
        worker.sync { _ = try! Realm(configuration: config) }
        let results = makeResults(realm)
        struct Delivery {
            var ids: [Int]; var scores: [Int: Int]; var notes: [Int: String]; var d: [Int]; var i: [Int]; var m: [Int]
        }
        var deliveries: [Delivery] = []
        var initial: Delivery?
        func snapshot(_ r: Results<ModelItem>) -> ([Int], [Int: Int], [Int: String]) {
            var scores: [Int: Int] = [:], notes: [Int: String] = [:]
            for o in r { scores[o.id] = o.score; notes[o.id] = o.note }
            return (r.map(\.id), scores, notes)
        }
        let token = results.observe { change in
            switch change {
            case .initial(let r):
                let (ids, s, n) = snapshot(r)
                initial = Delivery(ids: ids, scores: s, notes: n, d: [], i: [], m: [])
            case .update(let r, let d, let i, let m):
                let (ids, s, n) = snapshot(r)
                deliveries.append(Delivery(ids: ids, scores: s, notes: n, d: d, i: i, m: m))
            case .error(let e): XCTFail("\(e)")
            }
        }
        defer { token.invalidate() }
        spin(until: { initial != nil })
        var previous = initial!
        var rng = Generator(state: seed)
        var nextID = 1
        let notifier = realm.file.notifier
        for round in 0..<rounds {
            notifier.pause()
            let commits = Int.random(in: 1...3, using: &rng)
            for _ in 0..<commits {
                var ops: [(kind: Int, id: Int, score: Int)] = []
                for _ in 0..<Int.random(in: 1...4, using: &rng) {
                    ops.append(
                        (
                            Int.random(in: 0..<4, using: &rng), Int.random(in: 1...max(1, nextID), using: &rng),
                            Int.random(in: 0..<20, using: &rng)
                        ))
                }
                let firstNew = nextID
                nextID += ops.filter { $0.kind == 0 }.count
                let batch = ops
                worker.sync {
                    let r = try! Realm(configuration: config)
                    try! r.write {
                        var newID = firstNew
                        for op in batch {
                            switch op.kind {
                            case 0:
                                r.add(ModelItem(value: ["id": newID, "score": op.score]))
                                newID += 1
                            case 1:
                                if let o = r.object(ofType: ModelItem.self, forPrimaryKey: op.id) { r.delete(o) }
                            case 2:
                                r.object(ofType: ModelItem.self, forPrimaryKey: op.id)?.score = op.score
                            default:
                                r.object(ofType: ModelItem.self, forPrimaryKey: op.id)?.note = "n\(op.score)"
                            }
                        }
                    }
                }
            }
            let before = deliveries.count
            notifier.resume()
            settle(realm)
            let expected = snapshot(makeResults(try! Realm(configuration: config))).0
            guard deliveries.count > before else {
                XCTAssertEqual(
                    previous.ids, expected, "seed \(seed) round \(round): the results changed but nothing was delivered"
                )
                continue
            }
            XCTAssertEqual(deliveries.count, before + 1, "seed \(seed) round \(round): one burst, one change set")
            let now = deliveries.last!
            XCTAssertEqual(
                now.ids, expected, "seed \(seed) round \(round): delivered results are not the newest version")
            let applied = CollectionDiff.apply(
                CollectionDiff(deletions: now.d, insertions: now.i, modifications: now.m), to: previous.ids,
                new: now.ids)
            XCTAssertEqual(
                applied, now.ids,
                "seed \(seed) round \(round): deletions \(now.d) insertions \(now.i) on \(previous.ids)")
            // Kept objects whose value changed: each is a modification (old index) or moved.
            let deleted = Set(now.d.map { previous.ids[$0] })
            let modifiedIDs = Set(now.m.map { previous.ids[$0] })
            for (oldIndex, id) in previous.ids.enumerated() where now.scores[id] != nil {
                let changed = previous.scores[id] != now.scores[id] || previous.notes[id] != now.notes[id]
                if changed {
                    XCTAssertTrue(
                        modifiedIDs.contains(id) || deleted.contains(id),
                        "seed \(seed) round \(round): change of \(id) at \(oldIndex) not reported")
                }
                if modifiedIDs.contains(id) { XCTAssertFalse(deleted.contains(id)) }
            }
            XCTAssertEqual(now.m, now.m.sorted())
            XCTAssertTrue(now.m.allSatisfy { $0 < previous.ids.count })
            previous = now
        }
    }

    func testSortedFilteredResultsChangeSetsRebuildTheNewArray() throws {
        for seed: UInt64 in [1, 2] {
            try runModel(seed: seed, rounds: 40) {
                $0.objects(ModelItem.self).filter("score >= 5").sorted(by: [
                    SortDescriptor(keyPath: "score"), SortDescriptor(keyPath: "id", ascending: false),
                ])
            }
            tearDown(); setUp()
        }
    }

    func testKeyOrderFilteredResultsChangeSetsRebuildTheNewArray() throws {
        for seed: UInt64 in [3, 4] {
            try runModel(seed: seed, rounds: 40) { $0.objects(ModelItem.self).filter("score >= 5") }
            tearDown(); setUp()
        }
    }

    /// The path commits of other processes take: no change records, the versions' leaves compared.
    func testChangeSetsWithoutCommitRecordsRebuildTheNewArray() throws {
        FileNotifier.ignoresRecords = true
        defer { FileNotifier.ignoresRecords = false }
        try runModel(seed: 5, rounds: 30) { $0.objects(ModelItem.self).filter("score >= 5").sorted(byKeyPath: "score") }
        tearDown(); setUp()
        try runModel(seed: 6, rounds: 30) { $0.objects(ModelItem.self).filter("score >= 5") }
    }

    func testDiffOfShuffledKeysRebuildsTheNewArray() {
        var rng = Generator(state: 7)
        for _ in 0..<300 {
            let old = Array(
                Set((0..<Int.random(in: 0...30, using: &rng)).map { _ in Int64.random(in: 0..<50, using: &rng) })
            ).shuffled(using: &rng)
            let new = Array(
                Set((0..<Int.random(in: 0...30, using: &rng)).map { _ in Int64.random(in: 0..<50, using: &rng) })
            ).shuffled(using: &rng)
            let diff = CollectionDiff.between(old, new, isModified: { $0 % 3 == 0 })
            XCTAssertEqual(CollectionDiff.apply(diff, to: old, new: new), new)
            XCTAssertEqual(diff.deletions, diff.deletions.sorted())
            XCTAssertEqual(diff.insertions, diff.insertions.sorted())
            for m in diff.modifications { XCTAssertTrue(new.contains(old[m]) && old[m] % 3 == 0) }
        }
    }
}
