import Atomics
import StrataPOSIX
#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Which pages have been checked since their last write, and how: their cells (they lie in the
/// cell area and fill it, keys rise: `PageAccess.checkCells`), or their cells and their checksum
/// (`PageAccess.checkInFull`). A lookup checks a page in full the first time it reaches it, a scan
/// checks a leaf's cells the first time it reaches it; later visits trust what was checked
/// (FORMAT.md, "What reads check").
///
/// One word per page: the version field the page carried when it was checked, with bit 63 set
/// once its cells were checked and bit 62 once its checksum was too (the zeroed table matches no
/// page). A page is rewritten only after it was freed, and a rewrite stamps the writer's version,
/// so a page whose header still carries the recorded version still holds the bytes that were
/// checked; one written since (by any process) no longer matches and is checked again. Readers of
/// different snapshots share pages, and so share the table.
///
/// ## Concurrency
/// Any thread may read and record entries at any time: each is one relaxed atomic word, and two
/// threads checking the same page at once both record the same value. What a page holds is
/// ordered by the snapshot that reaches it (published through the lock file), not by the table.
struct CheckedPages: @unchecked Sendable {
    let words: UnsafeMutablePointer<UnsafeAtomic<UInt64>.Storage>
    /// Entries in the table: the mapping's length over the smallest page size (unused entries
    /// of larger pages cost no memory: the table comes from `calloc`, and pages of it that are
    /// never written are never backed).
    let count: Int
    static let cells: UInt64 = 1 << 63
    static let checksum: UInt64 = 1 << 62

    init(pages: Int) {
        count = max(pages, 1)
        // calloc: a large table is mapped zero pages, backed only where entries are written; a
        // table filled with zeros up front would fault in all of it on every open.
        words = calloc(count, MemoryLayout<UnsafeAtomic<UInt64>.Storage>.stride)!
            .bindMemory(to: UnsafeAtomic<UInt64>.Storage.self, capacity: count)
    }

    func deallocate() { free(words) }

    /// Page `n`'s word. `n` must be below `count`: the callers pass pages of a version, which
    /// the mapping covers (`PageAccess.page` checks `n` against the version's page count).
    @inline(__always)
    func entry(_ n: UInt32) -> UInt64 {
        UnsafeAtomic<UInt64>(at: words + Int(n)).load(ordering: .relaxed)
    }

    /// Whether page `n`, whose header carries `version`, was checked in full at that version.
    @inline(__always)
    func isCheckedInFull(_ n: UInt32, version: UInt64) -> Bool {
        entry(n) == version | Self.cells | Self.checksum
    }

    /// Whether the cells of page `n`, whose header carries `version`, were checked at that version.
    @inline(__always)
    func areCellsChecked(_ n: UInt32, version: UInt64) -> Bool {
        entry(n) | Self.checksum == version | Self.cells | Self.checksum
    }

    /// Records that page `n` was checked at `version`: in full (or written by this process), or
    /// its cells only.
    @inline(__always)
    func insert(_ n: UInt32, version: UInt64, inFull: Bool) {
        guard Int(n) < count else { return }
        UnsafeAtomic<UInt64>(at: words + Int(n)).store(
            version | Self.cells | (inFull ? Self.checksum : 0), ordering: .relaxed)
    }
}
