/// What `@Persisted(...)` says, argument by argument.
public struct PersistedAttributes: Hashable, Sendable {
    public var primaryKey = false
    public var indexed = false
    public var originProperty: String?
    public var originalName: String?
}
