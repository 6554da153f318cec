#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A memory mapping created by ``System/mmap(_:length:writable:)``.
public struct MappedRegion: @unchecked Sendable {
    /// The first byte of the mapping.
    public let base: UnsafeMutableRawPointer
    /// The mapping's length in bytes.
    public let length: Int
}
