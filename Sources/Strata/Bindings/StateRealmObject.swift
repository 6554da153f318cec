import Foundation

#if canImport(SwiftUI)
    import SwiftUI
#endif

/// A property wrapper that owns an object, or a `List`, `MutableSet` or `Map` (RealmSwift's
/// `@StateRealmObject`): like ``ObservedRealmObject`` its wrapped value is frozen (when
/// managed) and kept current by notifications, and it can be replaced; `$model` is a
/// ``Binding`` to the value: an object's members are bindings that write implicitly, a list's
/// or set's binding is a ``BoundCollection``, a map's a ``BoundMap``.
///
/// ```swift
/// @StateRealmObject var dog = Dog()
/// $dog.name.wrappedValue = "Rex"      // unmanaged: written directly
/// dog = realm.objects(Dog.self).first!  // observes the managed dog from now on
/// $dog.name.wrappedValue = "Max"      // a quick write
///
/// @StateRealmObject var dogs = person.dogs
/// $dogs.append(Dog(value: ["name": "Bandido"]))   // a quick write to the list
/// ```
///
/// Once a managed object (or a collection's owner) is deleted, the wrapped value is a new
/// unmanaged object (an empty unmanaged collection).
///
/// ## Concurrency
/// As ``ObservedRealmObject``.
@propertyWrapper
public struct StateRealmObject<T> {
    private let storage: ObservedValueStorage<T?>
    private let defaultValue: T
    /// Observes a new value (setting the wrapped value).
    private let observe: (ObservedValueStorage<T?>, T) -> Void

    /// The object or collection (frozen when managed); setting it observes the new value.
    public var wrappedValue: T {
        get { storage.value ?? defaultValue }
        nonmutating set { observe(storage, newValue) }
    }

    /// A binding to the value; an object's members (`$dog.name`) and a collection's methods
    /// (`$dogs.append(dog)`) write implicitly.
    public var projectedValue: Binding<T> {
        let storage = self.storage
        let defaultValue = self.defaultValue
        let observe = self.observe
        return Binding(get: { storage.value ?? defaultValue }, set: { observe(storage, $0) })
    }

    /// Owns and observes the object `wrappedValue`.
    public init(wrappedValue: T) where T: ObjectBase {
        defaultValue = T()
        storage = ObservedObjectSubscription.storage(for: wrappedValue)
        observe = { storage, newValue in
            storage.restart(
                with: ObservedObjectSubscription.frozen(newValue),
                configuration: ObservedObjectSubscription.configuration(of: newValue),
                subscribe: ObservedObjectSubscription.subscribe(newValue))
        }
    }

    /// Owns and observes the projection `wrappedValue` (through its projected object).
    public init(wrappedValue: T) where T: ProjectionObservable {
        defaultValue = T(projecting: T.Root())
        storage = ObservedProjectionSubscription.storage(for: wrappedValue)
        observe = { storage, newValue in
            let root = newValue.rootObject
            let subscribeRoot = ObservedObjectSubscription.subscribe(root)
            storage.restart(
                with: T(projecting: ObservedObjectSubscription.frozen(root)),
                configuration: ObservedObjectSubscription.configuration(of: root)
            ) { realm, queue, publish in
                subscribeRoot(realm, queue) { root in publish(root.map { T(projecting: $0) }) }
            }
        }
    }

    /// Owns and observes the list `wrappedValue`.
    public init<Element>(wrappedValue: T) where T == List<Element> {
        defaultValue = List<Element>()
        storage = ObservedCollectionSubscription.storage(ObservedCollectionSubscription.plan(wrappedValue))
        observe = { ObservedCollectionSubscription.restart($0, ObservedCollectionSubscription.plan($1)) }
    }

    /// Owns and observes the set `wrappedValue`.
    public init<Element>(wrappedValue: T) where T == MutableSet<Element> {
        defaultValue = MutableSet<Element>()
        storage = ObservedCollectionSubscription.storage(ObservedCollectionSubscription.plan(wrappedValue))
        observe = { ObservedCollectionSubscription.restart($0, ObservedCollectionSubscription.plan($1)) }
    }

    /// Owns and observes the map `wrappedValue`.
    public init<Key, Value>(wrappedValue: T) where T == Map<Key, Value> {
        defaultValue = Map<Key, Value>()
        storage = ObservedCollectionSubscription.storage(ObservedCollectionSubscription.plan(wrappedValue))
        observe = { ObservedCollectionSubscription.restart($0, ObservedCollectionSubscription.plan($1)) }
    }
}
