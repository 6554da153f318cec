import StrataStorage

extension StoreTransaction {
    /// Writes the data this transaction shows (in a write transaction, its changes so far
    /// included) to a new file at `path`: a compacted copy. The transaction stays usable.
    /// - Parameters:
    ///   - progress: called now and then with (entries copied, entries in all).
    ///   - encryptionKey: the 64-byte key to encrypt the copy with, or nil for a plain copy.
    /// - Throws: `StorageError.fileExists` when `path` exists; `StorageError` for a damaged
    ///   page, a key that is not 64 bytes, or a failed write.
    @discardableResult
    package func writeCopy(
        toPath path: String, progress: ((UInt64, UInt64) -> Void)? = nil, encryptionKey: [UInt8]? = nil
    ) throws -> CopyReport {
        if let write {
            try flush()
            return try write.writeCopy(toPath: path, progress: progress, encryptionKey: encryptionKey)
        }
        guard let read else { throw StorageError.transactionEnded }
        return try read.writeCopy(toPath: path, progress: progress, encryptionKey: encryptionKey)
    }
}
