import Foundation

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
