/// Pages a write transaction wrote, held in private memory until its commit writes them to the
/// file with `pwritev` (FORMAT.md, "Commit, step by step").
///
/// Why not write them through the shared map, as every read does: after each `fdatasync` the
/// kernel write-protects the mapped pages it wrote back, and a commit writes into free pages that
/// an earlier commit wrote, so its first store to each page took a write fault (`page_mkwrite`,
/// which on ext4 also maps the block). Measured (Docs/Performance.md): 4 faults per deferred
/// commit, about a quarter of its time. Copying a page into the page cache with `pwritev` costs
/// less than the fault. LMDB writes its dirty pages the same way by default.
///
/// The first `capacity` pages a transaction allocates live here; later ones (and overflow runs)
/// are written through the map as before, so a large transaction needs no more memory than a
/// small one. `PageAccess.pointer` finds a page here before the map. When the table is full, the
/// transaction's next change copies these pages into the map and stops using the table
/// (`WriteTransaction.beginChange`), so a bulk load does not pay for a lookup on every access.
///
/// The table is owned by the database and reused by each write transaction (one at a time: the
/// writer lock is held). A `generation` stamps the transaction that owns it: a `PageAccess` of an
/// ended transaction (a stale cursor) no longer matches and reads the map, which by then holds what
/// the commit wrote.
struct ShadowTable {
    /// The owning transaction's stamp; 0 while no transaction owns the table.
    var generation: UInt64 = 0
    /// Entries used (including removed ones, whose page is 0).
    var count = 0
    let capacity: Int
    let pageSize: Int
    /// Entry i: its page number (0 once removed) and its buffer at `buffers + i * pageSize`.
    let pages: UnsafeMutablePointer<UInt32>
    let buffers: UnsafeMutableRawPointer
    /// Entries whose buffer was zeroed: each buffer is zeroed the first time it is used. A new
    /// page fills only its header and what it stores, and the whole buffer is written to the
    /// file, so a buffer must never hold the process's other memory (freed buffers of another
    /// database). Later transactions reuse buffers with pages of this file only.
    var zeroed = 0
    /// Open-addressing hash of page numbers to entry index + 1 (0 = empty slot).
    let slots: UnsafeMutablePointer<UInt16>
    static let slotCount = 256

    static func allocate(capacity: Int, pageSize: Int) -> UnsafeMutablePointer<ShadowTable> {
        precondition(capacity * 4 <= slotCount, "keep the hash at most a quarter full")
        let slots = UnsafeMutablePointer<UInt16>.allocate(capacity: slotCount)
        slots.initialize(repeating: 0, count: slotCount)
        let pages = UnsafeMutablePointer<UInt32>.allocate(capacity: capacity)
        pages.initialize(repeating: 0, count: capacity)
        let buffers = UnsafeMutableRawPointer.allocate(byteCount: capacity * pageSize, alignment: 4096)
        let table = UnsafeMutablePointer<ShadowTable>.allocate(capacity: 1)
        table.initialize(
            to: ShadowTable(capacity: capacity, pageSize: pageSize, pages: pages, buffers: buffers, slots: slots))
        return table
    }

    static func deallocate(_ table: UnsafeMutablePointer<ShadowTable>) {
        table.pointee.slots.deallocate()
        table.pointee.pages.deallocate()
        table.pointee.buffers.deallocate()
        table.deinitialize(count: 1)
        table.deallocate()
    }

    @inline(__always)
    static func hash(_ n: UInt32) -> Int { Int((n &* 0x9E37_79B1) >> 24) }

    /// Empties the table for the transaction stamped `generation`.
    mutating func reset(generation g: UInt64) {
        slots.update(repeating: 0, count: Self.slotCount)
        count = 0
        generation = g
    }

    /// The buffer holding page `n`, or nil if it is not here.
    @inline(__always)
    func lookup(_ n: UInt32) -> UnsafeMutableRawPointer? {
        if count == 0 { return nil }
        var h = Self.hash(n)
        while true {
            let s = Int(slots[h])
            if s == 0 { return nil }
            if pages[s - 1] == n { return buffers + (s - 1) * pageSize }
            h = (h + 1) & (Self.slotCount - 1)
        }
    }

    /// A buffer for page `n` (which must not be here), or nil when the table is full.
    mutating func insert(_ n: UInt32) -> UnsafeMutableRawPointer? {
        guard count < capacity else { return nil }
        var h = Self.hash(n)
        while slots[h] != 0 { h = (h + 1) & (Self.slotCount - 1) }
        let buffer = buffers + count * pageSize
        if count >= zeroed {
            buffer.initializeMemory(as: UInt8.self, repeating: 0, count: pageSize)
            zeroed = count + 1
        }
        pages[count] = n
        count += 1
        slots[h] = UInt16(count)
        return buffer
    }

    /// Forgets page `n` (freed again by the transaction that wrote it). Its slot stays occupied
    /// by an entry that matches no page, so probe sequences stay intact.
    mutating func remove(_ n: UInt32) {
        var h = Self.hash(n)
        while true {
            let s = Int(slots[h])
            if s == 0 { return }
            if pages[s - 1] == n { pages[s - 1] = 0; return }
            h = (h + 1) & (Self.slotCount - 1)
        }
    }
}
