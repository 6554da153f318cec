import Atomics
import StrataPOSIX

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A Strata data file: a copy-on-write B+tree store with MVCC snapshots.
///
/// A database holds named trees that map byte-string keys to byte-string values. Readers see one
/// committed version for as long as they hold it, without copying (keys and values point into a
/// memory map) and without blocking the writer; one writer at a time, across threads and
/// processes, creates the next version.
///
/// ```swift
/// let db = try Database(path: "/tmp/example.strata")
/// try db.write { txn in
///     let people = try txn.openTree("people", create: true)
///     try txn.put(Array("k1".utf8), Array("Ada".utf8), in: people)
/// }
/// let name = try db.read { txn in try txn.tree(named: "people").flatMap { try txn.get(Array("k1".utf8), in: $0) } }
/// ```
///
/// ## Concurrency
/// `Database` is `Sendable`: any thread may begin transactions on it. A ``ReadTransaction`` may be
/// read from any thread; a ``WriteTransaction`` must be used by one thread at a time (it can be
/// handed to another thread between calls, as asynchronous commits do).
public final class Database: @unchecked Sendable {
    /// How to open a database.
    public struct Options: Sendable {
        /// Page size for a new file (a power of two, 4096...32768). An existing file keeps its own.
        public var pageSize: Int = 4096
        /// Create the file if it does not exist.
        public var create: Bool = true
        /// Open for reading only: no write transactions, the file is mapped read-only.
        public var readOnly: Bool = false
        /// Reader slots in the lock file (open handles across all processes), fixed by the first opener.
        public var maxReaders: Int = 126
        /// Bytes of address space reserved for the map beyond the file's size; the file can grow
        /// this far before the map is replaced.
        public var mapReserve: Int = 1 << 30
        /// Verify the checksum of every page on open, not just the newest commit's (slow on large files).
        public var verifyAllOnOpen: Bool = false
        /// What opening does when the newest commit was acknowledged as durable but its pages no
        /// longer verify (damaged on disk after it was written): `false` (the default) refuses
        /// the file with ``StorageError/damagedCommit(path:version:page:reason:intactVersion:)``
        /// and changes nothing; `true` opens the last intact version instead, losing that commit,
        /// and reports it in ``Database/recovery``. A torn commit (a crash before its pages
        /// reached the disk, so never acknowledged) is always rolled back.
        public var openLastIntactVersion: Bool = false
        /// The 64-byte key of an encrypted file, or nil for a plain one. A new file is created
        /// encrypted when a key is given; an existing file must be opened with the key it was
        /// created with (FORMAT.md, "Encrypted files"). The lock file holds nothing secret.
        public var encryptionKey: [UInt8]? = nil
        public init() {}
    }

    /// The data file's path.
    public let path: String
    /// `path` as page accessors carry it.
    let pathName: PathName
    /// The page size of this file.
    public let pageSize: Int
    /// Whether the database was opened read-only.
    public let isReadOnly: Bool
    /// The format version of the file: as this handle found it when it opened read-only, and
    /// ``strataFormatVersion`` once a writable open upgraded an older file (FORMAT.md, "Version
    /// history").
    public private(set) var formatVersion: UInt32 = strataFormatVersion
    /// Whether this handle shares a lock file with other processes. False only for a read-only
    /// open where the lock file could not be created or written (a read-only directory or
    /// volume): the handle then sees the version it opened at, and must not be used while a
    /// process elsewhere writes the file.
    public var sharesLockFile: Bool { !lockFile.isPrivate }
    /// What recovery discarded when this handle opened the file, or nil when it opened at the
    /// newest commit (or another process had the file open already, and chose the version).
    public private(set) var recovery: RecoveryReport?

    let fd: FileDescriptor
    let lockFile: LockFile
    let options: Options
    /// The page cipher of an encrypted file, nil for a plain one.
    let cipher: PageCipher?
    /// Whether the file is encrypted.
    public var isEncrypted: Bool { cipher != nil }
    /// The magic of this file's meta records.
    var metaMagic: UInt64 { cipher == nil ? fileMagic : encryptedFileMagic }
    /// The longest key a tree of this file accepts, in bytes (about a quarter of a page).
    public let maxKeySize: Int
    let maxInlineCell: Int

    // Guarded by `stateLock`.
    let stateLock = Lock()
    var mapping: Mapping
    var fileCapacity: Int64
    var pins = PinCounts()
    var pinnedMin: UInt64 = 0
    var closed = false

    /// Why this handle refuses writes (a failed durability step), or nil. Set with the writer lock
    /// held, but read by any thread before it takes the lock (`beginWrite`, `sync`, `verify`), so
    /// it is guarded by `stateLock`.
    var poisonedBy: String? {
        get { stateLock.withLock { poisonCause } }
        set { stateLock.withLock { poisonCause = newValue } }
    }
    private var poisonCause: String?

    // Guarded by the writer lock (`writerGate` + the lock file's writer byte).
    let writerGate = WriterGate()
    var writerCache: WriterState?
    private var writerScratch: UnsafeMutableRawPointer?
    private var writerShadowTable: UnsafeMutablePointer<ShadowTable>?
    /// Stamps each write transaction's use of the shadow table (see `ShadowTable`).
    var shadowGeneration: UInt64 = 0

    /// Four pages of scratch memory for the write transaction, allocated once. Called with the
    /// writer lock held.
    func writerBuffers() -> UnsafeMutableRawPointer {
        if let b = writerScratch { return b }
        let b = UnsafeMutableRawPointer.allocate(byteCount: 3 * pageSize, alignment: 4096)
        // Zeroed, as the private page buffers are: no other memory of the process may reach a page.
        b.initializeMemory(as: UInt8.self, repeating: 0, count: 3 * pageSize)
        writerScratch = b
        return b
    }

    /// The private page buffers of the write transaction (`ShadowTable`), allocated once: 64
    /// pages, enough for the small commits they are for. Called with the writer lock held.
    func writerShadow() -> UnsafeMutablePointer<ShadowTable> {
        if let t = writerShadowTable { return t }
        let t = ShadowTable.allocate(capacity: 64, pageSize: pageSize)
        writerShadowTable = t
        return t
    }

    /// Opens (or creates) the database at `path`.
    /// - Throws: ``StorageError`` when the file is not a Strata database, is corrupt or truncated,
    ///   has an unsupported format version, or an operating-system call fails.
    public init(path: String, options: Options = Options()) throws {
        self.path = path
        self.pathName = PathName(path)
        self.options = options
        self.isReadOnly = options.readOnly
        guard options.pageSize >= minimumPageSize, options.pageSize <= maximumPageSize,
            options.pageSize & (options.pageSize - 1) == 0
        else {
            throw StorageError.invalidPageSize(options.pageSize)
        }
        if let key = options.encryptionKey, key.count != PageCipher.userKeyLength {
            throw StorageError.invalidEncryptionKeyLength(key.count)
        }
        var attempt = 0
        var opened: (fd: FileDescriptor, size: Int64, pageSize: Int, lockFile: LockFile, cipher: PageCipher?)?
        while opened == nil {
            attempt += 1
            opened = try Database.openFiles(
                path: path, options: options, lastAttempt: attempt >= Database.maximumReopens)
        }
        let (fd, size, pageSize, lf, cipher) = opened!
        self.cipher = cipher
        do {
            self.pageSize = pageSize
            self.maxInlineCell = (pageSize - PageHeader.size) / 4 - 2
            self.maxKeySize = maxInlineCell - CellLayout.leafHeader - 4
            self.fd = fd
            self.lockFile = lf
            self.fileCapacity = size
            let mapLength = Database.mapLength(forFileSize: size, reserve: options.mapReserve)
            self.mapping = try Database.makeMapping(
                fd: fd, length: mapLength, writable: !options.readOnly, cipher: cipher, pathName: pathName)
        } catch {
            lf.close()
            System.close(fd)
            throw error
        }
        // Every stored property is set: from here a thrown error runs deinit, so mark the handle
        // closed (deinit then does nothing) and release what was opened here.
        do {
            try finishOpening(fileSize: fileCapacity)
        } catch {
            closed = true
            lockFile.close()
            System.close(fd)
            throw error
        }
        formatVersion = newestRecordFormat()
        if !options.readOnly {
            do {
                try upgradeFormatIfNeeded()
            } catch {
                close(markingClean: false)
                throw error
            }
        }
    }

    /// The format version of the newest meta record (0 if it cannot be read).
    func newestRecordFormat() -> UInt32 {
        let st = lockFile.readState()
        return stateLock.withLock { (mapping.base + Int(st.latestSlot) * pageSize).u32(MetaLayout.formatVersion) }
    }

    /// Upgrades a file of an older format this build reads: two empty durable commits, so that
    /// both meta records carry ``strataFormatVersion`` and a build that reads only the older
    /// format refuses the file rather than misreading it (reading one slot of each format, it
    /// would take the newer record for damaged and open at the older one). The page format of
    /// format 1 is that of 2, and a file of format 2 is one of format 3 without areas; the object
    /// store converts its own layouts when a realm opens.
    func upgradeFormatIfNeeded() throws {
        // Most files are current: look at the two fields before decoding anything.
        let fields = stateLock.withLock {
            (mapping.base.u32(MetaLayout.formatVersion), (mapping.base + pageSize).u32(MetaLayout.formatVersion))
        }
        guard fields.0 < strataFormatVersion || fields.1 < strataFormatVersion else { return }
        // Only valid records count: a torn or erased slot is rewritten by the next commit anyway.
        func oldestSlotFormat() -> UInt32 {
            stateLock.withLock {
                (0..<2).compactMap { slot -> UInt32? in
                    let page = mapping.base + slot * pageSize
                    guard case .success = MetaRecord.decode(page, pageSize: pageSize, slot: slot) else { return nil }
                    return page.u32(MetaLayout.formatVersion)
                }.min() ?? strataFormatVersion
            }
        }
        guard oldestSlotFormat() < strataFormatVersion else { return }
        for _ in 0..<2 { try write(durability: .full) { _ in } }
        formatVersion = strataFormatVersion
    }

    private func finishOpening(fileSize size: Int64) throws {
        if lockFile.wasFirstOpener {
            let state = try recover(fileSize: size)
            lockFile.publish(state)
        }
        let state = lockFile.readState()
        let needed = fileBytes(forPages: state.pageCount)
        let actual = try StorageError.wrap { try System.fileSize(fd) }
        if actual < needed { throw StorageError.truncated(path: path, expectedBytes: needed, actualBytes: actual) }
        try lockFile.claimSlot()
        try lockFile.finishOpening()
    }

    deinit {
        close()
        writerScratch?.deallocate()
        if let t = writerShadowTable { ShadowTable.deallocate(t) }
    }

    static func mapLength(forFileSize size: Int64, reserve: Int) -> Int {
        let want = Int(size) * 2 + reserve
        let unit = 1 << 20
        return (want + unit - 1) / unit * unit
    }

    /// How often an open starts over after finding its files deleted under it.
    static let maximumReopens = 1_000

    /// Opens the data file (creating it when allowed) and the lock file, with the open lock
    /// granted. Nil when another process deleted the files (`deleteFiles`) between the two: the
    /// data file descriptor then names a removed file, and writing there would lose every
    /// commit, so the caller starts over with the new files. On the last attempt a removed file is
    /// an error instead.
    private static func openFiles(
        path: String, options: Options, lastAttempt: Bool
    ) throws -> (fd: FileDescriptor, size: Int64, pageSize: Int, lockFile: LockFile, cipher: PageCipher?)? {
        if !System.fileExists(path) {
            guard options.create, !options.readOnly else {
                throw StorageError.system(SystemError(call: "open", errno: 2 /* ENOENT */, path: path))
            }
            try Database.createFile(path: path, pageSize: options.pageSize, encryptionKey: options.encryptionKey)
        }
        let fd: FileDescriptor
        do {
            fd = try StorageError.wrap { try System.open(path, readOnly: options.readOnly) }
        } catch StorageError.system(let e)
            where e.errno == ENOENT && options.create && !options.readOnly && !lastAttempt
        {
            return nil  // deleted since it was created or found: create it again
        }
        var lockFile: LockFile?
        do {
            let size = try StorageError.wrap { try System.fileSize(fd) }
            let pageSize = try Database.readHeader(fd: fd, path: path, fileSize: size)
            let cipher = try Database.openCipher(
                fd: fd, path: path, fileSize: size, pageSize: pageSize, key: options.encryptionKey)
            let lf: LockFile
            do {
                lf = try LockFile.open(path: path + ".lock", maxReaders: options.maxReaders)
            } catch StorageError.system(let e) where options.readOnly && [EACCES, EROFS, EPERM].contains(e.errno) {
                // A read-only open of a file whose lock file cannot be created or written (a
                // database shipped on a read-only volume or in a read-only directory): nobody can
                // write the file there either, so open it alone, with a lock file in memory.
                lf = try LockFile.makePrivate(maxReaders: 1)
            }
            lockFile = lf
            // With the open lock held nobody can delete the files any more; the data file may
            // have been deleted before it was granted.
            if !lf.isPrivate && !System.refersToPath(fd, path) {
                if lastAttempt {
                    throw StorageError.lockFileInvalid(
                        path: path + ".lock",
                        reason: "the database was deleted \(maximumReopens) times while this process opened it")
                }
                lf.close()
                System.close(fd)
                return nil
            }
            return (fd, size, pageSize, lf, cipher)
        } catch {
            lockFile?.close()
            System.close(fd)
            throw error
        }
    }

    /// Creates a new, empty database at `path` unless one appears there first.
    ///
    /// Both meta pages (version 1) are written to a temporary file beside `path`, synced, and then
    /// published with `link(2)`, which fails if `path` exists: so a crash never leaves a
    /// half-created file at `path`, and when several threads or processes create the same new
    /// file at once exactly one file wins and every loser opens it. (Publishing with `rename`
    /// would let a later creator replace a file that others had already committed to, sending
    /// their durable commits to an unlinked inode.)
    ///
    /// On a file system without hard links (`link` fails with `EPERM` or `ENOTSUP`), the file is
    /// created in place with `O_EXCL` instead; an opener racing with that creation may see a file
    /// shorter than two pages and is told it is not a database (nothing is lost).
    static func createFile(path: String, pageSize: Int, encryptionKey: [UInt8]? = nil) throws {
        let tmp =
            path + ".creating-\(System.processID)-\(creationCounter.loadThenWrappingIncrement(ordering: .relaxed))"
        creationsLock.withLock { _ = creationsInProgress.insert(tmp) }
        defer { creationsLock.withLock { _ = creationsInProgress.remove(tmp) } }
        do {
            try writeEmptyDatabase(at: tmp, exclusive: false, pageSize: pageSize, encryptionKey: encryptionKey)
        } catch {
            try? System.unlink(tmp)
            throw error
        }
        defer {
            try? System.unlink(tmp)
            removeAbandonedCreations(of: path, except: tmp)
        }
        do {
            try StorageError.wrap { try System.link(tmp, to: path) }
        } catch StorageError.system(let e) where e.errno == EEXIST {
            return  // another thread or process created it first: open theirs
        } catch StorageError.system(let e) where e.errno == EPERM || e.errno == ENOTSUP || e.errno == EOPNOTSUPP {
            do {
                try writeEmptyDatabase(
                    at: path, exclusive: true, pageSize: pageSize, encryptionKey: encryptionKey)
            } catch StorageError.system(let e) where e.errno == EEXIST {
                return
            }
        }
        try StorageError.wrap { try System.syncDirectory(of: path) }
    }

    /// Removes temporary files of earlier creations of `path` that nobody will finish: this
    /// process's (a cleanup that failed) and those of processes that no longer exist (a crash).
    /// Another live process's temporary file is its creation in progress, and stays. Best effort.
    private static func removeAbandonedCreations(of path: String, except current: String) {
        // `path` is `<directory part><base>`; temporary names are `<directory part><base>.creating-...`.
        var directoryPart = ""
        var base = path
        if let slash = path.lastIndex(of: "/") {
            directoryPart = String(path[...slash])
            base = String(path[path.index(after: slash)...])
        }
        let prefix = base + ".creating-"
        guard let names = try? System.directoryEntries(directoryPart.isEmpty ? "." : directoryPart) else { return }
        for name in names where name.hasPrefix(prefix) {
            let full = directoryPart + name
            guard full != current, let pid = Int32(name.dropFirst(prefix.count).prefix { $0 != "-" }) else { continue }
            if pid == System.processID {
                // Another thread of this process may be creating the same file right now.
                if creationsLock.withLock({ !creationsInProgress.contains(full) }) { try? System.unlink(full) }
            } else if !System.processExists(pid) {
                try? System.unlink(full)
            }
        }
    }

    /// The temporary files of this process's creations in progress (guarded by `creationsLock`).
    private nonisolated(unsafe) static var creationsInProgress: Set<String> = []
    private static let creationsLock = Lock()

    /// Distinguishes the temporary files of creations running at once in this process.
    private static let creationCounter = ManagedAtomic<UInt64>(0)

    /// Writes both meta pages of an empty database (version 1) to a new file and syncs it.
    private static func writeEmptyDatabase(
        at file: String, exclusive: Bool, pageSize: Int, encryptionKey: [UInt8]?
    ) throws {
        let fd = try StorageError.wrap { try System.open(file, create: true, exclusive: exclusive) }
        defer { System.close(fd) }
        // An encrypted file has its key page after the meta pages (FORMAT.md, "Encrypted files").
        let pages = encryptionKey == nil ? 2 : 3
        let buf = UnsafeMutableRawPointer.allocate(byteCount: pageSize * pages, alignment: 4096)
        defer { buf.deallocate() }
        let magic = encryptionKey == nil ? fileMagic : encryptedFileMagic
        if let encryptionKey {
            _ = PageCipher.makeKeyPage(key: encryptionKey, into: buf + 2 * pageSize, pageSize: pageSize)
        }
        let meta = MetaRecord(
            version: 1, catalogRoot: 0, freeListHead: 0, pageCount: 2, flags: MetaLayout.flagClean,
            durableBase: 1, freeListPages: 0, listHead: 0, listPagesOwn: 0, inlineList: [])
        meta.encode(into: buf, pageSize: pageSize, slot: 0, magic: magic)
        meta.encode(into: buf + pageSize, pageSize: pageSize, slot: 1, magic: magic)
        try StorageError.wrap {
            try System.pwrite(fd, from: buf, count: pageSize * pages, offset: 0)
            try System.fdatasync(fd)
        }
    }

    /// Reads the start of the file and returns its page size, or explains why it is not ours.
    ///
    /// Meta slot 0 identifies the file (magic, format version, page size). When it does not,
    /// slot 1 is looked for at each page size: a slot 0 damaged in those fields is then only a
    /// damaged meta record (recovery opens at slot 1), and a file whose two slots both name
    /// another format version is refused as such.
    static func readHeader(fd: FileDescriptor, path: String, fileSize: Int64) throws -> Int {
        if fileSize == 0 { throw StorageError.notADatabase(path: path, reason: "the file is empty (0 bytes)") }
        func read(at offset: Int64, count: Int) throws -> [UInt8] {
            var bytes = [UInt8](repeating: 0, count: count)
            let n = try bytes.withUnsafeMutableBytes { b in
                try StorageError.wrap { try System.pread(fd, into: b.baseAddress!, count: b.count, offset: offset) }
            }
            return Array(bytes.prefix(n))
        }
        let head = try read(at: 0, count: minimumPageSize)
        let slot0Problem: StorageError? = head.withUnsafeBytes { raw -> StorageError? in
            let p = raw.baseAddress!
            if head.count >= 16, memcmpBytes(p, Array("SQLite format 3\0".utf8), 16) == 0 {
                return .notADatabase(path: path, reason: "it is a SQLite database")
            }
            guard head.count >= MetaLayout.inlineList else {
                return .notADatabase(path: path, reason: "the file is only \(head.count) bytes long")
            }
            let magic = p.u64(MetaLayout.magic)
            if magic == fileMagicByteSwapped { return .byteOrderMismatch(path: path) }
            guard magic == fileMagic || magic == encryptedFileMagic else {
                return .notADatabase(path: path, reason: "its first page does not start with Strata's magic number")
            }
            let format = p.u32(MetaLayout.formatVersion)
            guard isReadableFormat(format) else {
                return .unsupportedFormatVersion(path: path, found: format, supported: strataFormatVersion)
            }
            let ps = Int(p.u32(MetaLayout.pageSize))
            guard ps >= minimumPageSize, ps <= maximumPageSize, ps & (ps - 1) == 0 else {
                return .corruptPage(path: path, page: 0, reason: "meta page records page size \(ps)")
            }
            guard fileSize >= Int64(2 * ps) else {
                return .truncated(path: path, expectedBytes: Int64(2 * ps), actualBytes: fileSize)
            }
            return nil
        }
        guard let slot0Problem else { return head.withUnsafeBytes { Int($0.baseAddress!.u32(MetaLayout.pageSize)) } }
        switch slot0Problem {
        case .notADatabase(_, let reason)
        where reason.hasPrefix("it is a SQLite") || head.count < MetaLayout.inlineList:
            throw slot0Problem
        case .truncated:
            throw slot0Problem
        default:
            break
        }
        var ps = minimumPageSize
        while ps <= maximumPageSize {
            if fileSize >= Int64(2 * ps) {
                let slot1 = try read(at: Int64(ps), count: MetaLayout.inlineList)
                if slot1.count == MetaLayout.inlineList {
                    let verdict: Int? = try slot1.withUnsafeBytes { raw -> Int? in
                        let p = raw.baseAddress!
                        guard p.u64(MetaLayout.magic) == fileMagic || p.u64(MetaLayout.magic) == encryptedFileMagic,
                            Int(p.u32(MetaLayout.pageSize)) == ps,
                            p.u32(PageHeader.pageNumber) == 1, p.u8(PageHeader.type) == PageType.meta.rawValue
                        else { return nil }
                        let format = p.u32(MetaLayout.formatVersion)
                        guard isReadableFormat(format) else {
                            throw StorageError.unsupportedFormatVersion(
                                path: path, found: format, supported: strataFormatVersion)
                        }
                        return ps
                    }
                    if let verdict { return verdict }
                }
            }
            ps *= 2
        }
        throw slot0Problem
    }

    // MARK: Recovery (first opener)

    /// Chooses the version to open at from the two meta pages, verifying the newest commit's pages
    /// when the file was not closed cleanly, and makes that version durable. FORMAT.md, "Opening".
    func recover(fileSize: Int64) throws -> PublishedState {
        var metas: [MetaRecord?] = [nil, nil]
        var problems: [MetaRecord.Problem?] = [nil, nil]
        for slot in 0..<2 {
            switch MetaRecord.decode(mapping.base + slot * pageSize, pageSize: pageSize, slot: slot) {
            case .success(let m): metas[slot] = m
            case .failure(let p): problems[slot] = p
            }
        }
        if problems.allSatisfy({ $0 == .byteSwapped }) { throw StorageError.byteOrderMismatch(path: path) }
        // Newest first; on equal versions prefer a clean-close copy.
        let order = [0, 1].filter { metas[$0] != nil }.sorted {
            let a = metas[$0]!, b = metas[$1]!
            if a.version != b.version { return a.version > b.version }
            return a.isClean && !b.isClean
        }
        guard let newestSlot = order.first else {
            throw StorageError.corruptPage(
                path: path, page: 0,
                reason:
                    "neither meta page is valid (\(String(describing: problems[0]!)), \(String(describing: problems[1]!)))"
            )
        }
        var chosenSlot = newestSlot
        var chosen = metas[newestSlot]!
        let fileBytes = fileSize
        func checkLength(_ m: MetaRecord) throws {
            let needed = self.fileBytes(forPages: m.pageCount)
            if fileBytes < needed {
                throw StorageError.truncated(path: path, expectedBytes: needed, actualBytes: fileBytes)
            }
        }
        try checkLength(chosen)
        var problem: (error: StorageError, acknowledged: Bool)?
        if !chosen.isClean {
            let acc = PageAccess(
                base: mapping.base, pageSize: pageSize, pageCount: chosen.pageCount, path: path, sealed: mapping.sealed)
            if let failure = verifyCommit(chosen, acc) {
                problem = (failure, wasAcknowledged(chosen, slot: chosenSlot))
            }
        }
        if problem == nil, let failure = emptyCatalogProblem(chosen) {
            // A record whose catalog is empty while pages are in use can only be a damaged (or
            // forged) record: opening it would show an empty database and let the next commit
            // reuse every page.
            problem = (failure, true)
        }
        if let (failure, acknowledged) = problem {
            // Either the newest commit is torn (a crash before its pages all reached the disk:
            // it was never acknowledged, and the other meta, durable when it was written, is the
            // version to open), or its pages were damaged after it was acknowledged as durable.
            guard order.count == 2 else { throw failure }
            let fallbackSlot = order[1]
            let fallback = metas[fallbackSlot]!
            let page: UInt32
            let reason: String
            if case .corruptPage(_, let p, let r) = failure {
                (page, reason) = (p, r)
            } else {
                (page, reason) = (0, failure.description)
            }
            if acknowledged && !options.openLastIntactVersion {
                throw StorageError.damagedCommit(
                    path: path, version: chosen.version, page: page, reason: reason,
                    intactVersion: fallback.version)
            }
            recovery = RecoveryReport(
                discardedVersion: VersionID(chosen.version), openedVersion: VersionID(fallback.version),
                page: page, reason: reason, wasAcknowledged: acknowledged)
            chosenSlot = fallbackSlot
            chosen = fallback
            try checkLength(chosen)
            if let failure = emptyCatalogProblem(chosen) { throw failure }
        }
        if options.verifyAllOnOpen {
            let acc = PageAccess(
                base: mapping.base, pageSize: pageSize, pageCount: chosen.pageCount, path: path, sealed: mapping.sealed)
            var verifier = Verifier(access: acc, meta: chosen)
            _ = try verifier.run()
        }
        if !chosen.isClean {
            // After an unclean close, what we open at may include commits a previous process made
            // without syncing (deferred commits still in the page cache): make them durable before
            // calling this version durable (the lock file then records it as durable, which the
            // next recovery takes as proof that it was acknowledged). A clean close already synced
            // everything. A read-only descriptor may sync too (it flushes the file, not the handle).
            do {
                try StorageError.wrap { try System.fdatasync(fd) }
            } catch {
                if !isReadOnly { throw error }
            }
        }
        return PublishedState(
            version: chosen.version, catalogRoot: chosen.catalogRoot, pageCount: chosen.pageCount,
            latestSlot: UInt32(chosenSlot), durableVersion: chosen.version, durableSlot: UInt32(chosenSlot))
    }

    /// Whether the processes that used the file before this open acknowledged `m` as durable:
    /// the lock file they left (read before it was reset) records `m`'s version, in `m`'s slot,
    /// as its durable version. A lock file records a version as durable only after the
    /// `fdatasync` that made it so returned, when all of its pages were on the disk; so if such a
    /// commit fails verification now, its pages were damaged afterwards, not torn by a crash.
    /// Without that record (no lock file, a reset one, or a crash before the sync returned) a
    /// failed verification is taken for a torn commit.
    func wasAcknowledged(_ m: MetaRecord, slot: Int) -> Bool {
        guard let previous = lockFile.previousState else { return false }
        guard previous.durableVersion == m.version, previous.durableSlot == UInt32(slot) else { return false }
        if previous.version == m.version {
            return previous.catalogRoot == m.catalogRoot && previous.pageCount == m.pageCount
        }
        return true
    }

    /// A meta record with an empty catalog describes an empty database: every page past the two
    /// meta pages must then be free or bookkeeping. Returns the damage found, or nil.
    func emptyCatalogProblem(_ m: MetaRecord) -> StorageError? {
        guard m.catalogRoot == 0, m.pageCount > 2 else { return nil }
        let acc = PageAccess(
            base: mapping.base, pageSize: pageSize, pageCount: m.pageCount, path: path, sealed: mapping.sealed)
        var verifier = Verifier(access: acc, meta: m)
        do {
            let report = try verifier.run()
            if report.leakedPages.isEmpty { return nil }
            return acc.corrupt(
                0,
                "the meta record of version \(m.version) has an empty catalog, but \(report.leakedPages.count) of its \(m.pageCount) pages are in use"
            )
        } catch let e as StorageError {
            return e
        } catch {
            return acc.corrupt(0, "\(error)")
        }
    }

    /// Checks every page the commit (and the deferred commits before it) wrote: returns the first
    /// problem, or nil if the commit is whole.
    func verifyCommit(_ m: MetaRecord, _ acc: PageAccess) -> StorageError? {
        // In an encrypted file, opening a page's slot is its first check: a torn or damaged slot
        // fails to authenticate.
        func revealed(_ n: UInt32, pages: Int) -> StorageError? {
            do {
                try acc.revealForCheck(n, pages: pages)
                return nil
            } catch StorageError.pageAuthenticationFailed(_, let page, let reason) {
                return acc.corrupt(page, reason)
            } catch {
                return acc.corrupt(n, "\(error)")
            }
        }
        func check(_ n: UInt32, expect type: PageType? = nil) -> StorageError? {
            guard n >= 2, n < m.pageCount else { return acc.corrupt(n, "commit list names a page outside the file") }
            if let e = revealed(n, pages: 1) { return e }
            let p = acc.base + Int(n) * pageSize
            if let type, p.u8(PageHeader.type) != type.rawValue { return acc.corrupt(n, "expected a \(type) page") }
            var length = pageSize
            if p.u8(PageHeader.type) == PageType.overflow.rawValue {
                let run = Int(p.u32(PageHeader.runPages))
                guard run >= 1, Int(n) + run <= Int(m.pageCount) else {
                    return acc.corrupt(n, "overflow run of \(run) pages")
                }
                if let e = revealed(n, pages: run) { return e }
                length = run * pageSize
            }
            guard p.u32(PageHeader.pageNumber) == n else {
                return acc.corrupt(n, "page header names page \(p.u32(PageHeader.pageNumber))")
            }
            let v = p.u64(PageHeader.version)
            guard v > m.durableBase, v <= m.version else {
                return acc.corrupt(n, "written by version \(v), expected \(m.durableBase + 1)...\(m.version)")
            }
            guard p.u64(PageHeader.checksum) == Checksum.ofPage(p, length: length) else {
                return acc.corrupt(n, "checksum mismatch")
            }
            return nil
        }
        for n in m.inlineList { if let e = check(n) { return e } }
        var next = m.listHead
        var hops = 0
        while next != 0 {
            if let e = check(next, expect: .commitList) { return e }
            let p = acc.base + Int(next) * pageSize
            let count = Int(p.u32(PageHeader.entryCount))
            guard count <= CommitListLayout.capacity(pageSize: pageSize) else {
                return acc.corrupt(next, "commit list of \(count) entries")
            }
            for i in 0..<count { if let e = check(p.u32(PageHeader.size + 4 * i)) { return e } }
            next = p.u32(PageHeader.nextPage)
            hops += 1
            if hops > Int(m.pageCount) { return acc.corrupt(m.listHead, "commit list chain loops") }
        }
        return nil
    }

    /// Publishes a commit whose writer died between writing its meta record and publishing it
    /// (FORMAT.md, "Commit", steps 8-10). Called with the writer lock held.
    ///
    /// Only a deferred commit needs this: its record goes to the slot of the newest published
    /// (deferred) version, so that version's record is gone, and every later writer would fail to
    /// load it. The dead writer's commit is whole (its pages were written before its record, and
    /// `verifyCommit` checks them), so publishing it is what the writer would have done. A full
    /// commit's record goes to the other slot; the next commit erases it.
    func adoptUnpublishedCommit() throws {
        let st = lockFile.readState()
        guard st.latestSlot != st.durableSlot else { return }
        let current = try stateLock.withLock { try ensureMapping(pages: st.pageCount) }
        let slot = Int(st.latestSlot)
        // Every write transaction after a deferred commit gets here. Look at the version field
        // before decoding the record (which checksums the whole page): it is the published version
        // unless a writer died in steps 8-10. Measured: the decode was ~8k of a deferred commit's
        // ~70k instructions. A torn or foreign value only leads to the full check below.
        guard (current.base + slot * pageSize).u64(MetaLayout.version) == st.version + 1 else { return }
        guard case .success(let m) = MetaRecord.decode(current.base + slot * pageSize, pageSize: pageSize, slot: slot),
            m.version == st.version + 1, m.durableBase == st.durableVersion
        else { return }
        let size = try StorageError.wrap { try System.fileSize(fd) }
        guard size >= fileBytes(forPages: m.pageCount) else { return }
        let mapping = try stateLock.withLock { try ensureMapping(pages: m.pageCount) }
        let acc = PageAccess(
            base: mapping.base, pageSize: pageSize, pageCount: m.pageCount, path: path, sealed: mapping.sealed)
        guard verifyCommit(m, acc) == nil else { return }
        lockFile.publish(
            PublishedState(
                version: m.version, catalogRoot: m.catalogRoot, pageCount: m.pageCount, latestSlot: st.latestSlot,
                durableVersion: st.durableVersion, durableSlot: st.durableSlot))
    }

    // MARK: Snapshots

    /// Pins the newest committed version and returns what a snapshot of it needs.
    func pinLatest() throws -> (PublishedState, Mapping) {
        while true {
            // (A racing close is caught under the lock below; the lock file stays mapped until
            // deinit, so reading its state first is safe.)
            let st = lockFile.readState()
            let mapping: Mapping = try stateLock.withLock {
                if closed { throw StorageError.databaseClosed(path: path) }
                pins.pin(st.version)
                if pinnedMin == 0 || st.version < pinnedMin {
                    pinnedMin = st.version
                    lockFile.setMySlotVersion(st.version)
                }
                return try ensureMapping(pages: st.pageCount)
            }
            // A writer that scanned the reader table before our slot update may already reuse
            // pages of versions older than the newest; re-check that what we pinned is still the
            // newest (then no writer can touch its pages), else pin again.
            if lockFile.latestVersion == st.version { return (st, mapping) }
            unpin(st.version)
        }
    }

    func unpin(_ version: UInt64) {
        stateLock.withLock {
            guard pins.unpin(version) else { return }
            if version == pinnedMin && pins.count(of: version) == 0 {
                pinnedMin = pins.oldest ?? 0
                if !closed { lockFile.setMySlotVersion(pinnedMin) }
            }
        }
    }

    /// The oldest version any snapshot in any process holds, or nil. Called with the writer lock.
    func oldestPinnedVersion() -> UInt64? {
        let mine = stateLock.withLock { pinnedMin }
        let others = lockFile.oldestOtherReader()
        switch (mine == 0 ? nil : mine, others) {
        case (nil, nil): return nil
        case (let a?, nil): return a
        case (nil, let b?): return b
        case (let a?, let b?): return min(a, b)
        }
    }

    /// Returns a mapping that covers `pages` pages, replacing the current one if it is too short.
    /// Called with `stateLock` held.
    func ensureMapping(pages: UInt32) throws -> Mapping {
        let needed = Int(pages) * pageSize
        if needed <= mapping.length { return mapping }
        let length = Database.mapLength(forFileSize: Int64(needed), reserve: options.mapReserve)
        mapping = try Database.makeMapping(
            fd: fd, length: length, writable: !isReadOnly, cipher: cipher, pathName: pathName)
        return mapping
    }

    /// Begins a read transaction on the newest committed version.
    ///
    /// The snapshot stays pinned until the transaction is released (``ReadTransaction/end()`` or
    /// deinitialization); pinned versions keep the pages they reference from being reused.
    public func beginRead() throws -> ReadTransaction {
        let (st, mapping) = try pinLatest()
        return ReadTransaction(database: self, state: st, mapping: mapping)
    }

    /// Runs `body` in a read transaction on the newest committed version.
    public func read<T>(_ body: (ReadTransaction) throws -> T) throws -> T {
        let txn = try beginRead()
        defer { txn.end() }
        return try body(txn)
    }

    // MARK: Writes

    /// Begins the write transaction, waiting for the writer lock (held by another thread or process).
    public func beginWrite() throws -> WriteTransaction {
        try beginWrite(waiting: true)!
    }

    /// Begins the write transaction if the writer lock is free right now; returns nil, without
    /// waiting, when another thread or process holds it. Asynchronous writes use this to keep
    /// going on the caller's thread when nobody else is writing, and fall back to waiting for the
    /// lock on a background thread otherwise.
    public func tryBeginWrite() throws -> WriteTransaction? {
        try beginWrite(waiting: false)
    }

    private func beginWrite(waiting: Bool) throws -> WriteTransaction? {
        if isReadOnly { throw StorageError.readOnly(path: path) }
        if let cause = poisonedBy { throw StorageError.needsReopen(path: path, cause: cause) }
        guard try acquireWriter(waiting: waiting) else { return nil }
        do {
            try adoptUnpublishedCommit()
            return try WriteTransaction(database: self)
        } catch {
            releaseWriter()
            throw error
        }
    }

    /// Runs `body` in a write transaction and commits it, or aborts if `body` throws.
    /// - Returns: what `body` returned.
    @discardableResult
    public func write<T>(durability: Durability = .full, _ body: (WriteTransaction) throws -> T) throws -> T {
        let txn = try beginWrite()
        do {
            let result = try body(txn)
            try txn.commit(durability: durability)
            return result
        } catch {
            txn.abort()
            throw error
        }
    }

    /// Takes the writer lock (the in-process gate, then the lock file's writer byte), refusing
    /// if the handle was closed meanwhile (close takes the gate too, so the check is race-free).
    /// Without `waiting`, returns false at once when another thread or process holds either.
    @discardableResult
    func acquireWriter(waiting: Bool = true) throws -> Bool {
        if waiting {
            writerGate.acquire()
        } else if !writerGate.tryAcquire() {
            return false
        }
        if stateLock.withLock({ closed }) {
            writerGate.release()
            throw StorageError.databaseClosed(path: path)
        }
        do {
            if waiting {
                try lockFile.lockWriter()
            } else if try !lockFile.tryLockWriter() {
                writerGate.release()
                return false
            }
        } catch {
            writerGate.release()
            throw error
        }
        return true
    }

    func releaseWriter() {
        lockFile.unlockWriter()
        writerGate.release()
    }

    /// Makes every deferred commit durable with one `fdatasync`.
    /// - Returns: the newest durable version.
    @discardableResult
    public func sync() throws -> VersionID {
        if isReadOnly { return VersionID(lockFile.readState().durableVersion) }
        if let cause = poisonedBy { throw StorageError.needsReopen(path: path, cause: cause) }
        try acquireWriter()
        defer { releaseWriter() }
        return VersionID(try syncLocked())
    }

    /// `sync` with the writer lock held.
    func syncLocked() throws -> UInt64 {
        try adoptUnpublishedCommit()
        var st = lockFile.readState()
        if st.durableVersion == st.version { return st.version }
        do {
            try StorageError.wrap { try System.fdatasync(fd) }
        } catch {
            poisonedBy = "\(error)"
            throw error
        }
        st.durableVersion = st.version
        st.durableSlot = st.latestSlot
        lockFile.publish(st)
        return st.version
    }

    /// The newest committed version (visible to new readers).
    public var latestVersion: VersionID { VersionID(lockFile.latestVersion) }

    /// The newest version known to be on stable storage.
    public var durableVersion: VersionID { VersionID(lockFile.readState().durableVersion) }

    /// Closes the handle: waits for the writer lock, makes deferred commits durable, and, if this
    /// is the last handle on the file in any process, marks the file as cleanly closed so the next
    /// open skips crash verification. Transactions still open keep their mapping valid.
    public func close() {
        close(markingClean: true)
    }

    /// Closes the handle; with `markingClean: false` it never writes the clean-close meta record,
    /// for a handle whose user found the file damaged (nothing is written on top of damage, and
    /// the next open verifies the newest commit again).
    public func close(markingClean: Bool) {
        let already = stateLock.withLock { () -> Bool in
            let was = closed
            closed = true
            return was
        }
        if already { return }
        if !isReadOnly {
            writerGate.acquire()
            if (try? lockFile.lockWriter()) != nil {
                if poisonedBy == nil {
                    _ = try? syncLocked()
                    if markingClean && lockFile.tryBecomeLastCloser() { markClean() }
                }
                lockFile.unlockWriter()
            }
            writerGate.release()
        }
        stateLock.withLock { lockFile.setMySlotVersion(0) }
        lockFile.close()
        System.close(fd)
    }

    /// Writes a copy of the newest (durable) meta record with the clean flag into the other slot.
    func markClean() {
        let st = lockFile.readState()
        guard st.durableVersion == st.version else { return }
        let latest = mapping.base + Int(st.latestSlot) * pageSize
        guard case .success(var meta) = MetaRecord.decode(latest, pageSize: pageSize, slot: Int(st.latestSlot)) else {
            return
        }
        if meta.isClean { return }
        meta.flags |= MetaLayout.flagClean
        let other = 1 - Int(st.latestSlot)
        let buf = UnsafeMutableRawPointer.allocate(byteCount: pageSize, alignment: 4096)
        defer { buf.deallocate() }
        meta.encode(into: buf, pageSize: pageSize, slot: other, magic: metaMagic)
        do {
            try System.pwrite(fd, from: buf, count: pageSize, offset: Int64(other * pageSize))
            try System.fdatasync(fd)
        } catch {
            // The flag only saves verification work on the next open; without it the file is still correct.
        }
    }
}
