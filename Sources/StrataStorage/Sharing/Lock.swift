import Atomics
import StrataPOSIX
#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

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

extension Lock {
    func withUnsafeMutex(_ body: (UnsafeMutablePointer<pthread_mutex_t>) -> Void) { body(m) }
}
