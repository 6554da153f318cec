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
