import Foundation

/// The sections of one version, by element identity: what two versions are compared with.
struct _SectionSnapshot<Key: Hashable> {
    var keys: [Key] = []
    /// The identities of each section's elements, in order.
    var members: [[_CollectionElementIdentity]] = []
    /// The identity of the element at each position of the sorted elements.
    var byPosition: [_CollectionElementIdentity] = []

    init() {}

    init<Element: RealmCollectionValue>(_ core: _SectionedResultsCore<Key, Element>) {
        let layout = core.sections()
        keys = layout.keys
        var identities: [Int: _CollectionElementIdentity] = [:]
        members = layout.positions.map { positions in
            positions.map { position in
                let identity = _CollectionElementIdentity(core.source.element(position))
                identities[position] = identity
                return identity
            }
        }
        byPosition = (0..<identities.count).map { identities[$0]! }
    }

    /// The changes from `old` to `self`, restricted to the section of `onlyKey` when given (whose
    /// section is then at position 0); nil when nothing changed there.
    func changes(
        from old: _SectionSnapshot, modifiedPositions: [Int], onlyKey: Key? = nil
    ) -> (
        deletions: [IndexPath], insertions: [IndexPath], modifications: [IndexPath], sectionsToInsert: IndexSet,
        sectionsToDelete: IndexSet
    )? {
        let oldIndex = Dictionary(old.keys.enumerated().map { ($1, $0) }, uniquingKeysWith: { a, _ in a })
        let newIndex = Dictionary(keys.enumerated().map { ($1, $0) }, uniquingKeysWith: { a, _ in a })
        let modified = Set(modifiedPositions.compactMap { $0 < old.byPosition.count ? old.byPosition[$0] : nil })
        var deletions: [IndexPath] = []
        var insertions: [IndexPath] = []
        var modifications: [IndexPath] = []
        var sectionsToInsert = IndexSet()
        var sectionsToDelete = IndexSet()
        func reported(_ section: Int) -> Int { onlyKey == nil ? section : 0 }
        for (o, key) in old.keys.enumerated() where onlyKey == nil || key == onlyKey {
            guard let n = newIndex[key] else {
                sectionsToDelete.insert(reported(o))
                continue
            }
            let now = Set(members[n])
            let before = Set(old.members[o])
            for (item, identity) in old.members[o].enumerated() {
                if !now.contains(identity) {
                    deletions.append(IndexPath(indexes: [reported(o), item]))
                } else if modified.contains(identity) {
                    modifications.append(IndexPath(indexes: [reported(o), item]))
                }
            }
            for (item, identity) in members[n].enumerated() where !before.contains(identity) {
                insertions.append(IndexPath(indexes: [reported(n), item]))
            }
        }
        for (n, key) in keys.enumerated() where oldIndex[key] == nil && (onlyKey == nil || key == onlyKey) {
            sectionsToInsert.insert(reported(n))
            for item in members[n].indices { insertions.append(IndexPath(indexes: [reported(n), item])) }
        }
        if onlyKey != nil, deletions.isEmpty, insertions.isEmpty, modifications.isEmpty, sectionsToInsert.isEmpty,
            sectionsToDelete.isEmpty
        {
            return nil
        }
        return (deletions.sorted(), insertions.sorted(), modifications.sorted(), sectionsToInsert, sectionsToDelete)
    }
}

/// The previous snapshot of an observation, kept between deliveries.
final class _SectionSnapshotBox<Key: Hashable> {
    var snapshot: _SectionSnapshot<Key>?
}

extension _SectionedResultsCore {
    /// Observes the sorted elements and calls `deliver` with the sections as delivered and the
    /// snapshots of the previous and new versions (no previous one for the initial call).
    func observe(
        keyPaths: [String]?, on queue: DispatchQueue?,
        _ deliver: @escaping (_SectionedResultsCore, _SectionSnapshot<Key>?, _SectionSnapshot<Key>, [Int]) -> Void
    ) -> NotificationToken {
        let keyOf = self.keyOf
        let box = _SectionSnapshotBox<Key>()
        return source.observe(keyPaths, queue) { delivered, modifications in
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
        core.observe(keyPaths: keyPaths, on: queue) { core, previous, snapshot, modified in
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
        let key = self.key
        return core.observe(keyPaths: keyPaths, on: queue) { core, previous, snapshot, modified in
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
