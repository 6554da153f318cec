extension WriteTransaction {
    /// Commit step 5: in a large commit, the leaves this commit wrote get their page numbers in
    /// key order, so that a scan in key order reads the file front to back.
    ///
    /// Why: a transaction that inserts in random key order (a bulk load of shuffled ids, or an
    /// update of random objects) splits and copies leaves in random order, and each takes the next
    /// free page, so neighbouring leaves in key order land far apart in the file. A scan then
    /// jumps from page to page, and the processor's prefetcher, which follows addresses, restarts
    /// at every leaf. Reordering costs one page copy per moved leaf (for 20,000 leaves about
    /// 80 MB of `memcpy`), once per large commit.
    ///
    /// What it changes: only pages this commit wrote (they are free in every committed version,
    /// so no reader can see them), and only among themselves: the set of page numbers written,
    /// and so the commit list, the free list and the file length, stay exactly the same. Leaf
    /// contents move between those numbers; each moved page's own number (page header) and its
    /// parent's reference are rewritten. Branches, roots, overflow runs and pages the commit did
    /// not write are left alone. Checksums are computed after this step (step 6).
    func orderDirtyLeaves() {
        // Small commits (the common case) pay one comparison.
        guard dirty.count >= Self.largeCommitMinimumPages else { return }
        // The dirty leaves below dirty branches (a root leaf keeps its page): parent, cell, page.
        let leaves = dirtyNodes().compactMap { n in
            n.isLeaf ? n.parent.map { (parent: access.pointer($0), cell: n.cell, page: n.page) } : nil
        }
        guard leaves.count >= Self.leafOrderMinimumLeaves else { return }
        let numbers = leaves.map(\.page).sorted()
        // source[new] = old: the page whose contents page `new` receives.
        var source: [UInt32: UInt32] = [:]
        for (i, leaf) in leaves.enumerated() where leaf.page != numbers[i] { source[numbers[i]] = leaf.page }
        guard !source.isEmpty else { return }

        // Move contents along each cycle of the permutation, with one page of scratch.
        let scratch = UnsafeMutableRawPointer.allocate(byteCount: pageSize, alignment: 16)
        defer { scratch.deallocate() }
        var moved = Set<UInt32>(minimumCapacity: source.count)
        for (start, _) in source where !moved.contains(start) {
            scratch.copyMemory(from: access.pointer(start), byteCount: pageSize)
            var to = start
            while true {
                moved.insert(to)
                let from = source[to]!
                if from == start {
                    access.pointer(to).copyMemory(from: scratch, byteCount: pageSize)
                    break
                }
                access.pointer(to).copyMemory(from: access.pointer(from), byteCount: pageSize)
                to = from
            }
        }
        for n in moved { access.pointer(n).setU32(PageHeader.pageNumber, n) }
        for (i, leaf) in leaves.enumerated() where leaf.page != numbers[i] { leaf.parent.setU32(leaf.cell, numbers[i]) }
        #if DEBUG
            // Every leaf now sits at its key-order number, and each parent refers to it there.
            for (i, leaf) in leaves.enumerated() {
                assert(leaf.parent.u32(leaf.cell) == numbers[i], "leaf order: parent reference not rewritten")
                assert(
                    access.pointer(numbers[i]).u8(PageHeader.type) == PageType.leaf.rawValue, "leaf order: not a leaf")
            }
        #endif
    }

    /// The nodes this transaction wrote that hang from roots it wrote, parents before children,
    /// in key order, tree by tree: the page, its parent (nil for a root), the offset of the
    /// parent's cell that refers to it, the tree's index, and whether it is a leaf. A clean child
    /// is shared with committed versions and is neither listed nor descended into.
    func dirtyNodes() -> [(page: UInt32, parent: UInt32?, cell: Int, tree: Int, isLeaf: Bool)] {
        var nodes: [(page: UInt32, parent: UInt32?, cell: Int, tree: Int, isLeaf: Bool)] = []
        func visit(_ n: UInt32, _ tree: Int) {
            let p = access.pointer(n)
            guard p.u8(PageHeader.type) == PageType.branch.rawValue else { return }
            for i in 0..<Node.count(p) {
                let off = Node.slot(p, i)
                let child = p.u32(off)
                guard dirty.contains(child) else { continue }
                let leaf = access.pointer(child).u8(PageHeader.type) == PageType.leaf.rawValue
                nodes.append((child, n, off, tree, leaf))
                if !leaf { visit(child, tree) }
            }
        }
        for ti in trees.indices where trees[ti].dirty && !trees[ti].dropped {
            let root = trees[ti].root
            guard root != 0, dirty.contains(root) else { continue }
            nodes.append((root, nil, 0, ti, access.pointer(root).u8(PageHeader.type) == PageType.leaf.rawValue))
            visit(root, ti)
        }
        return nodes
    }

    /// Commits writing fewer pages than this skip commit steps 0 and 5 (packing, ordering).
    static let largeCommitMinimumPages = 64
    /// Fewer dirty leaves than this are not reordered (a few jumps cost a scan nothing).
    static let leafOrderMinimumLeaves = 32
}
