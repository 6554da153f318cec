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
    public init(
        name: String, keyPath: AnyKeyPath, get: @escaping @Sendable (Root) -> PropertyValue,
        set: (@Sendable (Root, PropertyValue) throws(PropertyValueError) -> Void)?
    ) {
        self.name = name
        self.keyPath = keyPath
        self.get = get
        self.set = set
    }
}
