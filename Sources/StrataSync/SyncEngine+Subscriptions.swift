import Foundation
import Strata
import StrataCore

// The subscription set's updates and waits (Docs/Sync.md, "Subscriptions").
extension SyncEngine {
    // MARK: Subscriptions

    /// Runs `body` with the engine's realm, refreshed, on its queue, from any thread but that
    /// queue (subscription updates). A caller inside a write transaction of the file is refused:
    /// the engine's write would wait for the lock the caller holds.
    func onWorkerNow<T>(_ body: (Realm) throws -> T) throws -> T {
        try refuseInsideWrite()
        return try queue.sync {
            if workerRealm == nil { workerRealm = try Realm(configuration: realmConfiguration, queue: queue) }
            workerRealm!.refresh()
            return try body(workerRealm!)
        }
    }

    /// Throws when a realm of this file confined to the calling thread, queue or actor holds
    /// the file's write lock (a write transaction, or one parked for its asynchronous writes):
    /// the engine's write would wait for it, and it for the caller.
    func refuseInsideWrite() throws {
        if Realm._writeLockHeldHere(path: path) {
            throw SyncError(
                .invalidSubscription,
                "Subscriptions cannot be updated inside a write transaction of the realm: update them before or after it."
            )
        }
    }

    /// Runs `body` with a read-only realm of the engine's, refreshed, on a queue of its own
    /// that never writes (so it never waits for the write lock a caller may hold).
    func onReaderNow<T>(_ body: (Realm) throws -> T) throws -> T {
        try readerQueue.sync {
            if readerRealm == nil { readerRealm = try Realm(configuration: realmConfiguration, queue: readerQueue) }
            readerRealm!.refresh()
            return try body(readerRealm!)
        }
    }

    /// `onReaderNow` without blocking the caller: the upload reads its batches there, so that a
    /// trim of the outbox waiting on the worker for the write lock (a busy writer holds it
    /// commit after commit) does not hold the next batch back.
    func onReader<T: Sendable>(_ body: @escaping @Sendable (Realm) throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { c in
            readerQueue.async { [self] in
                c.resume(
                    with: Result {
                        if readerRealm == nil {
                            readerRealm = try Realm(configuration: realmConfiguration, queue: readerQueue)
                        }
                        readerRealm!.refresh()
                        return try body(readerRealm!)
                    })
            }
        }
    }

    /// The subscription set the file holds now.
    func subscriptionList() throws -> SyncSubscriptionList {
        try onReaderNow { try SyncSubscriptionList.read($0._storeTransaction) }
    }

    /// Starts an `update` block on this thread: the set's changes go to a draft until
    /// `endSubscriptionUpdate`.
    func beginSubscriptionUpdate() throws {
        let nested = lock.withLock { draft.map { pthread_equal($0.thread, pthread_self()) != 0 } ?? false }
        if nested {
            throw SyncError(
                .invalidSubscription,
                "realm.subscriptions.update was called inside an update block of the same realm: updates do not nest.")
        }
        try refuseInsideWrite()
        // One update at a time per file: another thread's waits for it.
        updateGate.wait()
        do {
            let list = try subscriptionList()
            lock.withLock { draft = (list, pthread_self(), nil) }
        } catch {
            updateGate.signal()
            throw error
        }
    }

    /// Applies `change` to the draft of the `update` running on this thread; outside one,
    /// records the misuse as the set's error (RealmSwift raises an exception there).
    func changeSubscriptions(_ what: String, _ change: (inout SyncSubscriptionList) throws -> Void) {
        lock.withLock {
            guard var d = draft, pthread_equal(d.thread, pthread_self()) != 0 else {
                let e = SyncError(
                    .invalidSubscription,
                    "\(what) was called outside an update block (or from another thread than the one running it): change subscriptions inside realm.subscriptions.update { }."
                )
                // During an update on another thread, that update fails rather than committing
                // without the change; otherwise the set's state reports it.
                if draft != nil {
                    if draft?.error == nil { draft?.error = e }
                } else {
                    subscriptionError = e
                }
                return
            }
            guard d.error == nil else { return }
            do {
                try change(&d.list)
            } catch {
                d.error = (error as? SyncError) ?? SyncSubscriptionSQL.invalid("\(error)")
            }
            draft = d
        }
    }

    /// Ends the `update` running on this thread: commits its set with a new version (the
    /// next download pass reads by it) and returns the version.
    /// - Throws: the first error of the block's changes (nothing is committed then).
    func endSubscriptionUpdate() throws -> UInt64 {
        guard
            let d = lock.withLock({ () -> (list: SyncSubscriptionList, thread: pthread_t, error: SyncError?)? in
                defer { draft = nil }
                return draft
            })
        else { return 0 }
        defer { updateGate.signal() }
        if let e = d.error { throw e }
        let version = try onWorkerNow { realm -> UInt64 in
            var list = try SyncSubscriptionList.read(realm._storeTransaction)
            list.items = d.list.items
            list.version += 1
            let committed = list
            try self.syncWrite(realm) { try committed.write($0) }
            return list.version
        }
        lock.withLock { subscriptionError = nil }
        downloadSignal.fire()
        return version
    }

    /// The synced table of class `name`, or an error saying the realm does not sync it.
    func subscribableTable(_ name: String) throws -> SyncTable {
        guard let t = tables[name], !t.isAsymmetric else {
            throw SyncSubscriptionSQL.invalid(
                "\(name) is not a synced type of this realm\(tables[name]?.isAsymmetric == true ? " (an AsymmetricObject is never downloaded)" : ""); add it to the configuration's objectTypes"
            )
        }
        return t
    }

    /// Where the subscription set stands.
    var subscriptionState: SyncSubscriptionState {
        if let e = lock.withLock({ subscriptionError }) { return .error(e) }
        guard let list = try? subscriptionList() else { return .pending }
        return subscriptionVersions.current >= list.version || list.version == 0 ? .complete : .pending
    }

    /// Returns once a download pass has applied subscription set `version` (or a later one).
    func waitForSubscriptions(_ version: UInt64) async throws {
        try await requireActive("waiting for subscriptions")
        try await subscriptionVersions.wait(for: version) { downloadSignal.fire() }
    }
}
