import StrataPOSIX

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// One memory mapping of the data file, shared by the snapshots that started while it was current.
///
/// When the file outgrows the mapping, the database creates a larger one; snapshots keep the
/// mapping they started with (it still maps every page they can reach: pages are never moved, and
/// a mapping shows the file's current contents), and it is unmapped when the last one ends.
final class Mapping: @unchecked Sendable {
    let region: MappedRegion
    @inline(__always) var base: UnsafeMutableRawPointer { region.base }
    @inline(__always) var length: Int { region.length }

    init(region: MappedRegion) { self.region = region }
    deinit { System.munmap(region) }
}

/// A mutex for short critical sections (a pthread mutex on the heap, so it never moves).
final class Lock: @unchecked Sendable {
    private let m: UnsafeMutablePointer<pthread_mutex_t>
    init() {
        m = .allocate(capacity: 1)
        m.initialize(to: pthread_mutex_t())
        pthread_mutex_init(m, nil)
    }
    deinit {
        pthread_mutex_destroy(m)
        m.deallocate()
    }
    @inline(__always) func lock() { pthread_mutex_lock(m) }
    @inline(__always) func unlock() { pthread_mutex_unlock(m) }
    @inline(__always) func withLock<T>(_ body: () throws -> T) rethrows -> T {
        pthread_mutex_lock(m)
        defer { pthread_mutex_unlock(m) }
        return try body()
    }
}

/// A binary semaphore: the in-process half of the writer lock. Unlike a mutex it may be released
/// by a thread other than the one that took it (asynchronous commits finish on a worker thread).
final class WriterGate: @unchecked Sendable {
    private let lock = Lock()
    private var cond = pthread_cond_t()
    private var taken = false
    init() { pthread_cond_init(&cond, nil) }
    deinit { pthread_cond_destroy(&cond) }

    func acquire() {
        lock.lock()
        while taken { lock.withUnsafeMutex { pthread_cond_wait(&cond, $0) } }
        taken = true
        lock.unlock()
    }

    /// Takes the gate if no other thread holds it; never waits.
    func tryAcquire() -> Bool {
        lock.lock()
        defer { lock.unlock() }
        if taken { return false }
        taken = true
        return true
    }

    func release() {
        lock.lock()
        taken = false
        pthread_cond_signal(&cond)
        lock.unlock()
    }
}

extension Lock {
    fileprivate func withUnsafeMutex(_ body: (UnsafeMutablePointer<pthread_mutex_t>) -> Void) { body(m) }
}
