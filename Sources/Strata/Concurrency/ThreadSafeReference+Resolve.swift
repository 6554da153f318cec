import Foundation
internal import StrataCore
internal import StrataStorage

extension ThreadSafeReference {
    /// Whether the reference was resolved already: a reference resolves once, and then can no
    /// longer be resolved (RealmSwift's `isInvalidated`).
    public var isInvalidated: Bool {
        lock.lock()
        defer { lock.unlock() }
        return resolved
    }

    /// The value in `realm`, made from what the reference remembers, without using the reference
    /// up (for `@ThreadSafe`, which resolves on every read); nil when it was deleted or `realm` is
    /// of another file.
    func resolveAgain(in realm: Realm) -> Confined? {
        guard realm.checkThread(), path == realm.file.path else { return nil }
        guard let type = Confined.self as? any _ThreadSafeResolvable.Type else { return nil }
        return type._strataResolve(
            in: realm, className: className, key: key, propertyIndex: propertyIndex, query: query) as? Confined
    }
}

extension Realm {
    /// The value `reference` points to, in this realm: an object (nil if deleted), results (run
    /// again here), or a collection of an object (nil if the object was deleted). Resolves once,
    /// as in RealmSwift; resolving inside a write transaction is an error.
    ///
    /// The generic form RealmSwift declares, for code generic over the referenced type:
    ///
    /// ```swift
    /// func hand<T: ThreadConfined>(_ reference: ThreadSafeReference<T>, to realm: Realm) -> T? {
    ///     realm.resolve(reference)
    /// }
    /// ```
    public func resolve<Confined: ThreadConfined>(_ reference: ThreadSafeReference<Confined>) -> Confined? {
        guard prepareToResolve(reference) else { return nil }
        return reference.resolveAgain(in: self)
    }
}
