/// A handle that has the database open, as the lock file's reader table records it
/// (``Database/readers()``).
///
/// ## Concurrency
/// A value type; `Sendable`.
public struct ReaderSlot: Sendable, Equatable {
    /// The process that holds the handle.
    public var processID: Int32
    /// The oldest version the handle's snapshots pin; nil when it pins none right now.
    public var pinnedVersion: UInt64?
    /// Whether this is the handle that asked.
    public var isThisHandle: Bool
}
