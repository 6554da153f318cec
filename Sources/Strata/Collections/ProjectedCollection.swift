import Foundation

/// The values of one property of each object of a list or set, in the collection's order: what
/// a projection's `@Projected(\Person.friends.projectTo.firstName)` property reads.
///
/// ```swift
/// class PersonProjection: Projection<Person> {
///     @Projected(\Person.friends.projectTo.firstName) var friendsFirstNames: ProjectedCollection<String>
/// }
/// print(Array(projection.friendsFirstNames))   // ["Ann", "Bo"]
/// ```
///
/// Live: each access reads the collection as it is now (a frozen projection's reads the frozen
/// collection). Read-only: change the values through the objects.
///
/// ## Concurrency
/// Not `Sendable`: confined with the collection's realm; a frozen one may be read from any thread.
public struct ProjectedCollection<Element>: RandomAccessCollection, CustomStringConvertible, ThreadConfined {
    private let source: _ProjectedSource<Element>

    init(source: _ProjectedSource<Element>) {
        self.source = source
    }

    /// The position of the first value (0).
    public var startIndex: Int { 0 }
    /// The number of values; equals `count`.
    public var endIndex: Int { source.count() }

    /// The value of the object at `position`.
    public subscript(position: Int) -> Element {
        let count = source.count()
        precondition(
            position >= 0 && position < count, "Index \(position) is out of bounds (must be less than \(count)).")
        return source.element(position)
    }

    /// The realm of the collection, nil when it is unmanaged.
    public var realm: Realm? { source.realm() }

    /// Whether the object owning the collection was deleted (or its realm invalidated).
    public var isInvalidated: Bool { source.isInvalidated() }

    /// Whether the collection is frozen.
    public var isFrozen: Bool { realm?.isFrozen ?? false }

    /// The values of the frozen collection, readable from any thread.
    public func freeze() -> ProjectedCollection {
        ProjectedCollection(source: source.freeze())
    }

    /// The values of the live collection in the calling thread's realm, or nil when it is gone.
    public func thaw() -> ProjectedCollection? {
        source.thaw().map { ProjectedCollection(source: $0) }
    }

    /// The values, as an array literal would print them.
    public var description: String {
        "ProjectedCollection<\(Element.self)>(\(Array(self)))"
    }
}

/// Where a `ProjectedCollection` reads: a list or set and the key path of its elements. Not API.
///
/// ## Concurrency
/// Confined with the collection's realm, as the collection.
struct _ProjectedSource<Element>: @unchecked Sendable {
    var count: () -> Int
    var element: (Int) -> Element
    var realm: () -> Realm?
    var isInvalidated: () -> Bool
    var freeze: () -> _ProjectedSource
    var thaw: () -> _ProjectedSource?

    /// The values of `keyPath` of the elements of `list`.
    static func list<O: ObjectBase>(_ list: List<O>, _ keyPath: KeyPath<O, Element>) -> _ProjectedSource {
        _ProjectedSource(
            count: { list.count }, element: { list[$0][keyPath: keyPath] }, realm: { list.realm },
            isInvalidated: { list.isInvalidated }, freeze: { .list(list.freeze(), keyPath) },
            thaw: { list.thaw().map { .list($0, keyPath) } })
    }

    /// The values of `keyPath` of the elements of `set`.
    static func set<O: ObjectBase>(_ set: MutableSet<O>, _ keyPath: KeyPath<O, Element>) -> _ProjectedSource {
        _ProjectedSource(
            count: { set.count }, element: { set[$0][keyPath: keyPath] }, realm: { set.realm },
            isInvalidated: { set.isInvalidated }, freeze: { .set(set.freeze(), keyPath) },
            thaw: { set.thaw().map { .set($0, keyPath) } })
    }
}
