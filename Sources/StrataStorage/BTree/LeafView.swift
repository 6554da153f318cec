/// One leaf page of a tree, read in place: the unit a scan works on.
///
/// A scan that asks for one entry at a time pays a call per entry (a closure, or a cursor step);
/// `forEachLeaf` hands the caller a whole leaf instead, and the caller's loop over its entries
/// inlines `inlineEntry(_:)`, a handful of loads and one bounds check. Entries whose value lives
/// in an overflow run, or whose cell does not pass the check, take `entry(_:)`, which reads the
/// overflow run or throws `StorageError.corruptPage`: a damaged page is never trusted.
///
/// ```swift
/// try txn.forEachLeaf(in: tree) { leaf in
///     for i in 0..<leaf.count {
///         let (key, value) = try leaf.inlineEntry(i) ?? leaf.entry(i)
///         ...
///     }
///     return true
/// }
/// ```
///
/// ## Concurrency
/// Valid only inside the `forEachLeaf` call that produced it, on that call's thread. Its pointers
/// point into the map (or a write transaction's private pages) and must not be kept.
///
/// ## Why SPI-public
/// The scans of StrataCore inline `inlineEntry(_:)` and `prefetchCells()`. Swift 6.3 does not
/// inline the methods of a `package` type into another module, `@inlinable` or not (a `package`
/// type is treated as resilient across modules without package CMO, which takes compiler flags
/// SwiftPM refuses in a dependency); the methods of a public type it does. `@_spi(StrataEngine)`
/// keeps the type out of the API a user of `StrataStorage` sees.
@_spi(StrataEngine) public struct LeafView {
    @usableFromInline let page: UnsafeRawPointer
    let access: PageAccess
    @usableFromInline let pageSize: Int
    /// The lowest offset a cell may start at: just past the slot array.
    @usableFromInline let cellFloor: Int
    /// Entries in the leaf.
    public let count: Int

    init(page: UnsafeRawPointer, access: PageAccess) {
        self.page = page
        self.access = access
        pageSize = access.pageSize
        count = Node.count(page)
        cellFloor = PageHeader.size + 2 * count
    }

    /// The key and value of entry `i` (`0 <= i < count`) when the value is stored in the leaf
    /// and the cell lies inside the page; nil otherwise (then call ``entry(_:)``).
    @inlinable @inline(__always)
    public func inlineEntry(_ i: Int) -> (key: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer)? {
        // The layouts are FORMAT.md's: slots of u16 offsets after the 32-byte page header; a leaf
        // cell is key length u16, value word u32 (bit 31: overflow), key, value.
        let off = Int(UInt16(littleEndian: page.loadUnaligned(fromByteOffset: 32 + 2 &* i, as: UInt16.self)))
        // The cell header must lie in the cell area before it is read: a corrupt slot may point
        // anywhere up to 64 KiB, past the page and past the end of the file.
        guard off >= cellFloor, off &+ 6 <= pageSize else { return nil }
        let klen = Int(UInt16(littleEndian: page.loadUnaligned(fromByteOffset: off, as: UInt16.self)))
        let word = UInt32(littleEndian: page.loadUnaligned(fromByteOffset: off &+ 2, as: UInt32.self))
        let keyStart = off &+ 6
        let valueEnd = keyStart &+ klen &+ Int(word)
        // The value is inline (bit 31 clear keeps `word` below 2^31, so the sum cannot wrap) and
        // ends inside the page.
        guard word & 0x8000_0000 == 0, valueEnd <= pageSize else { return nil }
        return (
            UnsafeRawBufferPointer(start: page + keyStart, count: klen),
            UnsafeRawBufferPointer(start: page + keyStart + klen, count: Int(word))
        )
    }

    /// Starts loading the first two cache lines of every cell of the leaf (a cell's header, its
    /// key and the start of its value), so that the misses of a scan's first reads of each cell
    /// overlap instead of coming one per cell. A hint: reads nothing but the slot array.
    @inlinable @inline(__always)
    public func prefetchCells() {
        for i in 0..<count {
            let off = Int(UInt16(littleEndian: page.loadUnaligned(fromByteOffset: 32 + 2 &* i, as: UInt16.self)))
            prefetchForRead(page + off, bytes: 128)
        }
    }

    /// The key and value of entry `i`, wherever the value lives.
    /// - Throws: `StorageError.corruptPage` when the cell or its overflow run is damaged.
    public func entry(_ i: Int) throws -> (key: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer) {
        precondition(i >= 0 && i < count, "LeafView.entry(\(i)) outside 0..<\(count)")
        return (try Node.leafKey(page, i, access), try access.value(page, i))
    }
}

extension PageAccess {
    /// Calls `body` with each leaf of the tree at `root`, in key order, until it returns false;
    /// with `start`, from the leaf that would hold `start`, passing the index of its first entry
    /// >= `start` (0 for every later leaf).
    ///
    /// Checked on the way (FORMAT.md, "What reads check"), before `body` sees a leaf: the path to
    /// the first leaf and every branch as a lookup checks them (`node`: in full, once); each leaf
    /// as `checkScannedLeaf` does (its cells once; its keys above those of the leaf before it)
    /// and below the separator of the leaf after it; every leaf at the depth of the first; the
    /// first leaf within the separators that lead to it. The leaves after the first are not
    /// checksummed (that would cost a scan of a cold file about 40% more: Docs/Performance.md).
    ///
    /// With `passing`, for a reader of an encrypted file, the leaves after the first are opened
    /// into two buffers of the walk's own, taken in turn (the leaf before stays readable for the
    /// order check), unless the mirror holds them (`SealedFile.scanPage`): for a body that
    /// reads each leaf and keeps nothing of it past its call, as `LeafView` requires.
    func forEachLeaf(
        root: UInt32, from start: UnsafeRawBufferPointer? = nil, passing: Bool = false,
        _ body: (LeafView, Int) throws -> Bool
    ) throws {
        guard root != 0 else { return }
        let scratch: UnsafeMutableRawPointer? =
            passing && sealed != nil ? .allocate(byteCount: 2 * pageSize, alignment: 64) : nil
        defer { scratch?.deallocate() }
        var turn = 0
        var stack: [(UnsafeMutableRawPointer, Int)] = []
        stack.reserveCapacity(8)
        var p = try node(root)
        var low: UnsafeMutableRawPointer? = nil, lowCell = 0
        var high: UnsafeMutableRawPointer? = nil, highCell = 0
        while !Node.isLeaf(p) {
            let i = try start.map { try branchSearch(p, $0) } ?? 0
            if i > 0 { (low, lowCell) = (p, i) }
            if i + 1 < Node.count(p) { (high, highCell) = (p, i + 1) }
            stack.append((p, i))
            p = try node(try Node.child(p, i, self))
            if stack.count > 64 { throw corrupt(root, "tree deeper than 64 levels") }
        }
        let leafDepth = stack.count
        // The leaf the scan starts in must be the one the key routes to (later leaves are held to
        // the order of the keys before them and the separators after them).
        try checkLeafBounds(p, isRoot: leafDepth == 0, low: low, lowCell, high: high, highCell)
        var previous: UnsafeRawBufferPointer? = nil
        var first = try start.map { try leafSearch(p, $0).index } ?? 0
        while true {
            // Start loading the next leaf's header and slots (when its parent is this leaf's) so
            // that they are in the cache by the time the walk gets there. Unchecked: a hint.
            if let (b, j) = stack.last, j + 1 < Node.count(b) {
                let off = Int(b.u16(PageHeader.size + 2 * (j + 1)))
                if off + 4 <= pageSize {
                    let next = b.u32(off)
                    if next < pageCount { prefetchForRead(pointer(next), bytes: 128) }
                }
            }
            previous = try checkScannedLeaf(p, after: previous, isRoot: leafDepth == 0)
            try checkBelowNextSeparator(p, last: previous, path: stack, levels: stack.count)
            if try !body(LeafView(page: p, access: self), first) { return }
            first = 0
            // Climb to the next subtree, then down to its leftmost leaf.
            var advanced = false
            while let (b, j) = stack.last {
                if j + 1 < Node.count(b) {
                    stack[stack.count - 1].1 = j + 1
                    // Without a scratch buffer (a plain file, or not passing), `nodeHeader` inline.
                    let next = try Node.child(b, j + 1, self)
                    var c =
                        try scratch == nil
                        ? nodeHeader(next)
                        : stepNode(
                            next, into: leafBuffer(scratch, depth: stack.count, leafDepth: leafDepth, turn: &turn))
                    while !Node.isLeaf(c) {
                        try checkOnce(Self.number(c), c)
                        stack.append((c, 0))
                        let first = try Node.child(c, 0, self)
                        c =
                            try scratch == nil
                            ? nodeHeader(first)
                            : stepNode(
                                first, into: leafBuffer(scratch, depth: stack.count, leafDepth: leafDepth, turn: &turn))
                        if stack.count > 64 { throw corrupt(root, "tree deeper than 64 levels") }
                    }
                    guard stack.count == leafDepth else { throw wrongDepth(c, stack.count, leafDepth) }
                    p = c
                    advanced = true
                    break
                }
                stack.removeLast()
            }
            if !advanced { return }
        }
    }

    /// The buffer a passing walk opens a child at `depth` into: at the leaves' depth (the
    /// children there are leaves, or the walk throws), one of `scratch`'s two pages in turn;
    /// elsewhere, or without `scratch`, nil (the mirror).
    @inline(__always)
    func leafBuffer(
        _ scratch: UnsafeMutableRawPointer?, depth: Int, leafDepth: Int, turn: inout Int
    ) -> UnsafeMutableRawPointer? {
        guard let scratch, depth == leafDepth else { return nil }
        turn ^= 1
        return scratch + turn * pageSize
    }

    /// Node `n`'s page, header checked (`nodeHeader`); opened into `buffer` when given
    /// (`passingNodeHeader`).
    @inline(never)
    func stepNode(_ n: UInt32, into buffer: UnsafeMutableRawPointer?) throws -> UnsafeMutableRawPointer {
        guard let buffer else { return try nodeHeader(n) }
        return try passingNodeHeader(n, scratch: buffer)
    }

    /// Checks that the last key of leaf `p` lies below the separator of the leaf after it: the
    /// key of the next cell of the deepest branch among the first `levels` of `path` that has one
    /// (the keys of a leaf from further right would otherwise be read before the order check of
    /// the next leaf finds them).
    @inline(__always)
    func checkBelowNextSeparator(
        _ p: UnsafeRawPointer, last: UnsafeRawBufferPointer?,
        path: [(UnsafeMutableRawPointer, Int)], levels: Int
    ) throws {
        guard let last else { return }
        var k = levels - 1
        while k >= 0 {
            let (b, j) = path[k]
            if j + 1 < Node.count(b) {
                guard compareKeys(last, try Node.branchKey(b, j + 1, self)) < 0 else {
                    throw outOfBounds(p, "last key is not below separator \(j + 1) of page \(Self.number(b))")
                }
                return
            }
            k -= 1
        }
    }

    @inline(never)
    func wrongDepth(_ p: UnsafeRawPointer, _ depth: Int, _ leafDepth: Int) -> StorageError {
        corrupt(
            Self.number(p),
            "a leaf at depth \(depth) of a tree whose leaves are at depth \(leafDepth) (a branch's children are all leaves or all branches)"
        )
    }
}

extension ReadTransaction {
    /// Calls `body` with each leaf of `tree` in key order until it returns false: the fastest
    /// way to read every entry (see ``LeafView``).
    /// - Throws: `StorageError.corruptPage` for a damaged branch or leaf header; what `body` throws.
    ///
    /// With `passing`, `body` promises to keep nothing of a leaf past its call (not even what
    /// `LeafView`'s documentation allows within the walk): an encrypted file's leaves may then be
    /// opened into a buffer the walk reuses instead of the mirror (`SealedFile.scanPage`).
    package func forEachLeaf(in tree: Tree, passing: Bool = false, _ body: (LeafView) throws -> Bool) throws {
        try access.forEachLeaf(root: tree.root, passing: passing) { leaf, _ in try body(leaf) }
    }
}

extension WriteTransaction {
    /// Calls `body` with each leaf of `tree`'s current state in key order until it returns
    /// false; `body` must not change the tree (see ``LeafView``).
    /// - Throws: `StorageError.corruptPage` for a damaged branch or leaf header; what `body` throws.
    package func forEachLeaf(in tree: TreeHandle, _ body: (LeafView) throws -> Bool) throws {
        try checkOpen()
        try access.forEachLeaf(root: trees[tree.index].root) { leaf, _ in try body(leaf) }
    }
}
