/// The contract between the code the StrataPlugin build plugin generates and the runtime: what
/// the runtime uses instead of reflection.
///
/// For each model class the generator writes an extension conforming to this protocol:
///
/// ```swift
/// extension Dog: ObjectSchemaProviding {
///     typealias StrataRoot = Dog
///     static let strataObjectSchema = ObjectSchema(className: "Dog", kind: .object, properties: [...])
///     static let strataAccessors = ObjectAccessors<Dog>(make: { Dog() }, properties: [...],
///                                                       bindPropertyIndexes: { object in ... })
/// }
/// ```
///
/// Invariant: `strataAccessors.properties[i]` reads and writes `strataObjectSchema.properties[i]`.
/// You do not conform to this protocol by hand.
///
/// ## Concurrency
/// The static members are immutable and `Sendable`; the accessors they hold act on one object, under
/// that object's rules.
public protocol ObjectSchemaProviding: ObjectBase {
    /// The model class itself. An associated type rather than `Self`, so that model classes need
    /// not be `final` (the seeds and RealmSwift code declare `class Dog: Object`): a requirement
    /// of type `ObjectAccessors<Self>` cannot be met by a non-final class.
    associatedtype StrataRoot: ObjectBase
    /// The class's schema.
    static var strataObjectSchema: ObjectSchema { get }
    /// Creation, per-property read/write and the key-path table, in schema order.
    static var strataAccessors: ObjectAccessors<StrataRoot> { get }
    /// The schema of every model of the class's module (generated), so that a realm opened without
    /// `objectTypes` knows the classes a model links to.
    static var strataModuleSchema: Schema { get }
}

extension ObjectSchemaProviding {
    /// A schema holding only this class, for conformances written by hand.
    public static var strataModuleSchema: Schema {
        Schema(schemaVersion: 0, objectTypes: [self], migrations: [])
    }
}

extension ObjectSchemaProviding {
    /// The schema index of the property `keyPath` names, for type-safe queries
    /// (`\Dog.name` -> 1); nil for a key path that is not a persisted property of this class.
    /// Key paths are rooted at the class itself (`\Puppy.name` for a subclass of `Dog`).
    public static func strataPropertyIndex(for keyPath: AnyKeyPath) -> Int? {
        strataAccessors.index(for: keyPath)
    }

    /// The schema property `keyPath` names.
    public static func strataProperty(for keyPath: AnyKeyPath) -> Property? {
        strataPropertyIndex(for: keyPath).map { strataObjectSchema.properties[$0] }
    }
}
