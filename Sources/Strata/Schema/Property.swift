/// One property of an `ObjectSchema`, as generated from a `@Persisted` declaration.
///
/// ```swift
/// let name = Dog.strataObjectSchema["name"]!
/// name.type          // .string
/// name.isOptional    // false
/// ```
///
/// ## Concurrency
/// A plain value; `Sendable`.
public struct Property: Sendable, Hashable, CustomStringConvertible {
    /// Whether the property is a collection, and which.
    public enum CollectionKind: String, Sendable, Hashable {
        case none, list, set, map
    }

    /// The property's Swift name: what queries, key paths, `objectSchema[name]` and
    /// `create(_:value:)` dictionaries use.
    public let name: String
    /// The name the property is stored under in the file: `name`, unless the class maps it in
    /// `propertiesMapping()` (RealmSwift's `columnName`).
    public let columnName: String
    /// The storage type (the element's for collections).
    public let type: PropertyType
    /// The declared Swift type, e.g. `List<Dog>`, `Int8`, `DogToy?`.
    public let swiftType: String
    /// Whether the value (the element for collections) may be nil.
    public let isOptional: Bool
    /// `.none`, or the collection the property is.
    public let collection: CollectionKind
    /// The linked class for `.object` and `.linkingObjects`.
    public let objectClassName: String?
    /// For `.linkingObjects`: the property of `objectClassName` whose links this property inverts.
    public let linkOriginPropertyName: String?
    /// The `PersistableEnum` the value is stored for, if any.
    public let persistedEnumTypeName: String?
    /// Whether this is the class's primary key.
    public let isPrimaryKey: Bool
    /// Whether the property has a secondary index (a primary key is always indexed as well).
    public let isIndexed: Bool
    /// The default value as written in the declaration (`""`, `Date()`), for display and migration
    /// reports; the value itself comes from a new unmanaged instance (`ObjectAccessors.make`).
    public let defaultValueSource: String?

    /// Called by generated code. `columnName` is given only when `propertiesMapping()` maps the
    /// property to another stored name.
    public init(
        name: String, columnName: String? = nil, type: PropertyType, swiftType: String, isOptional: Bool = false,
        collection: CollectionKind = .none, objectClassName: String? = nil,
        linkOriginPropertyName: String? = nil, persistedEnumTypeName: String? = nil,
        isPrimaryKey: Bool = false, isIndexed: Bool = false, defaultValueSource: String? = nil
    ) {
        self.name = name
        self.columnName = columnName ?? name
        self.type = type
        self.swiftType = swiftType
        self.isOptional = isOptional
        self.collection = collection
        self.objectClassName = objectClassName
        self.linkOriginPropertyName = linkOriginPropertyName
        self.persistedEnumTypeName = persistedEnumTypeName
        self.isPrimaryKey = isPrimaryKey
        self.isIndexed = isIndexed
        self.defaultValueSource = defaultValueSource
    }

    /// Whether the property is a `List` (RealmSwift's name).
    public var isArray: Bool { collection == .list }
    /// Whether the property is a `MutableSet`.
    public var isSet: Bool { collection == .set }
    /// Whether the property is a `Map`.
    public var isMap: Bool { collection == .map }

    /// `name: type` with its attributes, e.g. `dogs: list<object Dog>`, `_id: uuid (primary key)`.
    public var description: String {
        var type =
            self.type == .object || self.type == .linkingObjects
            ? "\(self.type.rawValue) \(objectClassName ?? "?")" : self.type.rawValue
        if let persistedEnumTypeName { type += " (\(persistedEnumTypeName))" }
        if isOptional { type += "?" }
        if collection != .none { type = "\(collection.rawValue)<\(type)>" }
        if let linkOriginPropertyName { type += ".\(linkOriginPropertyName)" }
        var attributes: [String] = []
        if isPrimaryKey { attributes.append("primary key") }
        if isIndexed { attributes.append("indexed") }
        if columnName != name { attributes.append("stored as \(columnName)") }
        if let defaultValueSource { attributes.append("default \(defaultValueSource)") }
        return "\(name): \(type)" + (attributes.isEmpty ? "" : " [\(attributes.joined(separator: ", "))]")
    }
}
