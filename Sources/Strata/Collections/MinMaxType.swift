import Foundation

/// Values that have a smallest and a largest: the element types of collections with `min()`
/// and `max()` (RealmSwift's name). Integers, `Float`, `Double`, `Date`, `Decimal128` and their
/// optionals.
///
/// ## Concurrency
/// Marker; no state.
public protocol MinMaxType {}

extension Int: MinMaxType {}
extension Int8: MinMaxType {}
extension Int16: MinMaxType {}
extension Int32: MinMaxType {}
extension Int64: MinMaxType {}
extension Float: MinMaxType {}
extension Double: MinMaxType {}
extension Decimal128: MinMaxType {}
extension Date: MinMaxType {}
extension Optional: MinMaxType where Wrapped: MinMaxType {}
