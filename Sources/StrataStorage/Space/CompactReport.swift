import StrataPOSIX

/// What ``Database/compact()`` did.
public struct CompactReport: Sendable, Equatable {
    /// File size before, in bytes.
    public var bytesBefore: Int64
    /// File size after, in bytes.
    public var bytesAfter: Int64
    /// Pages moved to lower positions.
    public var pagesMoved: Int
}
