import Foundation

#if canImport(SwiftUI)
    import SwiftUI
#endif

/// A property wrapper that holds an object, frozen, and kept current: after each commit (of any
/// thread or process) that changes it, the wrapped value is replaced by the newer frozen object,
/// and Observation trackings that read it are told. Once the object is deleted the wrapped value
/// is a new unmanaged object of its class, as in RealmSwift.
///
/// ```swift
/// @ObservedRealmObject var dog: Dog          // dog: a managed Dog
///
/// print(dog.name)                            // frozen: readable on any thread
/// $dog.favoriteToy.wrappedValue = "Wubba"    // a quick write (TextField("Toy", text: $dog.favoriteToy))
/// $person.dogs.append(newDog)                // quick write to a list property
/// $dog.delete()
/// ```
///
/// `$dog` is a ``Wrapper`` whose members are bindings that write implicitly: setting one thaws
/// the object and writes in a write transaction (joining the realm's current one if there is
/// one), skipping a value that did not change. Unmanaged objects are held as they are, not
/// observed, and written directly. Making the wrapper turns on
/// ``Realm/isObservationTrackingEnabled``.
///
/// ## Concurrency
/// The wrapped value is frozen (when managed) and may be read on any thread; the
/// `$`-writes run on the calling thread, in a realm of the object's configuration confined to it.
@propertyWrapper
public struct ObservedRealmObject<ObjectType: ObjectBase> {
    /// The `$`-value of an ``ObservedRealmObject``: each member is a binding that writes
    /// implicitly (`$dog.name`), and `delete()` deletes the object.
    @dynamicMemberLookup
    public struct Wrapper {
        /// The object (frozen when managed).
        public var wrappedValue: ObjectType

        /// A binding to `keyPath` of the object; setting it writes in a quick write.
        public subscript<Subject>(dynamicMember keyPath: ReferenceWritableKeyPath<ObjectType, Subject>) -> Binding<
            Subject
        > {
            ObjectBinding.make(wrappedValue, keyPath)
        }

        /// Deletes the object from its realm in a quick write.
        public func delete() {
            QuickWrite.delete(wrappedValue)
        }
    }

    private let storage: ObservedValueStorage<ObjectType?>
    private let defaultValue: ObjectType

    /// The object, frozen at the newest version the notifications delivered; a new unmanaged
    /// object once it was deleted.
    public var wrappedValue: ObjectType {
        storage.value ?? defaultValue
    }

    /// The object's bindings.
    public var projectedValue: Wrapper {
        Wrapper(wrappedValue: wrappedValue)
    }

    /// Observes `wrappedValue` (live, frozen or unmanaged).
    public init(wrappedValue: ObjectType) {
        defaultValue = ObjectType()
        storage = ObservedObjectSubscription.storage(for: wrappedValue)
    }
}
