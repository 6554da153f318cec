import Foundation

/// Values that can be read as a `PropertyValue`. Not API.
///
/// ## Concurrency
/// Marker; no state.
public protocol _PropertyValueEncodable {
    var _strataPropertyValue: PropertyValue { get }
}
