/// How a database file's space is used (``Database/spaceUsage()``).
///
/// ## Concurrency
/// A value type; `Sendable`.
public struct SpaceUsage: Sendable, Equatable {
    /// The page size, in bytes.
    public var pageSize: Int
    /// The file's size, in bytes (it may be longer than its pages: space reserved for growth).
    public var fileBytes: Int64
    /// Pages of the newest version, including the two meta pages.
    public var pageCount: Int
    /// Pages in the free list: reusable now, or once the snapshots that still read them end.
    public var freePages: Int
    /// Bytes in pages that hold data (trees, bookkeeping and the meta pages): the size a
    /// compaction could bring the file down to, at most.
    public var usedBytes: Int64 { Int64(pageCount - freePages) * Int64(pageSize) }
}
