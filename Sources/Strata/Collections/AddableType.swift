import Foundation

/// Values that can be added up: the element types of collections with `sum()` and
/// `average()` (RealmSwift's name). Integers, `Float`, `Double`, `Decimal128` and their
/// optionals.
///
/// ## Concurrency
/// Marker; no state.
public protocol AddableType {}

extension Int: AddableType {}
extension Int8: AddableType {}
extension Int16: AddableType {}
extension Int32: AddableType {}
extension Int64: AddableType {}
extension Float: AddableType {}
extension Double: AddableType {}
extension Decimal128: AddableType {}
extension Optional: AddableType where Wrapped: AddableType {}
