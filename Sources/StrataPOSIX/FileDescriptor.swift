#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// An open file descriptor together with the path it was opened from (for error messages).
///
/// ## Concurrency
/// A value type; `Sendable`. The descriptor itself may be used from any thread: positional I/O
/// (`pread`/`pwrite`) does not share a file offset.
public struct FileDescriptor: Sendable, Hashable {
    /// The raw descriptor.
    public let rawValue: Int32
    /// The path the descriptor was opened from.
    public let path: String

    /// Wraps an already open descriptor.
    public init(rawValue: Int32, path: String) {
        self.rawValue = rawValue
        self.path = path
    }
}
