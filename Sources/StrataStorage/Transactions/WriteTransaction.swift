import StrataPOSIX

/// The one write transaction of a database: reads see its own changes; nothing is visible to
/// other transactions until ``commit(durability:)``.
///
/// Pages of committed versions are never modified: the first change to a page copies it into a
/// free page (copy-on-write), and the commit publishes the new version by writing a meta record.
///
/// ```swift
/// let txn = try db.beginWrite()
/// let t = try txn.openTree("people", create: true)
/// try txn.put(Array("k".utf8), Array("v".utf8), in: t)
/// try txn.commit()
/// ```
///
/// ## Concurrency
/// Not thread-safe: use it from one thread at a time. It holds the database's writer lock (for
/// every thread and process) until it commits or aborts; releasing it without either aborts.
public final class WriteTransaction: @unchecked Sendable {
    struct TreeState {
        var name: String
        var root: UInt32
        var count: UInt64
        var dirty = false
        var dropped = false
        var holdsAreas = false
    }

    let db: Database

    /// The longest key a tree accepts, in bytes.
    public var maxKeySize: Int { db.maxKeySize }
    let pageSize: Int
    /// The version this transaction creates.
    public let version: VersionID
    let v: UInt64
    let base: PublishedState
    let baseMeta: MetaRecord
    var mappings: [Mapping]
    // The hot state below is used by one thread at a time (the transaction's contract) and never
    // through overlapping accesses, so it opts out of the run-time exclusivity check of a class
    // property (about 80 instructions per access: `strata-bench w1` update paid ~150 per object, callgrind).
    @exclusivity(unchecked) var access: PageAccess
    let shadow: UnsafeMutablePointer<ShadowTable>
    @exclusivity(unchecked) var pageCount: UInt32
    var fileCapacity: Int64
    /// Set by `compact()` for its last commit: step 11 shortens the file to the pages in use.
    var shortensFileToPageCount = false
    var catalog: TreeState
    @exclusivity(unchecked) var trees: [TreeState] = []
    var treeIndex: [String: Int] = [:]
    @exclusivity(unchecked) var free: FreeSpace
    var freedNow: [UInt32] = []
    /// Pages this transaction freed that a version newer than the durable one wrote: young pages
    /// (`FreeSpace.youngPending`), reusable before the next sync.
    var freedYoung: [UInt32] = []
    /// Pages this transaction took from the young pool and still holds.
    @exclusivity(unchecked) var youngTaken = Set<UInt32>()
    /// Whether the commit has started writing pages to the file.
    var commitWritesStarted = false
    /// Whether the commit succeeded (published its version).
    var committed = false
    /// The page `allocPage` returned last: the next one continues its run when it can.
    @exclusivity(unchecked) var lastAllocated: UInt32?
    /// Pages this transaction wrote. Sized for a small commit up front: growing from empty
    /// rehashed it three times per commit (measured: ~1.7k of a deferred commit's ~64k instructions).
    @exclusivity(unchecked) var dirty = Set<UInt32>(minimumCapacity: 32)
    /// Branch pages this transaction copied from a committed version and has not checked yet
    /// (`checkBranchBeforeEdit`). A copied leaf is checked as it is copied; a copied branch only
    /// before its first structural edit: most commits only repoint one child of each branch, and
    /// checking every cell of the root on each small commit cost ~6k instructions (callgrind).
    @exclusivity(unchecked) var uncheckedBranches: [UInt32] = []
    @exclusivity(unchecked) var pathBuffer: [(page: UInt32, ptr: UnsafeMutableRawPointer, index: Int)] = []
    /// Counts the changes (`beginChange`): a `FloorHint` holds only while it is unchanged.
    @exclusivity(unchecked) var changeStamp: UInt64 = 0
    /// Where the last `floor` found its entry.
    @exclusivity(unchecked) var floorHint: FloorHint?
    /// The committed page the last `descendWritable` reached its leaf through (before copying it),
    /// for error messages.
    @exclusivity(unchecked) var descentSource: UInt32 = 0
    @exclusivity(unchecked) var ended = false
    /// The area page this transaction is placing areas in (0: none yet), and the changes of
    /// area counts it will record at commit (WriteTransaction+Areas.swift).
    @exclusivity(unchecked) var currentAreaPage: UInt32 = 0
    @exclusivity(unchecked) var ownAreaPages: [UInt32] = []
    @exclusivity(unchecked) var areaChanges: [UInt32: AreaCountChange] = [:]
    // Scratch buffers: one page for rebuilding nodes, one cell, one separator cell.
    let scratch: UnsafeMutableRawPointer
    let cellBuf: UnsafeMutableRawPointer
    let sepBuf: UnsafeMutableRawPointer

    /// A new write transaction; the caller holds the writer lock. `fileCapacity` is the file's
    /// length when the caller knows it (it held the lock since it last looked).
    init(database db: Database, fileCapacity knownCapacity: Int64? = nil) throws {
        self.db = db
        self.pageSize = db.pageSize
        let st = db.lockFile.readState()
        self.base = st
        self.v = st.version + 1
        self.version = VersionID(st.version + 1)
        let mapping = try db.stateLock.withLock { try db.ensureMapping(pages: st.pageCount) }
        self.mappings = [mapping]
        self.pageCount = st.pageCount
        // Pages this transaction allocates go to private buffers first (`ShadowTable`).
        let shadow = db.writerShadow()
        db.shadowGeneration += 1
        shadow.pointee.reset(generation: db.shadowGeneration)
        self.shadow = shadow
        self.access = PageAccess(
            base: mapping.base, pageSize: db.pageSize, pageCount: st.pageCount, path: db.pathName,
            maxVersion: st.version + 1, checked: mapping.checked, ownVersion: st.version + 1,
            shadow: shadow, shadowGeneration: db.shadowGeneration, sealed: mapping.sealed)
        // The file's length: from the caller, or from this handle's last commit when no commit
        // came after it (every change of length happens in a commit, with the writer lock held:
        // growth, give-back, and compact's truncation in its last commit), else `fstat`. Not an
        // `fstat` per commit: on Linux 6.13+ a queried change time makes the next write stamp a
        // fine-grained time, so the inode is written back by the commit's `fdatasync` (one more
        // device write per commit: 6.0-6.5k instead of 8.1-8.3k syncs/s measured here).
        if let knownCapacity {
            self.fileCapacity = knownCapacity
        } else if let cached = db.writerCache, cached.version == st.version {
            self.fileCapacity = cached.fileBytes
        } else {
            self.fileCapacity = try StorageError.wrap { try System.fileSize(db.fd) }
        }
        // A meta record at or past the version this transaction creates belongs to a commit that
        // never became current: recovery found it torn and fell back, or its writer died before
        // publishing it. This transaction reuses its version number and (doing similar changes)
        // its pages, so after a crash that record could verify against our pages and open at a
        // version nobody committed. Erase it durably before writing any page.
        let staleSlot = 1 - Int(st.durableSlot)
        let stale = mapping.base + staleSlot * db.pageSize
        if stale.u64(MetaLayout.magic) == db.metaMagic && stale.u64(MetaLayout.version) > st.version {
            let erased = UnsafeMutableRawPointer.allocate(byteCount: db.pageSize, alignment: 4096)
            defer { erased.deallocate() }
            MetaRecord.encodeErased(into: erased, pageSize: db.pageSize, magic: db.metaMagic)
            do {
                try StorageError.wrap {
                    try System.pwrite(db.fd, from: erased, count: db.pageSize, offset: Int64(staleSlot * db.pageSize))
                    try System.fdatasync(db.fd)
                }
            } catch {
                // The map may now show the slot erased while the disk still holds the record (a
                // failed sync leaves the page cache's state unknown), so a later transaction would
                // skip the erase and write pages the record could verify against: refuse writes
                // until reopened, as after a failed commit sync.
                db.poisonedBy = "\(error)"
                throw error
            }
        }
        let state: WriterState
        if let cached = db.writerCache, cached.version == st.version {
            state = cached
        } else {
            state = try db.loadWriterState(st, access, fileBytes: fileCapacity)
        }
        self.baseMeta = state.meta
        self.free = state.free
        self.catalog = TreeState(name: "", root: st.catalogRoot, count: 0)
        // Three page-sized scratch buffers, owned by the database and reused by every write
        // transaction (only one exists at a time: the writer lock is held).
        let buffers = db.writerBuffers()
        scratch = buffers
        cellBuf = buffers + db.pageSize
        sepBuf = buffers + 2 * db.pageSize
        // Which freed pages may be written again: none that a live snapshot (any process) or the
        // crash fallback (the durable version) can still reach, and none that the durable meta
        // record lists for crash verification. After a power cut that record may be the newest
        // one on disk (the newer records were never synced); opening verifies every page it lists
        // and, if one changed, falls back to the other slot, whose version is older than the
        // durable one and may already be overwritten. The list covers every page written since
        // the record's durable base, so after `sync()` ends a group of deferred commits, pages
        // the group freed stay listed until a newer record is durable; a page freed by version w
        // was written by w - 1 or earlier, so it is unlisted once w <= durableBase + 1. With full
        // commits the durable record is the newest, and its base is the version before it.
        let pinned = db.oldestPinnedVersion() ?? st.version
        free.release(
            upTo: min(
                pinned, st.durableVersion, Self.durableRecordBase(st, newest: state.meta, mapping.base, db.pageSize) + 1
            ))
        // Pages that versions after the durable one wrote and then freed need not wait for the
        // sync: see `FreeSpace.youngPending`.
        free.releaseYoung(durable: st.durableVersion, pinned: pinned, latest: st.version)
        // The previous free-list chain and commit list are replaced by this commit's. The newest
        // version wrote its free-list chain, so those pages are young unless it is durable. Its
        // commit-list pages are not: this commit's list chains to them while it is not durable.
        if st.version > st.durableVersion {
            freedYoung.append(contentsOf: state.freeListChain)
        } else {
            freedNow.append(contentsOf: state.freeListChain)
        }
        freedNow.append(contentsOf: state.ownListPages)
    }

    deinit {
        if !ended { abort() }
    }

    /// The durable base recorded in the durable version's meta record: the newest record's when
    /// that one is durable, else read from the durable slot (the writer never writes that slot,
    /// so it holds the durable version's record). 0 if it does not, which only delays reuse.
    static func durableRecordBase(
        _ st: PublishedState, newest: MetaRecord, _ base: UnsafeMutableRawPointer, _ pageSize: Int
    ) -> UInt64 {
        if newest.version == st.durableVersion { return newest.durableBase }
        let page = base + Int(st.durableSlot) * pageSize
        guard page.u64(MetaLayout.version) == st.durableVersion else { return 0 }
        return page.u64(MetaLayout.durableBase)
    }

    // MARK: Trees

    /// Opens the tree named `name`, creating it (empty) if `create` is true.
    /// - Throws: ``StorageError/treeNotFound(name:)`` if it does not exist and `create` is false.
    public func openTree(_ name: String, create: Bool = false) throws -> TreeHandle {
        try openTree(name, create: create, holdsAreas: false)
    }

    /// Opens the tree named `name`, creating it (empty) if `create` is true; a tree it creates
    /// holds areas (every value begins with area references, `AreaPrefix`) when `holdsAreas` is
    /// true. An existing tree keeps what it was created as (``Tree/holdsAreas``).
    /// - Throws: ``StorageError/treeNotFound(name:)`` if it does not exist and `create` is false.
    package func openTree(_ name: String, create: Bool, holdsAreas: Bool) throws -> TreeHandle {
        try checkOpen()
        // The empty name is the engine's area-counts tree (`Catalog.areaCountsName`).
        guard !name.isEmpty else {
            if create { throw StorageError.keyTooLarge(size: 0, limit: db.maxKeySize) }
            throw StorageError.treeNotFound(name: name)
        }
        if let i = treeIndex[name] {
            if trees[i].dropped {
                guard create else { throw StorageError.treeNotFound(name: name) }
                trees[i] = TreeState(name: name, root: 0, count: 0, dirty: true, holdsAreas: holdsAreas)
            }
            return TreeHandle(index: i)
        }
        let existing = try Catalog.lookup(name, root: catalog.root, access)
        guard existing != nil || create else { throw StorageError.treeNotFound(name: name) }
        guard name.utf8.count <= db.maxKeySize, !name.isEmpty else {
            throw StorageError.keyTooLarge(size: name.utf8.count, limit: db.maxKeySize)
        }
        let state = TreeState(
            name: name, root: existing?.root ?? 0, count: existing?.count ?? 0, dirty: existing == nil,
            holdsAreas: existing?.holdsAreas ?? holdsAreas)
        trees.append(state)
        treeIndex[name] = trees.count - 1
        return TreeHandle(index: trees.count - 1)
    }

    /// Whether a tree named `name` exists in this transaction's state.
    public func treeExists(_ name: String) throws -> Bool {
        guard !name.isEmpty else { return false }
        if let i = treeIndex[name] { return !trees[i].dropped }
        return try Catalog.lookup(name, root: catalog.root, access) != nil
    }

    /// Deletes the tree named `name` and frees its pages. Does nothing if it does not exist.
    public func dropTree(_ name: String) throws {
        try beginChange()
        guard try treeExists(name) else { return }
        let h = try openTree(name)
        if trees[h.index].holdsAreas { try uncountAreas(of: trees[h.index].root) }
        try freeSubtree(trees[h.index].root)
        trees[h.index].root = 0
        trees[h.index].count = 0
        trees[h.index].dropped = true
        trees[h.index].dirty = true
    }

    /// The names of the trees in this transaction's state.
    public func treeNames() throws -> [String] {
        var names = Set(try Catalog.names(root: catalog.root, access))
        for t in trees where !t.name.isEmpty { if t.dropped { names.remove(t.name) } else { names.insert(t.name) } }
        return names.sorted()
    }

    /// Number of entries in the tree.
    public func count(_ tree: TreeHandle) -> UInt64 { trees[tree.index].count }

    /// Whether every value of the tree begins with area references (``Tree/holdsAreas``).
    package func holdsAreas(_ tree: TreeHandle) -> Bool { trees[tree.index].holdsAreas }

    /// A read-only description of the tree in this transaction's current state.
    public func tree(_ handle: TreeHandle) -> Tree {
        let t = trees[handle.index]
        return Tree(name: t.name, root: t.root, count: t.count, holdsAreas: t.holdsAreas)
    }

    // MARK: Reads (see the transaction's own changes)

    /// The value under `key`, pointing into the map or the transaction's private pages; valid until
    /// the tree is next changed or the transaction ends.
    public func get(_ key: UnsafeRawBufferPointer, in tree: TreeHandle) throws -> UnsafeRawBufferPointer? {
        try checkOpen()
        return try access.get(root: trees[tree.index].root, key)
    }

    /// The value under `key`, copied.
    public func get(_ key: [UInt8], in tree: TreeHandle) throws -> [UInt8]? {
        try key.withUnsafeBytes { try get($0, in: tree).map { Array($0) } }
    }

    /// Calls `body` for each entry with key >= `start`, in key order, until it returns false.
    /// `body` must not change the tree.
    public func forEach(
        in tree: TreeHandle, from start: [UInt8]? = nil,
        _ body: (UnsafeRawBufferPointer, UnsafeRawBufferPointer) throws -> Bool
    ) throws {
        try checkOpen()
        let root = trees[tree.index].root
        if let start {
            try start.withUnsafeBytes { try access.forEach(root: root, from: $0, body) }
        } else {
            try access.forEach(root: root, from: nil, body)
        }
    }

    /// A cursor over the tree's current state; invalid after the next change to the tree.
    public func cursor(over tree: TreeHandle) -> Cursor {
        Cursor(access: access, root: trees[tree.index].root, owner: self)
    }

    // MARK: Writes

    /// Stores `value` under `key`, replacing any previous value.
    /// - Returns: true if the key was new.
    @discardableResult
    public func put(_ key: UnsafeRawBufferPointer, _ value: UnsafeRawBufferPointer, in tree: TreeHandle) throws -> Bool
    {
        try beginChange()
        if trees[tree.index].holdsAreas { return try putCounting(key, value, in: tree) }
        let inserted = try put(key, value, &trees[tree.index])
        trees[tree.index].dirty = true
        return inserted
    }

    /// Stores `value` under `key` if the key is not there yet, in one descent (a lookup and a put
    /// would take two). Returns false, leaving the stored value as it was, if the key exists.
    public func insert(
        _ key: UnsafeRawBufferPointer, _ value: UnsafeRawBufferPointer, in tree: TreeHandle
    ) throws -> Bool {
        try beginChange()
        var stored: [AreaReference]? = nil
        if trees[tree.index].holdsAreas {
            try checkInlineForAreas(key, value)
            stored = try referencesIfAny(value)
        }
        let inserted = try put(key, value, &trees[tree.index], ifAbsent: true)
        // The descent copied the path's pages either way: the tree's root may have moved.
        trees[tree.index].dirty = true
        if inserted, let stored { countReferences(removed: [], stored: stored) }
        return inserted
    }

    /// Stores `value` under `key`, replacing any previous value.
    @discardableResult
    public func put(_ key: [UInt8], _ value: [UInt8], in tree: TreeHandle) throws -> Bool {
        try key.withUnsafeBytes { k in try value.withUnsafeBytes { v in try put(k, v, in: tree) } }
    }

    /// Removes `key`. - Returns: true if it was present.
    @discardableResult
    public func delete(_ key: UnsafeRawBufferPointer, in tree: TreeHandle) throws -> Bool {
        try beginChange()
        let old =
            trees[tree.index].holdsAreas ? try referencesIfAny(try access.get(root: trees[tree.index].root, key)) : nil
        let removed = try delete(key, &trees[tree.index])
        if removed {
            trees[tree.index].dirty = true
            if let old { countReferences(removed: old, stored: []) }
        }
        return removed
    }

    /// Removes `key`. - Returns: true if it was present.
    @discardableResult
    public func delete(_ key: [UInt8], in tree: TreeHandle) throws -> Bool {
        try key.withUnsafeBytes { try delete($0, in: tree) }
    }

    func checkOpen() throws {
        if ended { throw StorageError.transactionEnded }
    }

    /// `checkOpen` at the start of every change. A transaction that filled the shadow table
    /// (a large one) moves those pages into the map here, between operations, when nothing is
    /// writing through a pointer into them, and continues in the map: from then on its page
    /// lookups skip the table (measured: the lookup added ~200 instructions to each put of a
    /// bulk insert, ~17% of the put).
    @inline(__always)
    func beginChange() throws {
        try checkOpen()
        changeStamp &+= 1
        if shadow.pointee.count >= shadow.pointee.capacity && shadow.pointee.generation == access.shadowGeneration {
            spillShadow()
        }
    }

    @inline(never)
    func spillShadow() {
        let t = shadow.pointee
        for i in 0..<t.count where t.pages[i] != 0 {
            moveBytes(access.base + Int(t.pages[i]) * pageSize, t.buffers + i * pageSize, pageSize)
        }
        // Pointers handed out earlier still point at the buffers, whose contents stay as they
        // are until the transaction ends; `get`'s contract already ends them at the next change.
        shadow.pointee.generation = 0
    }

    // MARK: Page allocation

    /// Makes sure the file (and the map) cover `pages` pages, growing the file in large steps.
    func ensureCapacity(_ pages: UInt32) throws {
        let needed = db.fileBytes(forPages: pages)
        if needed > fileCapacity {
            // Small files double (in 64 KiB units), so a new database stays small; from 4 MiB on
            // the file grows by an eighth (at least 4 MiB, at most 1 GiB, in 1 MiB units), so a
            // growing file calls posix_fallocate rarely. FORMAT.md, "Pages".
            let small: Int64 = 4 << 20
            var newCap =
                fileCapacity < small
                ? max(needed, 2 * fileCapacity, 64 << 10)
                : max(needed, fileCapacity + min(max(fileCapacity / 8, small), 1 << 30))
            let unit: Int64 = newCap < small ? 64 << 10 : 1 << 20
            newCap = (newCap + unit - 1) / unit * unit
            // Reserve real blocks, so writing through the map cannot hit a full disk (SIGBUS).
            try StorageError.wrap { try System.allocate(db.fd, offset: fileCapacity, length: newCap - fileCapacity) }
            fileCapacity = newCap
        }
        if Int(pages) * pageSize > mappings.last!.length {
            let m = try db.stateLock.withLock { try db.ensureMapping(pages: pages) }
            if m.sealed != nil { carryOwnPages(from: mappings.last!, to: m) }
            mappings.append(m)
        }
        if access.base != mappings.last!.base || access.pageCount != pages {
            access = PageAccess(
                base: mappings.last!.base, pageSize: pageSize, pageCount: pages, path: db.pathName,
                maxVersion: v, checked: mappings.last!.checked, ownVersion: v,
                shadow: shadow, shadowGeneration: access.shadowGeneration, sealed: mappings.last!.sealed)
        }
    }

    /// Allocates a page (a young one, else the lowest reusable one, else a new one at the end)
    /// with a fresh header. The commit's own free-list and commit-list pages pass
    /// `young: false`: taking a young page could split a free-list extent after the list was sized.
    func allocPage(_ type: PageType, young: Bool = true) throws -> (UInt32, UnsafeMutableRawPointer) {
        let n: UInt32
        if young, let p = free.popYoung() {
            n = p
            youngTaken.insert(p)
        } else if young, let last = lastAllocated, free.take(last &+ 1) {
            // Continue the run of pages this transaction is writing.
            n = last + 1
            if access.pageCount != pageCount { try ensureCapacity(pageCount) }
        } else if let p = young ? free.popLowest(preferringRunOf: 4, scan: 1024, fragments: 64) : free.popLowest() {
            n = p
            if access.pageCount != pageCount { try ensureCapacity(pageCount) }
        } else {
            n = pageCount
            pageCount += 1
            try ensureCapacity(pageCount)
        }
        // In private memory while there is room (written with `pwritev` at commit), else in the map.
        let p = shadow.pointee.insert(n) ?? access.base + Int(n) * pageSize
        zeroBytes(p, PageHeader.size)
        p.setU32(PageHeader.pageNumber, n)
        p.setU8(PageHeader.type, type.rawValue)
        p.setU64(PageHeader.version, v)
        if type == .leaf || type == .branch {
            p.setU16(PageHeader.cellStart, UInt16(truncatingIfNeeded: pageSize))
        }
        dirty.insert(n)
        lastAllocated = n
        return (n, p)
    }

    /// Allocates `count` consecutive pages for an overflow value.
    func allocRun(_ count: Int) throws -> (UInt32, UnsafeMutableRawPointer) {
        let n: UInt32
        if let p = free.takeRun(count) {
            n = p
        } else {
            n = pageCount
            pageCount += UInt32(count)
        }
        try ensureCapacity(pageCount)
        let p = access.base + Int(n) * pageSize
        zeroBytes(p, PageHeader.size)
        p.setU32(PageHeader.pageNumber, n)
        p.setU8(PageHeader.type, PageType.overflow.rawValue)
        p.setU64(PageHeader.version, v)
        p.setU32(PageHeader.runPages, UInt32(count))
        dirty.insert(n)
        return (n, p)
    }

    /// Moves the overflow run of cell `i` of the writable leaf `leaf` (its first page `first`, its
    /// value `length` bytes) to pages of this transaction, frees the old run and repoints the
    /// cell; returns the run's new first page and its length in pages. Compaction moves a run
    /// this way, and an in-place edit copies a committed one before editing it.
    func moveOverflowRun(
        ofCell i: Int, in leaf: UnsafeMutableRawPointer, first: UInt32, length: Int
    ) throws -> (first: UInt32, pages: Int) {
        let src = try access.page(first)
        let pages = try access.overflowRun(first: first)
        let (nf, np) = try allocRun(pages)
        moveBytes(np + PageHeader.size, src + PageHeader.size, pages * pageSize - PageHeader.size)
        np.setU32(PageHeader.valueLength, UInt32(length))
        freePage(first, run: pages)
        let off = Node.slot(leaf, i)
        leaf.setU32(off + CellLayout.leafHeader + Int(leaf.u16(off)), nf)
        return (nf, pages)
    }

    /// Releases page `n` (or the run starting there): straight back to the pool if this
    /// transaction wrote it, else pending until no snapshot can reach it.
    func freePage(_ n: UInt32, run: Int = 1) {
        let p = access.pointer(n)
        let written = p.u64(PageHeader.version)
        if written == v && dirty.contains(n) {
            // A young page is still listed by the newest record: it goes back to the young pool,
            // not the pool, and if it went to the file (written through the map) it no longer
            // verifies as that record lists it: make it a valid page again.
            let young = run == 1 && youngTaken.remove(n) != nil
            if young && !isInShadow(n) { stampYoungPage(n) }
            dirty.remove(n)
            shadow.pointee.remove(n)
            if young {
                free.returnYoung(n)
            } else {
                free.addToPool(n, count: run)
            }
        } else if written > base.durableVersion && run == 1 {
            // A young overflow run is not: taking some of its pages and leaving the first (the
            // run's header, whose checksum covers the whole run) would tear the run as the newest
            // record lists it.
            freedYoung.append(n)
        } else {
            for k in 0..<UInt32(run) { freedNow.append(n + k) }
        }
    }

    /// A writable copy of node `n`: itself if this transaction already wrote it, else a copy.
    @inline(__always)
    func writable(_ n: UInt32) throws -> (UInt32, UnsafeMutableRawPointer) {
        let p = try access.node(n)
        if p.u64(PageHeader.version) == v {
            // Only a page this transaction wrote carries its version. A page of the committed
            // version that claims it (damage with a valid checksum) would otherwise be edited in
            // place, uncopied and unchecked. Pages past the base version's end are new, so only
            // reused pages cost a lookup.
            guard n >= base.pageCount || dirty.contains(n) else {
                throw access.corrupt(n, "a page of the committed version claims version \(v), the one being written")
            }
            return (n, p)
        }
        let leaf = Node.isLeaf(p)
        if leaf { try checkCells(n, p, leaf: true) }
        let (m, q) = try allocPage(.leaf)
        moveBytes(q, p, pageSize)
        q.setU32(PageHeader.pageNumber, m)
        q.setU64(PageHeader.version, v)
        freePage(n)
        if !leaf { uncheckedBranches.append(m) }
        return (m, q)
    }

    /// Throws `corruptPage` unless node `n`'s cells fill its cell area (`Node.cellsFillCellArea`):
    /// the in-place edits (insert, remove, compact, split, merge) trust the node's cell sizes and
    /// garbage count, and a damaged node must be an error, not edits outside the page.
    func checkCells(_ n: UInt32, _ p: UnsafeRawPointer, leaf: Bool) throws {
        guard Node.cellsFillCellArea(p, leaf: leaf, pageSize: pageSize) else {
            throw access.corrupt(
                n,
                "its cells do not fill its cell area (\(Node.count(p)) cells from offset \(Node.cellStart(p)), \(Node.garbage(p)) bytes of garbage)"
            )
        }
    }

    /// Checks branch `n` (`checkCells`) before its first structural edit in this transaction,
    /// if it is a copy of a committed branch (a branch this transaction built is whole).
    @inline(__always)
    func checkBranchBeforeEdit(_ n: UInt32, _ p: UnsafeRawPointer) throws {
        guard !uncheckedBranches.isEmpty, let k = uncheckedBranches.firstIndex(of: n) else { return }
        uncheckedBranches.swapAt(k, uncheckedBranches.count - 1)
        uncheckedBranches.removeLast()
        try checkCells(n, p, leaf: false)
    }

    func freeSubtree(_ root: UInt32) throws {
        guard root != 0 else { return }
        let p = try access.node(root)
        let count = Node.count(p)
        if Node.isLeaf(p) {
            for i in 0..<count {
                if case .overflow(let first, _) = try Node.leafValue(p, i, access) {
                    let run = try access.overflowRun(first: first)
                    freePage(first, run: run)
                }
            }
        } else {
            for i in 0..<count { try freeSubtree(try Node.child(p, i, access)) }
        }
        freePage(root)
    }

    // MARK: Commit

    /// Commits: publishes the new version to readers and, with `.full` durability, makes it
    /// durable (one `fdatasync`) before returning. FORMAT.md, "Commit".
    /// - Returns: the committed version.
    /// - Throws: ``StorageError``; on error nothing is published and the previous version stays
    ///   current. If the failure happened at the durability step, the handle refuses later writes
    ///   (``StorageError/needsReopen(path:cause:)``).
    @discardableResult
    public func commit(durability: Durability = .full) throws -> VersionID {
        try checkOpen()
        defer { finish() }
        return try commitChanges(durability: durability)
    }

    /// Commits like ``commit(durability:)``, then begins the next write transaction without
    /// releasing the writer lock in between: no other writer can come first, and the next
    /// transaction skips the lock's system calls and the checks a newly taken lock needs.
    /// Asynchronous writes use it to run a group of queued writes back to back.
    /// - Returns: the committed version and the next transaction (which holds the lock).
    /// - Throws: as ``commit(durability:)``; the lock is released on any error.
    public func commitAndContinue(durability: Durability = .full) throws -> (VersionID, WriteTransaction) {
        try checkOpen()
        let version: VersionID
        do {
            version = try commitChanges(durability: durability)
        } catch {
            finish()
            throw error
        }
        // This transaction is over; the lock passes to the next one.
        ended = true
        shadow.pointee.generation = 0
        do {
            // The file cannot have changed length: shrinking it (compact) needs the writer lock.
            return (version, try WriteTransaction(database: db, fileCapacity: fileCapacity))
        } catch {
            db.releaseWriter()
            throw error
        }
    }

    /// How much of the meta record in `scratch` step 8 writes: its first 4 KiB when the rest of
    /// the page is zero both in the record and in the slot as the file will hold it (the map
    /// shows the page cache, which holds every write to the slot, synced or not), else the whole
    /// page. The checksum covers the whole page either way, so the page in the file is the
    /// record's page, byte for byte; a small commit writes one block less (Docs/Performance.md).
    func metaWriteLength(slot: Int) -> Int {
        let block = 4096
        guard pageSize > block, isZero(scratch + block, pageSize - block),
            isZero(mappings.last!.base + slot * pageSize + block, pageSize - block)
        else { return pageSize }
        return block
    }

    /// Whether the `count` bytes at `p` (8-byte aligned, a multiple of 8) are all zero.
    private func isZero(_ p: UnsafeRawPointer, _ count: Int) -> Bool {
        var bits: UInt64 = 0
        for i in stride(from: 0, to: count, by: 8) { bits |= p.load(fromByteOffset: i, as: UInt64.self) }
        return bits == 0
    }

    /// Discards every change and releases the writer lock. Safe to call more than once.
    public func abort() {
        finish()
    }

    /// Whether page `n` lives in this transaction's private buffers (so the file still holds its
    /// previous content).
    func isInShadow(_ n: UInt32) -> Bool {
        shadow.pointee.generation == access.shadowGeneration && shadow.pointee.lookup(n) != nil
    }

    /// Rewrites young page `n` in the file as an empty free-list page of the newest version with
    /// a valid checksum. The page is free (no version reads it), but the newest meta record lists
    /// it for crash verification and every later record carries that list: after this
    /// transaction changed it without committing, it would fail verification and make opening
    /// fall back past acknowledged commits.
    func stampYoungPage(_ n: UInt32) {
        let p = mappings.last!.base + Int(n) * pageSize
        zeroBytes(p, pageSize)
        p.setU32(PageHeader.pageNumber, n)
        p.setU8(PageHeader.type, PageType.freeList.rawValue)
        p.setU64(PageHeader.version, base.version)
        p.setU64(PageHeader.checksum, Checksum.ofPage(p, length: pageSize))
    }

    /// Writes the pages in the shadow table to their places in the file.
    func writeShadowPages() throws {
        let table = shadow.pointee
        // Nothing to write when the table is empty, or spilled into the map.
        guard table.count > 0, table.generation == access.shadowGeneration else { return }
        var entries: [(page: UInt32, index: Int)] = []
        entries.reserveCapacity(table.count)
        for i in 0..<table.count where table.pages[i] != 0 { entries.append((table.pages[i], i)) }
        entries.sort { $0.page < $1.page }
        var buffers: [UnsafeRawPointer] = []
        buffers.reserveCapacity(entries.count)
        var k = 0
        while k < entries.count {
            let first = entries[k].page
            buffers.removeAll(keepingCapacity: true)
            var j = k
            while j < entries.count && entries[j].page == first + UInt32(j - k) {
                assert(dirty.contains(entries[j].page), "a page in the shadow table is not dirty")
                buffers.append(UnsafeRawPointer(table.buffers + entries[j].index * pageSize))
                j += 1
            }
            try StorageError.wrap {
                try System.pwritev(db.fd, buffers: buffers, size: pageSize, offset: Int64(first) * Int64(pageSize))
            }
            k = j
        }
    }

    private func finish() {
        guard !ended else { return }
        // A transaction that ends without committing may have changed young pages in the file
        // (written through the map, or by a commit that failed part way); the newest record, which
        // a `sync()` or a later commit adopts, lists them: make them valid pages again.
        if !committed {
            for n in youngTaken where commitWritesStarted || !isInShadow(n) { stampYoungPage(n) }
            if let sealed = mappings.last!.sealed { forgetUncommittedPages(sealed) }
        }
        ended = true
        // The table no longer belongs to this transaction: a stale cursor reads the map.
        shadow.pointee.generation = 0
        db.releaseWriter()
    }
}
