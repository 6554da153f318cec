/// The base class of top-level model classes: objects stored in their own table, reachable by
/// queries, optionally with a primary key.
///
/// ```swift
/// final class Dog: Object, ObjectKeyIdentifiable {
///     @Persisted(primaryKey: true) var _id: UUID
///     @Persisted var name = ""
///     @Persisted var age = 0
/// }
/// let dog = Dog()      // unmanaged: its values live in the @Persisted wrappers
/// dog.name = "Rex"
/// ```
///
/// Model classes must be `final`: the StrataPlugin build plugin generates their schema, accessors and
/// key-path tables (see `ObjectSchemaProviding`), and reports a non-final model as a build error.
///
/// ## Concurrency
/// Not `Sendable`. An unmanaged object is a plain class instance; a managed one (object layer) is
/// confined to its realm's thread, queue or actor.
open class Object: ObjectBase {
    /// Creates an unmanaged object whose properties hold their declared default values.
    public required init() {}
}
