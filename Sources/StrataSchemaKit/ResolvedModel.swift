/// A checked model class.
package struct ResolvedModel: Hashable, Sendable {
    package var name: String
    /// How Swift code outside the class spells it (`Outer.Inner` for a nested class).
    package var qualifiedName: String
    package var kind: ModelKind
    /// The model class it derives from, for a subclass of a model (its properties come first).
    package var superclass: String?
    package var accessLevel: String?
    package var properties: [ResolvedProperty]
    package var location: SourceLocation
    /// Whether the generated file gives the class its `encode(to:)` (see
    /// `ModelDeclaration.needsGeneratedEncode`).
    package var emitsEncode = false
    package var primaryKey: String? { properties.first(where: \.isPrimaryKey)?.name }
}
