import Foundation
internal import StrataCore
internal import StrataStorage

/// A property wrapper that keeps a live object or collection across threads and actors: it
/// remembers where the value lives (file, class, object key, property or query) and resolves it
/// on each read in the reading thread's realm:
///
/// ```swift
/// @ThreadSafe var dog = realm.objects(Dog.self).first
/// @ThreadSafe var puppies = realm.objects(Dog.self).where { $0.age < 2 }
/// DispatchQueue.global().async { print(dog?.name ?? "deleted", puppies?.count ?? 0) }
/// ```
///
/// Wraps `Object` subclasses, `Results`, `List`, `MutableSet`, `Map` and `LinkingObjects`, as
/// `ThreadSafeReference` does. Only managed values can be wrapped: assigning an unmanaged object
/// (or collection) stops the process with "Only managed objects may be wrapped as thread safe."
/// (through `Realm.violationHandler`, which may let it continue; the wrapper then holds nil).
///
/// ## Concurrency
/// `Sendable`; the value it returns is live on the reading thread.
@propertyWrapper
public final class ThreadSafe<T: ThreadConfined>: @unchecked Sendable {
    private let lock = NSLock()
    private var configuration: Realm.Configuration?
    private var reference: ThreadSafeReference<T>?

    /// Wraps `wrappedValue`, which must be managed (or nil).
    public init(wrappedValue: T?) {
        set(wrappedValue)
    }

    /// The value, resolved in the calling thread's realm (moved to the newest version); nil if
    /// unset or deleted.
    public var wrappedValue: T? {
        get {
            lock.lock()
            let (config, reference) = (configuration, self.reference)
            lock.unlock()
            guard let config, let reference, let realm = try? Realm(configuration: config) else { return nil }
            realm.refresh()
            return reference.resolveAgain(in: realm)
        }
        set { set(newValue) }
    }

    private func set(_ value: T?) {
        guard let value else {
            lock.lock()
            (configuration, reference) = (nil, nil)
            lock.unlock()
            return
        }
        guard let realm = value.realm, !(value is ObjectBase && (value as! ObjectBase)._strataManaged == nil) else {
            lock.lock()
            (configuration, reference) = (nil, nil)
            lock.unlock()
            return Realm.violation("Only managed objects may be wrapped as thread safe.", fallback: ())
        }
        let reference = ThreadSafeReference(to: value)
        lock.lock()
        (configuration, self.reference) = (realm.configuration, reference)
        lock.unlock()
    }
}

extension Object: _ThreadSafeResolvable {
    static func _strataResolve(
        in realm: Realm, className: String, key: Int64?, propertyIndex: Int?, query: StoreQuery?
    ) -> Self? {
        guard let key,
            let binding = self == DynamicObject.self
                ? realm.dynamicBinding(named: className) : realm.binding(for: self),
            realm.currentRow(binding, key) != nil
        else {
            return nil
        }
        return realm.object(binding, key: key) as? Self
    }
}

extension Results: _ThreadSafeResolvable {
    static func _strataResolve(
        in realm: Realm, className: String, key: Int64?, propertyIndex: Int?, query: StoreQuery?
    ) -> Self? {
        guard let query, let type = _resultsObjectType(Element.self) else { return nil }
        if type == DynamicObject.self {
            guard let binding = realm.dynamicBinding(named: className) else { return nil }
            return Results(realm: realm, query: query, objectType: type, values: nil, dynamicBinding: binding)
        }
        _ = realm.binding(for: type)
        return Results(realm: realm, query: query, objectType: type, values: nil)
    }
}

extension _OwnedCollection {
    static func _strataResolve(
        in realm: Realm, className: String, key: Int64?, propertyIndex: Int?, query: StoreQuery?
    ) -> Self? {
        guard let key, let propertyIndex, let binding = realm.binding(named: className),
            realm.currentRow(binding, key) != nil, let state = realm.object(binding, key: key)._strataManaged
        else { return nil }
        return make(_CollectionOwner(state: state, index: propertyIndex))
    }
}

extension List: _ThreadSafeResolvable {}
extension MutableSet: _ThreadSafeResolvable {}
extension Map: _ThreadSafeResolvable {}
extension LinkingObjects: _ThreadSafeResolvable {}
