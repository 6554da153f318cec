import Foundation

/// Values that can also be written from a `PropertyValue`. Not API.
///
/// ## Concurrency
/// Marker; no state.
public protocol _PropertyValueConvertible: _PropertyValueEncodable {
    /// The value `value` stands for, or nil when it has the wrong kind or range.
    static func _strataFromPropertyValue(_ value: PropertyValue) -> Self?
}
