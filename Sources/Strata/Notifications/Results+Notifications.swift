import Foundation
internal import StrataCore

extension Results {
    /// Calls `block` with the results' changes: `.initial` once the query has run (always after
    /// this method returned, never inside it), then `.update` with the indices deleted,
    /// inserted and modified by each commit, or several commits coalesced, from any realm,
    /// thread or process. Change sets are computed on a background thread; the block runs on
    /// this realm's context (or on `queue`, given results of a realm confined to it), after
    /// the realm moved to the version the change set describes.
    ///
    /// - Parameters:
    ///   - keyPaths: The properties whose changes count as modifications: `"name"`, or
    ///     `"owner.name"` through links; nil for every property, and those of the objects
    ///     reached through up to four links. Changes to other properties deliver nothing (unless they change which
    ///     objects match or their order).
    ///   - queue: A serial queue to deliver on; nil for this realm's own context.
    /// - Returns: A token to keep; `invalidate()` or releasing it stops the notifications.
    ///
    /// Registering inside a write transaction, on frozen results, or from a thread that runs no
    /// run loop is reported as RealmSwift does (through `Realm.violationHandler`).
    ///
    /// Results of values (`list.sorted(ascending: true)`) report the indices of a diff of their
    /// values before and after each change of the collection (a changed value is a deletion and
    /// an insertion; `keyPaths` do not apply), and nothing when their values stay the same.
    public func observe(
        keyPaths: [String]? = nil, on queue: DispatchQueue? = nil,
        _ block: @escaping (RealmCollectionChange<Results<Element>>) -> Void
    ) -> NotificationToken {
        observe(keyPaths: keyPaths, place: .queue(queue), block)
    }

    /// `observe(keyPaths:on:_:)` delivering at `place`; `block` runs there.
    func observe(
        keyPaths: [String]?, place: DeliveryPlace,
        _ block: @escaping (RealmCollectionChange<Results<Element>>) -> Void
    ) -> NotificationToken {
        if let values {
            // Results of values: the collection's changes, compared value by value. No key
            // paths apply to values.
            return observeValues(values, place: place, block)
        }
        let token = NotificationToken()
        guard let realm, let target = place.target(for: realm),
            let binding, let filter = KeyPathFilter.make(keyPaths, binding: binding, file: realm.file)
        else { return token }
        let query = self.query
        let objectType = self.objectType
        let dynamicBinding = self.dynamicBinding
        let entry = ResultsNotifierEntry(
            token: token, target: target, query: query, table: binding.table, filter: filter
        ) { event in
            { realm in
                let results = Results(
                    realm: realm, query: query, objectType: objectType, values: nil, dynamicBinding: dynamicBinding)
                switch event {
                case .initial: block(.initial(results))
                case .update(let d):
                    block(
                        .update(
                            results, deletions: d.deletions, insertions: d.insertions, modifications: d.modifications))
                case .error(let e): block(.error(e))
                }
            }
        }
        token.attach(entry, to: realm.file.notifier)
        return token
    }

}

extension Results where Element: Object {
    /// `observe(keyPaths:on:_:)` with key paths as Swift key paths (`\Dog.name`).
    public func observe(
        keyPaths: [PartialKeyPath<Element>], on queue: DispatchQueue? = nil,
        _ block: @escaping (RealmCollectionChange<Results<Element>>) -> Void
    ) -> NotificationToken {
        observe(keyPaths: Element.strataPropertyNames(keyPaths), on: queue, block)
    }
}

extension ObjectBase {
    /// The property names of `keyPaths` (each one property of this class).
    static func strataPropertyNames<T>(_ keyPaths: [PartialKeyPath<T>]) -> [String] {
        guard let provider = self as? any ObjectSchemaProviding.Type else {
            return Realm.violation(
                "\(self) has no generated schema: add the StrataPlugin build plugin to its target.", fallback: [])
        }
        let names = provider.strataKeyPathNames
        return keyPaths.map { kp in
            names[kp as AnyKeyPath]
                ?? Realm.violation(
                    "The key path \(kp) is not a persisted property of \(self); pass its name as a string to follow links (\"owner.name\").",
                    fallback: "")
        }
    }
}

extension ObjectSchemaProviding {
    /// The persisted properties' names by key path.
    static var strataKeyPathNames: [AnyKeyPath: String] {
        var out: [AnyKeyPath: String] = [:]
        for p in strataAccessors.properties { out[p.keyPath] = p.name }
        return out
    }
}

extension Results {
    /// `observe(keyPaths:on:_:)` delivering on `actor`: the block runs isolated to it, with
    /// results of a realm confined to the actor (opened on the first delivery).
    public func observe<A: Actor>(
        keyPaths: [String]? = nil, on actor: A, isolation: isolated (any Actor)? = #isolation,
        _ block: @Sendable @escaping (isolated A, RealmCollectionChange<Results<Element>>) -> Void
    ) async -> NotificationToken {
        observe(keyPaths: keyPaths, place: .actor(actor)) { change in
            let box = UncheckedBox(change)
            actor.assumeIsolated { a in block(a, box.value) }
        }
    }
}
