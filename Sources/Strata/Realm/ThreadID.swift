internal import StrataThreadShim
internal import Synchronization

/// A process-unique id of the calling thread, kept in a thread-local variable (StrataThreadShim:
/// two instructions a read; `pthread_getspecific` with its lazily made key cost about 30, four
/// times in a point read). Not `pthread_self()`: its values are reused once a thread exits, so a
/// realm confined to a thread that ended would pass the check on a new one.
enum ThreadID {
    /// The next id to give (ids start at 1: 0 is "none yet").
    private static let next = Atomic<UInt64>(1)

    /// The main thread's id, once a realm of the main context was opened on it (0 before).
    static let main = Atomic<UInt64>(0)

    @inline(__always)
    static var current: UInt64 {
        let id = strata_thread_id()
        return id != 0 ? id : assign()
    }

    /// The calling thread's first use: gives it the next id.
    @inline(never)
    private static func assign() -> UInt64 {
        let id = next.wrappingAdd(1, ordering: .relaxed).oldValue
        strata_set_thread_id(id)
        return id
    }
}
