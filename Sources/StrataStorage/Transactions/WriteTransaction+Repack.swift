extension WriteTransaction {
    /// Commit step 0: in a large commit, runs of neighbouring leaves this commit wrote are packed
    /// into as few leaves as hold their cells at `repackFill` of a page.
    ///
    /// Why: a B+tree that receives keys in random order splits each full leaf in two halves and
    /// settles near 69% full (ln 2), so a random-order bulk load of `strata-bench w1` used 82 MB of pages for 55 MB
    /// of cells. Only leaves this commit wrote are touched (they are free in every committed
    /// version), so the step changes nothing a reader or a crash can observe; the pages it
    /// empties go back to the pool like any page a transaction frees before committing.
    ///
    /// What it does, per branch this commit wrote whose children are leaves: for each run of two
    /// or more consecutive children that this commit wrote, the run's cells, in order, are dealt
    /// into the run's first `m` pages (`m` = the fewest that hold them at `repackFill`), evenly by
    /// bytes; the other pages are freed; the branch is rebuilt with one cell per remaining leaf,
    /// its separators recomputed (the shortest key between two neighbours, as a split makes it).
    /// The first leaf of a run keeps its separator (its first key is unchanged), and the key
    /// after the run keeps its own (the run's last key is unchanged). A branch whose rebuilt
    /// cells would not fit its page is left as it is.
    ///
    /// Leaves packed this way have less room for later inserts: a random insert into one splits
    /// it sooner. The fill target leaves `1 - repackFill` of each page free for that reason.
    func repackDirtyLeaves() throws {
        // Small commits (the common case) pay one comparison.
        guard dirty.count >= Self.largeCommitMinimumPages else { return }
        for ti in trees.indices where trees[ti].dirty && !trees[ti].dropped {
            let root = trees[ti].root
            guard root != 0, dirty.contains(root) else { continue }
            try repackBelow(root)
        }
        try moveDirtyNodesDown()
    }

    /// Moves the highest-numbered nodes this commit wrote (leaves and branches) into lower free
    /// pages (the pages packing emptied, and any older free ones), highest first, while the pool
    /// has a page below the node: the emptied pages are scattered, and the file's in-use length
    /// shrinks only when its end is free (`trimTail`, step 1). One page copy per node moved; the
    /// moved-from page goes back to the pool, and the parent's reference (or the tree's root)
    /// follows the node.
    private func moveDirtyNodesDown() throws {
        var nodes = dirtyNodes()
        nodes.sort { $0.page > $1.page }
        var movedTo: [UInt32: UInt32] = [:]
        for node in nodes {
            guard let low = free.lowestPoolPage, low < node.page else { break }
            let (n, p) = try allocPage(node.isLeaf ? .leaf : .branch, young: false)
            assert(n == low, "repack: the lowest pool page was not taken")
            p.copyMemory(from: access.pointer(node.page), byteCount: pageSize)
            p.setU32(PageHeader.pageNumber, n)
            if let parent = node.parent {
                access.pointer(movedTo[parent] ?? parent).setU32(node.cell, n)
            } else {
                trees[node.tree].root = n
            }
            movedTo[node.page] = n
            freePage(node.page)
        }
    }

    /// The fraction of a leaf's cell area that packing fills.
    static let repackFill = 0.92

    private func repackBelow(_ n: UInt32) throws {
        let p = access.pointer(n)
        guard p.u8(PageHeader.type) == PageType.branch.rawValue, Node.count(p) > 0 else { return }
        // All children of a branch are at one level: look at the first.
        let firstChild = try access.node(try Node.child(p, 0, access))
        if Node.isLeaf(firstChild) {
            try repackLeafChildren(n, p)
            return
        }
        for i in 0..<Node.count(p) {
            let c = try Node.child(p, i, access)
            if dirty.contains(c) { try repackBelow(c) }
        }
    }

    /// One cell of the rebuilt branch: its child and separator key (empty for cell 0).
    private struct BranchEntry {
        var child: UInt32
        var key: [UInt8]
    }

    private func repackLeafChildren(_ n: UInt32, _ branch: UnsafeMutableRawPointer) throws {
        let count = Node.count(branch)
        guard count >= 2 else { return }
        let capacity = pageSize - PageHeader.size
        let target = Int(Double(capacity) * Self.repackFill)
        var entries: [BranchEntry] = []
        entries.reserveCapacity(count)
        // A run's cells are copied here before any leaf is rewritten.
        var cellBytes: [UInt8] = []
        // Per planned run: its pages, the cells (offset in cellBytes, size) and where each new
        // leaf starts (cell index).
        var plans: [(pages: [UInt32], cells: [(Int, Int)], starts: [Int])] = []
        var changed = false

        var i = 0
        while i < count {
            let c = try Node.child(branch, i, access)
            let key = i == 0 ? [] : Array(try Node.branchKey(branch, i, access))
            guard dirty.contains(c) else {
                entries.append(BranchEntry(child: c, key: key))
                i += 1
                continue
            }
            // The run of consecutive dirty leaves starting at i.
            var j = i
            var pages: [UInt32] = []
            var used = 0
            while j < count {
                let cj = try Node.child(branch, j, access)
                guard dirty.contains(cj) else { break }
                let lp = try access.node(cj)
                guard Node.isLeaf(lp) else { throw access.corrupt(n, "children of different kinds") }
                pages.append(cj)
                used += Node.usedBytes(lp, pageSize: pageSize)
                j += 1
            }
            let m = max(1, (used + target - 1) / target)
            guard pages.count >= 2, m < pages.count else {
                for (k, page) in pages.enumerated() {
                    entries.append(
                        BranchEntry(child: page, key: k == 0 ? key : Array(try Node.branchKey(branch, i + k, access))))
                }
                i = j
                continue
            }
            // Copy the run's cells, in key order, and deal them into m leaves evenly by bytes.
            var cells: [(Int, Int)] = []
            for page in pages {
                let lp = access.pointer(page)
                for s in 0..<Node.count(lp) {
                    let size = Node.cellSize(lp, s, leaf: true)
                    let off = Node.slot(lp, s)
                    guard off >= PageHeader.size + 2 * Node.count(lp), off + size <= pageSize else {
                        throw access.corrupt(page, "cell \(s) outside the page")
                    }
                    cells.append((cellBytes.count, size))
                    cellBytes.append(contentsOf: UnsafeRawBufferPointer(start: lp + off, count: size))
                }
            }
            var starts: [Int] = [0]
            var leafBytes: [Int] = [0]
            var acc = 0
            for (k, cell) in cells.enumerated() {
                let share = (used * starts.count + m - 1) / m  // bytes the leaves so far may hold
                // A new leaf when this one has its share, or when the cell would not fit it
                // (large cells can make an even deal overfill a page).
                let full = leafBytes[leafBytes.count - 1] + cell.1 + 2 > capacity
                if k > starts.last!, full || (acc + cell.1 + 2 > share && starts.count < m) {
                    starts.append(k)
                    leafBytes.append(0)
                }
                acc += cell.1 + 2
                leafBytes[leafBytes.count - 1] += cell.1 + 2
            }
            // Cutting at full leaves can use as many pages as the run had: then it stays as it is.
            guard starts.count < pages.count, leafBytes.allSatisfy({ $0 <= capacity }) else {
                cellBytes.removeLast(cellBytes.count - (cells.first?.0 ?? cellBytes.count))
                for (k, page) in pages.enumerated() {
                    entries.append(
                        BranchEntry(child: page, key: k == 0 ? key : Array(try Node.branchKey(branch, i + k, access))))
                }
                i = j
                continue
            }
            // Separators: the run's first leaf keeps its own; the others get the shortest key
            // between their left neighbour's last key and their first key.
            entries.append(BranchEntry(child: pages[0], key: key))
            for q in 1..<starts.count {
                let separator = cellBytes.withUnsafeBytes { raw in
                    shortestSeparator(
                        after: Self.leafCellKey(raw, cells[starts[q] - 1]),
                        upTo: Self.leafCellKey(raw, cells[starts[q]]))
                }
                entries.append(BranchEntry(child: pages[q], key: separator))
            }
            plans.append((pages, cells, starts))
            changed = true
            i = j
        }
        guard changed else { return }
        // The rebuilt branch must fit its page; if not, nothing is changed.
        let branchBytes = entries.reduce(0) { $0 + CellLayout.branchHeader + $1.key.count + 2 }
        guard branchBytes <= capacity else { return }

        // Apply: rewrite the leaves, free the pages left over, rebuild the branch.
        cellBytes.withUnsafeBytes { raw in
            let base = raw.baseAddress!
            for plan in plans {
                let leaves = plan.starts.count
                for q in 0..<leaves {
                    let lp = access.pointer(plan.pages[q])
                    resetNode(lp)
                    let end = q + 1 < leaves ? plan.starts[q + 1] : plan.cells.count
                    for (slot, k) in (plan.starts[q]..<end).enumerated() {
                        let (off, size) = plan.cells[k]
                        assert(Node.freeBytes(lp) >= size + 2, "repack: planned cells do not fit")
                        rawInsert(lp, slot, base + off, size)
                    }
                    assertNodeInvariant(lp, leaf: true, "repack")
                }
                for page in plan.pages[leaves...] { freePage(page) }
            }
        }
        resetNode(branch)
        for (k, e) in entries.enumerated() {
            cellBuf.setU32(0, e.child)
            cellBuf.setU16(4, UInt16(e.key.count))
            e.key.withUnsafeBytes {
                if let b = $0.baseAddress, !e.key.isEmpty {
                    moveBytes(cellBuf + CellLayout.branchHeader, b, e.key.count)
                }
            }
            rawInsert(branch, k, cellBuf, CellLayout.branchHeader + e.key.count)
        }
        assertNodeInvariant(branch, leaf: false, "repack branch")
    }

    /// The key of a leaf cell copied into `raw` at `cell` (offset, size).
    private static func leafCellKey(_ raw: UnsafeRawBufferPointer, _ cell: (Int, Int)) -> UnsafeRawBufferPointer {
        let p = raw.baseAddress! + cell.0
        return UnsafeRawBufferPointer(start: p + CellLayout.leafHeader, count: Int(p.u16(0)))
    }
}
