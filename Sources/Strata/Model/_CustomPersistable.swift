import Foundation

/// What `CustomPersistable` and `FailableCustomPersistable` share. Not API.
///
/// ## Concurrency
/// Marker; no state.
public protocol _CustomPersistable: _PersistableInsideOptional, RealmCollectionValue, _Persistable {
    /// The type the value is stored as.
    associatedtype PersistedType: _Persistable & _PropertyValueConvertible
}
