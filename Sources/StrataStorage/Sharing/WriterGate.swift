import Atomics
import StrataPOSIX
#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

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
