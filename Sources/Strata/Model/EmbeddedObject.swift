/// The base class of embedded models: objects owned by exactly one parent object, stored with it
/// and deleted with it. They have no primary key and are not queried on their own.
///
/// ```swift
/// final class Address: EmbeddedObject {
///     @Persisted var street = ""
///     @Persisted var city = ""
/// }
/// final class Contact: Object {
///     @Persisted var name = ""
///     @Persisted var address: Address?
/// }
/// ```
///
/// ## Concurrency
/// Not `Sendable`; same rules as `Object`.
open class EmbeddedObject: ObjectBase {
    /// Creates an unmanaged embedded object whose properties hold their declared default values.
    public required init() {}
}
