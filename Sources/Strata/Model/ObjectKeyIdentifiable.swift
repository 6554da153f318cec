/// Makes a model `Identifiable` (for SwiftUI lists and diffing) with an `id` that needs no
/// property of its own.
///
/// ```swift
/// final class Dog: Object, ObjectKeyIdentifiable {
///     @Persisted var name = ""
/// }
/// ForEach(dogs) { dog in Text(dog.name) }
/// ```
///
/// A managed object's `id` is its object key, the same for every read of one stored object (so
/// lists of objects read again diff by it), as in RealmSwift; keys are unique within a class, not
/// across classes. An unmanaged object's `id` is derived from the instance, so two instances
/// never share one while both are alive; adding the object to a realm changes its `id`.
///
/// ## Concurrency
/// Adds no state; the conforming object's rules apply.
public protocol ObjectKeyIdentifiable: Identifiable {}

extension ObjectKeyIdentifiable where Self: ObjectBase {
    /// The object key of a managed object; for an unmanaged one, a value unique to the instance
    /// while it is alive.
    public var id: UInt64 {
        if let state = _strataManaged { return UInt64(bitPattern: state.key) }
        return UInt64(UInt(bitPattern: ObjectIdentifier(self)))
    }
}
