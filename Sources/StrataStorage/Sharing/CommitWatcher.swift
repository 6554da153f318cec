import StrataPOSIX

/// Lets one thread sleep until a commit to a database is published, by this process or any
/// other, or until another thread of this process wakes it.
///
/// Committers write a field of the lock file with `pwrite(2)` after publishing a commit while any
/// watcher exists (the lock file counts them); on Linux the watcher waits for that write through
/// inotify, so a commit of another process wakes it at once instead of at its next poll. Where the
/// system has no such facility (``watchesOtherProcesses`` false), waits end at their timeout and
/// the caller looks at the published version itself.
///
/// ## Concurrency
/// `wait` belongs to one thread; `wake` may be called from any thread; `close` once, by the owner,
/// after its last `wait`.
public final class CommitWatcher: @unchecked Sendable {
    private let lockFile: LockFile
    private let pipe: (read: FileDescriptor, write: FileDescriptor)
    private let watch: FileDescriptor?
    private var closed = false

    init(lockFile: LockFile, path: String) throws {
        self.lockFile = lockFile
        pipe = try StorageError.wrap { try System.makeWakePipe() }
        do {
            watch = lockFile.isPrivate ? nil : try StorageError.wrap { try System.watchWrites(path) }
        } catch {
            System.close(pipe.read)
            System.close(pipe.write)
            throw error
        }
        lockFile.addWatcher()
    }

    /// Whether commits of other processes end a wait (false: only ``wake()`` and the timeout do).
    public var watchesOtherProcesses: Bool { watch != nil }

    /// Sleeps until a commit is published, ``wake()`` is called, or `timeout` seconds pass;
    /// returns whether something woke it before the timeout. A wake or commit that came before
    /// the call ends it at once.
    @discardableResult
    public func wait(timeout: Double) -> Bool {
        var fds = [pipe.read]
        if let watch { fds.append(watch) }
        let milliseconds = Int32(max(0, min(timeout * 1000, Double(Int32.max))).rounded(.up))
        let woken = System.waitReadable(fds, milliseconds: milliseconds)
        if woken { for fd in fds { System.drain(fd) } }
        return woken
    }

    /// Ends the current or next ``wait(timeout:)``.
    public func wake() {
        System.writeWakeByte(pipe.write)
    }

    /// Stops watching: committers stop writing for this watcher, the descriptors close.
    public func close() {
        guard !closed else { return }
        closed = true
        lockFile.removeWatcher()
        if let watch { System.close(watch) }
        System.close(pipe.read)
        System.close(pipe.write)
    }

    deinit { close() }
}
