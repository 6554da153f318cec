/// Everything the collectors found in one target.
public struct CollectedDeclarations: Sendable {
    public var models: [ModelDeclaration] = []
    /// Classes deriving from a class other than Object, EmbeddedObject or AsymmetricObject:
    /// models when that class is a model of the target (the resolver decides).
    public var otherClasses: [ModelDeclaration] = []
    public var enums: [EnumDeclaration] = []
    public var diagnostics: [SchemaDiagnostic] = []
    /// Integer literals given as a schema version (`schemaVersion: 2`, `config.schemaVersion = 2`),
    /// checked against the schema history.
    public var schemaVersionLiterals: [SchemaVersionLiteral] = []
    public init() {}
}
