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
/// For an unmanaged object the `id` is derived from the instance's identity, so two instances
/// never share one. (The object layer will return the stored object key for managed objects.)
///
/// ## Concurrency
/// Adds no state; the conforming object's rules apply.
public protocol ObjectKeyIdentifiable: Identifiable {}

extension ObjectKeyIdentifiable where Self: ObjectBase {
    /// A value unique to this instance while it is alive.
    public var id: UInt64 {
        UInt64(UInt(bitPattern: ObjectIdentifier(self)))
    }
}
