import Foundation
import XCTest
import StrataPOSIX
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The syscall wrappers of `System`: what they do with real files, and what each does with an
/// injected EINTR (retried), EIO/ENOSPC (a typed `SystemError` naming the C call and the path),
/// a partial transfer (completed) and a short write (the prefix written, then ENOSPC).
final class SystemTests: POSIXTestCase {
    /// One wrapper under test: the fault point it consults, the C call its errors name, the path
    /// they name, and `prepare`, which sets up a fresh call (before any fault is armed) and returns
    /// the call and a check that it did its job.
    struct Wrapper {
        let name: String
        let point: FaultPoint
        let call: String
        let errorPath: String
        let prepare: () throws -> (run: () throws -> Void, check: () throws -> Void)
    }

    var opened: [FileDescriptor] = []
    var mapped: [MappedRegion] = []

    override func tearDownWithError() throws {
        for region in mapped { System.munmap(region) }
        for fd in opened { System.close(fd) }
        try super.tearDownWithError()
    }

    func file(_ name: String, _ bytes: [UInt8]) throws -> FileDescriptor {
        let fd = try makeFile(name, bytes)
        opened.append(fd)
        return fd
    }

    /// Every wrapper that can fail, on files named `<tag>-...` (so a fault armed with
    /// `pathContaining: tag` hits only the call under test).
    func wrappers(_ tag: String) -> [Wrapper] {
        let data = pattern(3 * 4096, seed: 7)
        let t = path(tag)
        return [
            Wrapper(name: "open", point: .open, call: "open", errorPath: t + "-open") {
                try Data(data).write(to: URL(fileURLWithPath: t + "-open"))
                var fd: FileDescriptor?
                return (
                    { fd = try System.open(t + "-open") },
                    {
                        let d = try XCTUnwrap(fd); self.opened.append(d);
                        XCTAssertEqual(try self.read(d, count: 10), Array(data[..<10]))
                    }
                )
            },
            Wrapper(name: "pread", point: .pread, call: "pread", errorPath: t + "-pread") {
                let fd = try self.file(tag + "-pread", data)
                var got: [UInt8] = []
                return (
                    { got = try self.read(fd, count: 5000, offset: 100) },
                    { XCTAssertEqual(got, Array(data[100..<5100])) }
                )
            },
            Wrapper(name: "pwrite", point: .pwrite, call: "pwrite", errorPath: t + "-pwrite") {
                let fd = try self.file(tag + "-pwrite", [])
                return (
                    {
                        try data.withUnsafeBytes {
                            try System.pwrite(fd, from: $0.baseAddress!, count: 5000, offset: 10)
                        }
                    },
                    {
                        XCTAssertEqual(
                            try self.contents(tag + "-pwrite"), [UInt8](repeating: 0, count: 10) + Array(data[..<5000]))
                    }
                )
            },
            Wrapper(name: "pwritev", point: .pwritev, call: "pwritev", errorPath: t + "-pwritev") {
                let fd = try self.file(tag + "-pwritev", [])
                return (
                    {
                        try data.withUnsafeBytes { b in
                            let bufs = (0..<3).map { UnsafeRawPointer(b.baseAddress! + $0 * 4096) }
                            try System.pwritev(fd, buffers: bufs, size: 4096, offset: 4096)
                        }
                    },
                    { XCTAssertEqual(try self.contents(tag + "-pwritev"), [UInt8](repeating: 0, count: 4096) + data) }
                )
            },
            Wrapper(name: "fdatasync", point: .fdatasync, call: "fdatasync", errorPath: t + "-fdatasync") {
                let fd = try self.file(tag + "-fdatasync", data)
                return ({ try System.fdatasync(fd) }, { XCTAssertEqual(try self.contents(tag + "-fdatasync"), data) })
            },
            Wrapper(name: "fsync", point: .fsync, call: "fsync", errorPath: t + "-fsync") {
                let fd = try self.file(tag + "-fsync", data)
                return ({ try System.fsync(fd) }, { XCTAssertEqual(try self.contents(tag + "-fsync"), data) })
            },
            Wrapper(name: "ftruncate", point: .ftruncate, call: "ftruncate", errorPath: t + "-ftruncate") {
                let fd = try self.file(tag + "-ftruncate", data)
                return (
                    { try System.ftruncate(fd, length: 1000) },
                    { XCTAssertEqual(try self.contents(tag + "-ftruncate"), Array(data[..<1000])) }
                )
            },
            Wrapper(name: "allocate", point: .fallocate, call: "posix_fallocate", errorPath: t + "-allocate") {
                let fd = try self.file(tag + "-allocate", Array(data[..<100]))
                return (
                    { try System.allocate(fd, offset: 0, length: 1 << 20) },
                    {
                        XCTAssertEqual(try System.fileSize(fd), 1 << 20);
                        XCTAssertEqual(try self.read(fd, count: 100), Array(data[..<100]))
                    }
                )
            },
            Wrapper(name: "fileSize", point: .fstat, call: "fstat", errorPath: t + "-fstat") {
                let fd = try self.file(tag + "-fstat", data)
                var size: Int64 = -1
                return ({ size = try System.fileSize(fd) }, { XCTAssertEqual(size, Int64(data.count)) })
            },
            Wrapper(name: "mmap", point: .mmap, call: "mmap", errorPath: t + "-mmap") {
                let fd = try self.file(tag + "-mmap", data)
                var region: MappedRegion?
                return (
                    { region = try System.mmap(fd, length: data.count, writable: false) },
                    {
                        let r = try XCTUnwrap(region); self.mapped.append(r)
                        XCTAssertEqual(Array(UnsafeRawBufferPointer(start: r.base, count: data.count)), data)
                    }
                )
            },
            Wrapper(name: "msync", point: .msync, call: "msync", errorPath: t + "-msync") {
                let fd = try self.file(tag + "-msync", data)
                let region = try System.mmap(fd, length: data.count, writable: true)
                self.mapped.append(region)
                region.base.storeBytes(of: 0xAB, toByteOffset: 4096 + 5, as: UInt8.self)
                return (
                    { try System.msync(region, offset: 4096, length: 4096, path: fd.path) },
                    { XCTAssertEqual(try self.read(fd, count: 1, offset: 4096 + 5), [0xAB]) }
                )
            },
            Wrapper(name: "lock", point: .fcntlLock, call: "fcntl(F_OFD_SETLKW)", errorPath: t + "-lock") {
                let fd = try self.file(tag + "-lock", [])
                let other = try self.file(tag + "-lock", [])
                return (
                    { try System.lock(fd, byte: 3, kind: .exclusive) },
                    { XCTAssertFalse(try System.tryLock(other, byte: 3, kind: .shared), "the lock was not taken") }
                )
            },
            Wrapper(name: "tryLock", point: .fcntlLock, call: "fcntl(F_OFD_SETLK)", errorPath: t + "-trylock") {
                let fd = try self.file(tag + "-trylock", [])
                let other = try self.file(tag + "-trylock", [])
                var took = false
                return (
                    { took = try System.tryLock(fd, byte: 3, kind: .exclusive) },
                    {
                        XCTAssertTrue(took); XCTAssertTrue(try System.isLockedByOther(other, byte: 3))
                    }
                )
            },
            Wrapper(name: "unlock", point: .fcntlUnlock, call: "fcntl(F_UNLCK)", errorPath: t + "-unlock") {
                let fd = try self.file(tag + "-unlock", [])
                let other = try self.file(tag + "-unlock", [])
                try System.lock(fd, byte: 3, kind: .exclusive)
                return (
                    { try System.unlock(fd, byte: 3) },
                    { XCTAssertTrue(try System.tryLock(other, byte: 3, kind: .exclusive), "still locked") }
                )
            },
            Wrapper(name: "isLockedByOther", point: .fcntlGetLock, call: "fcntl(F_OFD_GETLK)", errorPath: t + "-getlk")
            {
                let fd = try self.file(tag + "-getlk", [])
                let other = try self.file(tag + "-getlk", [])
                try System.lock(other, byte: 9, kind: .shared)
                var locked = false
                return ({ locked = try System.isLockedByOther(fd, byte: 9) }, { XCTAssertTrue(locked) })
            },
            Wrapper(name: "link", point: .link, call: "link", errorPath: t + "-link-to") {
                try Data(data).write(to: URL(fileURLWithPath: t + "-link-from"))
                return (
                    { try System.link(t + "-link-from", to: t + "-link-to") },
                    {
                        XCTAssertEqual(try self.contents(tag + "-link-to"), data);
                        XCTAssertTrue(System.fileExists(t + "-link-from"))
                    }
                )
            },
            Wrapper(name: "rename", point: .rename, call: "rename", errorPath: t + "-rename-from") {
                try Data(data).write(to: URL(fileURLWithPath: t + "-rename-from"))
                try Data([1, 2, 3]).write(to: URL(fileURLWithPath: t + "-rename-to"))
                return (
                    { try System.rename(t + "-rename-from", to: t + "-rename-to") },
                    {
                        XCTAssertEqual(try self.contents(tag + "-rename-to"), data);
                        XCTAssertFalse(System.fileExists(t + "-rename-from"))
                    }
                )
            },
            Wrapper(name: "unlink", point: .unlink, call: "unlink", errorPath: t + "-unlink") {
                try Data(data).write(to: URL(fileURLWithPath: t + "-unlink"))
                return ({ try System.unlink(t + "-unlink") }, { XCTAssertFalse(System.fileExists(t + "-unlink")) })
            },
        ]
    }

    // MARK: Injected failures

    func testInjectedEIOAndENOSPCAreTypedErrorsNamingTheCallAndPathForEveryWrapper() throws {
        for (label, err) in [("EIO", EIO), ("ENOSPC", ENOSPC)] {
            for w in wrappers("fail-\(label)") {
                let (run, check) = try w.prepare()
                FaultInjector.arm(w.point, kind: .error(err), times: 1, pathContaining: w.errorPath)
                assertSystemError(call: w.call, errno: err, path: w.errorPath, "\(w.name) \(label)") { try run() }
                XCTAssertEqual(FaultInjector.hits(w.point), 1, "\(w.name) \(label): a failure is not retried")
                FaultInjector.disarmAll()
                // The fault was one attempt: the same call now does its job.
                try run()
                try check()
            }
        }
    }

    func testInjectedEINTRIsRetriedUntilTheCallSucceeds() throws {
        for w in wrappers("eintr") where w.point != .mmap {
            let (run, check) = try w.prepare()
            FaultInjector.arm(w.point, kind: .error(EINTR), times: 3, pathContaining: w.errorPath)
            XCTAssertNoThrow(try run(), w.name)
            XCTAssertEqual(FaultInjector.hits(w.point), 4, "\(w.name): three interrupted attempts, then the real call")
            FaultInjector.disarmAll()
            try check()
        }
    }

    func testPartialTransfersAreCompleted() throws {
        for w in wrappers("partial") where [.pread, .pwrite, .pwritev].contains(w.point) {
            let (run, check) = try w.prepare()
            FaultInjector.arm(w.point, kind: .partialTransfer(1000), pathContaining: w.errorPath)
            try run()
            let bytes = w.point == .pwritev ? 3 * 4096 : 5000
            XCTAssertEqual(FaultInjector.hits(w.point), (bytes + 999) / 1000, "\(w.name): one attempt per 1000 bytes")
            FaultInjector.disarmAll()
            try check()
        }
    }

    func testShortWriteWritesThePrefixThenFailsWithENOSPC() throws {
        let data = pattern(3 * 4096, seed: 3)
        let old = [UInt8](repeating: 0xEE, count: 4 * 4096)
        let fd = try file("short-pwrite", old)
        FaultInjector.arm(.pwrite, kind: .shortWrite(100), pathContaining: fd.path)
        assertSystemError(call: "pwrite", errno: ENOSPC, path: fd.path) {
            try data.withUnsafeBytes { try System.pwrite(fd, from: $0.baseAddress!, count: 4096, offset: 4096) }
        }
        XCTAssertEqual(
            try contents("short-pwrite"), Array(old[..<4096]) + Array(data[..<100]) + Array(old[(4096 + 100)...]))

        FaultInjector.disarmAll()

        // pwritev: the prefix may end inside the second buffer.
        let fdv = try file("short-pwritev", old)
        FaultInjector.arm(.pwritev, kind: .shortWrite(4096 + 100), pathContaining: fdv.path)
        assertSystemError(call: "pwritev", errno: ENOSPC, path: fdv.path) {
            try data.withUnsafeBytes { b in
                try System.pwritev(
                    fdv, buffers: (0..<3).map { UnsafeRawPointer(b.baseAddress! + $0 * 4096) }, size: 4096, offset: 4096
                )
            }
        }
        XCTAssertEqual(
            try contents("short-pwritev"),
            Array(old[..<4096]) + Array(data[..<(4096 + 100)]) + Array(old[(2 * 4096 + 100)...]))
    }

    // MARK: Behaviour of the real calls

    func testPreadReturnsFewerBytesOnlyAtEndOfFile() throws {
        let data = pattern(5000)
        let fd = try file("eof", data)
        XCTAssertEqual(try read(fd, count: 4096, offset: 4000), Array(data[4000...]))
        XCTAssertEqual(try read(fd, count: 10, offset: 6000), [])
    }

    func testPwritevWritesMoreThan1024BuffersInSeveralCalls() throws {
        let fd = try file("many", [])
        let data = pattern(1500 * 16, seed: 11)
        try data.withUnsafeBytes { b in
            try System.pwritev(
                fd, buffers: (0..<1500).map { UnsafeRawPointer(b.baseAddress! + $0 * 16) }, size: 16, offset: 0)
        }
        XCTAssertEqual(try contents("many"), data)
    }

    /// On Linux a descriptor is released even when close reports an error, so the wrapper does not
    /// retry (it could close a descriptor another thread just received).
    func testCloseReleasesTheDescriptorEvenWhenItReportsAnError() throws {
        for err in [EIO, EINTR] {
            let fd = try System.open(path("close"), create: true)
            XCTAssertTrue(isOpen(fd.rawValue))
            FaultInjector.arm(.close, kind: .error(err), pathContaining: fd.path)
            System.close(fd)
            XCTAssertEqual(FaultInjector.hits(.close), 1, "close is not retried")
            XCTAssertFalse(isOpen(fd.rawValue), "errno \(err): the descriptor is still open")
            FaultInjector.disarmAll()
        }
    }

    func testUnlinkOfAMissingFileIsNotAnError() throws {
        XCTAssertNoThrow(try System.unlink(path("never-created")))
        try Data([1]).write(to: URL(fileURLWithPath: path("gone")))
        FaultInjector.arm(.unlink, kind: .error(ENOENT), times: 1, pathContaining: path("gone"))
        XCTAssertNoThrow(try System.unlink(path("gone")), "another process removed it first")
        XCTAssertTrue(System.fileExists(path("gone")))
    }

    func testOpenReportsMissingFilesAndExclusiveCreate() throws {
        assertSystemError(call: "open", errno: ENOENT, path: path("missing")) { _ = try System.open(path("missing")) }
        let fd = try file("exists", [1])
        _ = fd
        assertSystemError(call: "open", errno: EEXIST, path: path("exists")) {
            _ = try System.open(path("exists"), create: true, exclusive: true)
        }
    }

    /// Byte locks belong to the open file description: two descriptors of one file in one process
    /// conflict as two processes would, and a conflicting `tryLock` returns false without waiting.
    func testByteLocksConflictBetweenDescriptorsOfOneProcess() throws {
        let a = try file("locks", [])
        let b = try file("locks", [])
        XCTAssertTrue(try System.tryLock(a, byte: 0, kind: .exclusive))
        XCTAssertFalse(try System.tryLock(b, byte: 0, kind: .shared))
        XCTAssertTrue(try System.isLockedByOther(b, byte: 0))
        XCTAssertFalse(try System.isLockedByOther(a, byte: 0), "a's own lock is not another's")
        XCTAssertTrue(try System.tryLock(b, byte: 1, kind: .exclusive), "another byte is free")
        try System.unlock(a, byte: 0)
        XCTAssertTrue(try System.tryLock(b, byte: 0, kind: .shared))
        XCTAssertTrue(try System.tryLock(a, byte: 0, kind: .shared), "shared locks coexist")
        XCTAssertFalse(try System.tryLock(a, byte: 1, kind: .shared))
    }

    func testInjectedEAGAINMakesTryLockReportAConflictingHolder() throws {
        let a = try file("eagain", [])
        FaultInjector.arm(.fcntlLock, kind: .error(EAGAIN), times: 1, pathContaining: a.path)
        XCTAssertFalse(try System.tryLock(a, byte: 0, kind: .exclusive))
        XCTAssertTrue(try System.tryLock(a, byte: 0, kind: .exclusive))
    }

    /// Where the file system cannot reserve blocks, `allocate` writes zeros past the file's end
    /// (which allocates them, or fails with ENOSPC now rather than as SIGBUS later).
    func testAllocateFallsBackToWritingZerosWhenReservationIsUnsupported() throws {
        let fd = try file("fallback", pattern(100))
        FaultInjector.arm(.fallocate, kind: .error(EOPNOTSUPP), pathContaining: fd.path)
        try System.allocate(fd, offset: 4096, length: 8192)
        XCTAssertGreaterThanOrEqual(FaultInjector.hits(.pwrite), 1)
        XCTAssertEqual(FaultInjector.hits(.ftruncate), 0)
        XCTAssertEqual(try System.fileSize(fd), 4096 + 8192)
        XCTAssertEqual(try read(fd, count: 8192, offset: 4096), [UInt8](repeating: 0, count: 8192))
        // A request inside the file leaves its length alone.
        try System.allocate(fd, offset: 0, length: 4096)
        XCTAssertEqual(try System.fileSize(fd), 4096 + 8192)
        XCTAssertEqual(try read(fd, count: 100), pattern(100))
    }

    func testSyncDirectoryFailureNamesTheDirectory() throws {
        let fd = try file("entry", [1])
        _ = fd
        try System.syncDirectory(of: path("entry"))
        FaultInjector.arm(.fsync, kind: .error(EIO), pathContaining: directory)
        assertSystemError(call: "fsync", errno: EIO, path: directory) { try System.syncDirectory(of: path("entry")) }
        XCTAssertEqual(FaultInjector.hits(.close), 1, "the directory's descriptor is closed after the failure")
        FaultInjector.disarmAll()
        FaultInjector.arm(.open, kind: .error(EACCES), pathContaining: directory)
        assertSystemError(call: "open", errno: EACCES, path: directory) { try System.syncDirectory(of: path("entry")) }
    }

    /// A real signal (no `SA_RESTART`) interrupts `fcntl(F_OFD_SETLKW)` while it waits for a lock
    /// another descriptor holds: the wrapper goes back to waiting and returns once the lock is free.
    func testLockWaitInterruptedByASignalIsRetried() throws {
        let holder = try file("signal", [])
        let waiter = try file("signal", [])
        try System.lock(holder, byte: 0, kind: .exclusive)
        var action = sigaction()
        var old = sigaction()
        #if canImport(Glibc)
            action.__sigaction_handler.sa_handler = { _ in SystemTests.signals.wrappingAdd(1, ordering: .relaxed) }
        #endif
        action.sa_flags = 0  // no SA_RESTART: the blocked fcntl returns EINTR
        sigemptyset(&action.sa_mask)
        XCTAssertEqual(sigaction(SIGUSR2, &action, &old), 0)
        defer { sigaction(SIGUSR2, &old, nil) }
        SystemTests.signals.store(0, ordering: .relaxed)

        let result = LockResult()
        let thread = Thread {
            result.set(tid: pthread_self())
            do { try System.lock(waiter, byte: 0, kind: .exclusive); result.finish(nil) } catch { result.finish(error) }
        }
        thread.start()
        while result.tid == nil { usleep(1000) }
        // Interrupt the waiting thread a number of times while the lock is still held, one signal
        // at a time: a second SIGUSR2 sent before the first is handled merges with it.
        for sent in 1...20 {
            usleep(5000)
            XCTAssertFalse(result.done, "the lock was taken while another descriptor held it")
            pthread_kill(result.tid!, SIGUSR2)
            let deadline = Date().addingTimeInterval(10)
            while SystemTests.signals.load(ordering: .relaxed) < sent && Date() < deadline { usleep(500) }
            XCTAssertEqual(SystemTests.signals.load(ordering: .relaxed), sent, "signal \(sent) was not handled")
        }
        XCTAssertFalse(result.done, "an interrupted wait ended the call")
        try System.unlock(holder, byte: 0)
        let deadline = Date().addingTimeInterval(10)
        while !result.done && Date() < deadline { usleep(1000) }
        XCTAssertTrue(result.done)
        XCTAssertNil(result.error.map { "\($0)" }, "EINTR was reported instead of retried")
        XCTAssertTrue(try System.isLockedByOther(holder, byte: 0), "the waiter holds the lock")
    }

    /// Signals the handler saw (a signal handler may only touch lock-free state).
    static let signals = Atomic<Int>(0)
}

/// The outcome of a lock call on another thread.
final class LockResult: @unchecked Sendable {
    private let lock = NSLock()
    private var _tid: pthread_t?
    private var _done = false
    private var _error: Error?
    var tid: pthread_t? { lock.withLock { _tid } }
    var done: Bool { lock.withLock { _done } }
    var error: Error? { lock.withLock { _error } }
    func set(tid: pthread_t) { lock.withLock { _tid = tid } }
    func finish(_ error: Error?) {
        lock.withLock {
            _error = error; _done = true
        }
    }
}
