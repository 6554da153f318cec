#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif
import Synchronization

/// Named places where tests make a system call fail on purpose.
///
/// Each wrapper in ``System`` consults the injector on every attempt of its call, in place of the
/// operating system's answer: an armed fault makes that attempt fail the way the real call could
/// (an `errno`, or a short transfer for `pread`, `pwrite` and `pwritev`), and the wrapper then does
/// what it does with a real failure (retries EINTR, completes a short transfer, throws a
/// `SystemError` naming the C call). The check costs one atomic load when nothing is armed.
public enum FaultPoint: String, Sendable, CaseIterable {
    /// `pwritev` is the commit's write of data pages (`pwrite`: meta records and the rest), so a test
    /// can fail one without the other.
    case open, close, pread, pwrite, pwritev, fsync, fdatasync, ftruncate, fallocate, mmap, msync, rename, link, unlink,
        fstat
    /// `fcntl(2)` taking a byte lock: ``System/lock(_:byte:kind:)`` (`F_OFD_SETLKW`) and
    /// ``System/tryLock(_:byte:kind:)`` (`F_OFD_SETLK`; an injected `EAGAIN` reads as "held by another").
    case fcntlLock
    /// `fcntl(2)` releasing a byte lock (`F_UNLCK`): ``System/unlock(_:byte:)``.
    case fcntlUnlock
    /// `fcntl(2)` asking who holds a byte lock (`F_OFD_GETLK`): ``System/isLockedByOther(_:byte:)``.
    case fcntlGetLock
}
