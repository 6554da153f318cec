import StrataPOSIX

/// Writes one version's trees to a new file: a compacted copy.
///
/// The copy rebuilds every tree by inserting its entries in key order, so its leaves are full and
/// it holds no free pages: it is as small as a file with that data can be. It is written under a
/// temporary name beside the destination, made durable, and then given the destination's name
/// with `link(2)`, which never replaces a file: a crash leaves either no destination or a whole,
/// durable one (a leftover temporary file can be deleted).
///
/// ## Concurrency
/// The source is a snapshot (or the caller's own write transaction), so other readers and
/// writers of the source file go on meanwhile.
enum DatabaseCopier {
    /// Bytes of keys and values after which the copy commits (without a sync) and goes on in a new
    /// transaction, so that a large copy does not hold the whole file in the writer's buffers.
    static let bytesPerCommit = 8 << 20

    /// Copies the trees `names` to a new database at `path`.
    /// - Parameters:
    ///   - count: the number of entries of a tree (for progress).
    ///   - forEach: calls its body with each entry of a tree, in key order.
    ///   - progress: called now and then with (entries copied, entries in all), and once at the end.
    /// - Throws: ``StorageError/fileExists(path:)`` when `path` exists; errors of the writes.
    static func copy(
        pageSize: Int, to path: String, names: [String], count: (String) throws -> UInt64,
        forEach: (String, (UnsafeRawBufferPointer, UnsafeRawBufferPointer) throws -> Bool) throws -> Void,
        holdsAreas: (String) throws -> Bool, area: @escaping (AreaReference) throws -> UnsafeRawBufferPointer,
        progress: ((UInt64, UInt64) -> Void)?, encryptionKey: [UInt8]? = nil
    ) throws -> CopyReport {
        if let key = encryptionKey, key.count != PageCipher.userKeyLength {
            throw StorageError.invalidEncryptionKeyLength(key.count)
        }
        if System.fileExists(path) { throw StorageError.fileExists(path: path) }
        var total: UInt64 = 0
        for name in names { total += try count(name) }
        let temporary = path + ".copying-\(System.processID)-\(UInt64.random(in: 0...UInt64.max))"
        var options = Database.Options()
        options.pageSize = pageSize
        options.encryptionKey = encryptionKey
        var copied: UInt64 = 0
        do {
            let db = try Database(path: temporary, options: options)
            defer { db.close() }
            var txn = try db.beginWrite()
            do {
                var pendingBytes = 0
                var valueCopy: [UInt8] = []
                for name in names {
                    let areas = try holdsAreas(name)
                    var tree = try txn.openTree(name, create: true, holdsAreas: areas)
                    try forEach(name) { key, value in
                        if areas {
                            // The areas the value refers to are copied into the new file's area
                            // pages, and the copy of the value refers to them there.
                            guard let n = AreaPrefix.count(of: value) else {
                                throw StorageError.corruptPage(
                                    path: path, page: 0,
                                    reason:
                                        "a value of tree '\(name)', which holds areas, does not begin with area references"
                                )
                            }
                            valueCopy.removeAll(keepingCapacity: true)
                            valueCopy.append(contentsOf: value)
                            for i in 0..<n {
                                let bytes = try area(AreaPrefix.reference(i, of: value))
                                let (ref, p) = try txn.allocateArea(length: bytes.count)
                                p.copyMemory(from: bytes.baseAddress!, byteCount: bytes.count)
                                valueCopy.withUnsafeMutableBytes {
                                    ref.store(at: $0.baseAddress! + 1 + i * AreaReference.size)
                                }
                                pendingBytes += bytes.count
                            }
                            _ = try valueCopy.withUnsafeBytes { try txn.insert(key, $0, in: tree) }
                        } else {
                            _ = try txn.insert(key, value, in: tree)
                        }
                        copied += 1
                        pendingBytes += key.count + value.count
                        if pendingBytes >= bytesPerCommit {
                            pendingBytes = 0
                            (_, txn) = try txn.commitAndContinue(durability: .deferred)
                            tree = try txn.openTree(name)
                            progress?(copied, total)
                        }
                        return true
                    }
                }
                // The last commit also cuts the file to its pages (no room reserved for growth).
                txn.shortensFileToPageCount = true
                try txn.commit(durability: .full)
            } catch {
                txn.abort()
                throw error
            }
            // Leave the new file's lock file out of the destination: it belongs to `temporary`.
            db.close()
            try StorageError.wrap {
                try System.link(temporary, to: path)
                try System.syncDirectory(of: path)
            }
        } catch let e as SystemError where e.errno == 17 /* EEXIST */ {
            removeTemporary(temporary)
            throw StorageError.fileExists(path: path)
        } catch StorageError.system(let e) where e.errno == 17 /* EEXIST */ {
            removeTemporary(temporary)
            throw StorageError.fileExists(path: path)
        } catch {
            removeTemporary(temporary)
            throw error
        }
        removeTemporary(temporary)
        progress?(copied, total)
        let size = (try? fileSize(path)) ?? 0
        return CopyReport(trees: names.count, entries: copied, bytes: size)
    }

    static func removeTemporary(_ temporary: String) {
        try? System.unlink(temporary)
        try? System.unlink(temporary + ".lock")
    }

    static func fileSize(_ path: String) throws -> Int64 {
        let fd = try StorageError.wrap { try System.open(path, readOnly: true) }
        defer { System.close(fd) }
        return try StorageError.wrap { try System.fileSize(fd) }
    }
}

extension ReadTransaction {
    /// Writes this version to a new file at `path`: a compacted copy (every tree rebuilt with
    /// full pages, no free space), made durable before it appears under its name.
    ///
    /// ```swift
    /// try db.read { txn in try txn.writeCopy(toPath: "/backups/app.strata") }
    /// ```
    ///
    /// Other readers and writers of this database go on meanwhile; the copy shows this
    /// transaction's version.
    /// - Parameters:
    ///   - path: the new file; it must not exist.
    ///   - progress: called now and then with (entries copied, entries in all).
    ///   - encryptionKey: the 64-byte key to encrypt the copy with, or nil for a plain copy
    ///     (whether or not this database is encrypted).
    /// - Throws: ``StorageError/fileExists(path:)`` when `path` exists;
    ///   ``StorageError/invalidEncryptionKeyLength(_:)`` for a key that is not 64 bytes;
    ///   ``StorageError`` for a damaged source page or a failed write.
    @discardableResult
    public func writeCopy(
        toPath path: String, progress: ((UInt64, UInt64) -> Void)? = nil, encryptionKey: [UInt8]? = nil
    ) throws -> CopyReport {
        let names = try treeNames()
        return try DatabaseCopier.copy(
            pageSize: database.pageSize, to: path, names: names,
            count: { try tree(named: $0)?.count ?? 0 },
            forEach: { name, body in
                guard let t = try tree(named: name) else { return }
                try forEach(in: t, body)
            }, holdsAreas: { try tree(named: $0)?.holdsAreas ?? false }, area: { try self.area($0) },
            progress: progress, encryptionKey: encryptionKey)
    }
}

extension WriteTransaction {
    /// Writes the data this transaction sees (its own changes included, committed or not) to a
    /// new file at `path`: a compacted copy, as ``ReadTransaction/writeCopy(toPath:progress:encryptionKey:)``,
    /// encrypted with `encryptionKey` when one is given. The transaction stays open.
    /// - Throws: ``StorageError/fileExists(path:)`` when `path` exists; ``StorageError`` for a
    ///   damaged page, a key that is not 64 bytes, or a failed write.
    @discardableResult
    public func writeCopy(
        toPath path: String, progress: ((UInt64, UInt64) -> Void)? = nil, encryptionKey: [UInt8]? = nil
    ) throws -> CopyReport {
        let names = try treeNames()
        return try DatabaseCopier.copy(
            pageSize: db.pageSize, to: path, names: names,
            count: { try count(openTree($0)) },
            forEach: { name, body in try forEach(in: try openTree(name), body) },
            holdsAreas: { tree(try openTree($0)).holdsAreas }, area: { try self.access.area($0) },
            progress: progress, encryptionKey: encryptionKey)
    }
}
