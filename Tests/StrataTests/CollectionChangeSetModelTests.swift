import Foundation
@testable import Strata
import XCTest

// Change sets of collection properties checked against a model: random edits of a List of
// objects, a List of values, a Map of objects and a Map of values (appends, inserts, removals,
// moves, replacements, clears, edits and deletions of the linked objects), committed from
// another thread in bursts that land between two notifier rounds (so they are coalesced).
// After each delivery: the delivered collection is the newest version; for a list, removing
// the deleted indices from the previously delivered array and inserting the new elements at the
// inserted indices gives exactly the new array; for a map, the old keys less the deleted plus the
// inserted are the new keys; every kept element whose value (or linked object) changed is
// reported modified, and nothing untouched is.

class ModelBag: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var items: List<ModelItem>
    @Persisted var numbers: List<Int>
    @Persisted var byName: Map<String, ModelItem?>
    @Persisted var counts: Map<String, Int>
}

final class CollectionChangeSetModelTests: SeedTestCase {
    /// What one observer saw: the elements (object ids, or values) and, for objects, what each
    /// linked object held, with the change set that led there.
    private struct ListSeen {
        var elements: [Int]
        var objects: [Int: String]
        var d: [Int] = [], i: [Int] = [], m: [Int] = []
    }

    private struct MapSeen {
        var entries: [String: Int]
        var objects: [Int: String]
        var d: [String] = [], i: [String] = [], m: [String] = []
    }

    /// One observer's deliveries, appended on the main thread.
    private final class Log<Seen> {
        var initial: Seen?
        var updates: [Seen] = []
        var errors: [String] = []
    }

    private static func state(_ o: ModelItem) -> String { "\(o.score)/\(o.note)" }

    private static func seen(_ list: List<ModelItem>) -> ListSeen {
        var objects: [Int: String] = [:]
        for o in list { objects[o.id] = state(o) }
        return ListSeen(elements: list.map(\.id), objects: objects)
    }

    /// What an observer watching only `score` tells apart.
    private static func seenScores(_ list: List<ModelItem>) -> ListSeen {
        var objects: [Int: String] = [:]
        for o in list { objects[o.id] = "\(o.score)" }
        return ListSeen(elements: list.map(\.id), objects: objects)
    }

    private static func seen(_ map: Map<String, ModelItem?>) -> MapSeen {
        var entries: [String: Int] = [:], objects: [Int: String] = [:]
        for (k, v) in map {
            entries[k] = v?.id ?? -1
            if let v { objects[v.id] = state(v) }
        }
        return MapSeen(entries: entries, objects: objects)
    }

    private static func seen(_ map: Map<String, Int>) -> MapSeen {
        var entries: [String: Int] = [:]
        for (k, v) in map { entries[k] = v }
        return MapSeen(entries: entries, objects: [:])
    }

    /// Which objects a burst wrote, and which properties of them.
    private struct Touched {
        var score = Set<Int>()
        var note = Set<Int>()
        var any: Set<Int> { score.union(note) }
    }

    private func settle(_ realm: Realm) {
        realm.file.notifier.waitForRound()
        spin(for: 0.02)
    }

    // MARK: Checks

    /// Checks a list delivery against the previous one; `watched` gives the objects whose
    /// changes count as modifications (nil: a list of values, where only membership changes).
    private func checkList(
        _ label: String, previous: ListSeen, now: ListSeen, expected: [Int], touched: Set<Int>?
    ) {
        XCTAssertEqual(now.elements, expected, "\(label): the delivered list is not the newest version")
        let applied = CollectionDiff.apply(
            CollectionDiff(deletions: now.d, insertions: now.i, modifications: now.m), to: previous.elements,
            new: now.elements)
        XCTAssertEqual(
            applied, now.elements,
            "\(label): deletions \(now.d) insertions \(now.i) do not turn \(previous.elements) into \(now.elements)")
        XCTAssertEqual(now.d, now.d.sorted(), label)
        XCTAssertEqual(now.i, now.i.sorted(), label)
        XCTAssertEqual(now.m, now.m.sorted(), label)
        XCTAssertTrue(now.m.allSatisfy { $0 >= 0 && $0 < previous.elements.count }, "\(label): \(now.m)")
        XCTAssertTrue(Set(now.m).isDisjoint(with: now.d), "\(label): modified and deleted \(now.m) \(now.d)")
        let deleted = Set(now.d)
        for (index, id) in previous.elements.enumerated() where !deleted.contains(index) {
            if let touched {
                if previous.objects[id] != now.objects[id] {
                    XCTAssertTrue(
                        now.m.contains(index),
                        "\(label): object \(id) at \(index) changed (\(previous.objects[id] ?? "") -> \(now.objects[id] ?? "")) but \(now.m) does not say so"
                    )
                }
                if now.m.contains(index) {
                    XCTAssertTrue(
                        touched.contains(id), "\(label): object \(id) at \(index) reported modified, not written")
                }
            } else {
                XCTAssertTrue(now.m.isEmpty, "\(label): a list of values reports \(now.m) modified")
            }
        }
    }

    private func checkMap(_ label: String, previous: MapSeen, now: MapSeen, expected: [String: Int], touched: Set<Int>?)
    {
        XCTAssertEqual(now.entries, expected, "\(label): the delivered map is not the newest version")
        let oldKeys = Set(previous.entries.keys), newKeys = Set(now.entries.keys)
        XCTAssertEqual(oldKeys.subtracting(now.d).union(now.i), newKeys, "\(label): -\(now.d) +\(now.i)")
        XCTAssertTrue(Set(now.d).isSubset(of: oldKeys), "\(label): deleted keys \(now.d) were not there")
        XCTAssertTrue(Set(now.i).isDisjoint(with: oldKeys), "\(label): inserted keys \(now.i) were there")
        XCTAssertTrue(Set(now.m).isSubset(of: oldKeys.intersection(newKeys)), "\(label): modified \(now.m)")
        for key in oldKeys.intersection(newKeys) {
            let old = previous.entries[key]!, new = now.entries[key]!
            var changed = old != new
            if touched != nil, !changed, new >= 0 { changed = previous.objects[new] != now.objects[new] }
            if changed {
                XCTAssertTrue(
                    now.m.contains(key),
                    "\(label): '\(key)' changed (\(old) -> \(new), object \(previous.objects[new] ?? "-") -> \(now.objects[new] ?? "-")) but \(now.m) misses it"
                )
            }
            if now.m.contains(key), !changed, let touched {
                XCTAssertTrue(touched.contains(new), "\(label): '\(key)' reported modified, nothing written")
            }
            if now.m.contains(key), touched == nil {
                XCTAssertTrue(changed, "\(label): '\(key)' reported modified, its value is the same")
            }
        }
    }

    // MARK: The model run

    private func runModel(seed: UInt64, rounds: Int) throws {
        let name = "bag-\(seed).realm"
        let realm = try open(name)
        let config = self.config(name)
        try realm.write {
            let bag = realm.create(ModelBag.self, value: ["id": 1])
            for id in 1...6 {
                let o = realm.create(ModelItem.self, value: ["id": id, "score": id])
                bag.items.append(o)
                bag.byName["k\(id)"] = o
                bag.numbers.append(id % 3)
                bag.counts["c\(id)"] = id
            }
        }
        let bag = realm.object(ofType: ModelBag.self, forPrimaryKey: 1)!
        let worker = WorkerThread("writer")
        defer { worker.stop() }
        worker.sync { _ = try! Realm(configuration: config) }

        let items = Log<ListSeen>(), scoresOnly = Log<ListSeen>(), numbers = Log<ListSeen>()
        let byName = Log<MapSeen>(), counts = Log<MapSeen>()
        func record(
            _ log: Log<ListSeen>, _ change: RealmCollectionChange<List<ModelItem>>, _ f: (List<ModelItem>) -> ListSeen
        ) {
            switch change {
            case .initial(let l): log.initial = f(l)
            case .update(let l, let d, let i, let m):
                var s = f(l)
                (s.d, s.i, s.m) = (d, i, m)
                log.updates.append(s)
            case .error(let e): log.errors.append("\(e)")
            }
        }
        var tokens: [NotificationToken] = []
        tokens.append(bag.items.observe { record(items, $0, Self.seen) })
        tokens.append(bag.items.observe(keyPaths: ["score"]) { record(scoresOnly, $0, Self.seenScores) })
        tokens.append(
            bag.numbers.observe { change in
                switch change {
                case .initial(let l): numbers.initial = ListSeen(elements: Array(l), objects: [:])
                case .update(let l, let d, let i, let m):
                    numbers.updates.append(ListSeen(elements: Array(l), objects: [:], d: d, i: i, m: m))
                case .error(let e): numbers.errors.append("\(e)")
                }
            })
        tokens.append(
            bag.byName.observe { change in
                switch change {
                case .initial(let m): byName.initial = Self.seen(m)
                case .update(let m, let d, let i, let mod):
                    var s = Self.seen(m)
                    (s.d, s.i, s.m) = (d, i, mod)
                    byName.updates.append(s)
                case .error(let e): byName.errors.append("\(e)")
                }
            })
        tokens.append(
            bag.counts.observe { change in
                switch change {
                case .initial(let m): counts.initial = Self.seen(m)
                case .update(let m, let d, let i, let mod):
                    var s = Self.seen(m)
                    (s.d, s.i, s.m) = (d, i, mod)
                    counts.updates.append(s)
                case .error(let e): counts.errors.append("\(e)")
                }
            })
        defer { tokens.forEach { $0.invalidate() } }
        spin(until: {
            items.initial != nil && scoresOnly.initial != nil && numbers.initial != nil && byName.initial != nil
                && counts.initial != nil
        })
        var previous = (
            items: items.initial!, scoresOnly: scoresOnly.initial!, numbers: numbers.initial!,
            byName: byName.initial!, counts: counts.initial!
        )

        var rng = SeededRandom(seed: seed)
        var nextID = 7
        let notifier = realm.file.notifier
        for round in 0..<rounds {
            let label = "seed \(seed) round \(round)"
            var touched = Touched()
            notifier.pause()
            for _ in 0..<(1 + rng.below(3)) {
                let opCount = 1 + rng.below(5)
                let draws = (0..<opCount * 4).map { _ in rng.below(1 << 20) }
                let firstNew = nextID
                nextID += opCount
                let burst: Touched = worker.sync {
                    let r = try! Realm(configuration: config)
                    let bag = r.object(ofType: ModelBag.self, forPrimaryKey: 1)!
                    var touched = Touched()
                    var newID = firstNew
                    func anyItem(_ x: Int) -> ModelItem? {
                        let all = r.objects(ModelItem.self)
                        return all.isEmpty ? nil : all[x % all.count]
                    }
                    try! r.write {
                        for op in 0..<opCount {
                            let kind = draws[op * 4] % 20, a = draws[op * 4 + 1], b = draws[op * 4 + 2]
                            let v = draws[op * 4 + 3] % 7
                            let n = bag.items.count, c = bag.numbers.count
                            switch kind {
                            case 0:
                                let o = r.create(ModelItem.self, value: ["id": newID, "score": v])
                                newID += 1
                                bag.items.insert(o, at: n == 0 ? 0 : a % (n + 1))
                            case 1: if let o = anyItem(a) { bag.items.append(o) }
                            case 2: if n > 0 { bag.items.remove(at: a % n) }
                            case 3: if n > 1 { bag.items.move(from: a % n, to: b % n) }
                            case 4: if n > 0, let o = anyItem(b) { bag.items[a % n] = o }
                            case 5:
                                if let o = anyItem(a) {
                                    o.score = v
                                    touched.score.insert(o.id)
                                }
                            case 6:
                                if let o = anyItem(a) {
                                    o.note = "n\(v)"
                                    touched.note.insert(o.id)
                                }
                            case 7: if let o = anyItem(a) { r.delete(o) }
                            case 8:
                                if a % 8 == 0 { bag.items.removeAll() } else if n > 1 { bag.items.swapAt(a % n, b % n) }
                            case 9: bag.numbers.insert(v, at: c == 0 ? 0 : a % (c + 1))
                            case 10: if c > 0 { bag.numbers.remove(at: a % c) }
                            case 11: if c > 0 { bag.numbers[a % c] = v }
                            case 12: if c > 1 { bag.numbers.move(from: a % c, to: b % c) }
                            case 13: if a % 6 == 0 { bag.numbers.removeAll() } else { bag.numbers.append(v) }
                            case 14: bag.byName["k\(a % 9)"] = anyItem(b)
                            case 15: bag.byName["k\(a % 9)"] = nil as ModelItem?
                            case 16: bag.byName.removeObject(for: "k\(a % 9)")
                            case 17: bag.counts["c\(a % 9)"] = v
                            case 18: bag.counts.removeObject(for: "c\(a % 9)")
                            default: if a % 5 == 0 { bag.counts.removeAll() } else { bag.byName.removeAll() }
                            }
                        }
                    }
                    return touched
                }
                touched.score.formUnion(burst.score)
                touched.note.formUnion(burst.note)
            }
            let counted = (
                items.updates.count, scoresOnly.updates.count, numbers.updates.count, byName.updates.count,
                counts.updates.count
            )
            notifier.resume()
            settle(realm)
            let fresh = try Realm(configuration: config).object(ofType: ModelBag.self, forPrimaryKey: 1)!
            let freshItems = Self.seen(fresh.items), freshNumbers = Array(fresh.numbers)
            let freshByName = Self.seen(fresh.byName), freshCounts = Self.seen(fresh.counts)

            // A list of objects, every property watched.
            if items.updates.count > counted.0 {
                XCTAssertEqual(items.updates.count, counted.0 + 1, "\(label): one burst, one change set")
                checkList(
                    "\(label) items", previous: previous.items, now: items.updates.last!,
                    expected: freshItems.elements, touched: touched.any)
                previous.items = items.updates.last!
            } else {
                XCTAssertEqual(previous.items.elements, freshItems.elements, "\(label): the list changed unreported")
                for id in previous.items.elements {
                    XCTAssertEqual(
                        previous.items.objects[id], freshItems.objects[id], "\(label): \(id) changed unreported")
                }
            }
            // The same list, only `score` watched: a note alone is no modification.
            if scoresOnly.updates.count > counted.1 {
                let now = scoresOnly.updates.last!
                checkList(
                    "\(label) scores", previous: previous.scoresOnly, now: now, expected: freshItems.elements,
                    touched: touched.score)
                previous.scoresOnly = now
            } else {
                XCTAssertEqual(previous.scoresOnly.elements, freshItems.elements, "\(label): scores list unreported")
                let freshScores = Self.seenScores(fresh.items)
                for id in previous.scoresOnly.elements {
                    XCTAssertEqual(
                        previous.scoresOnly.objects[id], freshScores.objects[id], "\(label): score of \(id) unreported")
                }
            }
            // A list of values.
            if numbers.updates.count > counted.2 {
                XCTAssertEqual(numbers.updates.count, counted.2 + 1, "\(label): one burst, one change set")
                checkList(
                    "\(label) numbers", previous: previous.numbers, now: numbers.updates.last!, expected: freshNumbers,
                    touched: nil)
                previous.numbers = numbers.updates.last!
            } else {
                XCTAssertEqual(previous.numbers.elements, freshNumbers, "\(label): the numbers changed unreported")
            }
            // A map of objects.
            if byName.updates.count > counted.3 {
                XCTAssertEqual(byName.updates.count, counted.3 + 1, "\(label): one burst, one change set")
                checkMap(
                    "\(label) byName", previous: previous.byName, now: byName.updates.last!,
                    expected: freshByName.entries, touched: touched.any)
                previous.byName = byName.updates.last!
            } else {
                XCTAssertEqual(previous.byName.entries, freshByName.entries, "\(label): the map changed unreported")
                for id in previous.byName.entries.values where id >= 0 {
                    XCTAssertEqual(previous.byName.objects[id], freshByName.objects[id], "\(label): \(id) unreported")
                }
            }
            // A map of values.
            if counts.updates.count > counted.4 {
                XCTAssertEqual(counts.updates.count, counted.4 + 1, "\(label): one burst, one change set")
                checkMap(
                    "\(label) counts", previous: previous.counts, now: counts.updates.last!,
                    expected: freshCounts.entries, touched: nil)
                previous.counts = counts.updates.last!
            } else {
                XCTAssertEqual(previous.counts.entries, freshCounts.entries, "\(label): the counts changed unreported")
            }
        }
        for log in [items.errors, scoresOnly.errors, numbers.errors, byName.errors, counts.errors] {
            XCTAssertEqual(log, [])
        }
        // The run exercised every kind of change set at least once.
        XCTAssertTrue(items.updates.contains { !$0.d.isEmpty } && items.updates.contains { !$0.i.isEmpty })
        XCTAssertTrue(items.updates.contains { !$0.m.isEmpty } && byName.updates.contains { !$0.m.isEmpty })
        XCTAssertTrue(counts.updates.contains { !$0.d.isEmpty } && counts.updates.contains { !$0.i.isEmpty })
    }

    func testListAndMapChangeSetsRebuildTheNewCollections() throws {
        for seed: UInt64 in [11, 12, 13] {
            try runModel(seed: seed, rounds: 40)
            tearDown(); setUp()
        }
    }

    /// The path commits of other processes take: no change records, the versions' rows compared.
    func testListAndMapChangeSetsWithoutCommitRecordsRebuildTheNewCollections() throws {
        FileNotifier.ignoresRecords = true
        defer { FileNotifier.ignoresRecords = false }
        try runModel(seed: 14, rounds: 40)
    }
}
