/// A type conforming to `CustomPersistable` or `FailableCustomPersistable`, with the type it is
/// stored as (`typealias PersistedType = String`).
package struct CustomPersistableDeclaration: Hashable, Sendable {
    /// The type's name as properties spell it (`IPv4`, `URL`).
    package var name: String
    /// The `PersistedType` it declares.
    package var persistedType: TypeExpression
    package var location: SourceLocation
}
