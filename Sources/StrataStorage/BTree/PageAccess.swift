/// Where a transaction finds its pages: the mapping's base address and the version's page count.
///
/// Trivially copyable (no references): descents copy it often, and a `String` member made each
/// copy a retain and a release (about 3% of the `strata-bench w1` bulk load, perf).
struct PageAccess {
    let base: UnsafeMutableRawPointer
    let pageSize: Int
    let pageCount: UInt32
    /// The newest version a page reached through this access may carry: a snapshot's version, or
    /// for a write transaction the version it creates (its own pages carry that one). A page of a
    /// newer version was reused while this snapshot could still reach it, or is damaged.
    /// `UInt64.max` for recovery and `verify()`, which check versions themselves.
    let maxVersion: UInt64
    /// The file's path, for error messages.
    let pathName: PathName
    /// Pages already checked in full (checksum, cell layout, key order) through the mapping:
    /// `node` checks a page in full the first time it reaches it, then trusts it until it is
    /// rewritten. Nil for recovery and `verify()`, which check every page themselves.
    let checked: CheckedPages?
    /// The version whose pages are this access's own and not yet checksummed (a write
    /// transaction's; their checksums are computed at commit step 6), never checked in full;
    /// `UInt64.max` for readers.
    let ownVersion: UInt64
    /// A write transaction's private pages (nil for readers), valid while the table carries
    /// `shadowGeneration`.
    var shadow: UnsafeMutablePointer<ShadowTable>? = nil
    var shadowGeneration: UInt64 = 0
    /// For an encrypted file, its sealed pages, opened into `base` (the plaintext mirror) as
    /// `page` reaches them; nil for a plain file. Unretained: the mapping holds it.
    let sealed: Unmanaged<SealedFile>?

    init(
        base: UnsafeMutableRawPointer, pageSize: Int, pageCount: UInt32, path: PathName, maxVersion: UInt64 = .max,
        checked: CheckedPages? = nil, ownVersion: UInt64 = .max,
        shadow: UnsafeMutablePointer<ShadowTable>? = nil, shadowGeneration: UInt64 = 0, sealed: SealedFile? = nil
    ) {
        precondition(
            checked.map { $0.count >= Int(pageCount) } ?? true, "the checked-pages table must cover the version's pages"
        )
        self.base = base
        self.pageSize = pageSize
        self.pageCount = pageCount
        self.maxVersion = maxVersion
        self.checked = checked
        self.ownVersion = ownVersion
        self.pathName = path
        self.shadow = shadow
        self.shadowGeneration = shadowGeneration
        self.sealed = sealed.map { Unmanaged.passUnretained($0) }
    }

    init(
        base: UnsafeMutableRawPointer, pageSize: Int, pageCount: UInt32, path: String, maxVersion: UInt64 = .max,
        checked: CheckedPages? = nil, ownVersion: UInt64 = .max,
        shadow: UnsafeMutablePointer<ShadowTable>? = nil, shadowGeneration: UInt64 = 0, sealed: SealedFile? = nil
    ) {
        self.init(
            base: base, pageSize: pageSize, pageCount: pageCount, path: PathName(path), maxVersion: maxVersion,
            checked: checked, ownVersion: ownVersion, shadow: shadow, shadowGeneration: shadowGeneration,
            sealed: sealed)
    }

    /// The file's path.
    var path: String { pathName.string }

    /// Page `n`, checked to be inside the version's pages and to name itself in its header: a
    /// page written to the wrong place, or copied over another (two pages swapped), fails here.
    @inline(__always)
    func page(_ n: UInt32) throws -> UnsafeMutableRawPointer {
        guard n >= 2 && n < pageCount else {
            throw corrupt(n, "reference to page \(n) outside the file's \(pageCount) pages")
        }
        let p = pointer(n)
        if let sealed { try reveal(n, p, sealed) }
        guard p.u32(PageHeader.pageNumber) == n else { throw misplaced(n, p) }
        return p
    }

    /// Opens page `n` of an encrypted file into the mirror (`p`) unless it is there already, or
    /// is this write transaction's own (in its private memory, or stamped with its version).
    @inline(never)
    func reveal(_ n: UInt32, _ p: UnsafeMutableRawPointer, _ sealed: Unmanaged<SealedFile>) throws {
        guard p == base + Int(n) * pageSize else { return }  // a write transaction's private page
        if ownVersion != .max && p.u64(PageHeader.version) == ownVersion { return }
        try sealed._withUnsafeGuaranteedRef { try $0.reveal(n, into: p) }
    }

    /// Opens the pages of the run of `count` pages from `first` (whose first page `page` opened)
    /// into the mirror, for an encrypted file; nothing for a plain one.
    @inline(__always)
    func revealRun(_ first: UInt32, count: Int) throws {
        guard let sealed, count > 1 else { return }
        try revealRest(first, count: count, sealed)
    }

    @inline(never)
    func revealRest(_ first: UInt32, count: Int, _ sealed: Unmanaged<SealedFile>) throws {
        let p = pointer(first)
        guard p == base + Int(first) * pageSize else { return }
        if ownVersion != .max && p.u64(PageHeader.version) == ownVersion { return }
        for k in 1..<count {
            let n = first + UInt32(k)
            try sealed._withUnsafeGuaranteedRef { try $0.reveal(n, into: base + Int(n) * pageSize) }
        }
    }

    /// Opens page `n` into the mirror when this access reads an encrypted file, before code that
    /// reads the page's bytes without `page` (recovery, `verify()`); checks nothing else.
    func revealForCheck(_ n: UInt32, pages: Int) throws {
        guard let sealed, n >= 2, Int(n) + pages <= Int(pageCount) else { return }
        try reveal(n, pointer(n), sealed)
        if pages > 1 { try revealRest(n, count: pages, sealed) }
    }

    @inline(never)
    func misplaced(_ n: UInt32, _ p: UnsafeRawPointer) -> StorageError {
        corrupt(
            n,
            "the page's header names page \(p.u32(PageHeader.pageNumber)) (a page written to the wrong place, or damaged)"
        )
    }

    /// Where page `n` is: in the write transaction's private memory if it wrote the page there,
    /// else in the map. `n` must be in range.
    @inline(__always)
    func pointer(_ n: UInt32) -> UnsafeMutableRawPointer {
        if let s = shadow, s.pointee.generation == shadowGeneration, let b = s.pointee.lookup(n) { return b }
        return base + Int(n) * pageSize
    }

    /// The page `n`, checked to be a B-tree node with a sane header, written by a version this
    /// access may see, and checked in full (`checkInFull`) unless it was since its last write.
    @inline(__always)
    func node(_ n: UInt32) throws -> UnsafeMutableRawPointer {
        let p = try nodeHeader(n)
        try checkOnce(n, p)
        return p
    }

    /// Checks node `n` (`p`, its header already checked) in full unless that was done since it
    /// was last written, or it is this access's own.
    @inline(__always)
    func checkOnce(_ n: UInt32, _ p: UnsafeRawPointer) throws {
        let version = p.u64(PageHeader.version)
        if let checked, version != ownVersion, !checked.isCheckedInFull(n, version: version) {
            try checkInFull(n, p, version: version, checked)
        }
    }

    /// The page `n`, checked like `node` except for the checksum and cell checks: for the leaves
    /// a scan steps to, which it checks itself (`checkScannedLeaf`).
    @inline(__always)
    func nodeHeader(_ n: UInt32) throws -> UnsafeMutableRawPointer {
        try checkedHeader(n, try page(n))
    }

    /// `nodeHeader` for a leaf a scan reads only until it moves on: of an encrypted file, opened
    /// into `scratch` (the scan's buffer) unless the mirror holds it (`SealedFile.scanPage`).
    /// Readers only: a write transaction's access has no sealed pages of its own to skip.
    @inline(__always)
    func passingNodeHeader(_ n: UInt32, scratch: UnsafeMutableRawPointer) throws -> UnsafeMutableRawPointer {
        guard let sealed, shadow == nil, ownVersion == .max else { return try nodeHeader(n) }
        guard n >= 2 && n < pageCount else {
            throw corrupt(n, "reference to page \(n) outside the file's \(pageCount) pages")
        }
        let p = try sealed._withUnsafeGuaranteedRef {
            try $0.scanPage(n, mirror: base + Int(n) * pageSize, scratch: scratch)
        }
        guard p.u32(PageHeader.pageNumber) == n else { throw misplaced(n, p) }
        return try checkedHeader(n, p)
    }

    /// `p` (page `n`), checked to be a B-tree node with a sane header (see `nodeHeader`).
    @inline(__always)
    func checkedHeader(_ n: UInt32, _ p: UnsafeMutableRawPointer) throws -> UnsafeMutableRawPointer {
        let t = p.u8(PageHeader.type)
        let count = Int(p.u16(PageHeader.cellCount))
        let start = Int(p.u16(PageHeader.cellStart))
        guard t == PageType.leaf.rawValue || t == PageType.branch.rawValue,
            PageHeader.size + 2 * count <= start, start <= pageSize,
            t == PageType.leaf.rawValue || count >= 1,
            p.u64(PageHeader.version) <= maxVersion
        else { throw badNode(n, p) }
        return p
    }

    /// The first check of node `n` since it was written (`version`): its checksum, then its
    /// cells (`checkCells`: a page whose checksum was forged with it still fails those).
    /// Recorded in `checked`, so that later visits skip it.
    @inline(never)
    func checkInFull(_ n: UInt32, _ p: UnsafeRawPointer, version: UInt64, _ checked: CheckedPages) throws {
        guard p.u64(PageHeader.checksum) == Checksum.ofPage(p, length: pageSize) else {
            throw corrupt(n, "checksum mismatch: the page does not hold what its commit wrote")
        }
        try checkCells(p)
        checked.insert(n, version: version, inFull: true)
    }

    /// What is wrong with node `n`'s header (the rare path of `node`).
    @inline(never)
    func badNode(_ n: UInt32, _ p: UnsafeRawPointer) -> StorageError {
        let t = p.u8(PageHeader.type)
        let version = p.u64(PageHeader.version)
        if t == PageType.leaf.rawValue || t == PageType.branch.rawValue, version > maxVersion {
            return corrupt(
                n,
                "written by version \(version), newer than this snapshot's version \(maxVersion) (a page reused while still in use, or damaged)"
            )
        }
        return corrupt(
            n,
            "not a valid B-tree node (type \(t), \(p.u16(PageHeader.cellCount)) cells, cells from \(p.u16(PageHeader.cellStart)))"
        )
    }

    @inline(never)
    func corrupt(_ page: UInt32, _ reason: String) -> StorageError {
        .corruptPage(path: path, page: page, reason: reason)
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
            let c = compareBytes(
                k.baseAddress ?? UnsafeRawPointer(p), k.count, key.baseAddress ?? UnsafeRawPointer(p), key.count)
            if c < 0 { lo = mid + 1 } else if c > 0 { hi = mid } else { return (mid, true) }
        }
        return (lo, false)
    }

    /// Index of the branch cell whose subtree holds `key`: the last cell whose key is <= `key`
    /// (cell 0 stands for minus infinity).
    ///
    /// For an 8-byte key (an object key) in a branch whose first and last keys are at most 8
    /// bytes (separators are shortened to the prefix that tells two leaves apart), the first
    /// probe is where the key would be if the branch's keys were spread evenly between those
    /// two, read as big-endian numbers padded with zeros (which order as the bytes do, ties
    /// aside); steps of 1, 2, 4, ... then bracket it and a binary search ends it. Object keys
    /// are nearly always even (ids in a run or drawn at random), so a few probes do what nine
    /// did in a branch of about 460 children; uneven keys cost at most about twice the binary
    /// search's probes. Every probe compares the whole key, so the guess decides only where to
    /// look.
    @inline(__always)
    func branchSearch(_ p: UnsafeRawPointer, _ key: UnsafeRawBufferPointer) throws -> Int {
        var lo = 1
        var hi = Node.count(p)
        // Cells 1..<lo are <= `key`, cells hi... are above it.
        @inline(__always) func atMost(_ i: Int) throws -> Bool {
            let k = try Node.branchKey(p, i, self)
            return compareBytes(
                k.baseAddress ?? UnsafeRawPointer(p), k.count, key.baseAddress ?? UnsafeRawPointer(p), key.count) <= 0
        }
        if hi - lo > 16, key.count == 8 {
            let first = try Node.branchKey(p, lo, self)
            let last = try Node.branchKey(p, hi - 1, self)
            if first.count <= 8, last.count <= 8 {
                let t = UInt64(bigEndian: key.loadUnaligned(as: UInt64.self))
                let f = Self.paddedWord(first)
                let l = Self.paddedWord(last)
                // A separator that reads as a larger number than the key sorts after it; one
                // that reads as the same or a smaller number, before it or equal (it is at most 8
                // bytes, the key exactly 8). So the ends answer at once (an append's descent
                // takes the last child), and between them the guess lies in lo..<hi - 1.
                if t < f { return 0 }
                if t >= l { return hi - 1 }
                let g = lo + Int(Double(t - f) / Double(l - f) * Double(hi - 1 - lo))
                var step = 1
                if try atMost(g) {
                    lo = g + 1
                    while g + step < hi {
                        if try atMost(g + step) { lo = g + step + 1 } else { hi = g + step; break }
                        step <<= 1
                    }
                } else {
                    hi = g
                    while g - step >= lo {
                        if try atMost(g - step) { lo = g - step + 1; break } else { hi = g - step }
                        step <<= 1
                    }
                }
            }
        }
        while lo < hi {
            let mid = (lo &+ hi) >> 1
            if try atMost(mid) { lo = mid + 1 } else { hi = mid }
        }
        return lo - 1
    }

    /// A key of at most 8 bytes as a big-endian number, padded with zero bytes on the right: a
    /// key that sorts before another never reads as a larger number.
    @inline(__always)
    static func paddedWord(_ k: UnsafeRawBufferPointer) -> UInt64 {
        if k.count == 8 { return UInt64(bigEndian: k.loadUnaligned(as: UInt64.self)) }
        var w: UInt64 = 0
        for i in 0..<k.count { w |= UInt64(k[i]) << (56 - 8 * UInt64(i)) }
        return w
    }

    /// The pages of the overflow run starting at `first`, checked to be an overflow page whose
    /// run lies inside the version's pages. Writers free and copy runs by this count, so a
    /// damaged count is an error here rather than billions of pages freed or copied.
    func overflowRun(first: UInt32) throws -> Int {
        let p = try page(first)
        let run = Int(p.u32(PageHeader.runPages))
        guard p.u8(PageHeader.type) == PageType.overflow.rawValue, run >= 1,
            UInt64(first) + UInt64(run) <= UInt64(pageCount)
        else {
            throw corrupt(first, "not an overflow run inside the file (type \(p.u8(PageHeader.type)), \(run) pages)")
        }
        try revealRun(first, count: run)
        return run
    }

    /// The bytes of an overflow run's value, checked against the run's header: an overflow page
    /// (type 4) naming itself, of a version this access may see, whose value length is the one
    /// the leaf cell gives and whose run is exactly as long as that value needs.
    func overflowValue(first: UInt32, length: Int) throws -> UnsafeRawBufferPointer {
        let p = try page(first)
        guard p.u8(PageHeader.type) == PageType.overflow.rawValue else {
            throw corrupt(first, "expected an overflow page, found page type \(p.u8(PageHeader.type))")
        }
        let run = Int(p.u32(PageHeader.runPages))
        guard run == (PageHeader.size + length + pageSize - 1) / pageSize,
            UInt64(first) + UInt64(run) <= UInt64(pageCount),
            Int(p.u32(PageHeader.valueLength)) == length
        else {
            throw corrupt(
                first,
                "overflow run header (\(run) pages, value of \(p.u32(PageHeader.valueLength)) bytes) does not match its reference (a value of \(length) bytes)"
            )
        }
        try revealRun(first, count: run)
        let version = p.u64(PageHeader.version)
        guard version <= maxVersion else {
            throw corrupt(
                first,
                "written by version \(version), newer than this snapshot's version \(maxVersion) (a page reused while still in use, or damaged)"
            )
        }
        // The run's checksum (over all its pages) the first time it is read: about what reading
        // the value costs, and only its first page has a header to check otherwise.
        if let checked, version != ownVersion, !checked.isCheckedInFull(first, version: version) {
            guard p.u64(PageHeader.checksum) == Checksum.ofPage(p, length: run * pageSize) else {
                throw corrupt(first, "checksum mismatch: the overflow run does not hold what its commit wrote")
            }
            checked.insert(first, version: version, inFull: true)
        }
        return UnsafeRawBufferPointer(start: p + PageHeader.size, count: length)
    }

    /// Looks `key` up in the tree rooted at `root`; the value points into the mapping.
    func get(root: UInt32, _ key: UnsafeRawBufferPointer) throws -> UnsafeRawBufferPointer? {
        if root == 0 { return nil }
        var p = try node(root)
        var depth = 0
        // The branches whose separators bound the leaf from below and above (the deepest where the
        // descent did not take the first, resp. the last, cell); read only when the key is absent.
        var low: UnsafeMutableRawPointer? = nil, lowCell = 0
        var high: UnsafeMutableRawPointer? = nil, highCell = 0
        while !Node.isLeaf(p) {
            let i = try branchSearch(p, key)
            if i > 0 { (low, lowCell) = (p, i) }
            if i + 1 < Node.count(p) { (high, highCell) = (p, i + 1) }
            p = try node(try Node.child(p, i, self))
            depth += 1
            if depth > 64 { throw corrupt(root, "tree deeper than 64 levels (a cycle?)") }
        }
        let (i, found) = try leafSearch(p, key)
        guard found else {
            // "Absent" is an answer only the right leaf may give: one from elsewhere in the tree
            // (or another tree) would hide every key it was meant to hold.
            try checkLeafBounds(p, isRoot: depth == 0, low: low, lowCell, high: high, highCell)
            return nil
        }
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

extension PageAccess {
    /// The number page `p` gives itself (checked by `page` to be where it is).
    @inline(__always)
    static func number(_ p: UnsafeRawPointer) -> UInt32 { p.u32(PageHeader.pageNumber) }

    /// Checks that every key of leaf `p` lies within the separators that route to it: >= the key
    /// of cell `lowCell` of branch `low` and < the key of cell `highCell` of branch `high` (nil:
    /// no bound on that side). Only the first and last keys are compared, so keys out of order
    /// inside the leaf are left to the scans' check. An empty leaf is damage unless it is the root.
    @inline(never)
    func checkLeafBounds(
        _ p: UnsafeRawPointer, isRoot: Bool, low: UnsafeRawPointer?, _ lowCell: Int,
        high: UnsafeRawPointer?, _ highCell: Int
    ) throws {
        let count = Node.count(p)
        guard count > 0 else {
            if isRoot { return }
            throw corrupt(Self.number(p), "an empty leaf inside a tree")
        }
        if let low {
            let bound = try Node.branchKey(low, lowCell, self)
            guard compareKeys(try Node.leafKey(p, 0, self), bound) >= 0 else {
                throw outOfBounds(p, "first key lies below separator \(lowCell) of page \(Self.number(low))")
            }
        }
        if let high {
            let bound = try Node.branchKey(high, highCell, self)
            guard compareKeys(try Node.leafKey(p, count - 1, self), bound) < 0 else {
                throw outOfBounds(p, "last key is not below separator \(highCell) of page \(Self.number(high))")
            }
        }
    }

    @inline(never)
    func outOfBounds(_ p: UnsafeRawPointer, _ what: String) -> StorageError {
        corrupt(
            Self.number(p),
            "the leaf's \(what), which leads to it: a page from elsewhere in the tree or from another tree, or damaged keys"
        )
    }

    /// Checks the cells of node `p`: each lies in the cell area, and with the garbage they fill it
    /// exactly (a cell count cut short, or a slot pointing elsewhere, fails); keys rise strictly
    /// (a leaf's from cell 0, a branch's from cell 1: cell 0 has no key). O(cells); done once per
    /// page and version (`CheckedPages`).
    @inline(never)
    func checkCells(_ p: UnsafeRawPointer) throws {
        let count = Node.count(p)
        let start = Node.cellStart(p)
        let leaf = Node.isLeaf(p)
        // Where a cell's key length is (leaf: bytes 0-1; branch: 4-5); keys start at byte 6 of
        // both. A leaf cell's size adds its value (or a 4-byte overflow reference).
        let klenAt = leaf ? 0 : 4
        let lastHeader = pageSize &- CellLayout.leafHeader
        var used = 0
        var last = p, lastCount = -1  // no key yet
        var i = 0
        while i < count {
            let off = Node.slot(p, i)
            guard off >= start, off <= lastHeader else { throw scanProblem(p, i, "lies outside the cell area") }
            let klen = Int(p.u16(off &+ klenAt))
            var size = CellLayout.leafHeader &+ klen
            if leaf {
                let word = p.u32(off &+ 2)
                size &+= word & CellLayout.overflowFlag != 0 ? 4 : Int(word)
            }
            guard size <= pageSize &- off else { throw scanProblem(p, i, "runs past the page") }
            used &+= size
            if leaf || i > 0 {
                let k = p + (off &+ CellLayout.leafHeader)
                if lastCount >= 0, compareBytes(last, lastCount, k, klen) >= 0 {
                    throw scanProblem(p, i, "has a key not above the key of cell \(i - 1)")
                }
                (last, lastCount) = (k, klen)
            }
            i &+= 1
        }
        guard used &+ Node.garbage(p) == pageSize &- start else {
            throw corrupt(
                Self.number(p),
                "its \(count) cells (\(used) bytes) and garbage (\(Node.garbage(p)) bytes) do not fill the cell area from offset \(start): a damaged cell count or slot"
            )
        }
    }

    /// Checks leaf `p` as a scan reaches it: its cells (`checkCells`) unless they were checked
    /// since it was written, or it is this access's own; that it is not empty (unless it is the
    /// root); and that its first key lies above `previous`, the last key of the leaf before it.
    /// Returns its last key.
    @inline(__always)
    func checkScannedLeaf(
        _ p: UnsafeRawPointer, after previous: UnsafeRawBufferPointer?, isRoot: Bool
    ) throws -> UnsafeRawBufferPointer? {
        let version = p.u64(PageHeader.version)
        if version != ownVersion {
            if let checked {
                let n = Self.number(p)
                if !checked.areCellsChecked(n, version: version) {
                    // Ask for every cell's first lines at once (as a scan's body does), so that the
                    // check's loads overlap instead of missing one after the other.
                    for i in 0..<Node.count(p) { prefetchForRead(p + Node.slot(p, i), bytes: 64) }
                    try checkCells(p)
                    checked.insert(n, version: version, inFull: false)
                }
            } else {
                try checkCells(p)
            }
        }
        let count = Node.count(p)
        guard count > 0 else {
            if isRoot { return previous }
            throw corrupt(Self.number(p), "an empty leaf inside a tree")
        }
        // The cells were checked (or are this transaction's own): their keys lie in the page.
        let first = Node.slot(p, 0), lastCell = Node.slot(p, count &- 1)
        if let previous, let b = previous.baseAddress,
            compareBytes(b, previous.count, p + (first &+ CellLayout.leafHeader), Int(p.u16(first))) >= 0
        {
            throw scanProblem(p, 0, "has a key not above the last key of the leaf before it")
        }
        return UnsafeRawBufferPointer(start: p + (lastCell &+ CellLayout.leafHeader), count: Int(p.u16(lastCell)))
    }

    @inline(never)
    func scanProblem(_ p: UnsafeRawPointer, _ i: Int, _ what: String) -> StorageError {
        corrupt(Self.number(p), "cell \(i) \(what)")
    }
}
