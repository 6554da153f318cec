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

/// Where an observer's callbacks run, and which realm they are handed.
///
/// `.realm`: the realm that registered (its thread's run loop, its queue, its actor, or the main
/// queue), kept open by the registration as long as it lasts (as RealmSwift's token keeps its
/// realm). `.queue`: a serial queue given with `on:`; the callbacks get the realm of the same
/// configuration confined to that queue.
enum DeliveryTarget: @unchecked Sendable {
    case realm(CoreRef, AsyncScheduler)
    case queue(DispatchQueue, Realm.Configuration)
    /// An actor given with `observe(on: actor)`: the callbacks get a realm confined to it,
    /// opened on the first delivery and kept (touched only on the actor).
    case actor(ActorBinding, Realm.Configuration, ActorRealm)

    final class ActorRealm: @unchecked Sendable {
        var core: RealmCore?
    }

    /// The registering realm's state; used only on its context (the notifier thread only
    /// passes it on).
    final class CoreRef: @unchecked Sendable {
        let core: RealmCore
        let id: ObjectIdentifier
        init(_ core: RealmCore) { self.core = core; self.id = ObjectIdentifier(core) }
    }

    /// Groups the jobs of one round that go to one place.
    var key: ObjectIdentifier {
        switch self {
        case .realm(let ref, _): return ref.id
        case .queue(let q, _): return ObjectIdentifier(q)
        case .actor(let binding, _, _): return binding.id
        }
    }

    /// Runs `jobs` on the target, after moving its realm to `snapshot`'s version (when it
    /// refreshes automatically and is not already past it).
    func deliver(_ jobs: [NotificationJob], at snapshot: PinnedSnapshot?) {
        let batch = UncheckedBox(jobs)
        switch self {
        case .realm(let ref, let scheduler):
            scheduler.schedule {
                ref.core.receive(batch.value, at: snapshot)
            }
        case .queue(let queue, let configuration):
            queue.async {
                guard let realm = try? Realm(configuration: configuration, queue: queue) else { return }
                realm.core.receive(batch.value, at: snapshot)
            }
        case .actor(let binding, let configuration, let holder):
            AsyncScheduler.actor(binding).schedule {
                if holder.core == nil {
                    holder.core = try? Realm(configuration: configuration, confinement: .actor(binding)).core
                }
                holder.core?.receive(batch.value, at: snapshot)
            }
        }
    }

    /// The target for an observer registered on `realm`, delivering on `queue` when given.
    /// Reports misuse (a frozen realm, a write transaction, a thread without a run loop) with
    /// RealmSwift's messages and returns nil.
    static func make(for realm: Realm, queue: DispatchQueue?, inWriteCheck: Bool) -> DeliveryTarget? {
        guard realm.checkThread() else { return nil }
        if realm.isFrozen {
            return Realm.violation("Frozen Realms do not change and do not have change notifications.", fallback: nil)
        }
        if inWriteCheck, realm.isInWriteTransaction {
            return Realm.violation("Cannot register notification blocks from within write transactions.", fallback: nil)
        }
        if let queue {
            return .queue(queue, realm.configuration)
        }
        guard let scheduler = AsyncScheduler.current(for: realm.core) else {
            return Realm.violation("Can only add notification blocks from within runloops.", fallback: nil)
        }
        return .realm(CoreRef(realm.core), scheduler)
    }
}

extension RealmCore {
    /// Runs notification jobs on this realm's context, after moving it to `snapshot`'s version.
    /// A realm that does not refresh automatically keeps them until `refresh()`.
    func receive(_ jobs: [NotificationJob], at snapshot: PinnedSnapshot?) {
        if !autorefresh, !isFrozen {
            held.append((jobs, snapshot))
            let realm = Realm(core: self)
            for box in realmObservers.values { box.entry?.fire(.refreshRequired, realm) }
            return
        }
        if let snapshot { advance(to: snapshot) }
        let realm = Realm(core: self)
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
        let realm = Realm(core: self)
        for (jobs, snapshot) in batches {
            if let snapshot { advance(to: snapshot) }
            for job in jobs { job(realm) }
        }
        return true
    }
}
