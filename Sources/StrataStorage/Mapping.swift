import Atomics
import StrataPOSIX

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// One memory mapping of the data file, shared by the snapshots that started while it was current.
///
/// When the file outgrows the mapping, the database creates a larger one; snapshots keep the
/// mapping they started with (it still maps every page they can reach: pages are never moved, and
/// a mapping shows the file's current contents), and it is unmapped when the last one ends.
final class Mapping: @unchecked Sendable {
    let region: MappedRegion
    /// The pages checked through this mapping (see `CheckedPages`).
    let checked: CheckedPages
    @inline(__always) var base: UnsafeMutableRawPointer { region.base }
    @inline(__always) var length: Int { region.length }

    init(region: MappedRegion) {
        self.region = region
        checked = CheckedPages(pages: region.length / minimumPageSize)
    }
    deinit {
        System.munmap(region)
        checked.deallocate()
    }
}

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
        UnsafeAtomic<UInt64>(at: words + Int(n)).store(version | Self.cells | (inFull ? Self.checksum : 0), ordering: .relaxed)
    }
}

/// A mutex for short critical sections (a pthread mutex on the heap, so it never moves).
final class Lock: @unchecked Sendable {
    private let m: UnsafeMutablePointer<pthread_mutex_t>
    init() {
        m = .allocate(capacity: 1)
        m.initialize(to: pthread_mutex_t())
        pthread_mutex_init(m, nil)
    }
    deinit {
        pthread_mutex_destroy(m)
        m.deallocate()
    }
    @inline(__always) func lock() { pthread_mutex_lock(m) }
    @inline(__always) func unlock() { pthread_mutex_unlock(m) }
    @inline(__always) func withLock<T>(_ body: () throws -> T) rethrows -> T {
        pthread_mutex_lock(m)
        defer { pthread_mutex_unlock(m) }
        return try body()
    }
}

/// A binary semaphore: the in-process half of the writer lock. Unlike a mutex it may be released
/// by a thread other than the one that took it (asynchronous commits finish on a worker thread).
final class WriterGate: @unchecked Sendable {
    private let lock = Lock()
    private var cond = pthread_cond_t()
    private var taken = false
    init() { pthread_cond_init(&cond, nil) }
    deinit { pthread_cond_destroy(&cond) }

    func acquire() {
        lock.lock()
        while taken { lock.withUnsafeMutex { pthread_cond_wait(&cond, $0) } }
        taken = true
        lock.unlock()
    }

    /// Takes the gate if no other thread holds it; never waits.
    func tryAcquire() -> Bool {
        lock.lock()
        defer { lock.unlock() }
        if taken { return false }
        taken = true
        return true
    }

    func release() {
        lock.lock()
        taken = false
        pthread_cond_signal(&cond)
        lock.unlock()
    }
}

extension Lock {
    fileprivate func withUnsafeMutex(_ body: (UnsafeMutablePointer<pthread_mutex_t>) -> Void) { body(m) }
}
