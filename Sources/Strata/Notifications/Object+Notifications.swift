import Foundation
internal import StrataCore

extension ObjectBase {
    /// Calls `block` after each commit (from any realm, thread or process) that changes a watched
    /// property of this object, with the changed properties' old and new values, or that deletes
    /// it (`.deleted`, the last call). There is no initial call. Several commits landing before a
    /// delivery are reported together.
    ///
    /// - Parameters:
    ///   - keyPaths: The properties to watch (`"name"`, `"toys.brand"` through links); nil for
    ///     every property and those of the objects reached through up to four links.
    ///   - queue: A serial queue to deliver on (the object handed over then belongs to a realm
    ///     confined to that queue); nil for this realm's own context.
    ///   - block: Called with the change.
    /// - Returns: A token to keep; `invalidate()` or releasing it stops the notifications.
    ///
    /// `Object`s and `EmbeddedObject`s can be observed, once managed; registering inside a write transaction, on a frozen
    /// object, or from a thread that runs no run loop is reported as RealmSwift does.
    public func observe<T: ObjectBase>(
        keyPaths: [String]? = nil, on queue: DispatchQueue? = nil,
        _ block: @escaping (ObjectChange<T>) -> Void
    ) -> NotificationToken {
        observe(keyPaths: keyPaths, place: .queue(queue), block)
    }

    /// `observe(keyPaths:on:_:)` delivering at `place`; `block` runs there.
    func observe<T: ObjectBase>(
        keyPaths: [String]?, place: DeliveryPlace, _ block: @escaping (ObjectChange<T>) -> Void
    ) -> NotificationToken {
        let token = NotificationToken()
        guard let managed = _strataManaged else {
            return Realm.violation(
                "Only objects which are managed by a Realm support change notifications. Add the object to a realm first.",
                fallback: token)
        }
        let realm = managed.realm
        guard let target = place.target(for: realm),
            let filter = KeyPathFilter.make(keyPaths, binding: managed.binding, file: realm.file)
        else { return token }
        let binding = managed.binding
        let entry = ObjectNotifierEntry(
            token: token, target: target, key: managed.key, binding: binding, filter: filter
        ) { event in
            { realm in
                switch event {
                case .change(let changes):
                    guard let object = realm.object(binding, key: managed.key) as? T else { return }
                    block(.change(object, changes.map { $0.resolved(in: realm) }))
                case .deleted: block(.deleted)
                case .error(let e): block(.error(e))
                }
            }
        }
        token.attach(entry, to: realm.file.notifier)
        return token
    }

    /// `observe(keyPaths:on:_:)` with key paths as Swift key paths (`\Dog.name`).
    public func observe<T: ObjectBase>(
        keyPaths: [PartialKeyPath<T>], on queue: DispatchQueue? = nil,
        _ block: @escaping (ObjectChange<T>) -> Void
    ) -> NotificationToken {
        observe(keyPaths: T.strataPropertyNames(keyPaths), on: queue, block)
    }
}

extension ObjectBase {
    /// `observe(keyPaths:on:_:)` delivering on `actor`: the block runs isolated to it, with the
    /// object read from a realm confined to the actor (opened on the first delivery).
    public func observe<A: Actor, T: ObjectBase>(
        keyPaths: [String]? = nil, on actor: A, isolation: isolated (any Actor)? = #isolation,
        _ block: @Sendable @escaping (isolated A, ObjectChange<T>) -> Void
    ) async -> NotificationToken {
        observe(keyPaths: keyPaths, place: .actor(actor)) { (change: ObjectChange<T>) in
            let box = UncheckedBox(change)
            actor.assumeIsolated { a in block(a, box.value) }
        }
    }
}
