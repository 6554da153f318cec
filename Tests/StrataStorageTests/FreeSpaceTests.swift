import XCTest
@testable import StrataStorage

/// `FreeSpace` against a model (a set of reusable pages and a map of pending pages by version):
/// random allocations, runs, returns, pending frees and releases, checking after every step that
/// the pool's runs are sorted, coalesced and hold exactly the model's pages, and that the extents
/// a commit would write list every free page once.
final class FreeSpaceTests: XCTestCase {
    func checkPool(_ free: FreeSpace, _ model: Set<UInt32>, _ label: String) {
        var pages: [UInt32] = []
        for (i, r) in free.pool.enumerated() {
            XCTAssertGreaterThan(r.count, 0, label)
            if i > 0 {
                let above = free.pool[i - 1]
                XCTAssertLessThan(r.first &+ r.count, above.first, "\(label): runs must be descending and not touch")
            }
            for k in 0..<r.count { pages.append(r.first + k) }
        }
        XCTAssertEqual(Set(pages), model, label)
        XCTAssertEqual(pages.count, model.count, label)
        XCTAssertEqual(free.poolPages, model.count, label)
    }

    func testPoolAndPendingMatchAModel() {
        for seed in 1...20 {
            var rng = SeededRandom(seed: UInt64(seed))
            var free = FreeSpace()
            var pool = Set<UInt32>()
            var pending: [UInt64: Set<UInt32>] = [:]
            var end: UInt32 = 2  // pages below `end` are in use, reusable or pending
            var used = Set<UInt32>()
            var version: UInt64 = 1
            for step in 0..<400 {
                let label = "seed \(seed) step \(step)"
                switch rng.below(6) {
                case 0, 1:
                    // Allocate one page: the lowest reusable one.
                    let got = free.popLowest()
                    XCTAssertEqual(got, pool.min(), label)
                    if let p = got { pool.remove(p); used.insert(p) } else { used.insert(end); end += 1 }
                case 2:
                    // Allocate a run: the lowest run of n consecutive reusable pages.
                    let n = 2 + rng.below(4)
                    let sorted = pool.sorted()
                    var expected: UInt32?
                    var i = 0
                    while i + n <= sorted.count {
                        if sorted[i + n - 1] == sorted[i] + UInt32(n - 1) { expected = sorted[i]; break }
                        i += 1
                    }
                    let got = free.takeRun(n)
                    XCTAssertEqual(got, expected, label)
                    if let f = got { for k in 0..<UInt32(n) { pool.remove(f + k); used.insert(f + k) } }
                case 3:
                    // Return a page this "transaction" wrote straight to the pool.
                    if !used.isEmpty {
                        let candidates = used.sorted()
                        let p = candidates[rng.below(candidates.count)]
                        used.remove(p)
                        free.addToPool(p, count: 1)
                        pool.insert(p)
                    }
                case 4:
                    // A commit frees some used pages as pending, tagged with the next version.
                    version += 1
                    var freed: [UInt32] = []
                    for p in used.sorted() where rng.below(3) == 0 { freed.append(p) }
                    freed.sort()
                    for p in freed { used.remove(p) }
                    free.addPending(version, sorted: freed)
                    if !freed.isEmpty { pending[version, default: []].formUnion(freed) }
                default:
                    // Release pending pages up to some version.
                    let back = UInt64(rng.below(3))
                    let limit = version > back ? version - back : 0
                    free.release(upTo: limit)
                    for (v, pages) in pending where v <= limit { pool.formUnion(pages); pending[v] = nil }
                }
                // Dropping the free tail, as a commit does.
                while true {
                    let k = free.takeTail(endingAt: end)
                    if k == 0 { break }
                    for p in (end - k)..<end { XCTAssertTrue(pool.remove(p) != nil, label) }
                    end -= k
                }
                checkPool(free, pool, label)
                // The extents a commit writes: every free page exactly once, reusable ones as version 0.
                let extents = free.extents(extra: nil)
                var listed: [UInt32: UInt64] = [:]
                for e in extents {
                    for k in 0..<e.count {
                        XCTAssertNil(listed[e.first + k], "\(label): page listed twice")
                        listed[e.first + k] = e.version
                    }
                }
                var expected: [UInt32: UInt64] = [:]
                for p in pool { expected[p] = 0 }
                for (_, pages) in pending { for p in pages { expected[p] = 1 } }
                XCTAssertEqual(Set(listed.keys), Set(expected.keys), label)
                for (p, v) in listed {
                    // Pending pages may carry a newer tag (coalescing delays reuse, never hastens it).
                    if expected[p] == 0 {
                        XCTAssertEqual(v, 0, "\(label): page \(p)")
                    } else if let owner = pending.first(where: { $0.value.contains(p) })?.key {
                        XCTAssertGreaterThanOrEqual(v, owner, "\(label): page \(p)")
                    }
                }
            }
        }
    }

    /// Young pages: released to the young pool once no snapshot can read them while the durable
    /// version stays put; made ordinary pending pages (never reusable early) when it moves; and
    /// listed in the file's free list at every step, each page once.
    func testYoungPagesFollowTheDurableEpoch() {
        var free = FreeSpace()
        free.releaseYoung(durable: 10, pinned: 10, latest: 10)
        free.addYoungPending(11, sorted: [40, 41, 50])
        free.addYoungPending(12, sorted: [60])
        func listed(_ f: FreeSpace) -> [UInt32] {
            f.extents(extra: (13, [])).flatMap { e in (0..<e.count).map { e.first + $0 } }
        }
        XCTAssertEqual(listed(free), [40, 41, 50, 60])
        // A snapshot at version 11 still reads what version 12 freed.
        free.releaseYoung(durable: 10, pinned: 11, latest: 12)
        XCTAssertEqual(free.popYoung(), 40)
        free.returnYoung(40)
        XCTAssertEqual(free.availablePages, 3)
        XCTAssertEqual(listed(free), [40, 41, 50, 60], "pooled young pages stay in the file's free list")
        XCTAssertEqual(free.popYoung(), 40)
        XCTAssertEqual(listed(free), [41, 50, 60])
        // A sync: the durable record now lists them, so they wait like any pending page.
        free.releaseYoung(durable: 12, pinned: 12, latest: 12)
        XCTAssertNil(free.popYoung())
        XCTAssertEqual(free.availablePages, 0)
        XCTAssertEqual(free.pending.map(\.version), [12], "pooled young pages are tagged with the latest version")
        XCTAssertEqual(listed(free), [41, 50, 60])
        free.release(upTo: 11)
        XCTAssertEqual(free.poolPages, 0, "pages tagged 12 must not be released up to 11")
        free.release(upTo: 12)
        XCTAssertEqual(free.poolPages, 3)
    }

    /// `take` removes exactly one page from any position of a run (splitting it), and
    /// `popLowest(preferringRunOf:)` starts at the lowest long enough run, falls back to the
    /// lowest page, or to nil (extend the file) while the pool is only a few fragments.
    func testTakeAndPreferredRuns() {
        var rng = SeededRandom(seed: 7)
        for round in 0..<200 {
            var free = FreeSpace()
            var model = Set<UInt32>()
            for _ in 0..<rng.below(40) {
                let first = UInt32(2 + rng.below(300)), count = 1 + rng.below(6)
                let pages = (0..<UInt32(count)).map { first + $0 }.filter { !model.contains($0) }
                for p in pages { free.addToPool(p, count: 1); model.insert(p) }
            }
            checkPool(free, model, "round \(round) setup")
            for _ in 0..<20 {
                let n = UInt32(2 + rng.below(310))
                XCTAssertEqual(free.take(n), model.contains(n), "round \(round): take(\(n))")
                model.remove(n)
                checkPool(free, model, "round \(round) after take(\(n))")
            }
            let runs = free.pool.reversed().map { ($0.first, Int($0.count)) }
            let expected = runs.first { $0.1 >= 4 }?.0 ?? (model.count < 64 ? nil : model.min())
            let got = free.popLowest(preferringRunOf: 4, scan: 1024, fragments: 64)
            XCTAssertEqual(got, expected, "round \(round)")
            if let got { model.remove(got) }
            checkPool(free, model, "round \(round) after popLowest(preferringRunOf:)")
        }
    }
}
