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
    public init(
        make: @escaping @Sendable () -> Root, properties: [PropertyAccessor<Root>],
        bindPropertyIndexes: @escaping @Sendable (Root) -> Void
    ) {
        self.makeObject = make
        self.properties = properties
        self.bind = bindPropertyIndexes
        // Sized once: growing a dictionary re-hashes its key paths (this runs when a process
        // first opens a realm of the class, on the open's path).
        var keyPathIndex = [AnyKeyPath: Int](minimumCapacity: properties.count)
        var nameIndex = [String: Int](minimumCapacity: properties.count)
        for index in properties.indices {
            keyPathIndex[properties[index].keyPath] = index
            nameIndex[properties[index].name] = index
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
