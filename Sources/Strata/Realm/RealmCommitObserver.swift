package import StrataCore

/// Something that sees every write transaction of a file just before it commits, with the writer
/// lock held, and may add to it: the sync product (`StrataSync`) writes its outbox entry and
/// field clocks there, so they are durable in the same commit as the changes they describe.
///
/// Not API: package-level, set through `Realm._installCommitObserver(_:)`.
///
/// ## Concurrency
/// Called on the committing thread, one commit at a time per file (the writer lock is held).
package protocol RealmCommitObserver: AnyObject, Sendable {
    /// Adds to `txn` before it commits; `txn.changeRecorder` lists what the transaction changed.
    /// Throwing cancels the commit, which then reports the error.
    func willCommit(_ txn: StoreTransaction) throws
    /// Called after a commit that `willCommit` saw succeeded (it is published, perhaps not yet
    /// durable for an asynchronous write).
    func didCommit()
}
