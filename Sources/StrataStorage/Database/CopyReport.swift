/// What a copy (``ReadTransaction/writeCopy(toPath:progress:encryptionKey:)``) wrote.
///
/// ## Concurrency
/// A value type; `Sendable`.
public struct CopyReport: Sendable, Equatable {
    /// Trees copied.
    public var trees: Int
    /// Entries (key-value pairs) copied, over every tree.
    public var entries: UInt64
    /// The new file's size, in bytes.
    public var bytes: Int64
}
