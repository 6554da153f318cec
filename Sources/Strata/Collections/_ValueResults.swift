import Foundation
internal import StrataCore
internal import StrataQuery

/// What `Results` of values (`List<Int>.sorted(ascending:)`, `MutableSet<String>.where { }`)
/// read and apply: the managed list or set, the filters, the order and whether repeated values
/// are dropped. Immutable; each operation on the results makes a new one. Not API.
///
/// The collection is read from the owner's current version on every evaluation, so the results
/// follow the list as it changes and read the frozen version when the owner is frozen.
///
/// ## Concurrency
/// Immutable; confined with the owner's realm (a frozen owner's may be read from any thread).
final class _ValueResults {
    /// The kinds of collection property results of values read.
    enum Kind {
        case list, set, map
    }

    /// The list, set or map property of the owning object.
    let owner: _CollectionOwner
    /// Which kind of collection the property is (a map's values are read in key order).
    let kind: Kind
    /// Each filter's test, all of which an element must pass.
    let filters: [StoreValuePredicate]
    /// Sorted ascending (true), descending (false) or in the collection's order (nil).
    let ascending: Bool?
    /// Whether only the first of equal values is kept.
    let isDistinct: Bool

    init(
        owner: _CollectionOwner, kind: Kind, filters: [StoreValuePredicate] = [], ascending: Bool? = nil,
        isDistinct: Bool = false
    ) {
        self.owner = owner
        self.kind = kind
        self.filters = filters
        self.ascending = ascending
        self.isDistinct = isDistinct
    }

    /// What the results apply to their collection, without the collection: what a
    /// `ThreadSafeReference` carries to re-make them on another thread.
    struct Recipe: Sendable {
        let kind: Kind
        let filters: [StoreValuePredicate]
        let ascending: Bool?
        let isDistinct: Bool

        /// The results of the same operations on `owner`.
        func make(owner: _CollectionOwner) -> _ValueResults {
            _ValueResults(owner: owner, kind: kind, filters: filters, ascending: ascending, isDistinct: isDistinct)
        }
    }

    /// The operations of these results.
    var recipe: Recipe { Recipe(kind: kind, filters: filters, ascending: ascending, isDistinct: isDistinct) }

    /// The collection's type name, for messages.
    var kindName: String {
        switch kind {
        case .list: "List"
        case .set: "MutableSet"
        case .map: "Map"
        }
    }

    func filtered(by predicate: StoreValuePredicate) -> _ValueResults {
        _ValueResults(
            owner: owner, kind: kind, filters: filters + [predicate], ascending: ascending, isDistinct: isDistinct)
    }

    func sorted(ascending: Bool) -> _ValueResults {
        _ValueResults(owner: owner, kind: kind, filters: filters, ascending: ascending, isDistinct: isDistinct)
    }

    func distinct() -> _ValueResults {
        _ValueResults(owner: owner, kind: kind, filters: filters, ascending: ascending, isDistinct: true)
    }

    /// The same operations on `owner` (the owning object in another realm or version).
    func moved(to owner: _CollectionOwner) -> _ValueResults {
        _ValueResults(owner: owner, kind: kind, filters: filters, ascending: ascending, isDistinct: isDistinct)
    }

    /// The elements now: the collection's current elements, filtered, made distinct, sorted
    /// (stable: equal values keep the collection's order).
    func evaluate<Element: RealmCollectionValue>(_: Element.Type) -> [Element] {
        let elements: [Element] =
            switch kind {
            case .list: List<Element>(owner: owner).snapshot
            case .set: MutableSet<Element>(owner: owner).snapshot
            case .map: Map<String, Element>(owner: owner).values
            }
        if filters.isEmpty, ascending == nil, !isDistinct { return elements }
        var kept: [(element: Element, value: StoreValue)] = []
        kept.reserveCapacity(elements.count)
        for element in elements {
            let value = coreScalar(element._strataPropertyValue) ?? .null
            if filters.allSatisfy({ $0.matches(value) }) { kept.append((element, value)) }
        }
        if isDistinct {
            var seen = Set<Element>()
            kept = kept.filter { seen.insert($0.element).inserted }
        }
        if let ascending {
            // Stable: sort the positions with the position as the last tie-breaker.
            let order = kept.indices.sorted { i, j in
                let (a, b) = (kept[i].value, kept[j].value)
                if ascending ? StoreValuePredicate.precedes(a, b) : StoreValuePredicate.precedes(b, a) { return true }
                if ascending ? StoreValuePredicate.precedes(b, a) : StoreValuePredicate.precedes(a, b) { return false }
                return i < j
            }
            return order.map { kept[$0].element }
        }
        return kept.map(\.element)
    }
}
