/// Declares a stored property of a model class.
///
/// ```swift
/// final class Dog: Object {
///     @Persisted(primaryKey: true) var _id: UUID       // a new UUID per unmanaged object
///     @Persisted var name = ""                          // type inferred from the default
///     @Persisted(indexed: true) var breed: String?
///     @Persisted var favoriteToy: DogToy?               // to-one link
///     @Persisted(originProperty: "dogs") var owners: LinkingObjects<Person>
///     @Persisted(originalName: "weight") var weightKg = 0.0
/// }
/// ```
///
/// The StrataPlugin build plugin reads these declarations at build time (names, types, default
/// values and the `primaryKey:`, `indexed:`, `originProperty:`, `originalName:` arguments) to
/// generate the schema, so the arguments must be literals. At run time the wrapper holds the value
/// of an unmanaged object, and the property's index in the schema once generated code binds it
/// (`ObjectAccessors.bindPropertyIndexes`), which is how the object layer will reach the stored
/// column of a managed object without a key-path lookup per access.
///
/// `@Persisted` only works inside `Object`, `EmbeddedObject` and `AsymmetricObject` subclasses:
/// reads and writes go through `subscript(_enclosingInstance:wrapped:storage:)`, which receives the
/// object.
///
/// ## Concurrency
/// The wrapper is part of its object and follows the object's rules.
@propertyWrapper
public struct Persisted<Value: _Persistable> {
    /// The value of an unmanaged object.
    @usableFromInline internal var storage: Value
    /// The property's index in its class's schema, or -1 until generated code binds it.
    @usableFromInline internal var propertyIndex: Int = -1

    /// Declares a property whose default is the type's zero value: `0`, `""`, `false`, empty data, a
    /// new `UUID` or `ObjectId`, the current `Date`, `nil` for optionals, an empty collection.
    public init() {
        storage = Value._strataDefaultValue()
    }

    /// Declares a property with a default value: `@Persisted var name = "Rex"`.
    public init(wrappedValue: Value) {
        storage = wrappedValue
    }

    /// Declares a property stored under a new name; `originalName` is its name in the previous
    /// schema version, so `strata-schema update` records a rename rather than a drop and an add.
    public init(originalName: String) {
        storage = Value._strataDefaultValue()
    }

    /// Declares a renamed property with a default value (see `init(originalName:)`).
    public init(wrappedValue: Value, originalName: String) {
        storage = wrappedValue
    }

    @available(
        *, unavailable,
        message: "@Persisted can only be used on properties of Object, EmbeddedObject or AsymmetricObject subclasses"
    )
    public var wrappedValue: Value {
        get { fatalError("unavailable") }
        set { fatalError("unavailable") }
    }

    /// The slot generated code uses to bind the property's schema index, or to store a value in
    /// an unmanaged object without running the property's `willSet`/`didSet`. Not API for users.
    ///
    /// Inlinable with the value path out of line: binding indexes runs for every object made
    /// by a read, and a setter the optimizer could not inline cost the `strata-bench w1` point_get 60% more
    /// instructions (generic metadata lookups per property; callgrind, n = 20,000).
    public var projectedValue: _PersistedSlot {
        @inlinable get { _PersistedSlot(propertyIndex: propertyIndex) }
        @inlinable set {
            if let pending = newValue.pendingValue {
                _store(pending)
            } else {
                propertyIndex = newValue.propertyIndex
            }
        }
    }

    /// Stores the value a `_PersistedSlot(storing:)` carries (generated setters of observed
    /// properties; unmanaged objects only).
    @usableFromInline @inline(never)
    internal mutating func _store(_ pending: _PendingValue) {
        if let value = pending.value as? Value { storage = value }
    }

    /// Reads and writes the property of `object`.
    ///
    /// Kept `@inlinable` and free of `wrappedKeyPath`: measured on this project's machine, a getter
    /// that mentions `wrappedKeyPath` costs ~30 ns (a key-path instantiation per access) and a
    /// non-inlinable one 3-4x the ~5-8 ns of a plain stored property.
    @inlinable @inline(__always)
    public static subscript<EnclosingSelf: ObjectBase>(
        _enclosingInstance object: EnclosingSelf,
        wrapped wrappedKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Value>,
        storage storageKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Persisted<Value>>
    ) -> Value {
        get {
            if let state = object._strataManaged {
                return Value._strataManagedGet(state, object[keyPath: storageKeyPath].propertyIndex)
            }
            return object[keyPath: storageKeyPath].storage
        }
        set {
            if let state = object._strataManaged {
                Value._strataManagedSet(state, object[keyPath: storageKeyPath].propertyIndex, newValue)
                return
            }
            object[keyPath: storageKeyPath].storage = newValue
        }
    }
}

extension Persisted where Value: _PrimaryKey {
    /// Declares the primary key (Int, String, ObjectId or UUID, optional allowed): unique, indexed.
    public init(primaryKey: Bool) {
        storage = Value._strataDefaultValue()
    }

    /// Declares the primary key with a default value.
    public init(wrappedValue: Value, primaryKey: Bool) {
        storage = wrappedValue
    }
}

extension Persisted where Value: PersistableEnum, Value.RawValue: _PrimaryKey {
    /// Declares a `PersistableEnum` with `Int` or `String` raw values as the primary key (stored
    /// as its raw value): unique, indexed.
    ///
    /// ```swift
    /// enum Size: Int, PersistableEnum { case small, large }
    /// final class Slot: Object { @Persisted(primaryKey: true) var size: Size }
    /// ```
    public init(primaryKey: Bool) {
        storage = Value._strataDefaultValue()
    }

    /// Declares an enum primary key with a default value.
    public init(wrappedValue: Value, primaryKey: Bool) {
        storage = wrappedValue
    }
}

extension Persisted {
    /// Declares an optional `PersistableEnum` primary key (nil is a key too, for one object).
    public init<E: PersistableEnum>(primaryKey: Bool) where Value == E?, E.RawValue: _PrimaryKey {
        storage = nil
    }

    /// Declares an optional enum primary key with a default value.
    public init<E: PersistableEnum>(wrappedValue: Value, primaryKey: Bool) where Value == E?, E.RawValue: _PrimaryKey {
        storage = wrappedValue
    }
}

extension Persisted where Value: _Indexable {
    /// Declares a property with a secondary index, for fast equality queries.
    public init(indexed: Bool) {
        storage = Value._strataDefaultValue()
    }

    /// Declares an indexed property with a default value.
    public init(wrappedValue: Value, indexed: Bool) {
        storage = wrappedValue
    }
}

extension Persisted where Value: _LinkingObjectsProtocol {
    /// Declares the inverse of a link: the objects whose `originProperty` links to this object.
    ///
    /// ```swift
    /// @Persisted(originProperty: "dogs") var owners: LinkingObjects<Person>
    /// ```
    public init(originProperty: String) {
        storage = Value(propertyName: originProperty)
    }
}
