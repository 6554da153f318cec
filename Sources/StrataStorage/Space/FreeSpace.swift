/// The writer's view of free pages (FORMAT.md, "Free list").
///
/// A page freed by the commit that creates version V was last used by version V-1. It may be
/// written again only when no snapshot older than V exists in any process, and when V is durable
/// (so a crash cannot fall back to a version that still uses it). Until then it is *pending*,
/// tagged with V; afterwards it joins the *pool* of reusable pages.
struct FreeSpace {
    /// A run of consecutive reusable pages.
    struct Run: Equatable {
        var first: UInt32
        var count: UInt32
    }

    /// Reusable pages as runs, coalesced (no two runs touch) and sorted by first page in
    /// descending order, so the lowest page is at the end: taking it is O(1), and the free list
    /// a commit writes costs one step per run, not per page. Measured: with the pool kept as one
    /// entry per page, every commit walked all of them (`extents`) and copied the array (it was
    /// shared with the writer's cache), so commits in a group got slower as the group grew.
    private(set) var pool: [Run] = []
    /// Pages in `pool`.
    private(set) var poolPages = 0
    /// Pages freed by one version's commit, sorted ascending, with their extents cached.
    struct PendingGroup {
        var version: UInt64
        var pages: [UInt32]
        var extents: [FreeExtent]
    }

    /// Pages not yet reusable, grouped by the version whose commit freed them, in ascending
    /// version order. Versions arrive in order and leave from the front, so a commit's free-list
    /// work is proportional to what it changed: measured, a dictionary keyed by version (hashed,
    /// and re-sorted and re-scanned on every commit) took about a third of a deferred commit's CPU
    /// with 100 versions pending.
    var pending: [PendingGroup] = []
    /// Every pending extent, sorted by first page, adjacent runs coalesced under the newer version
    /// (what the free list on disk stores). Kept up to date by `addPending` (a linear merge) and
    /// rebuilt by `release`, so a commit neither re-collects nor re-sorts the pending pages.
    private(set) var mergedPending: [FreeExtent] = []

    // MARK: Young pages

    /// The durable version when the young pages below were freed.
    private(set) var youngEpoch: UInt64 = 0
    /// *Young* pages: written by a version newer than the durable version `youngEpoch`, then freed
    /// by a later version, grouped by that version (ascending). No durable version reaches them
    /// and no durable meta record lists them, so they may be written again as soon as no snapshot
    /// can read them, without waiting for a sync. The only meta record that lists them is the
    /// newest, not yet durable one; overwriting one of its pages only makes a crash fall back to
    /// the durable version, which deferred commits allow. A group of deferred commits thus cycles
    /// through a handful of pages instead of allocating new ones until its sync: the page cache
    /// collapses the rewrites, the sync writes a few pages instead of megabytes, and the file does
    /// not grow (FORMAT.md, "Free space and reuse").
    private(set) var youngPending: [PendingGroup] = []
    /// Young pages that no snapshot can read any more, sorted descending (lowest last).
    private(set) var youngPool: [UInt32] = []

    /// Pages in `pool` and `youngPool`: a change tells that an allocation took one.
    var availablePages: Int { poolPages + youngPool.count }

    /// Records young `pages` (sorted ascending) as freed by version `v`.
    mutating func addYoungPending(_ v: UInt64, sorted pages: [UInt32]) {
        guard !pages.isEmpty else { return }
        if let last = youngPending.last, last.version == v {
            var merged = last.pages + pages
            merged.sort()
            youngPending[youngPending.count - 1] = PendingGroup(version: v, pages: merged, extents: [])
        } else {
            youngPending.append(PendingGroup(version: v, pages: pages, extents: []))
        }
    }

    /// At the start of a write transaction: if the durable version moved since the young pages
    /// were freed, the newest durable record may list them, so they become ordinary pending pages
    /// (the pool's young pages tagged `latest`, a later tag than they need, which only delays
    /// their reuse). Otherwise young pages freed by versions <= `pinned` (no snapshot older than
    /// their freeing version exists) join the young pool.
    mutating func releaseYoung(durable: UInt64, pinned: UInt64, latest: UInt64) {
        if durable != youngEpoch {
            let groups = youngPending
            let pooled = youngPool
            youngPending = []
            youngPool = []
            youngEpoch = durable
            for g in groups { addPending(g.version, sorted: g.pages) }
            if !pooled.isEmpty { addPending(latest, sorted: pooled.reversed()) }
            return
        }
        var k = 0
        while k < youngPending.count && youngPending[k].version <= pinned { k += 1 }
        guard k > 0 else { return }
        for g in youngPending[0..<k] { youngPool.append(contentsOf: g.pages) }
        youngPending.removeFirst(k)
        youngPool.sort(by: >)
    }

    /// Takes the lowest young page that may be written again.
    mutating func popYoung() -> UInt32? { youngPool.popLast() }

    /// Returns a page taken with `popYoung` (and freed by the same transaction) to the young pool.
    mutating func returnYoung(_ n: UInt32) {
        var lo = 0, hi = youngPool.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if youngPool[mid] > n { lo = mid + 1 } else { hi = mid }
        }
        youngPool.insert(n, at: lo)
    }

    /// The young pages as free-list extents for the file: pending ones tagged with the version
    /// that freed them, pooled ones with `poolTag` (the committing version). Read back by another
    /// process or after a reopen, they are ordinary pending pages.
    func youngExtents(poolTag: UInt64) -> [FreeExtent] {
        guard !youngPending.isEmpty || !youngPool.isEmpty else { return [] }
        var out: [FreeExtent] = []
        for g in youngPending { Self.appendExtents(g.version, g.pages, to: &out) }
        Self.appendExtents(poolTag, youngPool.reversed(), to: &out)
        out.sort { $0.first < $1.first }
        return Self.coalesce(out)
    }

    /// Moves pending pages freed by versions <= `limit` into the pool.
    mutating func release(upTo limit: UInt64) {
        var k = 0
        while k < pending.count && pending[k].version <= limit { k += 1 }
        guard k > 0 else { return }
        var released: [FreeExtent] = []
        for g in pending[0..<k] { released.append(contentsOf: g.extents) }
        pending.removeFirst(k)
        var rest: [FreeExtent] = []
        for g in pending { rest.append(contentsOf: g.extents) }
        rest.sort { $0.first < $1.first }
        mergedPending = Self.coalesce(rest)
        guard !released.isEmpty else { return }
        released.sort { $0.first < $1.first }
        addRunsToPool(released)
    }

    /// Adds runs (sorted by first page, disjoint from each other and from the pool) to the pool
    /// with one linear merge.
    private mutating func addRunsToPool(_ ascending: [FreeExtent]) {
        var current: [FreeExtent] = []
        current.reserveCapacity(pool.count)
        for r in pool.reversed() { current.append(FreeExtent(version: 0, first: r.first, count: r.count)) }
        let merged = Self.mergeSorted(
            current, ascending.map { FreeExtent(version: 0, first: $0.first, count: $0.count) })
        var runs: [Run] = []
        runs.reserveCapacity(merged.count)
        var pages = 0
        for e in merged.reversed() {
            runs.append(Run(first: e.first, count: e.count))
            pages += Int(e.count)
        }
        pool = runs
        poolPages = pages
    }

    /// The index of the first run (in the pool's descending order) that starts at or below `n`;
    /// `pool.count` if none does.
    private func runIndex(atOrBelow n: UInt32) -> Int {
        var lo = 0, hi = pool.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if pool[mid].first > n { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    /// Takes the first `n` pages of run `i` (which has at least `n`) and returns the first.
    private mutating func takeFront(ofRun i: Int, pages n: UInt32 = 1) -> UInt32 {
        let r = pool[i]
        if r.count == n {
            pool.remove(at: i)
        } else {
            pool[i] = Run(first: r.first + n, count: r.count - n)
        }
        poolPages -= Int(n)
        return r.first
    }

    /// The lowest reusable page, left in the pool.
    var lowestPoolPage: UInt32? { pool.last?.first }

    /// Takes the lowest reusable page.
    mutating func popLowest() -> UInt32? {
        pool.isEmpty ? nil : takeFront(ofRun: pool.count - 1)
    }

    /// Takes page `n` if it is reusable. A transaction asks for the page after the one it took
    /// last, so the pages it writes form runs that one `pwritev` writes and one request reaches
    /// the disk with: a small commit's 3-5 scattered page writes made its `fdatasync` cost up to
    /// twice as much as 1-2 contiguous ones on this project's machines.
    mutating func take(_ n: UInt32) -> Bool {
        let lo = runIndex(atOrBelow: n)
        guard lo < pool.count else { return false }
        let r = pool[lo]
        guard n < r.first &+ r.count else { return false }
        if n == r.first {
            _ = takeFront(ofRun: lo)
            return true
        } else if n == r.first + r.count - 1 {
            pool[lo].count -= 1
        } else {
            // Split: the part above `n` comes first (descending order).
            pool[lo] = Run(first: r.first, count: n - r.first)
            pool.insert(Run(first: n + 1, count: r.first + r.count - n - 1), at: lo)
        }
        poolPages -= 1
        return true
    }

    /// Takes the first page of the lowest run of at least `length` pages among the `scan` lowest
    /// runs: where a transaction starts a new run of pages. Without such a run it takes the
    /// lowest page, unless the pool holds fewer than `fragments` pages: then nil, and the caller
    /// extends the file instead. (A steady stream of small commits otherwise cycles forever
    /// through the same few scattered pages, one write request each; at the end of the file
    /// its pages form runs, and the scattered ones stay free, a bounded cost.)
    mutating func popLowest(preferringRunOf length: Int, scan: Int = 64, fragments: Int = 0) -> UInt32? {
        var i = pool.count - 1
        let stop = max(0, pool.count - scan)
        while i >= stop {
            if Int(pool[i].count) >= length { return takeFront(ofRun: i) }
            i -= 1
        }
        if poolPages < fragments { return nil }
        return popLowest()
    }

    /// Takes `n` consecutive reusable pages (the lowest such run) and returns the first.
    mutating func takeRun(_ n: Int) -> UInt32? {
        if n == 1 { return popLowest() }
        // Runs are coalesced, so the lowest run of at least n pages holds the lowest n
        // consecutive free pages.
        var i = pool.count - 1
        while i >= 0 {
            if Int(pool[i].count) >= n { return takeFront(ofRun: i, pages: UInt32(n)) }
            i -= 1
        }
        return nil
    }

    /// Returns `count` pages starting at `first` (none of them in the pool) to the pool.
    mutating func addToPool(_ first: UInt32, count: Int) {
        guard count > 0 else { return }
        let c = UInt32(count)
        // `first` is not in the pool, so this is the first run below it.
        let i = runIndex(atOrBelow: first)
        let joinsBelow = i < pool.count && pool[i].first &+ pool[i].count == first
        let joinsAbove = i > 0 && first &+ c == pool[i - 1].first
        switch (joinsBelow, joinsAbove) {
        case (true, true):
            pool[i] = Run(first: pool[i].first, count: pool[i].count + c + pool[i - 1].count)
            pool.remove(at: i - 1)
        case (true, false):
            pool[i].count += c
        case (false, true):
            pool[i - 1] = Run(first: first, count: c + pool[i - 1].count)
        case (false, false):
            pool.insert(Run(first: first, count: c), at: i)
        }
        poolPages += count
    }

    /// Removes the run that ends at `end` (exclusive), if the pool has one, and returns its
    /// length: free pages at the end of the file leave the file's in-use range.
    mutating func takeTail(endingAt end: UInt32) -> UInt32 {
        guard let top = pool.first, top.first &+ top.count == end else { return 0 }
        pool.removeFirst()
        poolPages -= Int(top.count)
        return top.count
    }

    /// The free list as extents; version 0 = reusable now. `extra` must be sorted ascending.
    /// Linear in the number of runs (pool runs and coalesced pending extents), not pages.
    func extents(extra: (UInt64, [UInt32])?) -> [FreeExtent] {
        var out: [FreeExtent] = []
        out.reserveCapacity(pool.count + mergedPending.count + 4)
        // The pool is descending: walk it from the end.
        for r in pool.reversed() { out.append(FreeExtent(version: 0, first: r.first, count: r.count)) }
        var more: [FreeExtent] = []
        if let (v, pages) = extra, !pages.isEmpty {
            Self.appendExtents(v, pages, to: &more)
        }
        if let (v, _) = extra {
            let young = youngExtents(poolTag: v)
            if !young.isEmpty { more = more.isEmpty ? young : Self.mergeSorted(more, young) }
        }
        out.append(contentsOf: more.isEmpty ? mergedPending : Self.mergeSorted(mergedPending, more))
        return out
    }

    /// Coalesces adjacent runs of a list sorted by first page, tagging a merged run with the newer
    /// version. Always safe: a later tag can only delay reuse. It matters for deferred commits,
    /// which free the pages the previous commit of their group wrote at the end of the file:
    /// without it the free list grows by a few extents per commit until the group is synced.
    static func coalesce(_ sorted: [FreeExtent]) -> [FreeExtent] {
        var merged: [FreeExtent] = []
        merged.reserveCapacity(sorted.count)
        for e in sorted {
            if var last = merged.last, last.first &+ last.count == e.first {
                last.count += e.count
                last.version = max(last.version, e.version)
                merged[merged.count - 1] = last
            } else {
                merged.append(e)
            }
        }
        return merged
    }

    /// Merges two lists sorted by first page (disjoint runs) and coalesces the result.
    static func mergeSorted(_ a: [FreeExtent], _ b: [FreeExtent]) -> [FreeExtent] {
        var out: [FreeExtent] = []
        out.reserveCapacity(a.count + b.count)
        var i = 0, j = 0
        func push(_ e: FreeExtent) {
            if var last = out.last, last.first &+ last.count == e.first {
                last.count += e.count
                last.version = max(last.version, e.version)
                out[out.count - 1] = last
            } else {
                out.append(e)
            }
        }
        while i < a.count && j < b.count {
            if a[i].first < b[j].first { push(a[i]); i += 1 } else { push(b[j]); j += 1 }
        }
        while i < a.count { push(a[i]); i += 1 }
        while j < b.count { push(b[j]); j += 1 }
        return out
    }

    /// Appends the runs of `sorted` (ascending page numbers) as extents tagged `v`.
    static func appendExtents(_ v: UInt64, _ sorted: [UInt32], to out: inout [FreeExtent]) {
        var j = 0
        while j < sorted.count {
            let first = sorted[j]
            var last = first
            j += 1
            while j < sorted.count && sorted[j] == last &+ 1 { last = sorted[j]; j += 1 }
            out.append(FreeExtent(version: v, first: first, count: last - first + 1))
        }
    }

    /// Adds the extents of a free list read from disk (grouping pending pages by version first,
    /// so a version with thousands of extents is sorted once).
    mutating func load(_ extents: [FreeExtent]) {
        // Sorted by version, then grouped: no dictionary keyed by version (the first one a
        // process makes looks up `UInt64`'s `Hashable` conformance, a scan of every loaded
        // library's conformance records, inside the first commit).
        var reusable: [FreeExtent] = []
        var pendingExtents: [FreeExtent] = []
        for e in extents {
            if e.version == 0 { reusable.append(e) } else { pendingExtents.append(e) }
        }
        reusable.sort { $0.first < $1.first }
        addRunsToPool(reusable)
        pendingExtents.sort { $0.version < $1.version || ($0.version == $1.version && $0.first < $1.first) }
        var j = 0
        while j < pendingExtents.count {
            let v = pendingExtents[j].version
            var pages: [UInt32] = []
            while j < pendingExtents.count && pendingExtents[j].version == v {
                let e = pendingExtents[j]
                pages.append(contentsOf: (0..<e.count).map { e.first + $0 })
                j += 1
            }
            addPending(v, sorted: pages.sorted())
        }
    }

    /// Records `pages` (sorted ascending) as freed by version `v`.
    mutating func addPending(_ v: UInt64, sorted pages: [UInt32]) {
        guard !pages.isEmpty else { return }
        // Find the group (usually the last one, or a new one after it).
        var i = pending.count
        while i > 0 && pending[i - 1].version > v { i -= 1 }
        var added: [FreeExtent] = []
        Self.appendExtents(v, pages, to: &added)
        if i > 0 && pending[i - 1].version == v {
            var merged = pending[i - 1].pages + pages
            merged.sort()
            var extents: [FreeExtent] = []
            Self.appendExtents(v, merged, to: &extents)
            pending[i - 1] = PendingGroup(version: v, pages: merged, extents: extents)
        } else {
            pending.insert(PendingGroup(version: v, pages: pages, extents: added), at: i)
        }
        mergedPending = Self.mergeSorted(mergedPending, added)
    }

}

extension Database {
    /// Loads the writer state of the newest version from its meta page and free-list chain.
    func loadWriterState(_ st: PublishedState, _ acc: PageAccess, fileBytes: Int64) throws -> WriterState {
        let metaPage = acc.base + Int(st.latestSlot) * pageSize
        guard case .success(let meta) = MetaRecord.decode(metaPage, pageSize: pageSize, slot: Int(st.latestSlot)),
            meta.version == st.version
        else {
            throw acc.corrupt(
                st.latestSlot, "the meta page of the newest version does not match the lock file's record")
        }
        var free = FreeSpace()
        var loaded: [FreeExtent] = meta.inlineFree
        var chain: [UInt32] = []
        var next = meta.freeListHead
        while next != 0 {
            let p = try acc.page(next)
            guard p.u8(PageHeader.type) == PageType.freeList.rawValue else {
                throw acc.corrupt(next, "expected a free-list page")
            }
            chain.append(next)
            if chain.count > Int(meta.pageCount) { throw acc.corrupt(meta.freeListHead, "free-list chain loops") }
            let count = Int(p.u32(PageHeader.entryCount))
            guard count <= FreeListLayout.capacity(pageSize: pageSize) else {
                throw acc.corrupt(next, "free-list page with \(count) entries")
            }
            for i in 0..<count {
                let e = PageHeader.size + FreeListLayout.entrySize * i
                let extent = FreeExtent(version: p.u64(e), first: p.u32(e + 8), count: p.u32(e + 12))
                guard extent.first >= 2, UInt64(extent.first) + UInt64(extent.count) <= UInt64(meta.pageCount) else {
                    throw acc.corrupt(next, "free-list extent outside the file")
                }
                loaded.append(extent)
            }
            next = p.u32(PageHeader.nextPage)
        }
        free.load(loaded)
        var own: [UInt32] = []
        next = meta.listHead
        while next != 0 && own.count < Int(meta.listPagesOwn) {
            own.append(next)
            next = try acc.page(next).u32(PageHeader.nextPage)
        }
        return WriterState(
            version: meta.version, free: free, freeListChain: chain, ownListPages: own, meta: meta, fileBytes: fileBytes
        )
    }
}
