// The one file in Strata that calls the operating system.
//
// Every wrapper: retries on EINTR, completes short reads and writes, throws a `SystemError` that
// names the C call and the path, treats EBADF/EFAULT as programmer errors (they mean a bug in
// Strata, not a condition a caller can handle), and consults `FaultInjector` on every attempt so
// tests can make it fail with EIO, ENOSPC, EINTR, a short write or a partial transfer, through the
// same retry and error paths as a real failure.
#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Thin, typed wrappers over the POSIX calls a storage engine needs.
///
/// ## Concurrency
/// Stateless; every function may be called from any thread.
public enum System {
    @inline(never)
    static func fail(_ call: String, _ err: Int32, _ path: String?) -> SystemError {
        precondition(
            err != EBADF && err != EFAULT,
            "\(call) on \(path ?? "?") returned \(err == EBADF ? "EBADF" : "EFAULT"): a Strata bug (bad descriptor or pointer)"
        )
        return SystemError(call: call, errno: err, path: path)
    }

    /// The `errno` an armed fault gives this attempt of `point`, or nil to make the real call.
    /// (Transfer faults only apply to `pread`, `pwrite` and `pwritev`, which ask the injector
    /// themselves.)
    @inline(__always)
    static func injectedErrno(_ point: FaultPoint, _ path: String?) -> Int32? {
        if let fault = FaultInjector.check(point, path: path), case .error(let err) = fault { return err }
        return nil
    }

    /// One attempt of a call that returns -1 and sets `errno` on failure: the real call, or the
    /// failure an armed fault stands for (so the caller's EINTR retry and error paths run as for
    /// a real failure).
    @inline(__always)
    static func attempt(_ point: FaultPoint, _ path: String?, _ call: () -> Int32) -> Int32 {
        if let err = injectedErrno(point, path) {
            errno = err
            return -1
        }
        return call()
    }

    /// How much of `want` bytes one attempt of a transfer may move, and whether the device is
    /// full after it (``FaultKind/shortWrite(_:)``); nil with the errno of an injected failure.
    @inline(__always)
    static func transferLimit(
        _ point: FaultPoint, _ path: String, want: Int
    ) -> (bytes: Int, thenFull: Bool, errno: Int32?) {
        switch FaultInjector.check(point, path: path) {
        case nil: return (want, false, nil)
        case .error(let err)?: return (0, false, err)
        case .shortWrite(let n)?: return (min(max(n, 0), want), true, nil)
        case .partialTransfer(let n)?: return (min(max(n, 1), want), false, nil)
        }
    }

    /// Opens `path`. The corresponding C function is `open(2)`; the descriptor is close-on-exec.
    /// - Parameters:
    ///   - path: the file.
    ///   - create: create the file (mode 0644) if it does not exist.
    ///   - exclusive: with `create`, fail with `EEXIST` if it exists.
    ///   - readOnly: open for reading only.
    public static func open(
        _ path: String, create: Bool = false, exclusive: Bool = false, readOnly: Bool = false
    ) throws -> FileDescriptor {
        var flags: Int32 = (readOnly ? O_RDONLY : O_RDWR) | O_CLOEXEC
        if create { flags |= O_CREAT }
        if create && exclusive { flags |= O_EXCL }
        while true {
            let fd = attempt(.open, path) { Glibc_open(path, flags, 0o644) }
            if fd >= 0 { return FileDescriptor(rawValue: fd, path: path) }
            let err = errno
            if err == EINTR { continue }
            throw SystemError(call: "open", errno: err, path: path)
        }
    }

    /// Closes a descriptor. The corresponding C function is `close(2)`.
    ///
    /// Not retried on EINTR: on Linux the descriptor is released even when close reports EINTR, and
    /// retrying could close a descriptor another thread just opened (the same reasoning as
    /// swift-nio's `Posix.close`). Errors are ignored: nothing useful can be done with them here,
    /// and durability never depends on close (commits call `fdatasync` first). An injected fault
    /// stands for such an ignored error: the descriptor is released all the same.
    public static func close(_ fd: FileDescriptor) {
        _ = FaultInjector.check(.close, path: fd.path)
        _ = Glibc_close(fd.rawValue)
    }

    /// Reads exactly `count` bytes at `offset`, or fewer only at end of file; returns the bytes read.
    /// The corresponding C function is `pread(2)`.
    public static func pread(
        _ fd: FileDescriptor, into buffer: UnsafeMutableRawPointer, count: Int, offset: Int64
    ) throws -> Int {
        var done = 0
        while done < count {
            let limit = transferLimit(.pread, fd.path, want: count - done)
            let n =
                limit.errno == nil
                ? Glibc_pread(fd.rawValue, buffer + done, limit.bytes, off_t(offset + Int64(done))) : -1
            if n > 0 { done += n; continue }
            if n == 0 { break }
            let err = limit.errno ?? errno
            if err == EINTR { continue }
            throw fail("pread", err, fd.path)
        }
        return done
    }

    /// Writes all `count` bytes at `offset`, looping over short writes.
    /// The corresponding C function is `pwrite(2)`.
    public static func pwrite(_ fd: FileDescriptor, from buffer: UnsafeRawPointer, count: Int, offset: Int64) throws {
        var done = 0
        while done < count {
            let limit = transferLimit(.pwrite, fd.path, want: count - done)
            if limit.errno == nil && limit.bytes > 0 {
                let n = Glibc_pwrite(fd.rawValue, buffer + done, limit.bytes, off_t(offset + Int64(done)))
                if n < 0 {
                    let err = errno
                    if err == EINTR { continue }
                    throw fail("pwrite", err, fd.path)
                }
                done += n
            } else if let err = limit.errno {
                if err == EINTR { continue }
                throw fail("pwrite", err, fd.path)
            }
            // An injected short write: the device accepted part of the data, then ran out of space.
            if limit.thenFull { throw SystemError(call: "pwrite", errno: ENOSPC, path: fd.path) }
        }
    }

    /// Writes `buffers.count` buffers of `size` bytes each to consecutive positions of the file,
    /// starting at `offset`, in one call when it can (at most 1024 buffers per call). The
    /// corresponding C function is `pwritev(2)`.
    public static func pwritev(_ fd: FileDescriptor, buffers: [UnsafeRawPointer], size: Int, offset: Int64) throws {
        let total = buffers.count * size
        var iov: [iovec] = []
        iov.reserveCapacity(min(buffers.count, 1024))
        var done = 0
        while done < total {
            let limit = transferLimit(.pwritev, fd.path, want: total - done)
            if let err = limit.errno {
                if err == EINTR { continue }
                throw fail("pwritev", err, fd.path)
            }
            if limit.bytes > 0 {
                // The vector for bytes [done, end): after a short write it starts inside a buffer.
                let end = done + limit.bytes
                iov.removeAll(keepingCapacity: true)
                var pos = done
                while pos < end && iov.count < 1024 {
                    let within = pos % size
                    let length = min(size - within, end - pos)
                    iov.append(
                        iovec(
                            iov_base: UnsafeMutableRawPointer(mutating: buffers[pos / size] + within), iov_len: length))
                    pos += length
                }
                let n = iov.withUnsafeBufferPointer {
                    Glibc_pwritev(fd.rawValue, $0.baseAddress!, Int32($0.count), off_t(offset + Int64(done)))
                }
                if n < 0 {
                    let err = errno
                    if err == EINTR { continue }
                    throw fail("pwritev", err, fd.path)
                }
                done += n
            }
            // An injected short write: the device accepted part of the data, then ran out of space.
            if limit.thenFull { throw SystemError(call: "pwritev", errno: ENOSPC, path: fd.path) }
        }
    }

    /// Flushes file data and the metadata needed to read it back. The corresponding C function is
    /// `fdatasync(2)` (`fcntl(F_FULLFSYNC)` on Apple platforms, where `fsync` does not reach the platter).
    public static func fdatasync(_ fd: FileDescriptor) throws {
        while true {
            #if canImport(Darwin)
                let rc = attempt(.fdatasync, fd.path) { fcntl(fd.rawValue, F_FULLFSYNC) }
            #else
                let rc = attempt(.fdatasync, fd.path) { Glibc_fdatasync(fd.rawValue) }
            #endif
            if rc == 0 { return }
            let err = errno
            if err == EINTR { continue }
            throw fail("fdatasync", err, fd.path)
        }
    }

    /// Flushes file data and all metadata. The corresponding C function is `fsync(2)`.
    public static func fsync(_ fd: FileDescriptor) throws {
        while true {
            let rc = attempt(.fsync, fd.path) { Glibc_fsync(fd.rawValue) }
            if rc == 0 { return }
            let err = errno
            if err == EINTR { continue }
            throw fail("fsync", err, fd.path)
        }
    }

    /// Sets the file's length. The corresponding C function is `ftruncate(2)`.
    public static func ftruncate(_ fd: FileDescriptor, length: Int64) throws {
        while true {
            let rc = attempt(.ftruncate, fd.path) { Glibc_ftruncate(fd.rawValue, off_t(length)) }
            if rc == 0 { return }
            let err = errno
            if err == EINTR { continue }
            throw fail("ftruncate", err, fd.path)
        }
    }

    /// Reserves disk blocks for `[offset, offset + length)` so that later writes through a memory
    /// map cannot fail for lack of space (which would raise SIGBUS instead of an error), extending
    /// the file if the range ends past it. The corresponding C function is `posix_fallocate(3)`.
    ///
    /// On a file system that does not support it (`EOPNOTSUPP`), the part of the range past the
    /// file's end is written with zeros instead, which makes the file system allocate it (or
    /// report `ENOSPC` now); bytes already in the file are never changed.
    public static func allocate(_ fd: FileDescriptor, offset: Int64, length: Int64) throws {
        #if os(Linux)
            while true {
                // posix_fallocate returns the error number instead of setting errno.
                let rc =
                    injectedErrno(.fallocate, fd.path) ?? posix_fallocate(fd.rawValue, off_t(offset), off_t(length))
                if rc == 0 { return }
                if rc == EINTR { continue }
                if rc == EOPNOTSUPP || rc == EINVAL { break }
                throw fail("posix_fallocate", rc, fd.path)
            }
        #else
            if let err = injectedErrno(.fallocate, fd.path), err != EOPNOTSUPP {
                throw fail("posix_fallocate", err, fd.path)
            }
        #endif
        try extendWithZeros(fd, to: offset + length)
    }

    /// Writes zeros from the file's end up to `end` (nothing if the file is that long already).
    private static func extendWithZeros(_ fd: FileDescriptor, to end: Int64) throws {
        var at = try fileSize(fd)
        guard at < end else { return }
        let chunk = 1 << 20
        let zeros = UnsafeMutableRawPointer.allocate(byteCount: chunk, alignment: 4096)
        defer { zeros.deallocate() }
        memset(zeros, 0, chunk)
        while at < end {
            let n = Int(min(Int64(chunk), end - at))
            try pwrite(fd, from: zeros, count: n, offset: at)
            at += Int64(n)
        }
    }

    /// The file's size in bytes. The corresponding C function is `fstat(2)`.
    public static func fileSize(_ fd: FileDescriptor) throws -> Int64 {
        var st = stat()
        while true {
            let rc = attempt(.fstat, fd.path) { Glibc_fstat(fd.rawValue, &st) }
            if rc == 0 { return Int64(st.st_size) }
            let err = errno
            if err == EINTR { continue }
            throw fail("fstat", err, fd.path)
        }
    }

    /// Whether `path` names the file `fd` has open (same device and inode): false when the name
    /// was removed or now names another file, as after another process deleted and recreated it.
    /// The corresponding C functions are `fstat(2)` and `stat(2)`; a failure of either reads as
    /// false (the caller opens the name again).
    public static func refersToPath(_ fd: FileDescriptor, _ path: String) -> Bool {
        var open = stat()
        var named = stat()
        guard Glibc_fstat(fd.rawValue, &open) == 0, Glibc_stat(path, &named) == 0 else { return false }
        return open.st_dev == named.st_dev && open.st_ino == named.st_ino && open.st_nlink > 0
    }

    /// Maps `length` bytes of the file from offset 0, shared. The corresponding C function is `mmap(2)`.
    ///
    /// The length may exceed the file's size: pages past the end become accessible once the file grows.
    public static func mmap(_ fd: FileDescriptor, length: Int, writable: Bool) throws -> MappedRegion {
        if let err = injectedErrno(.mmap, fd.path) { throw fail("mmap", err, fd.path) }
        let prot = writable ? (PROT_READ | PROT_WRITE) : PROT_READ
        guard let p = Glibc_mmap(nil, length, prot, MAP_SHARED, fd.rawValue, 0), p != MAP_FAILED else {
            throw fail("mmap", errno, fd.path)
        }
        return MappedRegion(base: p, length: length)
    }

    /// Maps `length` bytes of zeroed memory that belongs to this process only (no file). The
    /// corresponding C function is `mmap(2)` with `MAP_ANONYMOUS | MAP_PRIVATE`.
    public static func mapAnonymous(length: Int) throws -> MappedRegion {
        if let err = injectedErrno(.mmap, nil) { throw fail("mmap", err, nil) }
        guard let p = Glibc_mmap(nil, length, PROT_READ | PROT_WRITE, MAP_ANONYMOUS | MAP_PRIVATE, -1, 0),
            p != MAP_FAILED
        else {
            throw fail("mmap", errno, nil)
        }
        return MappedRegion(base: p, length: length)
    }

    /// Maps the first `length` bytes of the file `fd` over the start of `region` (which this
    /// process mapped, e.g. with ``mapAnonymous(length:)``), shared with the file like ``mmap(_:length:writable:)``:
    /// the rest of `region` stays as it was. `length` must be a multiple of the system page size.
    /// The corresponding C function is `mmap(2)` with `MAP_FIXED | MAP_SHARED`.
    public static func mapFile(
        _ fd: FileDescriptor, over region: MappedRegion, length: Int, writable: Bool
    ) throws {
        precondition(length <= region.length, "the file's part must lie inside the region")
        if let err = injectedErrno(.mmap, fd.path) { throw fail("mmap", err, fd.path) }
        let prot = writable ? (PROT_READ | PROT_WRITE) : PROT_READ
        guard let p = Glibc_mmap(region.base, length, prot, MAP_SHARED | MAP_FIXED, fd.rawValue, 0), p != MAP_FAILED
        else {
            throw fail("mmap", errno, fd.path)
        }
    }

    /// Unmaps a region. The corresponding C function is `munmap(2)`. Not a fault point: it fails
    /// only for an address or length that is not a mapping's (a bug), and nothing could be done then.
    public static func munmap(_ region: MappedRegion) {
        _ = Glibc_munmap(region.base, region.length)
    }

    /// Writes back the dirty pages of a mapped range and waits for them. The corresponding C
    /// function is `msync(2)` with `MS_SYNC`.
    public static func msync(_ region: MappedRegion, offset: Int, length: Int, path: String) throws {
        while true {
            let rc = attempt(.msync, path) { Glibc_msync(region.base + offset, length, MS_SYNC) }
            if rc == 0 { return }
            let err = errno
            if err == EINTR { continue }
            throw fail("msync", err, path)
        }
    }

    /// Tries to take an advisory lock on one byte of a file, without waiting; returns false if
    /// another open file description holds a conflicting lock.
    ///
    /// On Linux this is an open-file-description lock (`fcntl(F_OFD_SETLK)`, value 37, which
    /// Glibc's Swift overlay does not export): it belongs to the descriptor, not the process, so two
    /// descriptors in one process conflict like two processes do, and closing an unrelated
    /// descriptor of the same file does not drop it. On other systems it is a classic `F_SETLK` lock.
    public static func tryLock(_ fd: FileDescriptor, byte: Int64, kind: LockKind) throws -> Bool {
        try lockCall(
            fd, byte: byte, type: kind == .shared ? Int16(F_RDLCK) : Int16(F_WRLCK), wait: false, point: .fcntlLock)
    }

    /// Takes an advisory lock on one byte, waiting for conflicting holders to release it.
    /// The corresponding C function is `fcntl(2)` with `F_OFD_SETLKW` (38) on Linux.
    public static func lock(_ fd: FileDescriptor, byte: Int64, kind: LockKind) throws {
        _ = try lockCall(
            fd, byte: byte, type: kind == .shared ? Int16(F_RDLCK) : Int16(F_WRLCK), wait: true, point: .fcntlLock)
    }

    /// Releases a lock taken with ``lock(_:byte:kind:)`` or ``tryLock(_:byte:kind:)``.
    /// The corresponding C function is `fcntl(2)` with `F_OFD_SETLK` (37) and `F_UNLCK` on Linux.
    public static func unlock(_ fd: FileDescriptor, byte: Int64) throws {
        _ = try lockCall(fd, byte: byte, type: Int16(F_UNLCK), wait: false, point: .fcntlUnlock)
    }

    /// Whether another open file description holds a lock on `byte` that conflicts with an
    /// exclusive lock. The corresponding C function is `fcntl(2)` with `F_OFD_GETLK` (36) on Linux.
    public static func isLockedByOther(_ fd: FileDescriptor, byte: Int64) throws -> Bool {
        var fl = flock()
        fl.l_type = Int16(F_WRLCK)
        fl.l_whence = Int16(SEEK_SET)
        fl.l_start = off_t(byte)
        fl.l_len = 1
        fl.l_pid = 0
        while true {
            #if os(Linux)
                let rc = attempt(.fcntlGetLock, fd.path) { fcntl(fd.rawValue, 36 /* F_OFD_GETLK */, &fl) }
            #else
                let rc = attempt(.fcntlGetLock, fd.path) { fcntl(fd.rawValue, F_GETLK, &fl) }
            #endif
            if rc == 0 { return fl.l_type != Int16(F_UNLCK) }
            let err = errno
            if err == EINTR { continue }
            throw fail("fcntl(F_OFD_GETLK)", err, fd.path)
        }
    }

    static func lockCall(_ fd: FileDescriptor, byte: Int64, type: Int16, wait: Bool, point: FaultPoint) throws -> Bool {
        var fl = flock()
        fl.l_type = type
        fl.l_whence = Int16(SEEK_SET)
        fl.l_start = off_t(byte)
        fl.l_len = 1
        fl.l_pid = 0
        #if os(Linux)
            let cmd: Int32 = wait ? 38 /* F_OFD_SETLKW */ : 37 /* F_OFD_SETLK */
        #else
            let cmd: Int32 = wait ? F_SETLKW : F_SETLK
        #endif
        while true {
            let rc = attempt(point, fd.path) { fcntl(fd.rawValue, cmd, &fl) }
            if rc == 0 { return true }
            let err = errno
            if err == EINTR { continue }
            if !wait && type != Int16(F_UNLCK) && (err == EAGAIN || err == EACCES) { return false }
            throw fail(
                type == Int16(F_UNLCK) ? "fcntl(F_UNLCK)" : wait ? "fcntl(F_OFD_SETLKW)" : "fcntl(F_OFD_SETLK)", err,
                fd.path)
        }
    }

    /// Atomically replaces `to` with `from`. The corresponding C function is `rename(2)`.
    public static func rename(_ from: String, to: String) throws {
        while true {
            if attempt(.rename, from, { Glibc_rename(from, to) }) == 0 { return }
            let err = errno
            if err == EINTR { continue }
            throw fail("rename", err, from)
        }
    }

    /// Makes `to` a second name of the file `from`, failing with `EEXIST` if `to` exists: unlike
    /// `rename`, it never replaces a file, so it publishes a new file atomically and exclusively.
    /// The corresponding C function is `link(2)`.
    public static func link(_ from: String, to: String) throws {
        while true {
            if attempt(.link, to, { Glibc_link(from, to) }) == 0 { return }
            let err = errno
            if err == EINTR { continue }
            throw fail("link", err, to)
        }
    }

    /// Removes a file; a missing file is not an error. The corresponding C function is `unlink(2)`.
    public static func unlink(_ path: String) throws {
        while true {
            if attempt(.unlink, path, { Glibc_unlink(path) }) == 0 { return }
            let err = errno
            if err == EINTR { continue }
            if err == ENOENT { return }
            throw fail("unlink", err, path)
        }
    }

    /// Whether a file exists at `path`. The corresponding C function is `access(2)`.
    public static func fileExists(_ path: String) -> Bool {
        access(path, F_OK) == 0
    }

    /// Makes the directory entry of a newly created or renamed file durable: opens the directory
    /// and calls `fsync(2)` on it (fault points `open`, `fsync` and `close`, on the directory's path).
    public static func syncDirectory(of path: String) throws {
        var dir = path
        if let slash = dir.lastIndex(of: "/") { dir = String(dir[..<slash]) } else { dir = "." }
        if dir.isEmpty { dir = "/" }
        let fd = try open(dir, readOnly: true)
        defer { close(fd) }
        try fsync(fd)
    }

    /// The names in a directory (without `.` and `..`). The corresponding C functions are
    /// `opendir(3)`, `readdir(3)` and `closedir(3)`.
    public static func directoryEntries(_ path: String) throws -> [String] {
        if let err = injectedErrno(.open, path) { throw fail("opendir", err, path) }
        guard let dir = opendir(path) else { throw fail("opendir", errno, path) }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafePointer(to: entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: MemoryLayout.size(ofValue: entry.pointee.d_name)) {
                    String(cString: $0)
                }
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    // MARK: Waking threads and processes

    /// A pipe for waking a thread that waits in ``waitReadable(_:milliseconds:)``: both ends
    /// non-blocking and close-on-exec. The corresponding C functions are `pipe(2)` and `fcntl(2)`.
    public static func makeWakePipe() throws -> (read: FileDescriptor, write: FileDescriptor) {
        var ends: [Int32] = [0, 0]
        guard Glibc_pipe(&ends) == 0 else { throw fail("pipe", errno, nil) }
        for end in ends {
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL, 0) | O_NONBLOCK)
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
        }
        return (
            FileDescriptor(rawValue: ends[0], path: "(wake pipe)"),
            FileDescriptor(rawValue: ends[1], path: "(wake pipe)")
        )
    }

    /// A descriptor that becomes readable when any process writes to the file at `path` with
    /// `write(2)`/`pwrite(2)` (stores through a shared mapping do not count), or nil where the
    /// system has no such facility. Linux: `inotify_init1(2)` and `inotify_add_watch(2)` with
    /// `IN_MODIFY`; the descriptor is non-blocking and close-on-exec.
    public static func watchWrites(_ path: String) throws -> FileDescriptor? {
        #if os(Linux)
            let fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
            guard fd >= 0 else { throw fail("inotify_init1", errno, path) }
            guard inotify_add_watch(fd, path, UInt32(IN_MODIFY)) >= 0 else {
                let err = errno
                _ = Glibc_close(fd)
                throw fail("inotify_add_watch", err, path)
            }
            return FileDescriptor(rawValue: fd, path: path)
        #else
            return nil
        #endif
    }

    /// Waits until one of `fds` is readable or `milliseconds` pass (a negative value waits without
    /// limit); returns whether one is readable. An interrupted wait returns false (the caller
    /// looks at its state and waits again). The corresponding C function is `poll(2)`.
    public static func waitReadable(_ fds: [FileDescriptor], milliseconds: Int32) -> Bool {
        var polled = fds.map { pollfd(fd: $0.rawValue, events: Int16(POLLIN), revents: 0) }
        return Glibc_poll(&polled, nfds_t(polled.count), milliseconds) > 0
    }

    /// Reads and discards whatever a non-blocking descriptor has ready (a wake pipe's bytes, a
    /// watch's events). The corresponding C function is `read(2)`.
    public static func drain(_ fd: FileDescriptor) {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = buffer.withUnsafeMutableBytes { Glibc_read(fd.rawValue, $0.baseAddress!, $0.count) }
            if n > 0 { continue }
            if n < 0 && errno == EINTR { continue }
            return  // 0, EAGAIN: nothing more
        }
    }

    /// Writes one byte to a non-blocking descriptor (a wake pipe); a full pipe is not an error,
    /// its reader is woken already. The corresponding C function is `write(2)`.
    public static func writeWakeByte(_ fd: FileDescriptor) {
        var byte: UInt8 = 1
        while Glibc_write(fd.rawValue, &byte, 1) < 0 && errno == EINTR {}
    }

    /// Whether a process with id `pid` exists (it may belong to another user). The corresponding
    /// C function is `kill(2)` with signal 0, which sends nothing.
    public static func processExists(_ pid: Int32) -> Bool {
        kill(pid, 0) == 0 || errno == EPERM
    }

    /// The calling process's id. The corresponding C function is `getpid(2)`.
    public static var processID: Int32 { getpid() }

    /// The system's memory page size. The corresponding C function is `sysconf(_SC_PAGESIZE)`.
    public static var memoryPageSize: Int { Int(sysconf(Int32(_SC_PAGESIZE))) }

    /// Whether the descriptor `fd` (0, 1 or 2 for the standard streams) is a terminal. The
    /// corresponding C function is `isatty(3)`.
    public static func isTerminal(_ fd: Int32) -> Bool { isatty(fd) == 1 }
}

// Unqualified names for the C functions, so the wrappers above can share their Swift names.
@inline(__always) private func Glibc_open(_ p: String, _ f: Int32, _ m: mode_t) -> Int32 { open(p, f, m) }
@inline(__always) private func Glibc_close(_ fd: Int32) -> Int32 { close(fd) }
@inline(__always) private func Glibc_pipe(_ ends: UnsafeMutablePointer<Int32>) -> Int32 { pipe(ends) }
@inline(__always) private func Glibc_poll(_ fds: UnsafeMutablePointer<pollfd>, _ n: nfds_t, _ ms: Int32) -> Int32 {
    poll(fds, n, ms)
}
@inline(__always) private func Glibc_read(_ fd: Int32, _ b: UnsafeMutableRawPointer, _ n: Int) -> Int { read(fd, b, n) }
@inline(__always) private func Glibc_write(_ fd: Int32, _ b: UnsafeRawPointer, _ n: Int) -> Int { write(fd, b, n) }
@inline(__always) private func Glibc_pread(_ fd: Int32, _ b: UnsafeMutableRawPointer, _ n: Int, _ o: off_t) -> Int {
    pread(fd, b, n, o)
}
@inline(__always) private func Glibc_pwrite(_ fd: Int32, _ b: UnsafeRawPointer, _ n: Int, _ o: off_t) -> Int {
    pwrite(fd, b, n, o)
}
@inline(__always) private func Glibc_pwritev(_ fd: Int32, _ v: UnsafePointer<iovec>, _ n: Int32, _ o: off_t) -> Int {
    pwritev(fd, v, n, o)
}
@inline(__always) private func Glibc_fsync(_ fd: Int32) -> Int32 { fsync(fd) }
#if !canImport(Darwin)
    @inline(__always) private func Glibc_fdatasync(_ fd: Int32) -> Int32 { fdatasync(fd) }
#endif
@inline(__always) private func Glibc_ftruncate(_ fd: Int32, _ l: off_t) -> Int32 { ftruncate(fd, l) }
@inline(__always) private func Glibc_fstat(_ fd: Int32, _ s: UnsafeMutablePointer<stat>) -> Int32 { fstat(fd, s) }
@inline(__always) private func Glibc_stat(_ p: String, _ s: UnsafeMutablePointer<stat>) -> Int32 { stat(p, s) }
@inline(__always) private func Glibc_mmap(
    _ a: UnsafeMutableRawPointer?, _ l: Int, _ p: Int32, _ f: Int32, _ fd: Int32, _ o: off_t
) -> UnsafeMutableRawPointer? { mmap(a, l, p, f, fd, o) }
@inline(__always) private func Glibc_munmap(_ a: UnsafeMutableRawPointer, _ l: Int) -> Int32 { munmap(a, l) }
@inline(__always) private func Glibc_msync(_ a: UnsafeMutableRawPointer, _ l: Int, _ f: Int32) -> Int32 {
    msync(a, l, f)
}
@inline(__always) private func Glibc_rename(_ a: String, _ b: String) -> Int32 { rename(a, b) }
@inline(__always) private func Glibc_unlink(_ a: String) -> Int32 { unlink(a) }
@inline(__always) private func Glibc_link(_ a: String, _ b: String) -> Int32 { link(a, b) }
