import Foundation
internal import StrataCore
internal import StrataStorage

/// One registered observer as the notifier sees it: where its callbacks go, and (in subclasses)
/// what it watches and the state its last change set left it in.
///
/// `needsInitial` and the subclasses' state belong to the notifier thread; `isInvalidated` is
/// read on every thread, under `lock`.
class NotifierEntry: @unchecked Sendable {
    let id: ObjectIdentifier
    let target: DeliveryTarget
    var needsInitial: Bool
    private let lock = NSLock()
    private var invalidated = false

    init(token: NotificationToken, target: DeliveryTarget, needsInitial: Bool) {
        self.id = ObjectIdentifier(token)
        self.target = target
        self.needsInitial = needsInitial
    }

    var isInvalidated: Bool {
        lock.lock()
        defer { lock.unlock() }
        return invalidated
    }

    func invalidate() {
        lock.lock()
        invalidated = true
        lock.unlock()
    }

    /// The state at the first version the notifier shows this entry, and the job announcing it
    /// (nil when the observer gets no initial callback).
    func initial(in txn: StoreTransaction) throws -> NotificationJob? { nil }

    /// Moves the state across `span`; returns the job reporting it, or nil when nothing this
    /// observer watches changed (or `silently`).
    func update(_ span: ChangeSpan, silently: Bool) throws -> NotificationJob? { nil }

    /// The job reporting `error` (nil when the observer has no error callback).
    func errorJob(_ error: Swift.Error) -> NotificationJob? { nil }

    /// Wraps `body` so it does nothing once the token is invalidated (checked on the observer's
    /// context, right before the call).
    func guarded(_ body: @escaping NotificationJob) -> NotificationJob {
        { [self] realm in if !isInvalidated { body(realm) } }
    }
}

extension RealmState {
    /// Runs notification jobs on this realm's context, after moving it to `snapshot`'s version.
    /// A realm that does not refresh automatically keeps them until `refresh()`.
    func receive(_ jobs: [NotificationJob], at snapshot: PinnedSnapshot?) {
        if !autorefresh, !isFrozen {
            held.append((jobs, snapshot))
            let realm = Realm(realmState: self)
            for box in realmObservers.values { box.entry?.fire(.refreshRequired, realm) }
            return
        }
        if let snapshot { advance(to: snapshot) }
        let realm = Realm(realmState: self)
        for job in jobs { job(realm) }
    }

    /// Moves the realm to `snapshot`'s version, unless it is in a write or already newer.
    func advance(to snapshot: PinnedSnapshot) {
        guard writeTxn == nil else { return }
        let current = self.snapshot?.read.version.rawValue ?? readTxn?.read?.version.rawValue
        if let current, current >= snapshot.read.version.rawValue { return }
        let txn = StoreTransaction(read: snapshot.read)
        file.prepare(txn)
        readTxn = txn
        self.snapshot = snapshot
        stamp &+= 1
    }

    /// Delivers what `receive` held while autorefresh was off; returns whether there was any.
    func deliverHeld() -> Bool {
        guard !held.isEmpty else { return false }
        let batches = held
        held = []
        let realm = Realm(realmState: self)
        for (jobs, snapshot) in batches {
            if let snapshot { advance(to: snapshot) }
            for job in jobs { job(realm) }
        }
        return true
    }
}
