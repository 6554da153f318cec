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
    /// Pages not yet reusable, by the version whose commit freed them. Each list is sorted
    /// ascending (an invariant: `extents` relies on it and so does not sort on every commit).
    var pending: [UInt64: [UInt32]] = [:]

    /// Moves pending pages freed by versions <= `limit` into the pool.
    mutating func release(upTo limit: UInt64) {
        var released: [UInt32] = []
        for (v, pages) in pending where v <= limit {
            released.append(contentsOf: pages)
            pending[v] = nil
        }
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

    /// The free list as extents (freed-by version, first page, length); version 0 = reusable now.
    /// `extra` must be sorted ascending. Linear in the number of free pages: the pool is kept
    /// sorted and pending lists are sorted when they are created (measured: re-sorting every list
    /// on every commit took 27% of small-commit time with 16k free pages, W1 `small_txn` after
    /// `update`).
    mutating func extents(extra: (UInt64, [UInt32])?) -> [(UInt64, UInt32, UInt32)] {
        var out: [(UInt64, UInt32, UInt32)] = []
        func add<C: Collection>(_ v: UInt64, _ sorted: C) where C.Element == UInt32 {
            var it = sorted.makeIterator()
            guard var first = it.next() else { return }
            var last = first
            while let p = it.next() {
                if p == last &+ 1 { last = p; continue }
                out.append((v, first, last - first + 1))
                first = p
                last = p
            }
            out.append((v, first, last - first + 1))
        }
        sortPool()
        add(0, pool.reversed())
        for v in pending.keys.sorted() { add(v, pending[v]!) }
        if let (v, pages) = extra { add(v, pages) }
        return out
    }

    /// Records `pages` (sorted ascending) as freed by version `v`.
    mutating func addPending(_ v: UInt64, sorted pages: [UInt32]) {
        guard !pages.isEmpty else { return }
        if var existing = pending[v] {
            existing.append(contentsOf: pages)
            existing.sort()
            pending[v] = existing
        } else {
            pending[v] = pages
        }
    }

    /// Total pages listed (reusable and pending).
    var pageTotal: Int { pool.count + pending.values.reduce(0) { $0 + $1.count } }
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
                let v = p.u64(e)
                let first = p.u32(e + 8)
                let len = p.u32(e + 12)
                guard first >= 2, UInt64(first) + UInt64(len) <= UInt64(meta.pageCount) else { throw acc.corrupt(next, "free-list extent outside the file") }
                if v == 0 {
                    free.addToPool(first, count: Int(len))
                } else {
                    free.addPending(v, sorted: (0..<len).map { first + $0 })
                }
            }
            next = p.u32(PageHeader.nextPage)
        }
        var own: [UInt32] = []
        next = meta.listHead
        while next != 0 && own.count < Int(meta.listPagesOwn) {
            own.append(next)
            next = try acc.page(next).u32(PageHeader.nextPage)
        }
        return WriterState(version: meta.version, free: free, freeListChain: chain, ownListPages: own, meta: meta)
    }
}
