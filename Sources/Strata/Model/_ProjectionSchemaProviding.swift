import Foundation

/// The generated list of a projection class's `@Projected` properties. Not API: the schema
/// generator conforms each `Projection` subclass of the target.
public protocol _ProjectionSchemaProviding: AnyObject {
    /// The projected properties, in declaration order.
    static var _strataProjectedProperties: [_ProjectedProperty] { get }
}
