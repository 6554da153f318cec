import Foundation

/// Projections are elements of `Results`, as in RealmSwift: `realm.objects(PersonProjection.self)`
/// is a `Results<PersonProjection>`, queried, sorted, observed and frozen as the results of the
/// projected class are, each element a new projection of the object at that position.
extension Projection: RealmCollectionValue {
    /// The projected object, as a property value.
    public var _strataPropertyValue: PropertyValue { .object(rootObject) }

    /// A projection of the object `value` holds, nil when it holds no object of the projected
    /// class.
    public static func _strataFromPropertyValue(_ value: PropertyValue) -> Self? {
        guard case .object(let object) = value, let root = object as? Root else { return nil }
        return Self(projecting: root)
    }
}

extension Projection: _ProjectingElement {
    static func _strataProjecting(_ object: ObjectBase) -> Self? {
        (object as? Root).map { Self(projecting: $0) }
    }

    static var _strataRootType: ObjectBase.Type { Root.self }
}
