import Foundation

/// Types a `@Persisted` property can have. Not API: the conformances below are the whole list,
/// and the StrataPlugin build plugin checks declarations against the same list.
///
/// ## Concurrency
/// Marker; no state.
public protocol _Persistable: _PropertyValueEncodable {
    /// The value of a property declared without a default.
    static func _strataDefaultValue() -> Self
    /// Reads property `index` of the managed object `state` describes.
    static func _strataManagedGet(_ state: ManagedObjectState, _ index: Int) -> Self
    /// Writes property `index` of the managed object `state` describes (inside a write).
    static func _strataManagedSet(_ state: ManagedObjectState, _ index: Int, _ newValue: Self)
}
