import StrataPOSIX

extension WriteTransaction {
    /// Moves every tree node, overflow run and area page at or above `target` into the lowest
    /// free pages, copying their ancestors (copy-on-write) to update the references.
    func relocateAll(below target: UInt32) throws -> Int {
        var moved = try relocateAreaPages(below: target)
        for name in try Catalog.names(root: catalog.root, access, includingAreaCounts: true) {
            guard let h = name.isEmpty ? try areaCountsTree(create: false) : try openTree(name) else { continue }
            let old = trees[h.index].root
            trees[h.index].root = try relocate(old, target, &moved)
            if trees[h.index].root != old { trees[h.index].dirty = true }
        }
        catalog.root = try relocate(catalog.root, target, &moved)
        return moved
    }

    /// Relocates the subtree at `n`; returns its (possibly new) root page.
    func relocate(_ n: UInt32, _ target: UInt32, _ moved: inout Int) throws -> UInt32 {
        try rewriteSubtree(
            n, moving: { $0 >= target }, moved: &moved,
            leafCells: { p, _ in
                // The cells whose overflow run lies (in part) at or above the target.
                var high: [Int] = []
                for i in 0..<Node.count(p) {
                    if case .overflow(let first, _) = try Node.leafValue(p, i, access) {
                        let run = try access.overflowRun(first: first)
                        if first + UInt32(run) > target { high.append(i) }
                    }
                }
                return high
            },
            editLeaf: { q, cells in
                var pages = 0
                for i in cells {
                    guard case .overflow(let first, let length) = try Node.leafValue(q, i, access) else { continue }
                    pages += try moveOverflowRun(ofCell: i, in: q, first: first, length: length).pages
                }
                return pages
            })
    }

    /// Copies (copy-on-write) the nodes of the subtree at `n` that must change, and their
    /// ancestors, each copied branch repointed at its children's new pages; returns the
    /// subtree's (possibly new) root page. A node changes when `move` names it; a leaf also when
    /// `leafCells` (given the leaf and its page) names cells of it, which `editLeaf` then edits
    /// in the copy, returning the number of other pages it moved. `moved` counts the nodes that
    /// got a new page and the pages `editLeaf` moved. Compaction (`relocate`) and the move of
    /// area pages (`repointAreas`) walk trees this way.
    func rewriteSubtree(
        _ n: UInt32, moving move: (UInt32) -> Bool, moved: inout Int,
        leafCells: (_ leaf: UnsafeMutableRawPointer, _ page: UInt32) throws -> [Int],
        editLeaf: (_ copy: UnsafeMutableRawPointer, _ cells: [Int]) throws -> Int
    ) throws -> UInt32 {
        guard n != 0 else { return 0 }
        let p = try access.node(n)
        let count = Node.count(p)
        if Node.isLeaf(p) {
            let cells = try leafCells(p, n)
            guard move(n) || !cells.isEmpty else { return n }
            let (m, q) = try writable(n)
            if m != n { moved += 1 }
            moved += try editLeaf(q, cells)
            return m
        }
        var children: [UInt32] = []
        var changed = false
        for i in 0..<count {
            let c = try Node.child(p, i, access)
            let nc = try rewriteSubtree(c, moving: move, moved: &moved, leafCells: leafCells, editLeaf: editLeaf)
            children.append(nc)
            if nc != c { changed = true }
        }
        guard move(n) || changed else { return n }
        let (m, q) = try writable(n)
        if m != n { moved += 1 }
        for i in 0..<count { q.setU32(Node.slot(q, i), children[i]) }
        return m
    }

    /// Drops reusable pages at the end of the file from the free list and lowers the page count.
    func trimTail() {
        var trimmed = false
        while true {
            let k = free.takeTail(endingAt: pageCount)
            if k == 0 { break }
            pageCount -= k
            trimmed = true
        }
        if trimmed {
            access = PageAccess(
                base: access.base, pageSize: pageSize, pageCount: pageCount, path: db.pathName,
                maxVersion: v, checked: access.checked, ownVersion: v,
                shadow: shadow, shadowGeneration: access.shadowGeneration, sealed: mappings.last!.sealed)
        }
    }
}

extension Database {
    /// Shrinks the file: moves pages from its end into free space nearer the start, then
    /// truncates the free tail. Runs as ordinary durable commits, so a crash at any point leaves a
    /// consistent file, and readers may continue meanwhile (pages they still use are not moved
    /// until they finish, so the file shrinks less while long-lived snapshots are open).
    @discardableResult
    public func compact() throws -> CompactReport {
        if isReadOnly { throw StorageError.readOnly(path: path) }
        let before = try StorageError.wrap { try System.fileSize(fd) }
        // Two empty commits make pages freed by earlier commits reusable (when no snapshot needs them).
        try write { _ in }
        try write { _ in }
        let moved = try write { txn -> Int in
            let inUse = txn.pageCount - UInt32(txn.free.poolPages)
            return try txn.relocateAll(below: inUse)
        }
        // Release the pages the relocation freed; each commit trims the free tail.
        try write { _ in }
        try write { _ in }
        // The last commit also shortens the file to its page count, before it releases the writer
        // lock: every other handle's cached file length belongs to an older version then, so no
        // writer can trust a length from before the truncation (commit step 11).
        try write { txn in txn.shortensFileToPageCount = true }
        let length = try StorageError.wrap { try System.fileSize(fd) }
        return CompactReport(bytesBefore: before, bytesAfter: length, pagesMoved: moved)
    }
}
