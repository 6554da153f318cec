import StrataPOSIX

// The database's files as a whole: how their space is used, whether a handle has them open,
// deleting them.

extension Database {
    /// How the file's space is used in the newest version. Takes the writer lock briefly (it
    /// reads the free list the next commit would start from).
    /// - Throws: ``StorageError`` (``StorageError/readOnly(path:)`` for a read-only handle).
    public func spaceUsage() throws -> SpaceUsage {
        if isReadOnly { throw StorageError.readOnly(path: path) }
        let txn = try beginWrite()
        defer { txn.abort() }
        var free = txn.free.youngPool.count
        for e in txn.free.extents(extra: nil) { free += Int(e.count) }
        for g in txn.free.youngPending { free += g.pages.count }
        let size = try StorageError.wrap { try System.fileSize(fd) }
        return SpaceUsage(pageSize: pageSize, fileBytes: size, pageCount: Int(txn.pageCount), freePages: free)
    }

    /// Whether a handle other than this one, in this process or another, has the file open.
    public var isOpenElsewhere: Bool {
        guard let fd = lockFile.fd else { return false }
        return (try? System.isLockedByOther(fd, byte: LockFile.openLockByte)) ?? true
    }

    /// Whether any handle, in any process, has the database at `path` open (its lock file's
    /// open lock is held).
    public static func isOpen(path: String) -> Bool {
        guard System.fileExists(path + ".lock"), let fd = try? System.open(path + ".lock") else { return false }
        defer { System.close(fd) }
        return (try? System.isLockedByOther(fd, byte: LockFile.openLockByte)) ?? true
    }

    /// Deletes the database at `path` and its lock file, unless a handle in any process has it
    /// open. While it deletes, it holds the open lock exclusively, so no process can open the
    /// database halfway through; a process that was waiting for it finds an emptied lock file
    /// and fails with ``StorageError/lockFileInvalid(path:reason:)`` instead of reading stale
    /// shared state.
    /// - Returns: whether the data file existed.
    /// - Throws: ``StorageError/inUse(path:)`` while the database is open; ``StorageError`` when
    ///   a file cannot be deleted.
    @discardableResult
    public static func deleteFiles(path: String) throws -> Bool {
        let lockPath = path + ".lock"
        let existed = System.fileExists(path)
        guard System.fileExists(lockPath) else {
            if existed { try StorageError.wrap { try System.unlink(path) } }
            return existed
        }
        let fd = try StorageError.wrap { try System.open(lockPath) }
        defer { System.close(fd) }
        guard try StorageError.wrap({ try System.tryLock(fd, byte: LockFile.openLockByte, kind: .exclusive) }) else {
            throw StorageError.inUse(path: path)
        }
        defer { try? System.unlock(fd, byte: LockFile.openLockByte) }
        try StorageError.wrap {
            try System.unlink(path)
            try System.ftruncate(fd, length: 0)
            try System.unlink(lockPath)
        }
        return existed
    }
}
