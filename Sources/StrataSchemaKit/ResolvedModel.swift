/// A checked model class.
public struct ResolvedModel: Hashable, Sendable {
    public var name: String
    /// How Swift code outside the class spells it (`Outer.Inner` for a nested class).
    public var qualifiedName: String
    public var kind: ModelKind
    /// The model class it derives from, for a subclass of a model (its properties come first).
    public var superclass: String?
    public var accessLevel: String?
    public var properties: [ResolvedProperty]
    public var location: SourceLocation
    public var primaryKey: String? { properties.first(where: \.isPrimaryKey)?.name }
}
