import Foundation

/// Values that can be sorted: the element types of collections with `sorted(ascending:)` and
/// `distinct()` (RealmSwift's name). The `MinMaxType`s, `Bool`, `String`, `ObjectId`, `UUID`,
/// and their optionals.
///
/// ## Concurrency
/// Marker; no state.
public protocol SortableType {}

extension Int: SortableType {}
extension Int8: SortableType {}
extension Int16: SortableType {}
extension Int32: SortableType {}
extension Int64: SortableType {}
extension Float: SortableType {}
extension Double: SortableType {}
extension Decimal128: SortableType {}
extension Date: SortableType {}
extension Bool: SortableType {}
extension String: SortableType {}
extension ObjectId: SortableType {}
extension UUID: SortableType {}
extension Optional: SortableType where Wrapped: SortableType {}
