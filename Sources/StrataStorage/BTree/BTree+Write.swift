// Write side of the B+tree: copy-on-write descent, insertion with splits, deletion with merges.

extension WriteTransaction {
    typealias PathEntry = (page: UInt32, ptr: UnsafeMutableRawPointer, index: Int)

    /// Builds the leaf cell for (key, value) in `cellBuf`, moving the value to an overflow run
    /// when the cell would not fit a quarter page. Returns the cell's size.
    func buildLeafCell(_ key: UnsafeRawBufferPointer, _ value: UnsafeRawBufferPointer) throws -> Int {
        let klen = key.count
        let vlen = value.count
        cellBuf.setU16(0, UInt16(klen))
        if let k = key.baseAddress, klen > 0 { moveBytes(cellBuf + CellLayout.leafHeader, k, klen) }
        if CellLayout.leafHeader + klen + vlen <= db.maxInlineCell {
            cellBuf.setU32(2, UInt32(vlen))
            if let vb = value.baseAddress, vlen > 0 { moveBytes(cellBuf + CellLayout.leafHeader + klen, vb, vlen) }
            return CellLayout.leafHeader + klen + vlen
        }
        let pages = (PageHeader.size + vlen + pageSize - 1) / pageSize
        let (first, p) = try allocRun(pages)
        p.setU32(PageHeader.valueLength, UInt32(vlen))
        if let vb = value.baseAddress { moveBytes(p + PageHeader.size, vb, vlen) }
        let tail = pages * pageSize - PageHeader.size - vlen
        if tail > 0 { zeroBytes(p + PageHeader.size + vlen, tail) }
        cellBuf.setU32(2, UInt32(vlen) | CellLayout.overflowFlag)
        cellBuf.setU32(CellLayout.leafHeader + klen, first)
        return CellLayout.leafHeader + klen + 4
    }

    static let maxValueSize = 1 << 30

    /// Stores `value` under `key`. With `ifAbsent`, an existing key keeps its value and the call
    /// returns false. Returns whether the key was new.
    func put(
        _ key: UnsafeRawBufferPointer, _ value: UnsafeRawBufferPointer, _ t: inout TreeState, ifAbsent: Bool = false
    ) throws -> Bool {
        guard key.count <= db.maxKeySize else { throw StorageError.keyTooLarge(size: key.count, limit: db.maxKeySize) }
        guard value.count <= Self.maxValueSize else {
            throw StorageError.valueTooLarge(size: value.count, limit: Self.maxValueSize)
        }
        if t.root == 0 {
            let (n, p) = try allocPage(.leaf)
            let size = try buildLeafCell(key, value)
            rawInsert(p, 0, cellBuf, size)
            t.root = n
            t.count = 1
            return true
        }
        return try withPath { path in
            let (n, p, rightmost) = try descendWritable(key, &t, &path)
            let (i, found) = try access.leafSearch(p, key)
            if found && ifAbsent { return false }
            if found {
                let old = try Node.leafValue(p, i, access)
                if case .inline(let ov) = old, ov.count == value.count,
                    CellLayout.leafHeader + key.count + value.count <= db.maxInlineCell
                {
                    // Same size, stays inline: overwrite the bytes in place.
                    if let vb = value.baseAddress, value.count > 0 {
                        moveBytes(UnsafeMutableRawPointer(mutating: ov.baseAddress!), vb, value.count)
                    }
                    return false
                }
                if case .overflow(let first, _) = old {
                    freePage(first, run: try access.overflowRun(first: first))
                }
                removeCell(p, i, leaf: true)
            }
            let size = try buildLeafCell(key, value)
            let atEnd = i == Node.count(p)
            try insertCell(&path, n, p, i, cellBuf, size, leaf: true, append: rightmost && atEnd, &t)
            if !found { t.count += 1 }
            return !found
        }
    }

    /// Runs `body` with the transaction's reusable descent-path buffer (one allocation per
    /// transaction instead of one per operation: Docs/Performance.md, bulk insert).
    @inline(__always)
    func withPath<T>(_ body: (inout [PathEntry]) throws -> T) rethrows -> T {
        var path = pathBuffer
        pathBuffer = []
        defer {
            path.removeAll(keepingCapacity: true)
            pathBuffer = path
        }
        return try body(&path)
    }

    /// Inserts a cell into node `p` at index `i`, compacting or splitting as needed.
    func insertCell(
        _ path: inout [PathEntry], _ n: UInt32, _ p: UnsafeMutableRawPointer, _ i: Int,
        _ cell: UnsafeRawPointer, _ size: Int, leaf: Bool, append: Bool, _ t: inout TreeState
    ) throws {
        if !leaf { try checkBranchBeforeEdit(n, p) }
        if Node.freeBytes(p) >= size + 2 {
            checkedInsert(p, i, cell, size, leaf: leaf)
            return
        }
        if Node.freeBytes(p) + Node.garbage(p) >= size + 2 {
            compact(p, leaf: leaf)
            checkedInsert(p, i, cell, size, leaf: leaf)
            return
        }
        try split(&path, n, p, i, cell, size, leaf: leaf, append: append, &t)
    }

    /// Writes the cell below the others and inserts its slot at index `i` (the cell must fit).
    @inline(__always)
    func rawInsert(_ p: UnsafeMutableRawPointer, _ i: Int, _ cell: UnsafeRawPointer, _ size: Int) {
        let count = Node.count(p)
        let start = Node.cellStart(p) - size
        moveBytes(p + start, cell, size)
        let slots = p + PageHeader.size
        if i < count { moveBytes(slots + 2 * (i + 1), slots + 2 * i, 2 * (count - i)) }
        p.setU16(PageHeader.size + 2 * i, UInt16(start))
        p.setU16(PageHeader.cellCount, UInt16(count + 1))
        p.setU16(PageHeader.cellStart, UInt16(start))
    }

    /// `rawInsert` followed by the debug invariant check.
    @inline(__always)
    func checkedInsert(_ p: UnsafeMutableRawPointer, _ i: Int, _ cell: UnsafeRawPointer, _ size: Int, leaf: Bool) {
        rawInsert(p, i, cell, size)
        assertNodeInvariant(p, leaf: leaf, "insert")
    }

    /// Removes cell `i`; its bytes become garbage unless they were the lowest cell.
    /// Replaces cell `i` of node `p` with `cell` (`newSize` bytes) where it stands, without
    /// compacting the page: a smaller cell leaves the bytes it frees as garbage; a larger one
    /// shifts the cells stored below it down by the growth, when the free gap holds that.
    /// - Returns: false when it does not (the caller removes the cell and inserts the new one).
    func replaceCellInPlace(
        _ p: UnsafeMutableRawPointer, _ i: Int, _ cell: UnsafeRawPointer, _ newSize: Int, leaf: Bool
    ) -> Bool {
        let off = Node.slot(p, i)
        let oldSize = Node.cellSize(p, i, leaf: leaf)
        let growth = newSize - oldSize
        let cs = Node.cellStart(p)
        if growth <= 0 {
            // End-aligned in the old cell's bytes; the bytes before it become free or garbage.
            let at = off - growth
            moveBytes(p + at, cell, newSize)
            p.setU16(PageHeader.size + 2 * i, UInt16(at))
            if growth < 0 {
                if off == cs {
                    p.setU16(PageHeader.cellStart, UInt16(at))
                } else {
                    p.setU16(PageHeader.garbage, UInt16(Node.garbage(p) - growth))
                }
            }
            assertNodeInvariant(p, leaf: leaf, "replace")
            return true
        }
        guard Node.freeBytes(p) >= growth else { return false }
        // The bytes from the cell start up to this cell (cells and garbage) move down.
        if off > cs { moveBytes(p + cs - growth, p + cs, off - cs) }
        for j in 0..<Node.count(p) {
            let s = Node.slot(p, j)
            if s < off { p.setU16(PageHeader.size + 2 * j, UInt16(s - growth)) }
        }
        moveBytes(p + off - growth, cell, newSize)
        p.setU16(PageHeader.size + 2 * i, UInt16(off - growth))
        p.setU16(PageHeader.cellStart, UInt16(cs - growth))
        assertNodeInvariant(p, leaf: leaf, "replace")
        return true
    }

    func removeCell(_ p: UnsafeMutableRawPointer, _ i: Int, leaf: Bool) {
        let count = Node.count(p)
        let off = Node.slot(p, i)
        let size = Node.cellSize(p, i, leaf: leaf)
        let slots = p + PageHeader.size
        if i + 1 < count { moveBytes(slots + 2 * i, slots + 2 * (i + 1), 2 * (count - i - 1)) }
        p.setU16(PageHeader.cellCount, UInt16(count - 1))
        if off == Node.cellStart(p) {
            p.setU16(PageHeader.cellStart, UInt16(off + size))
        } else {
            p.setU16(PageHeader.garbage, UInt16(Node.garbage(p) + size))
        }
        assertNodeInvariant(p, leaf: leaf, "remove")
    }

    /// Empties node `p` (keeping its page number, version and type).
    @inline(__always)
    func resetNode(_ p: UnsafeMutableRawPointer) {
        p.setU16(PageHeader.cellCount, 0)
        p.setU16(PageHeader.cellStart, UInt16(truncatingIfNeeded: pageSize))
        p.setU16(PageHeader.garbage, 0)
    }

    /// Rewrites node `p` with its cells packed, reclaiming garbage.
    func compact(_ p: UnsafeMutableRawPointer, leaf: Bool) {
        moveBytes(scratch, p, pageSize)
        let count = Node.count(scratch)
        resetNode(p)
        for i in 0..<count {
            rawInsert(p, i, scratch + Node.slot(scratch, i), Node.cellSize(scratch, i, leaf: leaf))
        }
    }

    /// Splits node `p` while inserting a cell, and inserts the separator into the parent (or a new root).
    func split(
        _ path: inout [PathEntry], _ n: UInt32, _ p: UnsafeMutableRawPointer, _ i: Int,
        _ cell: UnsafeRawPointer, _ size: Int, leaf: Bool, append: Bool, _ t: inout TreeState
    ) throws {
        moveBytes(scratch, p, pageSize)
        let oldCount = Node.count(scratch)
        var cells: [(UnsafeRawPointer, Int)] = []
        cells.reserveCapacity(oldCount + 1)
        for j in 0..<oldCount {
            if j == i { cells.append((cell, size)) }
            cells.append((UnsafeRawPointer(scratch + Node.slot(scratch, j)), Node.cellSize(scratch, j, leaf: leaf)))
        }
        if i == oldCount { cells.append((cell, size)) }
        // Where to split: after the last old cell when appending at the right edge of the tree
        // (sequential inserts then fill pages completely), else at the byte midpoint.
        var s: Int
        if append && i == oldCount {
            s = oldCount
        } else {
            let total = cells.reduce(0) { $0 + $1.1 + 2 }
            var acc = 0
            s = 0
            while s < cells.count && acc + (cells[s].1 + 2) <= total / 2 { acc += cells[s].1 + 2; s += 1 }
            s = min(max(s, 1), cells.count - 1)
        }
        // The right node's first key, which becomes the separator in the parent.
        let (rn, rp) = try allocPage(leaf ? .leaf : .branch)
        var separator: [UInt8]
        if leaf {
            resetNode(p)
            for j in 0..<s { rawInsert(p, j, cells[j].0, cells[j].1) }
            for j in s..<cells.count { rawInsert(rp, j - s, cells[j].0, cells[j].1) }
            assertNodeInvariant(p, leaf: true, "split left")
            assertNodeInvariant(rp, leaf: true, "split right")
            separator = shortestSeparator(
                after: try Node.leafKey(p, s - 1, access), upTo: try Node.leafKey(rp, 0, access))
        } else {
            let first = cells[s].0
            let klen = Int(first.u16(4))
            separator = Array(UnsafeRawBufferPointer(start: first + CellLayout.branchHeader, count: klen))
            let child = first.u32(0)
            resetNode(p)
            for j in 0..<s { rawInsert(p, j, cells[j].0, cells[j].1) }
            // The right node's first cell: the same child with an empty key. Built in its own
            // buffer: `cell` may live in sepBuf and still be needed below.
            var keyless: (UInt32, UInt16) = (0, 0)
            withUnsafeMutableBytes(of: &keyless) { b in
                b.baseAddress!.setU32(0, child)
                b.baseAddress!.setU16(4, 0)
                rawInsert(rp, 0, UnsafeRawPointer(b.baseAddress!), CellLayout.branchHeader)
            }
            for j in (s + 1)..<cells.count { rawInsert(rp, j - s, cells[j].0, cells[j].1) }
            assertNodeInvariant(p, leaf: false, "split left")
            assertNodeInvariant(rp, leaf: false, "split right")
        }
        // Build the parent's new cell (right child, separator).
        sepBuf.setU32(0, rn)
        sepBuf.setU16(4, UInt16(separator.count))
        separator.withUnsafeBytes {
            if let b = $0.baseAddress, !separator.isEmpty {
                moveBytes(sepBuf + CellLayout.branchHeader, b, separator.count)
            }
        }
        let sepSize = CellLayout.branchHeader + separator.count
        if let parent = path.popLast() {
            try insertCell(
                &path, parent.page, parent.ptr, parent.index + 1, sepBuf, sepSize, leaf: false, append: append, &t)
        } else {
            let (root, rootP) = try allocPage(.branch)
            // Cell 0: the left node with an empty key. The separator cell is copied first since
            // sepBuf is reused to build cell 0.
            moveBytes(scratch, sepBuf, sepSize)
            sepBuf.setU32(0, n)
            sepBuf.setU16(4, 0)
            rawInsert(rootP, 0, sepBuf, CellLayout.branchHeader)
            rawInsert(rootP, 1, scratch, sepSize)
            t.root = root
        }
    }

    /// The separator between leaves whose keys end at `a` and start at `b` (a < b): any k with
    /// a < k <= b routes correctly. A short `b` (16 bytes or less, as the object store's 8-byte
    /// keys are) is the separator itself, so that a leaf's first key equals its separator and a
    /// greatest-key-at-most lookup (`modifyFloor`) finds its entry in the leaf it descends to;
    /// truncating such keys saved a few bytes per branch cell but sent about one object insert
    /// in eleven through a second descent. A longer `b` is cut to one byte past the common
    /// prefix (shorter branch cells, more fan-out).
    func shortestSeparator(after a: UnsafeRawBufferPointer, upTo b: UnsafeRawBufferPointer) -> [UInt8] {
        if b.count <= 16 { return Array(b) }
        var c = 0
        while c < a.count && c < b.count && a[c] == b[c] { c += 1 }
        return Array(b[0..<min(c + 1, b.count)])
    }

    func delete(_ key: UnsafeRawBufferPointer, _ t: inout TreeState) throws -> Bool {
        guard t.root != 0, try access.get(root: t.root, key) != nil else { return false }
        try withPath { path in
            let (n, p, _) = try descendWritable(key, &t, &path)
            let (i, found) = try access.leafSearch(p, key)
            precondition(found, "key vanished between lookup and delete")
            if case .overflow(let first, _) = try Node.leafValue(p, i, access) {
                freePage(first, run: try access.overflowRun(first: first))
            }
            removeCell(p, i, leaf: true)
            // (The catalog's own state carries no count, hence the floor at zero.)
            if t.count > 0 { t.count -= 1 }
            try rebalance(&path, n, p, leaf: true, &t)
        }
        return true
    }

    /// After a removal from node `p`: drop it if empty, merge it with a sibling if both fit in one
    /// page and it is less than a quarter full, and collapse a root with a single child.
    func rebalance(
        _ path: inout [PathEntry], _ n0: UInt32, _ p0: UnsafeMutableRawPointer, leaf leaf0: Bool, _ t: inout TreeState
    ) throws {
        var n = n0, p = p0, leaf = leaf0
        let capacity = pageSize - PageHeader.size
        while true {
            guard let parent = path.last else {
                // p is the root.
                if Node.count(p) == 0 {
                    freePage(n)
                    t.root = 0
                } else if !leaf {
                    var root = n, rp = p
                    while !Node.isLeaf(rp) && Node.count(rp) == 1 {
                        let child = try Node.child(rp, 0, access)
                        freePage(root)
                        root = child
                        rp = try access.node(child)
                    }
                    t.root = root
                }
                return
            }
            if Node.count(p) == 0 {
                freePage(n)
                try checkBranchBeforeEdit(parent.page, parent.ptr)
                removeCell(parent.ptr, parent.index, leaf: false)
                path.removeLast()
                (n, p, leaf) = (parent.page, parent.ptr, false)
                continue
            }
            if Node.usedBytes(p, pageSize: pageSize) >= capacity / 4 || Node.count(parent.ptr) < 2 { return }
            // Merge the right one of (p, sibling) into the left one.
            let pi = parent.index
            let (li, ri) = pi > 0 ? (pi - 1, pi) : (pi, pi + 1)
            let lOld = try Node.child(parent.ptr, li, access)
            let rOld = try Node.child(parent.ptr, ri, access)
            let lpRead = try access.node(lOld), rpRead = try access.node(rOld)
            guard Node.isLeaf(lpRead) == leaf, Node.isLeaf(rpRead) == leaf else {
                throw access.corrupt(parent.page, "children of different kinds")
            }
            let sepKey =
                leaf ? UnsafeRawBufferPointer(start: nil, count: 0) : try Node.branchKey(parent.ptr, ri, access)
            let rightUsed = Node.usedBytes(rpRead, pageSize: pageSize) + (leaf ? 0 : sepKey.count)
            if Node.usedBytes(lpRead, pageSize: pageSize) + rightUsed > capacity { return }
            let separator = Array(sepKey)
            // The right node's cells are copied by their sizes, and the left one grows in place.
            try checkCells(rOld, rpRead, leaf: leaf)
            let (ln, lp) = try writable(lOld)
            if !leaf { try checkBranchBeforeEdit(ln, lp) }
            if ln != lOld { parent.ptr.setU32(Node.slot(parent.ptr, li), ln) }
            if Node.freeBytes(lp) < rightUsed { compact(lp, leaf: leaf) }
            let rp = rpRead
            let rc = Node.count(rp)
            var at = Node.count(lp)
            for j in 0..<rc {
                if !leaf && j == 0 {
                    cellBuf.setU32(0, try Node.child(rp, 0, access))
                    cellBuf.setU16(4, UInt16(separator.count))
                    separator.withUnsafeBytes {
                        if let b = $0.baseAddress { moveBytes(cellBuf + CellLayout.branchHeader, b, separator.count) }
                    }
                    rawInsert(lp, at, cellBuf, CellLayout.branchHeader + separator.count)
                } else {
                    rawInsert(lp, at, rp + Node.slot(rp, j), Node.cellSize(rp, j, leaf: leaf))
                }
                at += 1
            }
            assertNodeInvariant(lp, leaf: leaf, "merge")
            // The right node's cells now live in the left node; its overflow runs stay referenced.
            freePage(rOld)
            try checkBranchBeforeEdit(parent.page, parent.ptr)
            removeCell(parent.ptr, ri, leaf: false)
            path.removeLast()
            (n, p, leaf) = (parent.page, parent.ptr, false)
        }
    }
}

extension WriteTransaction {
    /// DEBUG-only: the node's cells plus its garbage exactly fill the cell area. Checked after
    /// every mutation in debug builds; compiled out of release builds.
    @inline(__always)
    func assertNodeInvariant(_ p: UnsafeRawPointer, leaf: Bool, _ op: StaticString) {
        #if DEBUG
            var used = 0
            for i in 0..<Node.count(p) { used += Node.cellSize(p, i, leaf: leaf) }
            assert(
                used + Node.garbage(p) == pageSize - Node.cellStart(p),
                "\(op): cells \(used) + garbage \(Node.garbage(p)) != cell area \(pageSize - Node.cellStart(p)) on page \(p.u32(PageHeader.pageNumber))"
            )
        #endif
    }
}
