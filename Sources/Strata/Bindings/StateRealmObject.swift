import Foundation

#if canImport(SwiftUI)
    import SwiftUI
#endif

/// A property wrapper that owns an object (RealmSwift's `@StateRealmObject`): like
/// ``ObservedRealmObject`` its wrapped value is frozen (when managed) and kept current by
/// notifications, and it can be replaced; `$model` is a ``Binding`` to the object, whose
/// members are bindings that write implicitly.
///
/// ```swift
/// @StateRealmObject var dog = Dog()
/// $dog.name.wrappedValue = "Rex"      // unmanaged: written directly
/// dog = realm.objects(Dog.self).first!  // observes the managed dog from now on
/// $dog.name.wrappedValue = "Max"      // a quick write
/// ```
///
/// ## Concurrency
/// As ``ObservedRealmObject``.
@propertyWrapper
public struct StateRealmObject<T: ObjectBase> {
    private let storage: ObservedValueStorage<T?>
    private let defaultValue: T

    /// The object (frozen when managed); setting it observes the new object.
    public var wrappedValue: T {
        get { storage.value ?? defaultValue }
        nonmutating set {
            storage.restart(
                with: ObservedObjectSubscription.frozen(newValue),
                configuration: ObservedObjectSubscription.configuration(of: newValue),
                subscribe: ObservedObjectSubscription.subscribe(newValue))
        }
    }

    /// A binding to the object; its members (`$dog.name`) write implicitly.
    public var projectedValue: Binding<T> {
        let storage = self.storage
        let defaultValue = self.defaultValue
        return Binding(
            get: { storage.value ?? defaultValue },
            set: { newValue in
                storage.restart(
                    with: ObservedObjectSubscription.frozen(newValue),
                    configuration: ObservedObjectSubscription.configuration(of: newValue),
                    subscribe: ObservedObjectSubscription.subscribe(newValue))
            })
    }

    /// Owns and observes `wrappedValue`.
    public init(wrappedValue: T) {
        defaultValue = T()
        storage = ObservedObjectSubscription.storage(for: wrappedValue)
    }
}
