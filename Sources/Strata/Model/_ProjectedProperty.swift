import Foundation

/// One `@Projected` property of a projection class, as the schema generator lists it. Not API:
/// the generated code makes these.
///
/// ## Concurrency
/// Immutable; key paths are immutable values.
public struct _ProjectedProperty: @unchecked Sendable {
    /// The projection's property name (`homeCity`).
    public let label: String
    /// The projection's property (`\PersonProjection.homeCity`).
    public let projectionKeyPath: AnyKeyPath
    /// The path of persisted properties of the projected class the value is read from
    /// (`address.city`; for a `projectTo` mapping, the list and the property of its elements:
    /// `friends.firstName`).
    public let origin: String

    /// A projected property.
    public init(label: String, projectionKeyPath: AnyKeyPath, origin: String) {
        self.label = label
        self.projectionKeyPath = projectionKeyPath
        self.origin = origin
    }
}
