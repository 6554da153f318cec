import Foundation

/// Values a `List`, `MutableSet` or `Map` can hold: the value types, their optionals, objects,
/// `PersistableEnum`s and `AnyRealmValue` (RealmSwift's name).
///
/// ## Concurrency
/// Marker; no state.
public protocol RealmCollectionValue: Hashable, _PropertyValueConvertible {}
