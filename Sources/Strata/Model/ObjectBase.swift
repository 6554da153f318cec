/// The common base class of `Object`, `EmbeddedObject` and `AsymmetricObject`.
///
/// You never subclass `ObjectBase` directly; derive your models from one of the three classes above.
/// It holds what every model shares: equality and hashing with RealmSwift's rules (see
/// `==`) and the link to the generated schema.
///
/// ## Concurrency
/// Not `Sendable`. An unmanaged object is an ordinary class instance: share it across threads only
/// with your own synchronization. (Managed objects, added by the object layer, are confined to the
/// thread, queue or actor of their realm.)
open class ObjectBase: Hashable, CustomStringConvertible {
    /// Creates an unmanaged object whose properties hold their declared default values.
    public required init() {}

    /// Where a managed object lives (realm, table, object key); nil while unmanaged. Not API.
    ///
    /// Confined with the object (its realm's thread, queue or actor, or the one thread that owns
    /// it unmanaged), so it opts out of the run-time exclusivity check of a class property, about
    /// 75 instructions on every object made by a read.
    @exclusivity(unchecked) public internal(set) final var _strataManaged: ManagedObjectState?

    /// The realm managing this object, or nil when it is unmanaged.
    public var realm: Realm? { _strataManaged?.realm }

    /// Whether the object was deleted from its realm (or its realm was invalidated); always false
    /// for unmanaged objects.
    public var isInvalidated: Bool {
        guard let state = _strataManaged, state.realm.checkThread() else { return false }
        return !state.realm.objectExists(state)
    }

    /// The name of the model class, as stored in the schema.
    open class func className() -> String {
        String(describing: self)
    }

    /// The names the class's properties are stored under, by Swift name, when they differ:
    /// override it to store a property under another name (RealmSwift's `propertiesMapping()`).
    ///
    /// ```swift
    /// class Person: Object {
    ///     @Persisted var firstName = ""
    ///     override class func propertiesMapping() -> [String: String] { ["firstName": "first_name"] }
    /// }
    /// ```
    ///
    /// The StrataPlugin reads the returned dictionary literal at build time (write it as a
    /// literal of string literals); queries, key paths, `objectSchema` and `create(_:value:)`
    /// keep using the Swift names. Each class of a hierarchy maps the properties it declares.
    open class func propertiesMapping() -> [String: String] {
        [:]
    }

    /// The generated schema of this object's class. A class without a generated conformance (its
    /// target does not use the StrataPlugin build plugin) has a schema without properties.
    public var objectSchema: ObjectSchema {
        (type(of: self) as? any ObjectSchemaProviding.Type)?.strataObjectSchema
            ?? ObjectSchema(className: type(of: self).className(), kind: _strataKind, properties: [])
    }

    /// The class name and every persisted property's value, one per line, as RealmSwift prints
    /// objects (`Dog {\n\tname = Rex;\n\tage = 3;\n}`); linked objects and collections are
    /// printed nested, up to five levels deep.
    open var description: String {
        _strataDescription(depth: 0)
    }

    /// Whether two objects are equal, as RealmSwift defines it: a managed object whose class has
    /// a primary key, or a frozen object, equals every object that `isSameObject(as:)` it (so two
    /// reads of one stored object are equal); any other object equals only itself.
    ///
    /// ```swift
    /// let a = realm.object(ofType: Dog.self, forPrimaryKey: 1)!
    /// let b = realm.objects(Dog.self).first { $0.id == 1 }!
    /// a == b                      // true: Dog has a primary key
    /// a.freeze() == b.freeze()    // true: frozen copies of one object at one version
    /// ```
    public static func == (lhs: ObjectBase, rhs: ObjectBase) -> Bool {
        _strataEqual(lhs, rhs)
    }

    /// Hashes the object consistently with `==`: its primary key's value when its class has one
    /// (also while unmanaged, so adding the object keeps its hash), its object key when frozen,
    /// its instance otherwise.
    public func hash(into hasher: inout Hasher) {
        _strataHash(into: &hasher)
    }
}
