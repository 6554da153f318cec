import Foundation

/// Types that can be a primary key: Int, String, ObjectId, UUID and their optionals.
///
/// ## Concurrency
/// Marker; no state.
public protocol _PrimaryKey: _Persistable {}
