import Foundation

/// What makes two collection elements "the same" for `contains`, `index(of:)` and set
/// uniqueness of managed collections: equal values, or the same stored object (same file, class
/// and key) even when the two are different `Object` instances, as RealmSwift compares managed
/// objects. Not API.
///
/// ## Concurrency
/// A plain value.
@usableFromInline
enum _CollectionElementIdentity: Hashable {
    case value(AnyHashable)
    case stored(file: ObjectIdentifier, table: String, key: Int64)
    case instance(ObjectIdentifier)

    init<Element: RealmCollectionValue>(_ element: Element) {
        guard case .object(let object) = element._strataPropertyValue else {
            self = .value(AnyHashable(element))
            return
        }
        if let state = object._strataManaged {
            self = .stored(file: ObjectIdentifier(state.realm.file), table: state.binding.className, key: state.key)
        } else {
            self = .instance(ObjectIdentifier(object))
        }
    }
}
