/// Everything the collectors found in one target.
package struct CollectedDeclarations: Sendable {
    package var models: [ModelDeclaration] = []
    /// Classes deriving from a class other than Object, EmbeddedObject or AsymmetricObject:
    /// models when that class is a model of the target (the resolver decides).
    package var otherClasses: [ModelDeclaration] = []
    package var enums: [EnumDeclaration] = []
    /// Types conforming to `CustomPersistable` or `FailableCustomPersistable`.
    package var customPersistables: [CustomPersistableDeclaration] = []
    /// Classes deriving from `Projection<Root>`.
    package var projections: [ProjectionDeclaration] = []
    package var diagnostics: [SchemaDiagnostic] = []
    /// Integer literals given as a schema version (`schemaVersion: 2`, `config.schemaVersion = 2`),
    /// checked against the schema history.
    package var schemaVersionLiterals: [SchemaVersionLiteral] = []
    package init() {}
}
