#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Kinds of advisory byte-range lock.
public enum LockKind: Sendable {
    case shared, exclusive
}
