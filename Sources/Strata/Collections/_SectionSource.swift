import Foundation

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
        (_ keyPaths: [String]?, _ place: DeliveryPlace, _ block: @escaping (_SectionSource, [Int]?) -> Void) ->
            NotificationToken
}

extension _SectionSource where Element: RealmCollectionValue {
    /// The elements of `results` (objects, or projections of them); `owner`, when given, owns the
    /// collection (of `kind`: "List", "Set", "LinkingObjects") the results query, whose deletion
    /// invalidates them.
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
        self.observe = { keyPaths, place, block in
            results.observe(keyPaths: keyPaths, place: place) { change in
                switch change {
                case .initial(let delivered): block(_SectionSource(delivered), nil)
                case .update(let delivered, _, _, let modifications): block(_SectionSource(delivered), modifications)
                case .error: break
                }
            }
        }
    }
}
