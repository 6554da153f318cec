/// A checked `@Persisted` property.
public struct ResolvedProperty: Hashable, Sendable {
    /// The Swift name (what queries, key paths and `objectSchema` use).
    public var name: String
    /// The name the property is stored under: `name`, unless `propertiesMapping()` maps it.
    public var columnName: String
    public var type: StorageType
    /// The Swift type of the property as the generated code must spell it, e.g. `List<Dog>`.
    public var swiftType: String
    /// The Swift type of one value (the element for collections), e.g. `Int8`, `Dog`, `Status`.
    public var valueSwiftType: String
    public var isOptional: Bool
    public var collection: CollectionKind
    public var objectClassName: String?
    public var linkOriginPropertyName: String?
    /// The `PersistableEnum` type, when the value is one (stored as its raw value).
    public var enumTypeName: String?
    public var isPrimaryKey: Bool
    public var isIndexed: Bool
    public var defaultValue: String?
    public var originalName: String?
    public var location: SourceLocation
    /// Whether the declaration has `willSet`/`didSet` observers.
    public var hasObservers = false
    /// The class that declares the property (a superclass's, for an inherited property), as
    /// Swift code spells it.
    public var declaringClass: String
}
