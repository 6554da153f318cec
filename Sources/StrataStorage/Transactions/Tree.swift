/// A named tree as seen by one transaction: its root page and entry count.
///
/// ## Concurrency
/// A value type; `Sendable`. It describes one version: use it with the transaction it came from.
public struct Tree: Sendable, Hashable {
    /// The tree's name in the catalog.
    public let name: String
    /// The root page, 0 for an empty tree.
    var root: UInt32
    /// Number of entries.
    public internal(set) var count: UInt64
    /// Whether every value of the tree begins with area references (`AreaPrefix`); chosen when
    /// the tree is created.
    package internal(set) var holdsAreas = false
}
