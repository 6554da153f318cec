import Foundation

/// Types that can carry a secondary index.
///
/// ## Concurrency
/// Marker; no state.
public protocol _Indexable: _Persistable {}
