import Foundation

/// What `SectionedResults` and its `ResultsSection`s share: the sorted elements they section,
/// the function giving an element's section key, and the sections of the realm version read
/// last. Not API.
///
/// The sections are computed in one pass over the sorted elements: each new key opens a
/// section (sections keep the order in which their keys first appear) and each element joins
/// the section of its key. A live realm's sections are computed again only when the realm
/// changed since (its stamp, as `Results` caches its keys); a frozen realm's are computed once.
///
/// ## Concurrency
/// A live realm's core is used on that realm's thread only. A frozen realm's may be read from
/// several threads at once: its sections are computed and read under `lock`.
final class _SectionedResultsCore<Key: _Persistable & Hashable, Element: RealmCollectionValue>: @unchecked Sendable {
    /// The sections of one version: their keys in order, and for each the positions of its
    /// elements in the sorted elements.
    struct Layout {
        var keys: [Key] = []
        var positions: [[Int]] = []
        var indexByKey: [Key: Int] = [:]
    }

    let source: _SectionSource<Element>
    let keyOf: (Element) -> Key
    private var stamp: UInt64 = .max
    private var layout: Layout?
    private let lock = NSLock()

    init(source: _SectionSource<Element>, keyOf: @escaping (Element) -> Key) {
        self.source = source
        self.keyOf = keyOf
    }

    /// The sections of the source's current version.
    func sections() -> Layout {
        guard let realm = source.realm else { return compute() }
        if realm.isFrozen {
            lock.lock()
            defer { lock.unlock() }
            if let layout { return layout }
            let computed = compute()
            layout = computed
            return computed
        }
        guard realm.checkThread() else { return Layout() }
        if let layout, stamp == realm.stamp { return layout }
        let computed = compute()
        layout = computed
        stamp = realm.stamp
        return computed
    }

    private func compute() -> Layout {
        var result = Layout()
        let count = source.count()
        for position in 0..<count {
            let key = keyOf(source.element(position))
            if let section = result.indexByKey[key] {
                result.positions[section].append(position)
            } else {
                result.indexByKey[key] = result.keys.count
                result.keys.append(key)
                result.positions.append([position])
            }
        }
        return result
    }

    /// The same sections over the frozen source, or nil when the source cannot be frozen.
    func frozen() -> _SectionedResultsCore? {
        guard let source = source.freeze() else { return nil }
        return _SectionedResultsCore(source: source, keyOf: keyOf)
    }

    /// The same sections over the live source of the calling thread, or nil when it is gone.
    func thawed() -> _SectionedResultsCore? {
        guard let source = source.thaw() else { return nil }
        return _SectionedResultsCore(source: source, keyOf: keyOf)
    }
}
