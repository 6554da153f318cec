import Foundation
internal import StrataCore
internal import StrataStorage

/// What a `ThreadSafeReference` can carry: `Object` subclasses, `Results`, and the managed
/// collections `List`, `MutableSet`, `Map` and `LinkingObjects`.
public protocol ThreadConfined {
    /// The realm the value belongs to, nil when unmanaged.
    var realm: Realm? { get }
    /// Whether the value was deleted or its realm invalidated.
    var isInvalidated: Bool { get }
}
