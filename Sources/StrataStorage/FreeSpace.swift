/// The writer's view of free pages (FORMAT.md, "Free list").
///
/// A page freed by the commit that creates version V was last used by version V-1. It may be
/// written again only when no snapshot older than V exists in any process, and when V is durable
/// (so a crash cannot fall back to a version that still uses it). Until then it is *pending*,
/// tagged with V; afterwards it joins the *pool* of reusable pages.
struct FreeSpace {
    /// Reusable pages, sorted descending when `poolSorted` (so `popLast` gives the lowest).
    var pool: [UInt32] = []
    var poolSorted = true
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

    /// Moves pending pages freed by versions <= `limit` into the pool.
    mutating func release(upTo limit: UInt64) {
        var k = 0
        while k < pending.count && pending[k].version <= limit { k += 1 }
        guard k > 0 else { return }
        var released: [UInt32] = []
        for g in pending[0..<k] { released.append(contentsOf: g.pages) }
        pending.removeFirst(k)
        var rest: [FreeExtent] = []
        for g in pending { rest.append(contentsOf: g.extents) }
        rest.sort { $0.first < $1.first }
        mergedPending = Self.coalesce(rest)
        guard !released.isEmpty else { return }
        released.sort(by: >)
        sortPool()
        // Merge two descending lists in linear time rather than re-sorting the whole pool.
        var merged: [UInt32] = []
        merged.reserveCapacity(pool.count + released.count)
        var i = 0, j = 0
        while i < pool.count && j < released.count {
            if pool[i] > released[j] { merged.append(pool[i]); i += 1 } else { merged.append(released[j]); j += 1 }
        }
        merged.append(contentsOf: pool[i...])
        merged.append(contentsOf: released[j...])
        pool = merged
    }

    mutating func sortPool() {
        if !poolSorted {
            pool.sort(by: >)
            poolSorted = true
        }
    }

    /// Takes the lowest reusable page.
    mutating func popLowest() -> UInt32? {
        sortPool()
        return pool.popLast()
    }

    /// Takes `n` consecutive reusable pages (the lowest such run) and returns the first.
    mutating func takeRun(_ n: Int) -> UInt32? {
        if n == 1 { return popLowest() }
        sortPool()
        guard pool.count >= n else { return nil }
        // Descending order: scanning from the end (lowest pages) upwards, `runLength` counts the
        // consecutive pages from index i-1 down to the bottom of the current run.
        var runLength = 1
        var i = pool.count - 1
        while i > 0 {
            runLength = pool[i - 1] == pool[i] &+ 1 ? runLength + 1 : 1
            if runLength == n {
                let start = i - 1
                let lowest = pool[start + n - 1]
                pool.removeSubrange(start..<(start + n))
                return lowest
            }
            i -= 1
        }
        return nil
    }

    mutating func addToPool(_ first: UInt32, count: Int) {
        for k in 0..<UInt32(count) { pool.append(first + k) }
        poolSorted = false
    }

    /// The free list as extents; version 0 = reusable now. `extra` must be sorted ascending.
    /// Linear in the number of free pages: the pool is kept sorted and pending lists are sorted
    /// when they are created (measured: re-sorting every list on every commit took 27% of
    /// small-commit time with 16k free pages, W1 `small_txn` after `update`).
    mutating func extents(extra: (UInt64, [UInt32])?) -> [FreeExtent] {
        var out: [FreeExtent] = []
        out.reserveCapacity(16)
        sortPool()
        // The pool is descending: walk it from the end.
        var i = pool.count - 1
        while i >= 0 {
            let first = pool[i]
            var last = first
            i -= 1
            while i >= 0 && pool[i] == last &+ 1 { last = pool[i]; i -= 1 }
            out.append(FreeExtent(version: 0, first: first, count: last - first + 1))
        }
        if let (v, pages) = extra, !pages.isEmpty {
            var more: [FreeExtent] = []
            Self.appendExtents(v, pages, to: &more)
            out.append(contentsOf: Self.mergeSorted(mergedPending, more))
        } else {
            out.append(contentsOf: mergedPending)
        }
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
        var byVersion: [UInt64: [UInt32]] = [:]
        for e in extents {
            if e.version == 0 {
                addToPool(e.first, count: Int(e.count))
            } else {
                byVersion[e.version, default: []].append(contentsOf: (0..<e.count).map { e.first + $0 })
            }
        }
        for v in byVersion.keys.sorted() { addPending(v, sorted: byVersion[v]!.sorted()) }
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

/// What the writer remembers about the newest committed version between transactions, so a
/// commit does not re-read the free list from disk (valid while no other process commits).
struct WriterState {
    var version: UInt64
    var free: FreeSpace
    /// Pages of that version's free-list chain (freed by the next commit, which writes a new one).
    var freeListChain: [UInt32]
    /// Commit-list pages that version's commit wrote (freed by the next commit).
    var ownListPages: [UInt32]
    var meta: MetaRecord
}

extension Database {
    /// Loads the writer state of the newest version from its meta page and free-list chain.
    func loadWriterState(_ st: PublishedState, _ acc: PageAccess) throws -> WriterState {
        let metaPage = acc.base + Int(st.latestSlot) * pageSize
        guard case .success(let meta) = MetaRecord.decode(metaPage, pageSize: pageSize, slot: Int(st.latestSlot)), meta.version == st.version else {
            throw acc.corrupt(st.latestSlot, "the meta page of the newest version does not match the lock file's record")
        }
        var free = FreeSpace()
        var loaded: [FreeExtent] = meta.inlineFree
        var chain: [UInt32] = []
        var next = meta.freeListHead
        while next != 0 {
            let p = try acc.page(next)
            guard p.u8(PageHeader.type) == PageType.freeList.rawValue else { throw acc.corrupt(next, "expected a free-list page") }
            chain.append(next)
            if chain.count > Int(meta.pageCount) { throw acc.corrupt(meta.freeListHead, "free-list chain loops") }
            let count = Int(p.u32(PageHeader.entryCount))
            guard count <= FreeListLayout.capacity(pageSize: pageSize) else { throw acc.corrupt(next, "free-list page with \(count) entries") }
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
        return WriterState(version: meta.version, free: free, freeListChain: chain, ownListPages: own, meta: meta)
    }
}
