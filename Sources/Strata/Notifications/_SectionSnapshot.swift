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
            // Elements that left or joined the section, and those whose order changed (deleted
            // and inserted, as collection change sets report moves).
            let diff = CollectionDiff.between(old.members[o], members[n]) { modified.contains($0) }
            deletions += diff.deletions.map { IndexPath(indexes: [reported(o), $0]) }
            modifications += diff.modifications.map { IndexPath(indexes: [reported(o), $0]) }
            insertions += diff.insertions.map { IndexPath(indexes: [reported(n), $0]) }
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
