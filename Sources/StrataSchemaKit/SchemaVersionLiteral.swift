/// An integer literal the sources give as `Realm.Configuration.schemaVersion`.
public struct SchemaVersionLiteral: Hashable, Sendable {
    public var value: Int
    public var location: SourceLocation
}
