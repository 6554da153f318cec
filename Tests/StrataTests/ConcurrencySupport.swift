import Foundation
import Strata
import StrataTestSupport
import XCTest

// Helpers for the concurrency tests: threads to run work on, a task executor that pins a task to
// one of them, a lock-protected violation log, and a box that deliberately sends a confined
// (non-Sendable) realm or object to another thread so the tests can check that it is refused.

/// Sends `value` across threads without the compiler's Sendable check. The tests use it to hand
/// live realms and objects to the wrong thread on purpose; it is only safe because every test
/// waits for the other thread before touching the value again.
struct Unchecked<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

/// The messages `Realm.violationHandler` reports, recorded from any thread.
final class ViolationLog: @unchecked Sendable {
    private let lock = NSLock()
    private var messages: [String] = []

    func record(_ message: String) {
        lock.withLock { messages.append(message) }
    }

    /// The messages so far, cleared.
    func take() -> [String] {
        lock.withLock {
            defer { messages = [] }
            return messages
        }
    }
}

/// One dedicated thread that runs the closures (`sync`, `async`) and task jobs (as a
/// `TaskExecutor`) it is given, in order. Realms opened in its closures are confined to it.
/// Call `stop()` when done.
final class WorkerThread: TaskExecutor, @unchecked Sendable {
    let name: String
    private let condition = NSCondition()
    private var work: [() -> Void] = []
    private var stopped = false
    private var threadID: pthread_t?

    init(_ name: String) {
        self.name = name
        let started = DispatchSemaphore(value: 0)
        let thread = Thread { [self] in
            condition.withLock { threadID = pthread_self() }
            started.signal()
            run()
        }
        thread.name = name
        thread.stackSize = 8 << 20
        thread.start()
        started.wait()
    }

    /// The thread's id.
    var pthread: pthread_t { condition.withLock { threadID! } }

    /// Whether the caller runs on this thread.
    var isCurrent: Bool { pthread_equal(pthread, pthread_self()) != 0 }

    private func run() {
        while true {
            condition.lock()
            while work.isEmpty && !stopped { condition.wait() }
            if work.isEmpty {
                condition.unlock()
                return
            }
            let next = work.removeFirst()
            condition.unlock()
            next()
        }
    }

    /// Runs `block` on the thread later.
    func async(_ block: @escaping () -> Void) {
        condition.withLock {
            precondition(!stopped, "\(name) is stopped")
            work.append(block)
            condition.signal()
        }
    }

    /// Runs `body` on the thread and returns its result.
    func sync<T>(_ body: @escaping () -> T) -> T {
        let result = Locked<T?>(nil)
        let done = DispatchSemaphore(value: 0)
        async {
            result.value = body()
            done.signal()
        }
        done.wait()
        return result.value!
    }

    /// Lets the thread finish the work it has and exit.
    func stop() {
        condition.withLock {
            stopped = true
            condition.signal()
        }
    }

    // MARK: TaskExecutor

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}

/// Runs `body` on a new `Thread` and returns its result when the thread is done.
func onNewThread<T>(_ body: @escaping () -> T) -> T {
    let box = Unchecked(body)
    let result = Locked<T?>(nil)
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
        result.value = box.value()
        done.signal()
    }
    thread.stackSize = 8 << 20
    thread.start()
    done.wait()
    return result.value!
}

/// Runs `body` asynchronously on `queue` and returns its result when the block is done.
func onQueue<T>(_ queue: DispatchQueue, _ body: @escaping () -> T) -> T {
    let box = Unchecked(body)
    let result = Locked<T?>(nil)
    let done = DispatchSemaphore(value: 0)
    queue.async {
        result.value = box.value()
        done.signal()
    }
    done.wait()
    return result.value!
}

/// Runs `body(i)` for i in 0..<count, each on its own new thread, all released at the same moment
/// (a start barrier), and returns when every thread is done.
func onThreadsAtOnce(_ count: Int, _ body: @escaping (Int) -> Void) {
    let box = Unchecked(body)
    let arrived = Locked(0)
    let done = DispatchGroup()
    for i in 0..<count {
        done.enter()
        let thread = Thread {
            arrived.mutate { $0 += 1 }
            while arrived.value < count { sched_yield() }
            box.value(i)
            done.leave()
        }
        thread.stackSize = 8 << 20
        thread.start()
    }
    done.wait()
}

/// The size of the file at `path` in bytes.
func fileSize(_ path: String) -> Int {
    ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.intValue ?? -1
}

/// Whether `T` is `Sendable` (a compile-time check: the call only compiles for Sendable types).
func assertSendable<T: Sendable>(_: T.Type) {}

/// The error `body` throws, nil if it does not.
func thrown(_ body: () throws -> Void) -> Error? {
    do {
        try body()
        return nil
    } catch {
        return error
    }
}
