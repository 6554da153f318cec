import Dispatch
internal import Synchronization
import Foundation
internal import StrataCore
internal import StrataStorage

/// A process-unique id of the calling thread, kept in thread-specific storage (a few
/// nanoseconds per read; `pthread_self()` values are reused once a thread exits).
enum ThreadID {
    private static let key: pthread_key_t = {
        var k = pthread_key_t()
        pthread_key_create(&k, nil)
        return k
    }()
    private static let counter = Counter()

    private final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var next: UInt64 = 1
        func take() -> UInt64 { lock.lock(); defer { lock.unlock() }; next += 1; return next - 1 }
    }

    /// The main thread's id, once a realm of the main context was opened on it (0 before).
    static let main = Atomic<UInt64>(0)

    @inline(__always)
    static var current: UInt64 {
        if let p = pthread_getspecific(key) { return UInt64(UInt(bitPattern: p)) }
        let id = counter.take()
        pthread_setspecific(key, UnsafeRawPointer(bitPattern: UInt(id)))
        return id
    }
}
