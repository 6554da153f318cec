/// Cell accessors. `p` is a node that passed `PageAccess.node`.
enum Node {
    @inline(__always) static func isLeaf(_ p: UnsafeRawPointer) -> Bool {
        p.u8(PageHeader.type) == PageType.leaf.rawValue
    }
    @inline(__always) static func count(_ p: UnsafeRawPointer) -> Int { Int(p.u16(PageHeader.cellCount)) }
    @inline(__always) static func cellStart(_ p: UnsafeRawPointer) -> Int { Int(p.u16(PageHeader.cellStart)) }
    @inline(__always) static func garbage(_ p: UnsafeRawPointer) -> Int { Int(p.u16(PageHeader.garbage)) }
    @inline(__always) static func slot(_ p: UnsafeRawPointer, _ i: Int) -> Int { Int(p.u16(PageHeader.size + 2 * i)) }

    /// Offset of cell `i`, checked to leave room for a cell header inside the page.
    @inline(__always)
    static func cell(_ p: UnsafeRawPointer, _ i: Int, _ acc: PageAccess) throws -> Int {
        let off = slot(p, i)
        guard off >= PageHeader.size + 2 * count(p), off + 6 <= acc.pageSize else {
            throw acc.corrupt(p.u32(PageHeader.pageNumber), "cell \(i) at offset \(off) is outside the cell area")
        }
        return off
    }

    /// Whether the cells of `p` lie in key order, each below the one before (as `compact` and a
    /// split write them), with no garbage between them.
    static func cellsInKeyOrder(_ p: UnsafeRawPointer) -> Bool {
        let n = count(p)
        guard n > 1 else { return true }
        if p.u16(PageHeader.garbage) != 0 { return false }
        var previous = slot(p, 0)
        for i in 1..<n {
            let o = slot(p, i)
            if o >= previous { return false }
            previous = o
        }
        return true
    }

    /// Key of leaf cell `i`.
    @inline(__always)
    static func leafKey(_ p: UnsafeRawPointer, _ i: Int, _ acc: PageAccess) throws -> UnsafeRawBufferPointer {
        let off = try cell(p, i, acc)
        let klen = Int(p.u16(off))
        guard off + 6 + klen <= acc.pageSize else {
            throw acc.corrupt(p.u32(PageHeader.pageNumber), "key of cell \(i) runs past the page")
        }
        return UnsafeRawBufferPointer(start: p + off + 6, count: klen)
    }

    /// Key of branch cell `i` (empty for cell 0).
    @inline(__always)
    static func branchKey(_ p: UnsafeRawPointer, _ i: Int, _ acc: PageAccess) throws -> UnsafeRawBufferPointer {
        let off = try cell(p, i, acc)
        let klen = Int(p.u16(off + 4))
        guard off + 6 + klen <= acc.pageSize else {
            throw acc.corrupt(p.u32(PageHeader.pageNumber), "key of cell \(i) runs past the page")
        }
        return UnsafeRawBufferPointer(start: p + off + 6, count: klen)
    }

    @inline(__always)
    static func child(_ p: UnsafeRawPointer, _ i: Int, _ acc: PageAccess) throws -> UInt32 {
        p.u32(try cell(p, i, acc))
    }

    /// The stored form of a leaf cell's value.
    enum Value {
        case inline(UnsafeRawBufferPointer)
        case overflow(page: UInt32, length: Int)
    }

    @inline(__always)
    static func leafValue(_ p: UnsafeRawPointer, _ i: Int, _ acc: PageAccess) throws -> Value {
        let off = try cell(p, i, acc)
        let klen = Int(p.u16(off))
        let word = p.u32(off + 2)
        let vlen = Int(word & ~CellLayout.overflowFlag)
        let body = off + 6 + klen
        if word & CellLayout.overflowFlag != 0 {
            guard body + 4 <= acc.pageSize else {
                throw acc.corrupt(p.u32(PageHeader.pageNumber), "overflow reference of cell \(i) runs past the page")
            }
            return .overflow(page: p.u32(body), length: vlen)
        }
        guard body + vlen <= acc.pageSize else {
            throw acc.corrupt(p.u32(PageHeader.pageNumber), "value of cell \(i) runs past the page")
        }
        return .inline(UnsafeRawBufferPointer(start: p + body, count: vlen))
    }

    /// Size in bytes of cell `i` (not counting its slot).
    @inline(__always)
    static func cellSize(_ p: UnsafeRawPointer, _ i: Int, leaf: Bool) -> Int {
        let off = slot(p, i)
        if leaf {
            let word = p.u32(off + 2)
            let body = word & CellLayout.overflowFlag != 0 ? 4 : Int(word & ~CellLayout.overflowFlag)
            return CellLayout.leafHeader + Int(p.u16(off)) + body
        }
        return CellLayout.branchHeader + Int(p.u16(off + 4))
    }

    /// Whether every cell of node `p` lies inside its cell area and the cells plus the garbage
    /// count fill that area exactly: what the write path's in-place edits (insert, compact,
    /// split) rely on. Readers check each access instead; a writer checks a committed node once,
    /// when it copies it, so a damaged node is an error instead of edits outside the page.
    static func cellsFillCellArea(_ p: UnsafeRawPointer, leaf: Bool, pageSize: Int) -> Bool {
        let n = count(p)
        let start = cellStart(p)
        var used = 0
        for i in 0..<n {
            let off = slot(p, i)
            guard off >= start, off + CellLayout.leafHeader <= pageSize else { return false }
            let size = cellSize(p, i, leaf: leaf)
            guard size <= pageSize - off else { return false }
            used += size
        }
        return used + garbage(p) == pageSize - start
    }

    /// Bytes used by cells and slots (what a merge would need).
    @inline(__always)
    static func usedBytes(_ p: UnsafeRawPointer, pageSize: Int) -> Int {
        (pageSize - cellStart(p) - garbage(p)) + 2 * count(p)
    }

    /// Contiguous free bytes between the slot array and the cells.
    @inline(__always)
    static func freeBytes(_ p: UnsafeRawPointer) -> Int {
        cellStart(p) - PageHeader.size - 2 * count(p)
    }
}
