import Foundation
internal import StrataCore
internal import StrataStorage

/// A value `ThreadSafeReference` can make again in another realm from what it remembers. Not API.
protocol _ThreadSafeResolvable {
    static func _strataResolve(
        in realm: Realm, className: String, key: Int64?, propertyIndex: Int?, query: StoreQuery?
    ) -> Self?
}
