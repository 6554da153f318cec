/// An integer literal the sources give as `Realm.Configuration.schemaVersion`.
package struct SchemaVersionLiteral: Hashable, Sendable {
    package var value: Int
    package var location: SourceLocation
}
