/// What ``Database/verify()`` found.
public struct VerifyReport: Sendable, Equatable {
    /// The version checked.
    public var version: VersionID
    /// Pages in the file's in-use range (including the two meta pages).
    public var pageCount: Int
    /// Pages reachable from the catalog and its trees (nodes and overflow runs).
    public var treePages: Int
    /// Pages listed in the free list (reusable or pending).
    public var freePages: Int
    /// Pages holding the free list and the commit list.
    public var bookkeepingPages: Int
    /// Pages neither reachable nor free: space the engine lost track of (should be empty).
    public var leakedPages: [UInt32]
    /// Entry count of each tree.
    public var trees: [String: UInt64]
    /// Depth of each non-empty tree (1 = a single leaf).
    public var depths: [String: Int]
    /// Area pages (FORMAT.md, "Area pages") that the values of the version refer to; counted
    /// apart from ``treePages``.
    public var areaPages: Int = 0
}
