import Foundation
internal import StrataCore
internal import StrataStorage

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
        var realmState: RealmState?
    }

    /// The registering realm's state; used only on its context (the notifier thread only
    /// passes it on).
    final class CoreRef: @unchecked Sendable {
        let realmState: RealmState
        let id: ObjectIdentifier
        init(_ realmState: RealmState) { self.realmState = realmState; self.id = ObjectIdentifier(realmState) }
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
                ref.realmState.receive(batch.value, at: snapshot)
            }
        case .queue(let queue, let configuration):
            queue.async {
                guard let realm = try? Realm(configuration: configuration, queue: queue) else { return }
                realm.realmState.receive(batch.value, at: snapshot)
            }
        case .actor(let binding, let configuration, let holder):
            AsyncScheduler.actor(binding).schedule {
                if holder.realmState == nil {
                    holder.realmState = try? Realm(configuration: configuration, confinement: .actor(binding))
                        .realmState
                }
                holder.realmState?.receive(batch.value, at: snapshot)
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
        guard let scheduler = AsyncScheduler.current(for: realm.realmState) else {
            return Realm.violation("Can only add notification blocks from within runloops.", fallback: nil)
        }
        return .realm(CoreRef(realm.realmState), scheduler)
    }

    /// The target for an observer registered on `realm` that delivers on `actor` (checked as
    /// ``make(for:queue:inWriteCheck:)`` checks, with RealmSwift's messages; nil on misuse).
    static func make(for realm: Realm, actor: some Actor) -> DeliveryTarget? {
        guard realm.checkThread() else { return nil }
        if realm.isFrozen {
            return Realm.violation("Frozen Realms do not change and do not have change notifications.", fallback: nil)
        }
        if realm.isInWriteTransaction {
            return Realm.violation("Cannot register notification blocks from within write transactions.", fallback: nil)
        }
        return .actor(ActorBinding(actor), realm.configuration, ActorRealm())
    }
}
