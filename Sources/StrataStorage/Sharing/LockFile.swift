import Atomics
import StrataPOSIX

/// The lock file beside a database (`<path>.lock`): shared memory for every process that has the
/// database open.
///
/// It holds (see FORMAT.md, "The lock file"):
/// - the published state of the newest committed version, under a sequence lock, so readers
///   start a snapshot without a system call and without waiting for the writer;
/// - the reader table: one slot per open `Database` handle, holding the oldest version that
///   handle's snapshots pin, so a writer in any process knows which freed pages are still needed;
/// - advisory byte locks (not data): byte 0 is the writer lock, byte 1 the open lock (shared
///   while open; exclusive to the first opener, who resets the file, and to the last closer),
///   byte `slotLockBase + i` is held by the owner of reader slot `i` for as long as it lives, so a
///   slot whose owner died (its locks vanish with it) is detected and reclaimed.
///
/// ## Concurrency
/// Thread-safe: shared fields are atomics; the slot of this handle is updated under the
/// `Database`'s mutex.
final class LockFile: @unchecked Sendable {
    static let writerLockByte: Int64 = 0
    static let openLockByte: Int64 = 1
    static let slotLockBase: Int64 = 1 << 20

    enum Offset {
        static let magic = 0  // u64
        static let formatVersion = 8  // u32
        static let slotCount = 12  // u32
        /// u64: which of the two copies below holds the published state (0 or 1).
        static let active = 64
        /// u32: how many commit watchers (``CommitWatcher``, one per process and file with change
        /// observers) exist; a committer writes the wake field while it is not zero.
        static let watchers = 72
        /// u64: written with `pwrite(2)` after each published commit while there are watchers,
        /// which wakes them through the system's file-change notification. Its value means nothing.
        static let wake = 80
        /// Copy `i` of the published state starts at `copies + copySize * i`.
        static let copies = 128
        static let copySize = 64
        // Fields inside a copy.
        static let seq = 0  // u64: odd while the writer fills this copy
        static let version = 8  // u64
        static let catalogRoot = 16  // u32
        static let pageCount = 20  // u32
        static let latestSlot = 24  // u32
        static let durableVersion = 32  // u64
        static let durableSlot = 40  // u32
        static let slots = 4096  // slot i at slots + 64 * i: pid u32, pad u32, version u64
        static let slotSize = 64
    }

    /// The lock file's descriptor; nil for a private lock file (``makePrivate(maxReaders:)``).
    let fd: FileDescriptor?
    let region: MappedRegion
    let slotCount: Int
    private(set) var mySlot: Int = -1
    private var isClosed = false
    /// True if this handle found no other process using the database when it opened.
    let wasFirstOpener: Bool
    /// For the first opener: the published state the lock file held before it was reset, when it
    /// was a whole record of this format (the last state the processes before this one
    /// published; nil for a new or damaged lock file, or one left mid-update). Recovery uses its
    /// durable version as evidence that a commit was acknowledged (FORMAT.md, "Opening").
    private(set) var previousState: PublishedState?

    private init(fd: FileDescriptor?, region: MappedRegion, slotCount: Int, first: Bool) {
        self.fd = fd
        self.region = region
        self.slotCount = slotCount
        self.wasFirstOpener = first
    }

    /// Reads the published state an existing lock file holds, without mapping it; nil when the
    /// file is too short, of another format, or was left mid-update (odd sequence number).
    private static func readPublishedState(_ fd: FileDescriptor) -> PublishedState? {
        var head = [UInt8](repeating: 0, count: Offset.copies + 2 * Offset.copySize)
        guard
            let n = try? head.withUnsafeMutableBytes({
                try System.pread(fd, into: $0.baseAddress!, count: $0.count, offset: 0)
            }),
            n == head.count
        else { return nil }
        return head.withUnsafeBytes { raw -> PublishedState? in
            let p = raw.baseAddress!
            guard p.u64(Offset.magic) == lockFileMagic, p.u32(Offset.formatVersion) == lockFileFormatVersion else {
                return nil
            }
            let c = p + Offset.copies + Offset.copySize * Int(p.u64(Offset.active) & 1)
            guard c.u64(Offset.seq) & 1 == 0, c.u64(Offset.version) != 0 else { return nil }
            return PublishedState(
                version: c.u64(Offset.version), catalogRoot: c.u32(Offset.catalogRoot),
                pageCount: c.u32(Offset.pageCount), latestSlot: c.u32(Offset.latestSlot),
                durableVersion: c.u64(Offset.durableVersion), durableSlot: c.u32(Offset.durableSlot))
        }
    }

    static func fileSize(slots: Int) -> Int {
        let raw = Offset.slots + Offset.slotSize * slots
        return (raw + 4095) / 4096 * 4096
    }

    /// Opens (creating if needed) the lock file and takes the open lock. When this is the only
    /// process, the caller gets `isFirst == true` and must call ``initialize(state:)`` before
    /// ``finishOpening()``; the open lock is held exclusively until then.
    ///
    /// Another process may delete the files (`Database.deleteFiles`) between this open of the
    /// name and the lock: it holds the open lock exclusively while it unlinks them, so once the
    /// lock is granted here the descriptor may name a removed file. Then the name is opened
    /// again (a new file), as often as that race repeats.
    static func open(path: String, maxReaders: Int) throws -> LockFile {
        for _ in 0..<maximumReopens {
            if let lockFile = try openOnce(path: path, maxReaders: maxReaders) { return lockFile }
        }
        throw StorageError.lockFileInvalid(
            path: path, reason: "it was deleted \(maximumReopens) times while this process opened it")
    }

    /// How often ``open(path:maxReaders:)`` opens the name again after finding it deleted.
    static let maximumReopens = 1_000

    /// One attempt of ``open(path:maxReaders:)``: nil when the file was deleted before the open
    /// lock was granted.
    private static func openOnce(path: String, maxReaders: Int) throws -> LockFile? {
        let fd = try StorageError.wrap { try System.open(path, create: true) }
        do {
            let first = try StorageError.wrap { try System.tryLock(fd, byte: openLockByte, kind: .exclusive) }
            if first && !System.refersToPath(fd, path) {
                System.close(fd)
                return nil
            }
            if first {
                let previous = readPublishedState(fd)
                let size = fileSize(slots: maxReaders)
                // Set the length, then reserve the blocks before touching the file through the
                // map: on a full disk a store into an unreserved page raises SIGBUS, while
                // posix_fallocate reports ENOSPC.
                try StorageError.wrap {
                    try System.ftruncate(fd, length: Int64(size))
                    try System.allocate(fd, offset: 0, length: Int64(size))
                }
                let region = try StorageError.wrap { try System.mmap(fd, length: size, writable: true) }
                zeroBytes(region.base, size)
                region.base.setU64(Offset.magic, lockFileMagic)
                region.base.setU32(Offset.formatVersion, lockFileFormatVersion)
                region.base.setU32(Offset.slotCount, UInt32(maxReaders))
                let lockFile = LockFile(fd: fd, region: region, slotCount: maxReaders, first: true)
                lockFile.previousState = previous
                // Keep the previous state until recovery publishes a new one: if this open fails
                // (a damaged newest commit), the next open still finds the evidence it needs.
                if let previous { lockFile.publish(previous) }
                return lockFile
            }
            try StorageError.wrap { try System.lock(fd, byte: openLockByte, kind: .shared) }
            if !System.refersToPath(fd, path) {
                System.close(fd)
                return nil
            }
            let size = try StorageError.wrap { try System.fileSize(fd) }
            guard size >= Int64(Offset.slots) else {
                throw StorageError.lockFileInvalid(path: path, reason: "it is \(size) bytes long")
            }
            let region = try StorageError.wrap { try System.mmap(fd, length: Int(size), writable: true) }
            let base = region.base
            guard base.u64(Offset.magic) == lockFileMagic else {
                System.munmap(region)
                throw StorageError.lockFileInvalid(path: path, reason: "wrong magic number")
            }
            guard base.u32(Offset.formatVersion) == lockFileFormatVersion else {
                System.munmap(region)
                throw StorageError.lockFileInvalid(
                    path: path,
                    reason: "lock file format \(base.u32(Offset.formatVersion)), expected \(lockFileFormatVersion)")
            }
            let slots = Int(base.u32(Offset.slotCount))
            guard slots > 0, fileSize(slots: slots) <= Int(size) else {
                System.munmap(region)
                throw StorageError.lockFileInvalid(path: path, reason: "slot count \(slots) does not fit the file")
            }
            return LockFile(fd: fd, region: region, slotCount: slots, first: false)
        } catch {
            System.close(fd)
            throw error
        }
    }

    /// A lock file in this process's memory only, for a read-only open that cannot create or
    /// write the lock file (a read-only directory or volume): nobody else can write the file
    /// there, so there is no other process to coordinate with. Every lock succeeds at once.
    static func makePrivate(maxReaders: Int) throws -> LockFile {
        let size = fileSize(slots: maxReaders)
        let region = try StorageError.wrap { try System.mapAnonymous(length: size) }
        region.base.setU64(Offset.magic, lockFileMagic)
        region.base.setU32(Offset.formatVersion, lockFileFormatVersion)
        region.base.setU32(Offset.slotCount, UInt32(maxReaders))
        return LockFile(fd: nil, region: region, slotCount: maxReaders, first: true)
    }

    /// Whether this is a private lock file (no file, no other processes).
    var isPrivate: Bool { fd == nil }

    /// Downgrades the first opener's exclusive open lock to shared, letting other processes in.
    func finishOpening() throws {
        if wasFirstOpener, let fd {
            try StorageError.wrap { try System.lock(fd, byte: Self.openLockByte, kind: .shared) }
        }
    }

    // MARK: Atomics over the shared mapping

    @inline(__always)
    private func atomic64(_ offset: Int) -> UnsafeAtomic<UInt64> {
        UnsafeAtomic<UInt64>(at: (region.base + offset).assumingMemoryBound(to: UInt64.AtomicRepresentation.self))
    }

    @inline(__always)
    private func atomic32(_ offset: Int) -> UnsafeAtomic<UInt32> {
        UnsafeAtomic<UInt32>(at: (region.base + offset).assumingMemoryBound(to: UInt32.AtomicRepresentation.self))
    }

    // MARK: Published state (two copies, each under a sequence lock; one writer at a time)
    //
    // The writer fills the copy readers are not using, then switches `active` to it with one
    // store. A writer killed while filling a copy leaves that copy odd, but readers never use it:
    // `active` still names the intact one, and the next writer refills the torn copy. (With a
    // single copy, a writer killed between its two sequence stores left the number odd forever,
    // and every reader in every process spun on it.)

    @inline(__always)
    private func copyAtomic64(_ copy: Int, _ field: Int) -> UnsafeAtomic<UInt64> {
        atomic64(Offset.copies + Offset.copySize * copy + field)
    }

    @inline(__always)
    private func copyAtomic32(_ copy: Int, _ field: Int) -> UnsafeAtomic<UInt32> {
        atomic32(Offset.copies + Offset.copySize * copy + field)
    }

    /// Publishes `s`: fills the inactive copy, then makes it the active one. Called with the
    /// writer lock held (or by a first opener holding the open lock exclusively).
    func publish(_ s: PublishedState) {
        let target = Int(atomic64(Offset.active).load(ordering: .relaxed) & 1) ^ 1
        fill(copy: target, with: s)
        atomic64(Offset.active).store(UInt64(target), ordering: .releasing)
        if atomic32(Offset.watchers).load(ordering: .sequentiallyConsistent) != 0 { wakeWatchers() }
    }

    // MARK: Commit watchers

    /// Counts one more watcher of this file's commits (in any process).
    func addWatcher() {
        atomic32(Offset.watchers).wrappingIncrement(ordering: .sequentiallyConsistent)
    }

    /// Counts one watcher fewer. (A process that dies with a watcher leaves the count high: its
    /// only cost is a write per commit, until the last process closes the file and the next
    /// first opener resets the lock file.)
    func removeWatcher() {
        let count = atomic32(Offset.watchers)
        var current = count.load(ordering: .relaxed)
        while current > 0 {
            let (exchanged, original) = count.weakCompareExchange(
                expected: current, desired: current - 1, ordering: .sequentiallyConsistent)
            if exchanged { return }
            current = original
        }
    }

    /// Writes the wake field with `pwrite(2)`: every process watching the lock file for writes
    /// (``CommitWatcher``) wakes. Best effort: a failed write leaves watchers to their timeout.
    func wakeWatchers() {
        guard let fd else { return }
        var value = UInt64(System.processID)
        try? System.pwrite(fd, from: &value, count: 8, offset: Int64(Offset.wake))
    }

    /// Fills one copy under its sequence lock (odd while the fields change).
    private func fill(copy c: Int, with s: PublishedState) {
        let seq = copyAtomic64(c, Offset.seq)
        let start = seq.load(ordering: .relaxed)
        seq.store(start | 1, ordering: .relaxed)
        atomicMemoryFence(ordering: .releasing)
        copyAtomic64(c, Offset.version).store(s.version, ordering: .relaxed)
        copyAtomic32(c, Offset.catalogRoot).store(s.catalogRoot, ordering: .relaxed)
        copyAtomic32(c, Offset.pageCount).store(s.pageCount, ordering: .relaxed)
        copyAtomic32(c, Offset.latestSlot).store(s.latestSlot, ordering: .relaxed)
        copyAtomic64(c, Offset.durableVersion).store(s.durableVersion, ordering: .relaxed)
        copyAtomic32(c, Offset.durableSlot).store(s.durableSlot, ordering: .relaxed)
        seq.store((start | 1) &+ 1, ordering: .releasing)
    }

    /// Leaves the inactive copy as a writer killed in the middle of ``publish(_:)`` leaves it:
    /// its sequence number odd and some fields of `s` written. For tests of that crash.
    func leaveTornPublish(_ s: PublishedState) {
        let c = Int(atomic64(Offset.active).load(ordering: .relaxed) & 1) ^ 1
        let seq = copyAtomic64(c, Offset.seq)
        seq.store(seq.load(ordering: .relaxed) | 1, ordering: .relaxed)
        copyAtomic64(c, Offset.version).store(s.version, ordering: .relaxed)
        copyAtomic32(c, Offset.catalogRoot).store(s.catalogRoot, ordering: .relaxed)
    }

    /// The published state. Never waits on a writer for long: a copy being filled is never the
    /// active one, so a torn read only happens when `active` moved on meanwhile, and the retry
    /// reads the new copy.
    func readState() -> PublishedState {
        while true {
            let c = Int(atomic64(Offset.active).load(ordering: .acquiring) & 1)
            let seq = copyAtomic64(c, Offset.seq)
            let s1 = seq.load(ordering: .acquiring)
            if s1 & 1 == 1 { continue }
            let st = PublishedState(
                version: copyAtomic64(c, Offset.version).load(ordering: .relaxed),
                catalogRoot: copyAtomic32(c, Offset.catalogRoot).load(ordering: .relaxed),
                pageCount: copyAtomic32(c, Offset.pageCount).load(ordering: .relaxed),
                latestSlot: copyAtomic32(c, Offset.latestSlot).load(ordering: .relaxed),
                durableVersion: copyAtomic64(c, Offset.durableVersion).load(ordering: .relaxed),
                durableSlot: copyAtomic32(c, Offset.durableSlot).load(ordering: .relaxed)
            )
            atomicMemoryFence(ordering: .acquiring)
            if seq.load(ordering: .relaxed) == s1 { return st }
        }
    }

    /// The latest published version (one atomic load).
    @inline(__always)
    var latestVersion: UInt64 {
        let c = Int(atomic64(Offset.active).load(ordering: .acquiring) & 1)
        return copyAtomic64(c, Offset.version).load(ordering: .acquiring)
    }

    // MARK: Reader slots

    /// Claims a free reader slot for this handle: takes the slot's liveness lock (which only
    /// succeeds if its previous owner, if any, is gone), then writes our pid.
    func claimSlot() throws {
        guard let fd else {
            atomic64(Offset.slots + 8).store(0, ordering: .relaxed)
            atomic32(Offset.slots).store(UInt32(bitPattern: System.processID), ordering: .releasing)
            mySlot = 0
            return
        }
        for i in 0..<slotCount {
            if try StorageError.wrap({ try System.tryLock(fd, byte: Self.slotLockBase + Int64(i), kind: .exclusive) }) {
                let base = Offset.slots + Offset.slotSize * i
                atomic64(base + 8).store(0, ordering: .relaxed)
                atomic32(base).store(UInt32(bitPattern: System.processID), ordering: .releasing)
                mySlot = i
                return
            }
        }
        throw StorageError.readersFull(path: fd.path, slots: slotCount)
    }

    /// Sets the oldest version this handle pins (0 = none).
    func setMySlotVersion(_ version: UInt64) {
        precondition(mySlot >= 0)
        atomic64(Offset.slots + Offset.slotSize * mySlot + 8).store(version, ordering: .sequentiallyConsistent)
    }

    /// The oldest version pinned by any other live handle (any process), or nil if none.
    /// Slots whose owner died are cleared on the way.
    func oldestOtherReader() -> UInt64? {
        var oldest: UInt64? = nil
        for i in 0..<slotCount where i != mySlot {
            let base = Offset.slots + Offset.slotSize * i
            let v = atomic64(base + 8).load(ordering: .sequentiallyConsistent)
            if v == 0 { continue }
            if let o = oldest, v >= o { continue }
            // A pinned old version: make sure its owner is alive before honouring it.
            guard let fd else { break }
            let alive = (try? System.isLockedByOther(fd, byte: Self.slotLockBase + Int64(i))) ?? true
            if !alive {
                // The owner died without releasing its slot. Clear it unless a new owner claimed
                // it between our check and now (a new owner stores version 0 first anyway).
                _ = atomic64(base + 8).compareExchange(expected: v, desired: 0, ordering: .sequentiallyConsistent)
                continue
            }
            oldest = v
        }
        return oldest
    }

    // MARK: Writer lock

    func lockWriter() throws {
        guard let fd else { return }
        try StorageError.wrap { try System.lock(fd, byte: Self.writerLockByte, kind: .exclusive) }
    }

    /// Takes the writer byte lock if no other process (or handle) holds it; never waits.
    func tryLockWriter() throws -> Bool {
        guard let fd else { return true }
        return try StorageError.wrap { try System.tryLock(fd, byte: Self.writerLockByte, kind: .exclusive) }
    }

    func unlockWriter() {
        guard let fd else { return }
        try? System.unlock(fd, byte: Self.writerLockByte)
    }

    /// Whether this handle is the only one open (tries to upgrade the open lock). On success the
    /// open lock is held exclusively; call ``close()`` next.
    func tryBecomeLastCloser() -> Bool {
        guard let fd else { return false }
        return (try? System.tryLock(fd, byte: Self.openLockByte, kind: .exclusive)) ?? false
    }

    /// Releases the slot and every lock. The shared memory stays mapped until this object is
    /// deinitialized, so a thread racing with close reads stale but valid memory.
    func close() {
        guard !isClosed else { return }
        isClosed = true
        if mySlot >= 0 {
            let base = Offset.slots + Offset.slotSize * mySlot
            atomic64(base + 8).store(0, ordering: .sequentiallyConsistent)
            atomic32(base).store(0, ordering: .releasing)
        }
        // Unlock explicitly: an open-file-description lock lives as long as the description,
        // and the mapping (kept until deinit) holds a reference to it, so closing the
        // descriptor alone would not release anything.
        guard let fd else { return }
        if mySlot >= 0 { try? System.unlock(fd, byte: Self.slotLockBase + Int64(mySlot)) }
        try? System.unlock(fd, byte: Self.openLockByte)
        try? System.unlock(fd, byte: Self.writerLockByte)
        System.close(fd)
    }

    deinit {
        close()
        System.munmap(region)
    }
}
