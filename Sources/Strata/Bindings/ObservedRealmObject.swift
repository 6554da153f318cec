import Foundation

#if canImport(SwiftUI)
    import SwiftUI
#endif

/// A property wrapper that holds an object (an `Object` or `EmbeddedObject`) or a `List`,
/// frozen, and kept current: after each commit (of any thread or process) that changes it, the
/// wrapped value is replaced by the newer frozen value, and Observation trackings that read it
/// are told. Once the object (or the list's owner) is deleted the wrapped value is a new
/// unmanaged object of its class (an empty unmanaged list), as in RealmSwift.
///
/// ```swift
/// @ObservedRealmObject var dog: Dog          // dog: a managed Dog
///
/// print(dog.name)                            // frozen: readable on any thread
/// $dog.favoriteToy.wrappedValue = "Wubba"    // a quick write (TextField("Toy", text: $dog.favoriteToy))
/// $person.dogs.append(newDog)                // quick write to a list property
/// $dog.delete()
///
/// @ObservedRealmObject var dogs = person.dogs // a List<Dog>
/// $dogs.append(Dog())                        // quick writes to the list
/// $dogs.move(fromOffsets: [0], toOffset: 2)
/// $dogs.remove(atOffsets: [1])
/// ```
///
/// `$dog` is a ``Wrapper`` whose members are bindings that write implicitly: setting one thaws
/// the object and writes in a write transaction (joining the realm's current one if there is
/// one), skipping a value that did not change. For a list, `$dogs` is a ``BoundCollection``:
/// `append`, `remove(at:)`, `remove(atOffsets:)`, `move(fromOffsets:toOffset:)` write the same
/// way. Unmanaged objects and lists are held as they are, not observed, and written directly. Making the wrapper turns on
/// ``Realm/isObservationTrackingEnabled``.
///
/// ## Concurrency
/// The wrapped value is frozen (when managed) and may be read on any thread; the
/// `$`-writes run on the calling thread, in a realm of the object's configuration confined to it.
@propertyWrapper
public struct ObservedRealmObject<ObjectType> {
    /// The `$`-value of an ``ObservedRealmObject``: for an object, each member is a binding that
    /// writes implicitly (`$dog.name`), and `delete()` deletes the object; for a list, the
    /// ``BoundCollection`` methods write implicitly (`$dogs.append(dog)`).
    @dynamicMemberLookup
    public struct Wrapper {
        /// The object or list (frozen when managed).
        public var wrappedValue: ObjectType

        /// A binding to `keyPath` of the object; setting it writes in a quick write.
        public subscript<Subject>(dynamicMember keyPath: ReferenceWritableKeyPath<ObjectType, Subject>) -> Binding<
            Subject
        > where ObjectType: ObjectBase {
            ObjectBinding.make(wrappedValue, keyPath)
        }

        /// Deletes the object from its realm in a quick write.
        public func delete() where ObjectType: ObjectBase {
            QuickWrite.delete(wrappedValue)
        }
    }

    private let storage: ObservedValueStorage<ObjectType?>
    private let defaultValue: ObjectType

    /// The object or list, frozen at the newest version the notifications delivered; a new
    /// unmanaged object (an empty unmanaged list) once it (its owner) was deleted.
    public var wrappedValue: ObjectType {
        storage.value ?? defaultValue
    }

    /// The object's bindings.
    public var projectedValue: Wrapper {
        Wrapper(wrappedValue: wrappedValue)
    }

    /// Observes `wrappedValue` (live, frozen or unmanaged).
    public init(wrappedValue: ObjectType) where ObjectType: ObjectBase {
        defaultValue = ObjectType()
        storage = ObservedObjectSubscription.storage(for: wrappedValue)
    }

    /// Observes the list `wrappedValue` (live, frozen or unmanaged).
    public init<Element>(wrappedValue: ObjectType) where ObjectType == List<Element> {
        defaultValue = List<Element>()
        storage = ObservedListSubscription.storage(for: wrappedValue)
    }

    /// Observes the projection `wrappedValue` through its projected object; once that object
    /// is deleted the wrapped value projects a new unmanaged object.
    public init(wrappedValue: ObjectType) where ObjectType: ProjectionObservable {
        defaultValue = ObjectType(projecting: ObjectType.Root())
        storage = ObservedProjectionSubscription.storage(for: wrappedValue)
    }
}

/// For a wrapped list, `$dogs.append(dog)`, `$dogs.remove(atOffsets:)` and
/// `$dogs.move(fromOffsets:toOffset:)` write implicitly.
extension ObservedRealmObject.Wrapper: BoundCollection where ObjectType: RealmCollectionBase {}
