/// One key of a `SORT(...)` clause: a key path and its direction.
public struct QuerySortKey: Sendable, Equatable, Hashable {
    /// The key path, components joined with dots (`owner.name`).
    public var keyPath: String
    /// `ASC`/`ASCENDING` (true) or `DESC`/`DESCENDING` (false).
    public var ascending: Bool

    /// A sort key.
    public init(keyPath: String, ascending: Bool) {
        self.keyPath = keyPath
        self.ascending = ascending
    }
}
