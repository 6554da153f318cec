extension Database {
    /// A watcher that sleeps until the next commit of this file by any process (see
    /// ``CommitWatcher``). Close it when done: while it exists, each commit of every process
    /// makes one extra small write to the lock file.
    /// - Throws: ``StorageError`` when the system refuses the descriptors it needs.
    public func makeCommitWatcher() throws -> CommitWatcher {
        try CommitWatcher(lockFile: lockFile, path: path + ".lock")
    }
}
