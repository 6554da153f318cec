import Foundation

// `observe(keyPaths:on: actor)` for the collection properties, as `Results` and objects have it:
// the block runs isolated to the actor, with the collection read from a realm confined to it
// (opened on the first delivery).

extension _CollectionOwner {
    /// Registers observation of this list or set property, delivering to `target`: each event
    /// becomes a `RealmCollectionChange` of the collection `make` builds over the property in the
    /// delivery realm, handed to `deliver` there.
    func observeCollection<C>(
        keyPaths: [String]?, target: DeliveryTarget, make: @escaping (_CollectionOwner) -> C,
        deliver: @escaping (RealmCollectionChange<C>) -> Void
    ) -> NotificationToken {
        observe(keyPaths: keyPaths, target: target, isMap: false) { event in
            { realm in
                let collection = make(self.moved(to: realm))
                switch event {
                case .initial: deliver(.initial(collection))
                case .update(let d):
                    deliver(
                        .update(
                            collection, deletions: d.deletions, insertions: d.insertions,
                            modifications: d.modifications))
                case .error(let e): deliver(.error(e))
                case .mapUpdate: break
                }
            }
        }
    }
}

extension List {
    /// `observe(keyPaths:on:_:)` delivering on `actor`: the block runs isolated to it, with the
    /// list read from a realm confined to the actor (opened on the first delivery).
    /// - Returns: A token to keep; `invalidate()` or releasing it stops the notifications.
    public func observe<A: Actor>(
        keyPaths: [String]? = nil, on actor: A, isolation: isolated (any Actor)? = #isolation,
        _ block: @Sendable @escaping (isolated A, RealmCollectionChange<List<Element>>) -> Void
    ) async -> NotificationToken {
        observe(keyPaths: keyPaths, place: .actor(actor)) { change in
            let box = UncheckedBox(change)
            actor.assumeIsolated { a in block(a, box.value) }
        }
    }

    /// `observe(keyPaths:on:_:)` delivering at `place`; `block` runs there.
    func observe(
        keyPaths: [String]?, place: DeliveryPlace,
        _ block: @escaping (RealmCollectionChange<List<Element>>) -> Void
    ) -> NotificationToken {
        guard let owner else {
            return Realm.violation(
                "Only lists which are managed by a Realm support change notifications. Add the owning object to a realm first.",
                fallback: NotificationToken())
        }
        guard let target = place.target(for: owner.state.realm) else { return NotificationToken() }
        return owner.observeCollection(keyPaths: keyPaths, target: target, make: List.init(owner:), deliver: block)
    }
}

extension MutableSet {
    /// `observe(keyPaths:on:_:)` delivering on `actor`, as `List.observe(keyPaths:on:_:)` with an
    /// actor does.
    /// - Returns: A token to keep; `invalidate()` or releasing it stops the notifications.
    public func observe<A: Actor>(
        keyPaths: [String]? = nil, on actor: A, isolation: isolated (any Actor)? = #isolation,
        _ block: @Sendable @escaping (isolated A, RealmCollectionChange<MutableSet<Element>>) -> Void
    ) async -> NotificationToken {
        observe(keyPaths: keyPaths, place: .actor(actor)) { change in
            let box = UncheckedBox(change)
            actor.assumeIsolated { a in block(a, box.value) }
        }
    }

    /// `observe(keyPaths:on:_:)` delivering at `place`; `block` runs there.
    func observe(
        keyPaths: [String]?, place: DeliveryPlace,
        _ block: @escaping (RealmCollectionChange<MutableSet<Element>>) -> Void
    ) -> NotificationToken {
        guard let owner else {
            return Realm.violation(
                "Only sets which are managed by a Realm support change notifications. Add the owning object to a realm first.",
                fallback: NotificationToken())
        }
        guard let target = place.target(for: owner.state.realm) else { return NotificationToken() }
        return owner.observeCollection(
            keyPaths: keyPaths, target: target, make: MutableSet.init(owner:), deliver: block)
    }
}

extension Map {
    /// `observe(keyPaths:on:_:)` delivering on `actor`: the block runs isolated to it, with the
    /// map read from a realm confined to the actor (opened on the first delivery).
    /// - Returns: A token to keep; `invalidate()` or releasing it stops the notifications.
    public func observe<A: Actor>(
        keyPaths: [String]? = nil, on actor: A, isolation: isolated (any Actor)? = #isolation,
        _ block: @Sendable @escaping (isolated A, RealmMapChange<Map<Key, Value>>) -> Void
    ) async -> NotificationToken {
        guard let owner else {
            return Realm.violation(
                "Only maps which are managed by a Realm support change notifications. Add the owning object to a realm first.",
                fallback: NotificationToken())
        }
        guard let target = DeliveryTarget.make(for: owner.state.realm, actor: actor) else { return NotificationToken() }
        return owner.observe(keyPaths: keyPaths, target: target, isMap: true) { event in
            { realm in
                let map = Map(owner: owner.moved(to: realm))
                let change: RealmMapChange<Map<Key, Value>>
                switch event {
                case .initial: change = .initial(map)
                case .mapUpdate(let d, let i, let m):
                    change = .update(map, deletions: d, insertions: i, modifications: m)
                case .error(let e): change = .error(e)
                case .update: return
                }
                let box = UncheckedBox(change)
                actor.assumeIsolated { a in block(a, box.value) }
            }
        }
    }
}

extension LinkingObjects {
    /// `observe(keyPaths:on:_:)` delivering on `actor`: the block runs isolated to it, with the
    /// linking objects read from a realm confined to the actor (opened on the first delivery).
    /// - Returns: A token to keep; `invalidate()` or releasing it stops the notifications.
    public func observe<A: Actor>(
        keyPaths: [String]? = nil, on actor: A, isolation: isolated (any Actor)? = #isolation,
        _ block: @Sendable @escaping (isolated A, RealmCollectionChange<LinkingObjects<Element>>) -> Void
    ) async -> NotificationToken {
        observe(keyPaths: keyPaths, place: .actor(actor)) { change in
            let box = UncheckedBox(change)
            actor.assumeIsolated { a in block(a, box.value) }
        }
    }

    /// `observe(keyPaths:on:_:)` delivering at `place`; `block` runs there.
    func observe(
        keyPaths: [String]?, place: DeliveryPlace,
        _ block: @escaping (RealmCollectionChange<LinkingObjects<Element>>) -> Void
    ) -> NotificationToken {
        guard let owner else {
            return Realm.violation(
                "Only linking objects of a managed object support change notifications.", fallback: NotificationToken())
        }
        guard let target = place.target(for: owner.realm) else { return NotificationToken() }
        return observe(keyPaths: keyPaths, target: target, block)
    }
}
