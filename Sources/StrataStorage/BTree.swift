// Read side of the copy-on-write B+tree, shared by read and write transactions.
//
// Node layout (FORMAT.md, "B-tree nodes"): the 32-byte page header, then a slot array of u16 cell
// offsets in key order, free space, and cells packed at the end of the page. Every access checks
// that offsets and lengths stay inside the page, so a corrupt page is reported as an error
// instead of reading outside it.

/// Where a transaction finds its pages: the mapping's base address and the version's page count.
///
/// Trivially copyable (no references): descents copy it often, and a `String` member made each
/// copy a retain and a release (about 3% of W1's bulk load, perf).
struct PageAccess {
    let base: UnsafeMutableRawPointer
    let pageSize: Int
    let pageCount: UInt32
    /// The file's path, for error messages.
    let pathName: PathName
    /// A write transaction's private pages (nil for readers), valid while the table carries
    /// `shadowGeneration`.
    var shadow: UnsafeMutablePointer<ShadowTable>? = nil
    var shadowGeneration: UInt64 = 0

    init(base: UnsafeMutableRawPointer, pageSize: Int, pageCount: UInt32, path: PathName,
         shadow: UnsafeMutablePointer<ShadowTable>? = nil, shadowGeneration: UInt64 = 0) {
        self.base = base
        self.pageSize = pageSize
        self.pageCount = pageCount
        self.pathName = path
        self.shadow = shadow
        self.shadowGeneration = shadowGeneration
    }

    init(base: UnsafeMutableRawPointer, pageSize: Int, pageCount: UInt32, path: String,
         shadow: UnsafeMutablePointer<ShadowTable>? = nil, shadowGeneration: UInt64 = 0) {
        self.init(base: base, pageSize: pageSize, pageCount: pageCount, path: PathName(path),
                  shadow: shadow, shadowGeneration: shadowGeneration)
    }

    /// The file's path.
    var path: String { pathName.string }

    @inline(__always)
    func page(_ n: UInt32) throws -> UnsafeMutableRawPointer {
        guard n >= 2 && n < pageCount else { throw corrupt(n, "reference to page \(n) outside the file's \(pageCount) pages") }
        return pointer(n)
    }

    /// Where page `n` is: in the write transaction's private memory if it wrote the page there,
    /// else in the map. `n` must be in range.
    @inline(__always)
    func pointer(_ n: UInt32) -> UnsafeMutableRawPointer {
        if let s = shadow, s.pointee.generation == shadowGeneration, let b = s.pointee.lookup(n) { return b }
        return base + Int(n) * pageSize
    }

    /// The page `n`, checked to be a B-tree node with a sane header.
    @inline(__always)
    func node(_ n: UInt32) throws -> UnsafeMutableRawPointer {
        let p = try page(n)
        let t = p.u8(PageHeader.type)
        let count = Int(p.u16(PageHeader.cellCount))
        let start = Int(p.u16(PageHeader.cellStart))
        guard (t == PageType.leaf.rawValue || t == PageType.branch.rawValue),
              PageHeader.size + 2 * count <= start, start <= pageSize,
              t == PageType.leaf.rawValue || count >= 1
        else { throw corrupt(n, "not a valid B-tree node (type \(t), \(count) cells, cells from \(start))") }
        return p
    }

    @inline(never)
    func corrupt(_ page: UInt32, _ reason: String) -> StorageError {
        .corruptPage(path: path, page: page, reason: reason)
    }
}

/// Cell accessors. `p` is a node that passed `PageAccess.node`.
enum Node {
    @inline(__always) static func isLeaf(_ p: UnsafeRawPointer) -> Bool { p.u8(PageHeader.type) == PageType.leaf.rawValue }
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
        guard off + 6 + klen <= acc.pageSize else { throw acc.corrupt(p.u32(PageHeader.pageNumber), "key of cell \(i) runs past the page") }
        return UnsafeRawBufferPointer(start: p + off + 6, count: klen)
    }

    /// Key of branch cell `i` (empty for cell 0).
    @inline(__always)
    static func branchKey(_ p: UnsafeRawPointer, _ i: Int, _ acc: PageAccess) throws -> UnsafeRawBufferPointer {
        let off = try cell(p, i, acc)
        let klen = Int(p.u16(off + 4))
        guard off + 6 + klen <= acc.pageSize else { throw acc.corrupt(p.u32(PageHeader.pageNumber), "key of cell \(i) runs past the page") }
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
            guard body + 4 <= acc.pageSize else { throw acc.corrupt(p.u32(PageHeader.pageNumber), "overflow reference of cell \(i) runs past the page") }
            return .overflow(page: p.u32(body), length: vlen)
        }
        guard body + vlen <= acc.pageSize else { throw acc.corrupt(p.u32(PageHeader.pageNumber), "value of cell \(i) runs past the page") }
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

extension PageAccess {
    /// Index of the first leaf cell whose key is >= `key`, and whether it is equal.
    @inline(__always)
    func leafSearch(_ p: UnsafeRawPointer, _ key: UnsafeRawBufferPointer) throws -> (index: Int, found: Bool) {
        var lo = 0
        var hi = Node.count(p)
        // A leaf of a few large cells (the object store's clusters: about four to a page) is
        // searched by probes into different lines of a page that is rarely in cache: ask for
        // every cell's first line at once, so the probes' misses overlap instead of following
        // one another. A hint: a slot pointing anywhere is harmless (`leafKey` checks it).
        if hi <= 8 {
            for i in 0..<hi { prefetchForRead(p + Node.slot(p, i)) }
        }
        while lo < hi {
            let mid = (lo &+ hi) >> 1
            let k = try Node.leafKey(p, mid, self)
            let c = compareBytes(k.baseAddress ?? UnsafeRawPointer(p), k.count, key.baseAddress ?? UnsafeRawPointer(p), key.count)
            if c < 0 { lo = mid + 1 } else if c > 0 { hi = mid } else { return (mid, true) }
        }
        return (lo, false)
    }

    /// Index of the branch cell whose subtree holds `key`: the last cell whose key is <= `key`
    /// (cell 0 stands for minus infinity).
    @inline(__always)
    func branchSearch(_ p: UnsafeRawPointer, _ key: UnsafeRawBufferPointer) throws -> Int {
        var lo = 1
        var hi = Node.count(p)
        while lo < hi {
            let mid = (lo &+ hi) >> 1
            let k = try Node.branchKey(p, mid, self)
            let c = compareBytes(k.baseAddress ?? UnsafeRawPointer(p), k.count, key.baseAddress ?? UnsafeRawPointer(p), key.count)
            if c <= 0 { lo = mid + 1 } else { hi = mid }
        }
        return lo - 1
    }

    /// The pages of the overflow run starting at `first`, checked to be an overflow page whose
    /// run lies inside the version's pages. Writers free and copy runs by this count, so a
    /// damaged count is an error here rather than billions of pages freed or copied.
    func overflowRun(first: UInt32) throws -> Int {
        let p = try page(first)
        let run = Int(p.u32(PageHeader.runPages))
        guard p.u8(PageHeader.type) == PageType.overflow.rawValue, run >= 1, UInt64(first) + UInt64(run) <= UInt64(pageCount) else {
            throw corrupt(first, "not an overflow run inside the file (type \(p.u8(PageHeader.type)), \(run) pages)")
        }
        return run
    }

    /// The bytes of an overflow run's value, checked against the run's header.
    func overflowValue(first: UInt32, length: Int) throws -> UnsafeRawBufferPointer {
        let p = try page(first)
        guard p.u8(PageHeader.type) == PageType.overflow.rawValue else { throw corrupt(first, "expected an overflow page") }
        let run = Int(p.u32(PageHeader.runPages))
        guard run >= 1, UInt64(first) + UInt64(run) <= UInt64(pageCount),
              Int(p.u32(PageHeader.valueLength)) == length, PageHeader.size + length <= run * pageSize
        else { throw corrupt(first, "overflow run header does not match its reference") }
        return UnsafeRawBufferPointer(start: p + PageHeader.size, count: length)
    }

    /// Looks `key` up in the tree rooted at `root`; the value points into the mapping.
    func get(root: UInt32, _ key: UnsafeRawBufferPointer) throws -> UnsafeRawBufferPointer? {
        if root == 0 { return nil }
        var p = try node(root)
        var depth = 0
        while !Node.isLeaf(p) {
            let i = try branchSearch(p, key)
            p = try node(try Node.child(p, i, self))
            depth += 1
            if depth > 64 { throw corrupt(root, "tree deeper than 64 levels (a cycle?)") }
        }
        let (i, found) = try leafSearch(p, key)
        guard found else { return nil }
        switch try Node.leafValue(p, i, self) {
        case .inline(let v): return v
        case .overflow(let first, let length): return try overflowValue(first: first, length: length)
        }
    }

    func value(_ p: UnsafeRawPointer, _ i: Int) throws -> UnsafeRawBufferPointer {
        switch try Node.leafValue(p, i, self) {
        case .inline(let v): return v
        case .overflow(let first, let length): return try overflowValue(first: first, length: length)
        }
    }
}

/// A file path as a number: an index into a process-wide table of the paths opened so far (each
/// distinct path once), so that values carrying it hold no reference.
struct PathName: Equatable {
    let id: Int

    private static let lock = Lock()
    nonisolated(unsafe) private static var ids: [String: Int] = [:]
    nonisolated(unsafe) private static var paths: [String] = []

    /// The number of `path`, added to the table the first time.
    init(_ path: String) {
        id = Self.lock.withLock {
            if let id = Self.ids[path] { return id }
            Self.paths.append(path)
            Self.ids[path] = Self.paths.count - 1
            return Self.paths.count - 1
        }
    }

    var string: String { Self.lock.withLock { Self.paths[id] } }
}
