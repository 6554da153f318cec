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

/// The generated list of a projection class's `@Projected` properties. Not API: the schema
/// generator conforms each `Projection` subclass of the target.
public protocol _ProjectionSchemaProviding: AnyObject {
    /// The projected properties, in declaration order.
    static var _strataProjectedProperties: [_ProjectedProperty] { get }
}
