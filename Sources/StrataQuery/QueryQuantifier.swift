/// The quantifier written before a key path that goes through a list.
///
/// ## Concurrency
/// A value type with no shared state: use it from any thread, actor or task.
public enum QueryQuantifier: String, Sendable, Equatable, Hashable, CaseIterable {
    /// `ANY` (or `SOME`): at least one element matches.
    case any = "ANY"
    /// `ALL`: every element matches (true for an empty list).
    case all = "ALL"
    /// `NONE`: no element matches (true for an empty list). Not named `none`, which would read as
    /// `Optional.none` wherever a `QueryQuantifier?` is expected.
    case noElement = "NONE"
}
