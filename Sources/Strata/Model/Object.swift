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
/// The StrataPlugin build plugin generates each model's schema, accessors and key-path tables (see
/// `ObjectSchemaProviding`). A model class may be `final` or not, nested in a type, or a subclass of
/// another model class (then a class of its own, with its superclass's properties first, as in
/// RealmSwift); Docs/SchemaCompiler.md lists what the plugin accepts.
///
/// ## Concurrency
/// Not `Sendable`. An unmanaged object is a plain class instance; a managed one (object layer) is
/// confined to its realm's thread, queue or actor.
open class Object: ObjectBase {
    /// Creates an unmanaged object whose properties hold their declared default values.
    public required init() {}
}
