import Foundation
internal import Synchronization
internal import StrataCore
internal import StrataStorage

extension Realm {
    /// What a realm notification (`observe(_:)`) reports.
    public enum Notification: String, Sendable {
        /// The realm moved to a newer version: a commit of this realm, of another realm of the
        /// file in this process, or of another process.
        case didChange = "RLMRealmDidChangeNotification"
        /// A newer version exists but the realm stays where it is because `autorefresh` is
        /// off; call `refresh()` to move.
        case refreshRequired = "RLMRealmRefreshRequiredNotification"
    }

    /// Calls `block` each time the file gets a new version: after commits of this realm, of
    /// other realms of the file (other threads, queues, actors) and of other processes.
    ///
    /// The block runs asynchronously on this realm's context (the run loop of the thread that
    /// opened it, the main queue, its serial queue or its actor), after the realm moved to the
    /// new version; several commits may be reported by one call. A commit made with
    /// `write(withoutNotifying: [token])` does not call this token's block. With `autorefresh`
    /// off the block gets `.refreshRequired` instead, and `.didChange` once `refresh()` is called.
    ///
    /// Keep the token: releasing it, or `invalidate()`, stops the notifications. A frozen realm
    /// cannot be observed, and a realm of a thread that runs no run loop cannot deliver them
    /// (both reported as RealmSwift does, through `Realm.violationHandler`).
    public func observe(_ block: @escaping (Realm.Notification, Realm) -> Void) -> NotificationToken {
        let token = NotificationToken()
        guard let target = DeliveryTarget.make(for: self, queue: nil, inWriteCheck: false) else { return token }
        let entry = RealmObserverEntry(token: token, target: target, block: block)
        realmState.realmObservers = realmState.realmObservers.filter {
            $0.value.entry.map { !$0.isInvalidated } ?? false
        }
        realmState.realmObservers[entry.id] = WeakRealmObserver(entry: entry)
        token.attach(entry, to: file.notifier)
        return token
    }

    /// Called after this realm committed `txn` as `version`: hands the notifier the record of
    /// what the commit changed.
    func notifyAfterCommit(_ txn: StoreTransaction, version: UInt64) {
        file.existingNotifier?.committed(txn.changeRecorder, version: version)
    }
}

extension RealmFile {
    private static let notifierLock = NSLock()
    private nonisolated(unsafe) static var notifiers: [ObjectIdentifier: FileNotifier] = [:]
    /// How many notifiers exist: while none does, commits skip the registry (one atomic load
    /// instead of a lock and a lookup per transaction).
    private static let notifierCount = Atomic<Int>(0)

    /// The file's notifier, created on first use.
    var notifier: FileNotifier {
        Self.notifierLock.lock()
        defer { Self.notifierLock.unlock() }
        if let n = Self.notifiers[ObjectIdentifier(self)] { return n }
        let n = FileNotifier(file: self)
        Self.notifiers[ObjectIdentifier(self)] = n
        Self.notifierCount.add(1, ordering: .sequentiallyConsistent)
        return n
    }

    /// The file's notifier if one was created.
    var existingNotifier: FileNotifier? {
        if Self.notifierCount.load(ordering: .sequentiallyConsistent) == 0 { return nil }
        Self.notifierLock.lock()
        defer { Self.notifierLock.unlock() }
        return Self.notifiers[ObjectIdentifier(self)]
    }

    /// Forgets the notifier (when the file closes).
    func dropNotifier() {
        Self.notifierLock.lock()
        defer { Self.notifierLock.unlock() }
        if Self.notifiers.removeValue(forKey: ObjectIdentifier(self)) != nil {
            Self.notifierCount.subtract(1, ordering: .sequentiallyConsistent)
        }
    }

    /// A recorder for a write transaction beginning now, when the file has observers.
    func changeRecorderIfObserved() -> CommitChanges? {
        // A synced file's commits always carry their record: it is what the outbox is made of.
        if commitObserver != nil { return CommitChanges(unbounded: true) }
        guard let n = existingNotifier, n.wantsRecords else { return nil }
        return CommitChanges()
    }
}

extension Realm {
    /// Commits `txn`; when `tokens` is not empty, first tells the notifier that this commit is
    /// not to be reported to them. Returns the version created.
    func commitNotifying(
        _ txn: StoreTransaction, skipping tokens: [NotificationToken],
        durability: Durability = .full
    ) throws -> UInt64 {
        try file.commitObserver?.willCommit(txn)
        let silent = prepareSilentCommit(txn, skipping: tokens)
        let expected = expectCommit(txn)
        do {
            let created = try txn.commit(durability: durability).rawValue
            file.commitObserver?.didCommit()
            finishSilentCommit(silent)
            return created
        } catch {
            cancelExpectedCommit(expected)
            cancelSilentCommit(silent)
            throw error
        }
    }

    /// Before committing `txn` (its writer lock held): hands the notifier the record of what it
    /// changes, under the version it will create. Returns that version, or nil when nobody
    /// observes the file.
    func expectCommit(_ txn: StoreTransaction) -> UInt64? {
        guard let record = txn.changeRecorder, let notifier = file.existingNotifier, let w = txn.write else {
            return nil
        }
        notifier.expectCommit(record, version: w.version.rawValue)
        return w.version.rawValue
    }

    /// After the commit announced by ``expectCommit(_:)`` failed.
    func cancelExpectedCommit(_ version: UInt64?) {
        guard let version else { return }
        file.existingNotifier?.cancelExpectedCommit(version)
    }

    /// Before committing `txn` (its writer lock held): registers it as silent for `tokens` with
    /// the notifier. Returns the version it will create, or nil when there is nothing to skip.
    func prepareSilentCommit(_ txn: StoreTransaction, skipping tokens: [NotificationToken]) -> UInt64? {
        guard !tokens.isEmpty, let notifier = file.existingNotifier, notifier.wantsRecords, let w = txn.write else {
            return nil
        }
        return notifier.prepareSilentCommit(w.version.rawValue, file: file, skipping: tokens)
    }

    /// After the silent commit of `version` succeeded.
    func finishSilentCommit(_ version: UInt64?) {
        guard let version else { return }
        file.existingNotifier?.finishSilentCommit(version, file: file)
    }

    /// After the silent commit of `version` failed.
    func cancelSilentCommit(_ version: UInt64?) {
        guard let version else { return }
        file.existingNotifier?.cancelSilentCommit(version)
    }
}
