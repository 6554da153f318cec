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

/// The sorted elements sectioned results read, behind closures so that sectioned results do
/// not depend on the collection they were made from. Not API.
///
/// ## Concurrency
/// Confined with its realm, as the collection it reads; a frozen one may be read from any thread.
struct _SectionSource<Element>: @unchecked Sendable {
    /// The realm of the elements, nil for elements of no realm.
    var realm: Realm?
    /// The number of elements now.
    var count: () -> Int
    /// The element at a position (less than `count()`).
    var element: (Int) -> Element
    /// Whether the collection can no longer be read (its owner was deleted).
    var isInvalidated: () -> Bool
    /// The frozen source, nil when the collection cannot be frozen.
    var freeze: () -> _SectionSource?
    /// The live source of the calling thread, nil when the collection is gone.
    var thaw: () -> _SectionSource?
    /// Observes the elements: calls the block with the source as delivered (on the observer's
    /// realm) and, for an update, the positions modified in the previous version (nil for the
    /// initial call).
    var observe:
        (_ keyPaths: [String]?, _ queue: DispatchQueue?, _ block: @escaping (_SectionSource, [Int]?) -> Void) ->
            NotificationToken
}

extension _SectionSource where Element: Object {
    /// The elements of `results`; `owner`, when given, owns the collection (of `kind`: "List",
    /// "Set", "LinkingObjects") the results query, whose deletion invalidates them.
    init(_ results: Results<Element>, owner: _CollectionOwner? = nil, kind: String = "") {
        self.realm = results.realm
        self.count = { results.keys().count }
        self.element = { results[$0] }
        self.isInvalidated = { owner.map { !$0.isValid } ?? false }
        self.freeze = {
            guard let realm = results.realm else { return nil }
            if realm.isFrozen { return _SectionSource(results, owner: owner, kind: kind) }
            let frozen = results.freeze()
            guard frozen.isFrozen else { return nil }
            let frozenOwner = owner.flatMap { $0.frozenOwner(kind) }
            return _SectionSource(frozen, owner: frozenOwner, kind: kind)
        }
        self.thaw = {
            guard let live = results.thaw() else { return nil }
            let liveOwner = owner.flatMap { $0.liveOwner() }
            if owner != nil, liveOwner == nil { return nil }
            return _SectionSource(live, owner: liveOwner, kind: kind)
        }
        self.observe = { keyPaths, queue, block in
            results.observe(keyPaths: keyPaths, on: queue) { change in
                switch change {
                case .initial(let delivered): block(_SectionSource(delivered), nil)
                case .update(let delivered, _, _, let modifications): block(_SectionSource(delivered), modifications)
                case .error: break
                }
            }
        }
    }
}
