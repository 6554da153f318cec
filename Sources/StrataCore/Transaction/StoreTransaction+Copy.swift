import StrataStorage

extension StoreTransaction {
    /// Writes the data this transaction shows (in a write transaction, its changes so far
    /// included) to a new file at `path`: a compacted copy. The transaction stays usable.
    /// - Parameter progress: called now and then with (entries copied, entries in all).
    /// - Throws: `StorageError.fileExists` when `path` exists; `StorageError` for a damaged
    ///   page or a failed write.
    @discardableResult
    package func writeCopy(toPath path: String, progress: ((UInt64, UInt64) -> Void)? = nil) throws -> CopyReport {
        if let write {
            try flush()
            return try write.writeCopy(toPath: path, progress: progress)
        }
        guard let read else { throw StorageError.transactionEnded }
        return try read.writeCopy(toPath: path, progress: progress)
    }
}
