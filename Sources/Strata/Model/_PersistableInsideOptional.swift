import Foundation

/// Types that may be wrapped in an optional property (`T?`): values, objects, enums.
///
/// ## Concurrency
/// Marker; no state.
public protocol _PersistableInsideOptional: _PropertyValueConvertible {}
