/// A class deriving from `Object`, `EmbeddedObject` or `AsymmetricObject`, or (a candidate)
/// from another class, which makes it a model when that class is one (a subclass of a model).
package struct ModelDeclaration: Hashable, Sendable {
    /// The class's own name: the stored class name (`className()`), also for a nested class.
    package var name: String
    /// The name Swift code outside the class spells it with: `Outer.Inner` for a nested class.
    package var qualifiedName: String
    /// The base class's kind; for a subclass of a model, the kind of the model it derives from
    /// (set by the resolver).
    package var kind: ModelKind
    /// For a class deriving from another class than the three bases: that class's name, as
    /// written (module qualifiers dropped).
    package var superclassName: String?
    package var isFinal: Bool
    /// `public` (also for `open`), `package`, or nil for internal.
    package var accessLevel: String?
    package var properties: [PropertyDeclaration]
    package var location: SourceLocation
    /// `propertiesMapping()`, when the class declares it.
    package var propertiesMapping: PropertiesMappingDeclaration?
    /// Why the generated file cannot reach the class where it is declared (in a function, a
    /// generic or private type, or private itself), reported if the class is a model.
    package var placementProblem: String?
    /// RealmSwift legacy declarations in the class body (`let dogs = List<Dog>()`, ...),
    /// reported if the class is a model.
    package var legacyDeclarations: [SchemaDiagnostic] = []
    /// Whether the class declares `Codable` (or `Encodable`) without writing `encode(to:)`: the
    /// generated file then encodes it through its accessors, which read managed objects too.
    package var needsGeneratedEncode = false
}
