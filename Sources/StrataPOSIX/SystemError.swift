#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// An operating-system call failed.
///
/// Every wrapper in ``System`` throws this error with the name of the C call, the `errno` it
/// returned and, where one is known, the path of the file involved, so that a message reads
/// "pwrite(2) failed on /data/default.strata: No space left on device (ENOSPC)".
///
/// ## Concurrency
/// A value type; `Sendable`.
public struct SystemError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The C function that failed, for example `"fdatasync"`.
    public var call: String
    /// The `errno` value the call returned.
    public var errno: Int32
    /// The file the call was about, if known.
    public var path: String?

    /// Creates an error for `call` failing with `errno` on `path`.
    public init(call: String, errno: Int32, path: String? = nil) {
        self.call = call
        self.errno = errno
        self.path = path
    }

    /// The symbolic name of `errno` when it is one a storage engine commonly sees (`EIO`, `ENOSPC`, ...).
    public var errnoName: String {
        switch errno {
        case EIO: return "EIO"
        case ENOSPC: return "ENOSPC"
        case EDQUOT: return "EDQUOT"
        case EACCES: return "EACCES"
        case EPERM: return "EPERM"
        case ENOENT: return "ENOENT"
        case EEXIST: return "EEXIST"
        case EAGAIN: return "EAGAIN"
        case EINTR: return "EINTR"
        case EBADF: return "EBADF"
        case EINVAL: return "EINVAL"
        case ENOMEM: return "ENOMEM"
        case EROFS: return "EROFS"
        case EFBIG: return "EFBIG"
        case EMFILE: return "EMFILE"
        case ENFILE: return "ENFILE"
        case EISDIR: return "EISDIR"
        case ENOTDIR: return "ENOTDIR"
        case ENOLCK: return "ENOLCK"
        case EDEADLK: return "EDEADLK"
        default: return "errno \(errno)"
        }
    }

    /// What a caller can usually do about this error.
    public var advice: String {
        switch errno {
        case ENOSPC, EDQUOT: return "Free disk space (or raise the quota) and retry."
        case EIO:
            return
                "The disk reported an I/O error; check the device. Committed data before this error is intact; reopen the database."
        case EACCES, EPERM: return "Check the file's permissions and ownership."
        case EROFS: return "The file system is read-only; open the database read-only or move it."
        case ENOENT: return "The file or its directory does not exist; check the path."
        case EMFILE, ENFILE: return "Too many open files; close some or raise the limit (ulimit -n)."
        case ENOMEM: return "The system is out of memory or address space."
        default: return "See the system documentation for this error."
        }
    }

    public var description: String {
        var text = "\(call)(2) failed"
        if let path { text += " on \(path)" }
        text += ": \(String(cString: strerror(errno))) (\(errnoName)). \(advice)"
        return text
    }
}
