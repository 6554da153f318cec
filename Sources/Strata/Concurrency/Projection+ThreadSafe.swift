import Foundation
internal import StrataCore

extension Projection: _ProjectionRoot {
    var _strataRootObject: ObjectBase { rootObject }
}

/// A `ThreadSafeReference` to a projection remembers its object and resolves to a new projection
/// of that object in the resolving realm (nil when the object was deleted).
extension Projection: _ThreadSafeResolvable {
    static func _strataResolve(
        in realm: Realm, className: String, key: Int64?, propertyIndex: Int?, query: StoreQuery?
    ) -> Self? {
        Root._strataResolve(in: realm, className: className, key: key, propertyIndex: propertyIndex, query: query)
            .map { Self(projecting: $0) }
    }
}
