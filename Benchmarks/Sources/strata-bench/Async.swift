import Foundation
import Strata

// strata-bench async: what issue #6 asks to measure, as JSON lines. Every step makes N
// single-object commits of W1's Person into its own file (seeded with 10,000 objects), through
// the public API, and waits until every commit is durable:
//   fsync_probe       the disk's limit: 4 KiB append + fdatasync in a loop
//   small_txn         realm.write { add } per object (synchronous, one fdatasync each)
//   async_grouped     beginAsyncWrite { add; commitAsyncWrite(allowGrouping: true) } per object,
//                     all queued at once on the realm's serial queue
//   async_ungrouped   the same with allowGrouping: false
//   async_await       try await realm.asyncWrite { add } per object, one after another, from one
//                     task on an actor-confined realm
//   async_await_tasks the same from 16 tasks at once on that actor
//
// "Blocked" is what the caller's thread spends off the CPU inside Strata's calls and the write
// blocks Strata runs on it (wall time minus the thread's CPU time, per call): waiting for the
// write lock, for fdatasync, or for I/O. "Busy" is the wall time inside those calls. Both are
// fractions of the step's wall time. The drain bookkeeping between blocks (a non-blocking
// try-lock and queue handling) is not inside a measured call.

/// Wall and CPU time of the calling thread around measured calls.
///
/// Off-CPU time inside a call counts as blocked when the thread gave up the CPU by itself
/// (a voluntary context switch: it slept on a lock or on I/O). Time it lost to preemption on
/// this shared machine (only involuntary switches) is reported apart, as `caller_preempted_seconds`.
final class CallerClock: @unchecked Sendable {
    var busy = 0.0
    var blocked = 0.0
    var preempted = 0.0
    var maxCall = 0.0
    var calls = 0
    var blockingCalls = 0

    @inline(__always)
    func measure<T>(_ body: () throws -> T) rethrows -> T {
        let s0 = switches()
        let w0 = now()
        let c0 = threadCPU()
        let result = try body()
        let wall = now() - w0
        let cpu = threadCPU() - c0
        let s1 = switches()
        busy += wall
        let off = max(0, wall - cpu)
        if s1.voluntary > s0.voluntary {
            blocked += off
            blockingCalls += 1
        } else {
            preempted += off
        }
        maxCall = max(maxCall, wall)
        calls += 1
        return result
    }

    func fields(wall: Double) -> [String: Any] {
        ["caller_busy_fraction": round3(busy / wall), "caller_blocked_fraction": round3(blocked / wall),
         "caller_blocked_seconds": round6(blocked), "caller_preempted_seconds": round6(preempted),
         "caller_blocking_calls": blockingCalls, "caller_max_call_ms": round3(maxCall * 1000), "caller_calls": calls]
    }
}

/// The calling thread's voluntary and involuntary context switches so far.
func switches() -> (voluntary: Int, involuntary: Int) {
    var usage = rusage()
    getrusage(__rusage_who_t(1), &usage)  // RUSAGE_THREAD (1 on Linux), missing from the Glibc overlay
    return (usage.ru_nvcsw, usage.ru_nivcsw)
}

func threadCPU() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

func round3(_ x: Double) -> Double { (x * 1000).rounded() / 1000 }
func round6(_ x: Double) -> Double { (x * 1e6).rounded() / 1e6 }

/// A model object for the async steps.
func asyncPerson(_ id: Int) -> W1Person {
    let p = W1Person()
    p.id = Int64(id)
    p.name = "person-\(id)"
    p.age = Int64(id % 100)
    p.score = Double(id) * 0.5
    return p
}

/// The realm of an actor, for the asyncWrite steps.
actor AsyncBenchActor {
    var realm: Realm!

    init(configuration: Realm.Configuration) async throws {
        realm = try await Realm(configuration: configuration, actor: self)
    }

    func insertSequentially(_ ids: Range<Int>) async throws {
        for id in ids {
            try await realm.asyncWrite { realm.add(asyncPerson(id)) }
        }
    }

    func insert(_ id: Int) async throws {
        try await realm.asyncWrite { realm.add(asyncPerson(id)) }
    }

    func count() -> Int { realm.objects(W1Person.self).count }
}

func runAsync(n: Int, dir: String?, steps: Set<String>?) async throws {
    let base = dir ?? NSTemporaryDirectory() + "/strata-async-\(getpid())"
    try? FileManager.default.removeItem(atPath: base)
    try FileManager.default.createDirectory(atPath: base, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: base) }
    func wants(_ s: String) -> Bool { steps?.contains(s) ?? true }

    let fsyncRate = try fsyncProbe(dir: base, count: 2000)
    let seed = 10_000

    /// A fresh file seeded with `seed` objects, opened on a serial queue.
    func prepare(_ name: String) throws -> (Realm.Configuration, String) {
        let path = base + "/\(name).realm"
        let config = Realm.Configuration(fileURL: URL(fileURLWithPath: path), objectTypes: [W1Person.self])
        let realm = try Realm(configuration: config)
        try realm.write { for i in 0..<seed { realm.add(asyncPerson(1_000_000 + i)) } }
        return (config, path)
    }

    func emitStep(_ step: String, seconds: Double, path: String, smallRate: Double?, extra: [String: Any]) {
        var fields = extra
        fields["vs_fsync_probe"] = round3(Double(n) / seconds / fsyncRate)
        if let smallRate { fields["vs_small_txn"] = round3(Double(n) / seconds / smallRate) }
        emit(step, n: n, seconds: seconds, fileBytes: fileBytes(path), extra: fields)
    }

    // small_txn: the synchronous baseline, on a serial queue like the async steps.
    var smallRate: Double? = nil
    if wants("small_txn") {
        let (config, path) = try prepare("small_txn")
        let queue = DispatchQueue(label: "strata-bench.small_txn")
        let clock = CallerClock()
        let (seconds, count) = try queue.sync { () throws -> (Double, Int) in
            let realm = try Realm(configuration: config, queue: queue)
            let t0 = now()
            for i in 0..<n {
                try clock.measure { try realm.write { realm.add(asyncPerson(i)) } }
            }
            return (now() - t0, realm.objects(W1Person.self).count)
        }
        smallRate = Double(n) / seconds
        var extra = clock.fields(wall: seconds)
        extra["durability"] = "write { } per object: one fdatasync per commit"
        extra["objects_in_file"] = count
        emitStep("small_txn", seconds: seconds, path: path, smallRate: nil, extra: extra)
    }

    // async_grouped / async_ungrouped: every commit queued at once on the realm's queue.
    for (step, grouping) in [("async_grouped", true), ("async_ungrouped", false)] where wants(step) {
        let (config, path) = try prepare(step)
        let queue = DispatchQueue(label: "strata-bench.\(step)")
        let clock = CallerClock()
        let done = DispatchSemaphore(value: 0)
        let state = AsyncStepState()
        let t0 = now()
        queue.async {
            let realm = try! Realm(configuration: config, queue: queue)
            state.realm = realm
            for i in 0..<n {
                clock.measure {
                    _ = realm.beginAsyncWrite {
                        clock.measure {
                            realm.add(asyncPerson(i))
                            _ = realm.commitAsyncWrite(allowGrouping: grouping) { error in
                                if let error { state.errors.append("\(error)") }
                                state.completed += 1
                                if state.completed == n { done.signal() }
                            }
                        }
                    }
                }
            }
        }
        done.wait()
        let seconds = now() - t0
        let (count, busy) = queue.sync { (state.realm!.objects(W1Person.self).count, state.realm!.isPerformingAsynchronousWriteOperations) }
        var extra = clock.fields(wall: seconds)
        extra["durability"] = grouping ? "commitAsyncWrite(allowGrouping: true): up to 256 commits per fdatasync, completions after it"
                                       : "commitAsyncWrite(allowGrouping: false): one fdatasync per commit, completions after it"
        extra["objects_in_file"] = count
        extra["errors"] = state.errors.count
        extra["still_performing"] = busy
        emitStep(step, seconds: seconds, path: path, smallRate: smallRate, extra: extra)
        queue.sync { state.realm = nil }
    }

    // async_await: asyncWrite from a task on an actor.
    if wants("async_await") {
        let (config, path) = try prepare("async_await")
        let actor = try await AsyncBenchActor(configuration: config)
        let t0 = now()
        try await actor.insertSequentially(0..<n)
        let seconds = now() - t0
        let count = await actor.count()
        emitStep("async_await", seconds: seconds, path: path, smallRate: smallRate,
                 extra: ["durability": "asyncWrite per object, awaited one after another: one fdatasync each",
                         "objects_in_file": count, "caller": "one task; suspends while waiting, never blocks its thread"])
    }
    if wants("async_await_tasks") {
        let (config, path) = try prepare("async_await_tasks")
        let actor = try await AsyncBenchActor(configuration: config)
        let tasks = 16
        let t0 = now()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for t in 0..<tasks {
                group.addTask {
                    var id = t
                    while id < n {
                        try await actor.insert(id)
                        id += tasks
                    }
                }
            }
            try await group.waitForAll()
        }
        let seconds = now() - t0
        let count = await actor.count()
        emitStep("async_await_tasks", seconds: seconds, path: path, smallRate: smallRate,
                 extra: ["durability": "asyncWrite from 16 tasks at once: commits queued together share a fdatasync",
                         "objects_in_file": count, "tasks": tasks])
    }
}

/// State of one async step, touched only on the realm's queue (and read after it finished).
final class AsyncStepState: @unchecked Sendable {
    var realm: Realm?
    var completed = 0
    var errors: [String] = []
}

/// Runs the async steps from the synchronous command dispatch (the main thread only waits).
func runAsyncBlocking(n: Int, dir: String?, steps: Set<String>?) throws {
    let done = DispatchSemaphore(value: 0)
    let failure = AsyncStepState()
    Task.detached {
        do { try await runAsync(n: n, dir: dir, steps: steps) } catch { failure.errors.append("\(error)") }
        done.signal()
    }
    done.wait()
    if let error = failure.errors.first { throw AsyncBenchError(message: error) }
}

struct AsyncBenchError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
