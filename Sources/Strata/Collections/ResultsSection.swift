import Foundation

/// The elements of one section of `SectionedResults`: those whose section key is `key`, in the
/// sectioned results' sort order.
///
/// ```swift
/// let sections = realm.objects(Dog.self).sectioned(by: \.breed, ascending: true)
/// let section = sections[0]
/// print(section.key, section.count, section.first?.name ?? "-")
/// ```
///
/// A section is live: it reads the elements of its key in the realm's current version. When no
/// element has the key any more the section is empty (and `isInvalidated`); it fills again if
/// elements with the key come back.
///
/// ## Concurrency
/// Not `Sendable`: confined with its realm. A section of frozen sectioned results may be read
/// from any thread.
public struct ResultsSection<Key: _Persistable & Hashable, T: RealmCollectionValue>:
    RandomAccessCollection, Equatable, Identifiable, ThreadConfined
{
    /// An element of the section.
    public typealias Element = T

    let core: _SectionedResultsCore<Key, T>
    /// The key of the section: the value every element of the section has.
    public let key: Key

    init(core: _SectionedResultsCore<Key, T>, key: Key) {
        self.core = core
        self.key = key
    }

    /// The section's key, which identifies it among the sections.
    public var id: Key { key }

    /// The positions of the section's elements among the sorted elements, empty when no
    /// element has the key now.
    private var positions: [Int] {
        let layout = core.sections()
        guard let index = layout.indexByKey[key] else { return [] }
        return layout.positions[index]
    }

    /// The position of the first element (0).
    public var startIndex: Int { 0 }
    /// The number of elements; equals `count`.
    public var endIndex: Int { positions.count }

    /// The element at `position`.
    public subscript(position: Int) -> T {
        let positions = self.positions
        precondition(
            position >= 0 && position < positions.count,
            "Index \(position) is out of bounds (must be less than \(positions.count)).")
        return core.source.element(positions[position])
    }

    /// The realm of the elements.
    public var realm: Realm? { core.source.realm }

    /// Whether the section can no longer be read: the collection sectioned was invalidated, or
    /// no element has the section's key any more.
    public var isInvalidated: Bool {
        core.source.isInvalidated() || core.sections().indexByKey[key] == nil
    }

    /// Whether the section belongs to a frozen realm.
    public var isFrozen: Bool { realm?.isFrozen ?? false }

    /// The frozen section of the same key: its elements in the realm's current version,
    /// readable from any thread. A frozen section gives itself.
    public func freeze() -> ResultsSection {
        if isFrozen { return self }
        guard let frozen = core.frozen() else { return self }
        return ResultsSection(core: frozen, key: key)
    }

    /// The live section of the same key in the calling thread's realm, or nil when the
    /// collection is gone. A live section gives itself.
    public func thaw() -> ResultsSection? {
        guard isFrozen else { return self }
        return core.thawed().map { ResultsSection(core: $0, key: key) }
    }

    /// Whether both are the section of the same key of the same sectioned results.
    public static func == (lhs: ResultsSection, rhs: ResultsSection) -> Bool {
        lhs.core === rhs.core && lhs.key == rhs.key
    }
}
