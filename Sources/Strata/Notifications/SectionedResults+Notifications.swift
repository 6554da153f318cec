import Foundation

extension _SectionedResultsCore {
    /// Observes the sorted elements and calls `deliver` with the sections as delivered and the
    /// snapshots of the previous and new versions (no previous one for the initial call).
    func observe(
        keyPaths: [String]?, place: DeliveryPlace,
        _ deliver: @escaping (_SectionedResultsCore, _SectionSnapshot<Key>?, _SectionSnapshot<Key>, [Int]) -> Void
    ) -> NotificationToken {
        let keyOf = self.keyOf
        let box = _SectionSnapshotBox<Key>()
        return source.observe(keyPaths, place) { delivered, modifications in
            let core = _SectionedResultsCore(source: delivered, keyOf: keyOf)
            let snapshot = _SectionSnapshot(core)
            let previous = modifications == nil ? nil : box.snapshot
            box.snapshot = snapshot
            deliver(core, previous, snapshot, modifications ?? [])
        }
    }
}

extension SectionedResults {
    /// Calls `block` with the sections' changes: `.initial` once computed (after this method
    /// returned), then `.update` after each commit (or several coalesced) that changed which
    /// elements are in which section, their order, or (for `keyPaths`) their properties.
    /// Built on the observation of the sorted results (see `Results.observe`), with the same
    /// rules for `keyPaths` and `queue`.
    ///
    /// - Parameters:
    ///   - keyPaths: The properties whose changes count as modifications; nil for all.
    ///   - queue: A serial queue to deliver on; nil for this realm's own context.
    /// - Returns: A token to keep; `invalidate()` or releasing it stops the notifications.
    public func observe(
        keyPaths: [String]? = nil, on queue: DispatchQueue? = nil,
        _ block: @escaping (SectionedResultsChange<SectionedResults>) -> Void
    ) -> NotificationToken {
        observe(keyPaths: keyPaths, place: .queue(queue), block)
    }

    /// `observe(keyPaths:on:_:)` delivering on `actor`: the block runs isolated to it, with the
    /// sections read from a realm confined to the actor (opened on the first delivery).
    /// - Returns: A token to keep; `invalidate()` or releasing it stops the notifications.
    public func observe<A: Actor>(
        keyPaths: [String]? = nil, on actor: A, isolation: isolated (any Actor)? = #isolation,
        _ block: @Sendable @escaping (isolated A, SectionedResultsChange<SectionedResults>) -> Void
    ) async -> NotificationToken {
        observe(keyPaths: keyPaths, place: .actor(actor)) { change in
            let box = UncheckedBox(change)
            actor.assumeIsolated { a in block(a, box.value) }
        }
    }

    /// `observe(keyPaths:on:_:)` delivering at `place`; `block` runs there.
    func observe(
        keyPaths: [String]?, place: DeliveryPlace,
        _ block: @escaping (SectionedResultsChange<SectionedResults>) -> Void
    ) -> NotificationToken {
        core.observe(keyPaths: keyPaths, place: place) { core, previous, snapshot, modified in
            let value = SectionedResults(core: core)
            guard let previous, let c = snapshot.changes(from: previous, modifiedPositions: modified) else {
                return block(.initial(value))
            }
            block(
                .update(
                    value, deletions: c.deletions, insertions: c.insertions, modifications: c.modifications,
                    sectionsToInsert: c.sectionsToInsert, sectionsToDelete: c.sectionsToDelete))
        }
    }
}

extension SectionedResults where SectionElement: Object {
    /// `observe(keyPaths:on:_:)` with key paths as Swift key paths (`\Dog.name`).
    public func observe(
        keyPaths: [PartialKeyPath<SectionElement>], on queue: DispatchQueue? = nil,
        _ block: @escaping (SectionedResultsChange<SectionedResults>) -> Void
    ) -> NotificationToken {
        observe(keyPaths: SectionElement.strataPropertyNames(keyPaths), on: queue, block)
    }
}

extension ResultsSection {
    /// Calls `block` with the changes of this section: `.initial` once computed (after this
    /// method returned), then `.update` after each commit that changed this section's elements
    /// (their membership, order or, for `keyPaths`, properties), removed the section
    /// (`sectionsToDelete == [0]`) or brought it back (`sectionsToInsert == [0]`). Index paths
    /// have section 0. Commits that change only other sections deliver nothing.
    public func observe(
        keyPaths: [String]? = nil, on queue: DispatchQueue? = nil,
        _ block: @escaping (SectionedResultsChange<ResultsSection>) -> Void
    ) -> NotificationToken {
        observe(keyPaths: keyPaths, place: .queue(queue), block)
    }

    /// `observe(keyPaths:on:_:)` delivering on `actor`: the block runs isolated to it, with the
    /// section read from a realm confined to the actor (opened on the first delivery).
    /// - Returns: A token to keep; `invalidate()` or releasing it stops the notifications.
    public func observe<A: Actor>(
        keyPaths: [String]? = nil, on actor: A, isolation: isolated (any Actor)? = #isolation,
        _ block: @Sendable @escaping (isolated A, SectionedResultsChange<ResultsSection>) -> Void
    ) async -> NotificationToken {
        observe(keyPaths: keyPaths, place: .actor(actor)) { change in
            let box = UncheckedBox(change)
            actor.assumeIsolated { a in block(a, box.value) }
        }
    }

    /// `observe(keyPaths:on:_:)` delivering at `place`; `block` runs there.
    func observe(
        keyPaths: [String]?, place: DeliveryPlace,
        _ block: @escaping (SectionedResultsChange<ResultsSection>) -> Void
    ) -> NotificationToken {
        let key = self.key
        return core.observe(keyPaths: keyPaths, place: place) { core, previous, snapshot, modified in
            let value = ResultsSection(core: core, key: key)
            guard let previous else { return block(.initial(value)) }
            guard let c = snapshot.changes(from: previous, modifiedPositions: modified, onlyKey: key) else { return }
            block(
                .update(
                    value, deletions: c.deletions, insertions: c.insertions, modifications: c.modifications,
                    sectionsToInsert: c.sectionsToInsert, sectionsToDelete: c.sectionsToDelete))
        }
    }
}

extension ResultsSection where T: Object {
    /// `observe(keyPaths:on:_:)` with key paths as Swift key paths (`\Dog.name`).
    public func observe(
        keyPaths: [PartialKeyPath<T>], on queue: DispatchQueue? = nil,
        _ block: @escaping (SectionedResultsChange<ResultsSection>) -> Void
    ) -> NotificationToken {
        observe(keyPaths: T.strataPropertyNames(keyPaths), on: queue, block)
    }
}
