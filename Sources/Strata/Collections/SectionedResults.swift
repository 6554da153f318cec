import Foundation

/// The objects of a collection, sorted and grouped into sections by a key: one
/// `ResultsSection` per distinct key, in the order the keys first appear in the sorted objects.
///
/// Made by `sectioned(by:ascending:)`, `sectioned(by:sortDescriptors:)` or
/// `sectioned(by:sortDescriptors:)` with a block, on `Results`, `List`, `MutableSet` and
/// `LinkingObjects` of objects:
///
/// ```swift
/// let byFirstLetter = realm.objects(Dog.self).sectioned(
///     by: { String($0.name.prefix(1)) }, sortDescriptors: [SortDescriptor(keyPath: "name")])
/// for section in byFirstLetter {
///     print(section.key, section.map(\.name))
/// }
/// let first = byFirstLetter[IndexPath(item: 0, section: 0)]
/// ```
///
/// Sectioned results are lazy and live, as `Results` are: each access reflects the realm's
/// current version (including the current write), and the sections are computed again, in one
/// pass over the sorted objects, only after the realm changed. Frozen sectioned results
/// (`freeze()`) keep the sections of the version they were frozen at.
///
/// ## Concurrency
/// Not `Sendable`: confined with its realm. Frozen sectioned results may be read from any
/// thread, also concurrently.
public struct SectionedResults<Key: _Persistable & Hashable, SectionElement: RealmCollectionValue>:
    RandomAccessCollection, Equatable, ThreadConfined
{
    /// A section: the elements of one key.
    public typealias Element = ResultsSection<Key, SectionElement>

    let core: _SectionedResultsCore<Key, SectionElement>

    init(core: _SectionedResultsCore<Key, SectionElement>) {
        self.core = core
    }

    /// The keys of the sections, in order.
    public var allKeys: [Key] { core.sections().keys }

    /// The position of the first section (0).
    public var startIndex: Int { 0 }
    /// The number of sections; equals `count`.
    public var endIndex: Int { core.sections().keys.count }

    /// The section at `position`.
    public subscript(position: Int) -> ResultsSection<Key, SectionElement> {
        let keys = core.sections().keys
        precondition(
            position >= 0 && position < keys.count,
            "Index \(position) is out of bounds (must be less than \(keys.count)).")
        return ResultsSection(core: core, key: keys[position])
    }

    /// The element at `indexPath`: item `indexPath.item` of section `indexPath.section`.
    public subscript(indexPath: IndexPath) -> SectionElement {
        self[indexPath[0]][indexPath[1]]
    }

    /// The realm of the elements.
    public var realm: Realm? { core.source.realm }

    /// Whether the collection sectioned can no longer be read: the object owning the list,
    /// set or linking objects it was made from was deleted.
    public var isInvalidated: Bool { core.source.isInvalidated() }

    /// Whether the sectioned results belong to a frozen realm.
    public var isFrozen: Bool { realm?.isFrozen ?? false }

    /// Frozen sectioned results: the sections of the realm's current version, readable from
    /// any thread. Frozen results give themselves.
    public func freeze() -> SectionedResults {
        if isFrozen { return self }
        guard let frozen = core.frozen() else { return self }
        return SectionedResults(core: frozen)
    }

    /// The live sectioned results of the same collection in the calling thread's realm, or
    /// nil when the collection is gone (its owner was deleted). Live results give themselves.
    public func thaw() -> SectionedResults? {
        guard isFrozen else { return self }
        return core.thawed().map { SectionedResults(core: $0) }
    }

    /// Whether both are the same sectioned results (made by the same `sectioned` call, or
    /// copies of its value), as RealmSwift compares them.
    public static func == (lhs: SectionedResults, rhs: SectionedResults) -> Bool {
        lhs.core === rhs.core
    }
}
