#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif
import Synchronization

/// How an armed fault fails.
///
/// Never inject `EBADF` or `EFAULT`: the wrappers treat those as a bug in Strata and stop.
public enum FaultKind: Sendable, Equatable {
    /// The attempt fails with this `errno` and transfers nothing. `EINTR` is retried by the
    /// wrapper like a real interruption, so arm it with a finite `times`.
    case error(Int32)
    /// `pwrite` or `pwritev` writes only this many bytes of the request, then the next attempt
    /// fails with `ENOSPC` (the device took part of the data, then was full). Other calls ignore it.
    case shortWrite(Int)
    /// One attempt of `pread`, `pwrite` or `pwritev` transfers at most this many bytes (at least
    /// one), as the kernel may; the wrapper completes the request with further attempts. Other
    /// calls ignore it.
    case partialTransfer(Int)
}
