package import StrataCore

/// What the sync product (`StrataSync`) reaches of a realm. Not API: package-level.
extension Realm {
    /// The path of the realm's file, as the process's file table keys it.
    package var _filePath: String { file.path }

    /// Installs `observer` on the realm's file: every later commit of the file (from any realm of
    /// this process) calls it first, and carries a full record of what it changed. Replaces an
    /// observer installed before.
    package func _installCommitObserver(_ observer: any RealmCommitObserver) {
        file.commitObserver = observer
    }

    /// Removes the file's commit observer if it is `observer`.
    package func _removeCommitObserver(_ observer: any RealmCommitObserver) {
        if let o = file.commitObserver, o === observer { file.commitObserver = nil }
    }

    /// The store transaction reads and writes of this realm go through now: the write
    /// transaction inside one, else the realm's snapshot.
    package var _storeTransaction: StoreTransaction { current() }

    /// Whether a realm of the file at `path` (open in this process) confined to the calling
    /// thread, queue or actor holds the file's write lock (a write transaction, or one parked
    /// for its asynchronous writes): a write of the file begun and waited for here would wait
    /// for itself.
    package static func _writeLockHeldHere(path: String) -> Bool {
        RealmFile.openFile(path)?.writeLockHeldHere() ?? false
    }

    /// The write transaction, inside one.
    package var _storeWriteTransaction: StoreTransaction? { writeTxn }
}
