import Foundation

/// Maps the objects of a list or set to one of their properties, in a projection's key path:
/// `\Person.friends.projectTo.firstName` reads the `firstName` of each friend, as a
/// `ProjectedCollection<String>`.
///
/// ## Concurrency
/// Confined with the collection's realm, as the collection.
@dynamicMemberLookup
public struct CollectionElementMapper<Element: ObjectBase> {
    private let list: List<Element>?
    private let set: MutableSet<Element>?

    init(list: List<Element>) {
        self.list = list
        self.set = nil
    }

    init(set: MutableSet<Element>) {
        self.list = nil
        self.set = set
    }

    /// The values of `member` of each object of the collection, in its order.
    public subscript<V>(dynamicMember member: KeyPath<Element, V>) -> ProjectedCollection<V> {
        if let list { return ProjectedCollection(source: .list(list, member)) }
        return ProjectedCollection(source: .set(set!, member))
    }
}

extension List where Element: ObjectBase {
    /// The objects mapped to one of their properties, for a projection's key path:
    /// `@Projected(\Person.friends.projectTo.firstName) var friendsFirstNames: ProjectedCollection<String>`.
    public var projectTo: CollectionElementMapper<Element> { CollectionElementMapper(list: self) }
}

extension MutableSet where Element: ObjectBase {
    /// The objects mapped to one of their properties, for a projection's key path:
    /// `@Projected(\Person.pets.projectTo.name) var petNames: ProjectedCollection<String>`.
    public var projectTo: CollectionElementMapper<Element> { CollectionElementMapper(set: self) }
}
