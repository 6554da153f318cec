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

/// Generated, reflection-free access to the objects of one model class.
///
/// ```swift
/// let dog = Dog.strataAccessors.make()                        // new unmanaged Dog
/// try Dog.strataAccessors.setValue(.string("Rex"), forProperty: "name", of: dog)
/// Dog.strataAccessors.value(ofProperty: "name", of: dog)       // .string("Rex")
/// ```
///
/// ## Concurrency
/// `Sendable`: immutable after generation; its key paths name stored properties and capture no
/// values (hence `@unchecked`, since `PartialKeyPath` is not declared `Sendable`).
public struct ObjectAccessors<Root: ObjectBase>: @unchecked Sendable {
    /// The properties' accessors, in schema order.
    public let properties: [PropertyAccessor<Root>]
    private let makeObject: @Sendable () -> Root
    private let bind: @Sendable (Root) -> Void
    private let keyPathIndex: [AnyKeyPath: Int]
    private let nameIndex: [String: Int]
    /// `make` and `bindPropertyIndexes` for the object layer, which knows the class only as
    /// `ObjectBase`. Made here, where `Root` is a parameter, so that calling them looks up no
    /// generic metadata per object: closures made in the object layer's generic code did, which
    /// took 6-11% of the samples of reading a frozen `Results` (`strata-bench concurrency`).
    let erasedMake: @Sendable () -> ObjectBase
    let erasedBind: @Sendable (ObjectBase) -> Void

    /// Called by generated code only.
    public init(make: @escaping @Sendable () -> Root, properties: [PropertyAccessor<Root>],
                bindPropertyIndexes: @escaping @Sendable (Root) -> Void) {
        self.makeObject = make
        self.properties = properties
        self.bind = bindPropertyIndexes
        var keyPathIndex: [AnyKeyPath: Int] = [:]
        var nameIndex: [String: Int] = [:]
        for (index, property) in properties.enumerated() {
            keyPathIndex[property.keyPath] = index
            nameIndex[property.name] = index
        }
        self.keyPathIndex = keyPathIndex
        self.nameIndex = nameIndex
        erasedMake = make
        erasedBind = { object in bindPropertyIndexes(object as! Root) }
    }

    /// A new unmanaged instance with its declared defaults.
    public func make() -> Root {
        makeObject()
    }

    /// Stores each property's schema index in its `@Persisted` wrapper, once per object, so a managed
    /// read can find its column without a lookup. The object layer calls it when an object becomes
    /// managed.
    public func bindPropertyIndexes(of object: Root) {
        bind(object)
    }

    /// The schema index of the property `keyPath` names.
    public func index(for keyPath: AnyKeyPath) -> Int? {
        keyPathIndex[keyPath]
    }

    /// The schema index of the property named `name`.
    public func index(forName name: String) -> Int? {
        nameIndex[name]
    }

    /// The value of the property named `name`, or nil for an unknown name.
    public func value(ofProperty name: String, of object: Root) -> PropertyValue? {
        index(forName: name).map { properties[$0].get(object) }
    }

    /// Writes the property named `name`.
    /// - Throws: `AccessorError.unknownProperty`, `.readOnly` (LinkingObjects), or
    ///   `.invalidValue` when the value does not fit the property's type.
    public func setValue(_ value: PropertyValue, forProperty name: String, of object: Root) throws(AccessorError) {
        guard let index = index(forName: name) else {
            throw .unknownProperty(className: Root.className(), property: name)
        }
        guard let set = properties[index].set else {
            throw .readOnly(className: Root.className(), property: name)
        }
        do {
            try set(object, value)
        } catch {
            throw .invalidValue(error)
        }
    }
}

/// Why `ObjectAccessors.setValue` failed.
///
/// ## Concurrency
/// A plain value; `Sendable`.
public enum AccessorError: Error, Equatable, Sendable, CustomStringConvertible {
    case unknownProperty(className: String, property: String)
    case readOnly(className: String, property: String)
    case invalidValue(PropertyValueError)

    /// A sentence that names the property and what to do.
    public var description: String {
        switch self {
        case .unknownProperty(let className, let property):
            "\(className) has no persisted property '\(property)'; check the name against \(className).strataObjectSchema"
        case .readOnly(let className, let property):
            "'\(className).\(property)' is a LinkingObjects property: it is computed from the links pointing at the object; write the origin property instead"
        case .invalidValue(let error):
            error.description
        }
    }
}

/// Read and write access to one property, generated as closures that touch the property directly
/// (`{ $0.name }`), so no key path is evaluated per access.
///
/// ## Concurrency
/// `Sendable` (see `ObjectAccessors`).
public struct PropertyAccessor<Root: ObjectBase>: @unchecked Sendable {
    /// The property's name.
    public let name: String
    /// The key path of the property, for the key-path table: rooted at the model class (which
    /// is `Root` itself, or a subclass of it for a subclass of a model).
    public let keyPath: AnyKeyPath
    /// Reads the property.
    public let get: @Sendable (Root) -> PropertyValue
    /// Writes the property; nil for `LinkingObjects`, which are never written.
    public let set: (@Sendable (Root, PropertyValue) throws(PropertyValueError) -> Void)?

    /// Called by generated code only.
    public init(name: String, keyPath: AnyKeyPath, get: @escaping @Sendable (Root) -> PropertyValue,
                set: (@Sendable (Root, PropertyValue) throws(PropertyValueError) -> Void)?) {
        self.name = name
        self.keyPath = keyPath
        self.get = get
        self.set = set
    }
}
