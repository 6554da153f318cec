/// A checked `@Persisted` property.
package struct ResolvedProperty: Hashable, Sendable {
    /// The Swift name (what queries, key paths and `objectSchema` use).
    package var name: String
    /// The name the property is stored under: `name`, unless `propertiesMapping()` maps it.
    package var columnName: String
    package var type: StorageType
    /// The Swift type of the property as the generated code must spell it, e.g. `List<Dog>`.
    package var swiftType: String
    /// The Swift type of one value (the element for collections), e.g. `Int8`, `Dog`, `Status`.
    package var valueSwiftType: String
    package var isOptional: Bool
    package var collection: CollectionKind
    package var objectClassName: String?
    package var linkOriginPropertyName: String?
    /// The `PersistableEnum` type, when the value is one (stored as its raw value).
    package var enumTypeName: String?
    package var isPrimaryKey: Bool
    package var isIndexed: Bool
    package var defaultValue: String?
    package var originalName: String?
    package var location: SourceLocation
    /// Whether the declaration has `willSet`/`didSet` observers.
    package var hasObservers = false
    /// The class that declares the property (a superclass's, for an inherited property), as
    /// Swift code spells it.
    package var declaringClass: String
}
