/// What `@Persisted(...)` says, argument by argument.
package struct PersistedAttributes: Hashable, Sendable {
    package var primaryKey = false
    package var indexed = false
    package var originProperty: String?
    package var originalName: String?
}
