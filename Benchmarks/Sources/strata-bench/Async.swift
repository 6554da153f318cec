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
// The steps run in rounds (default 5): each round runs a fdatasync probe, then N/rounds commits of
// every step, in an order that rotates, so the disk's swings reach every step alike. The rate of a
// step with a caller thread comes from half of its commits, made with the caller clock off; its
// blocked and busy fractions from the other half, made with the clock on (`caller_clocked_*`).
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

    /// Off during the passes that measure throughput: a measured call costs four system calls
    /// (about 3 us), a tenth of a grouped commit.
    var on = false

    @inline(__always)
    func measure<T>(_ body: () throws -> T) rethrows -> T {
        guard on else { return try body() }
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
        [
            "caller_busy_fraction": round3(busy / wall), "caller_blocked_fraction": round3(blocked / wall),
            "caller_blocked_seconds": round6(blocked), "caller_preempted_seconds": round6(preempted),
            "caller_blocking_calls": blockingCalls, "caller_max_call_ms": round3(maxCall * 1000), "caller_calls": calls,
        ]
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

func runAsync(n: Int, rounds: Int, dir: String?, steps: Set<String>?) async throws {
    let base = dir ?? NSTemporaryDirectory() + "/strata-async-\(getpid())"
    try? FileManager.default.removeItem(atPath: base)
    try FileManager.default.createDirectory(atPath: base, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: base) }
    let all = ["small_txn", "async_grouped", "async_ungrouped", "async_await", "async_await_tasks"]
    let chosen = all.filter { steps?.contains($0) ?? true }
    let seed = 10_000
    let perRound = max(1, n / rounds)

    // Each step has its own file, seeded with `seed` objects, and its own realm: a serial queue's
    // for the completion-handler steps, an actor's for asyncWrite.
    final class Step: @unchecked Sendable {
        let name: String
        let path: String
        let config: Realm.Configuration
        let queue: DispatchQueue
        var realm: Realm?
        var actor: AsyncBenchActor?
        let clock = CallerClock()
        var seconds = 0.0
        var commits = 0
        /// Wall time of the passes run with the caller clock on (for its fractions).
        var clockedSeconds = 0.0
        var errors: [String] = []
        init(name: String, base: String) {
            self.name = name
            path = base + "/\(name).realm"
            config = Realm.Configuration(fileURL: URL(fileURLWithPath: path), objectTypes: [W1Person.self])
            queue = DispatchQueue(label: "strata-bench.\(name)")
        }
    }
    var stepsByName: [String: Step] = [:]
    for name in chosen {
        let step = Step(name: name, base: base)
        let seeder = try Realm(configuration: step.config)
        try seeder.write { for i in 0..<seed { seeder.add(asyncPerson(1_000_000 + i)) } }
        if name.hasPrefix("async_await") {
            step.actor = try await AsyncBenchActor(configuration: step.config)
        } else {
            try step.queue.sync { step.realm = try Realm(configuration: step.config, queue: step.queue) }
        }
        stepsByName[name] = step
    }

    /// Runs `count` commits of `step` with ids from `first`; returns the wall time.
    func runChunk(_ step: Step, first: Int, count: Int) async throws -> Double {
        let ids = first..<(first + count)
        switch step.name {
        case "small_txn":
            return try step.queue.sync { () throws -> Double in
                let realm = step.realm!
                let t0 = now()
                for i in ids {
                    try step.clock.measure { try realm.write { realm.add(asyncPerson(i)) } }
                }
                return now() - t0
            }
        case "async_grouped", "async_ungrouped":
            let grouping = step.name == "async_grouped"
            let done = DispatchSemaphore(value: 0)
            let t0 = now()
            step.queue.async {
                let realm = step.realm!
                var completed = 0
                for i in ids {
                    step.clock.measure {
                        _ = realm.beginAsyncWrite {
                            step.clock.measure {
                                realm.add(asyncPerson(i))
                                _ = realm.commitAsyncWrite(allowGrouping: grouping) { error in
                                    if let error { step.errors.append("\(error)") }
                                    completed += 1
                                    if completed == count { done.signal() }
                                }
                            }
                        }
                    }
                }
            }
            await withCheckedContinuation { (c: CheckedContinuation<Void, Never>) in
                DispatchQueue.global().async {
                    done.wait(); c.resume()
                }
            }
            return now() - t0
        case "async_await":
            let t0 = now()
            try await step.actor!.insertSequentially(ids)
            return now() - t0
        default:  // async_await_tasks
            let tasks = 16
            let actor = step.actor!
            let t0 = now()
            try await withThrowingTaskGroup(of: Void.self) { group in
                for t in 0..<tasks {
                    group.addTask {
                        var id = first + t
                        while id < first + count {
                            try await actor.insert(id)
                            id += tasks
                        }
                    }
                }
                try await group.waitForAll()
            }
            return now() - t0
        }
    }

    // Rounds: the disk's fdatasync rate swings by 10x within minutes here, so every step runs a
    // share of its commits in every round, beside a short fdatasync probe, in a rotating order.
    var probeSeconds = 0.0
    var probeCount = 0
    for round in 0..<rounds {
        let probe = 400
        probeSeconds += try fsyncLoopSeconds(dir: base, count: probe)
        probeCount += probe
        let order = (0..<chosen.count).map { chosen[($0 + round) % chosen.count] }
        for name in order {
            let step = stepsByName[name]!
            // Throughput pass (clock off), then, for the steps with a caller thread, a second pass
            // of as many commits with the caller clock on, for the blocked and busy fractions.
            let half = perRound / 2
            let first = round * perRound
            step.seconds += try await runChunk(step, first: first, count: half)
            step.commits += half
            if name.hasPrefix("async_await") {
                step.seconds += try await runChunk(step, first: first + half, count: perRound - half)
                step.commits += perRound - half
            } else {
                step.clock.on = true
                step.clockedSeconds += try await runChunk(step, first: first + half, count: perRound - half)
                step.clock.on = false
            }
        }
    }

    let fsyncRate = Double(probeCount) / probeSeconds
    emit(
        "fsync_probe", n: probeCount, seconds: probeSeconds, fileBytes: 0,
        extra: ["what": "4 KiB append + fdatasync loop, \(rounds) runs of 400 between the rounds of the steps"])
    let smallRate = stepsByName["small_txn"].map { Double($0.commits) / $0.seconds }
    for name in chosen {
        let step = stepsByName[name]!
        var fields: [String: Any] = [
            "rounds": rounds, "vs_fsync_probe": round3(Double(step.commits) / step.seconds / fsyncRate),
        ]
        if let smallRate, name != "small_txn" {
            fields["vs_small_txn"] = round3(Double(step.commits) / step.seconds / smallRate)
        }
        if step.clock.calls > 0 {
            for (k, v) in step.clock.fields(wall: step.clockedSeconds) { fields[k] = v }
            fields["caller_clocked_commits"] = n - step.commits
            fields["caller_clocked_seconds"] = round6(step.clockedSeconds)
        }
        switch name {
        case "small_txn": fields["durability"] = "write { } per object: one fdatasync per commit"
        case "async_grouped":
            fields["durability"] =
                "beginAsyncWrite + commitAsyncWrite(allowGrouping: true), all queued at once: up to 1,024 commits per fdatasync, completions after it"
        case "async_ungrouped":
            fields["durability"] =
                "beginAsyncWrite + commitAsyncWrite(allowGrouping: false), all queued at once: one fdatasync per commit, completions after it"
        case "async_await":
            fields["durability"] =
                "try await asyncWrite per object from one task, one after another: one fdatasync each"
        default:
            fields["durability"] =
                "try await asyncWrite from 16 tasks at once on one actor: queued commits share a fdatasync"
        }
        if let realm = step.realm {
            let (count, busy) = step.queue.sync {
                (realm.objects(W1Person.self).count, realm.isPerformingAsynchronousWriteOperations)
            }
            fields["objects_in_file"] = count
            fields["still_performing"] = busy
        } else if let actor = step.actor {
            fields["objects_in_file"] = await actor.count()
        }
        fields["errors"] = step.errors.count
        emit(name, n: step.commits, seconds: step.seconds, fileBytes: fileBytes(step.path), extra: fields)
    }
    for step in stepsByName.values { step.queue.sync { step.realm = nil } }
}

/// Seconds for `count` rounds of 4 KiB append + fdatasync (the disk's limit), printing nothing.
func fsyncLoopSeconds(dir: String, count: Int) throws -> Double {
    let path = dir + "/fsync-probe-\(UUID().uuidString).bin"
    let fd = open(path, O_CREAT | O_RDWR | O_TRUNC, 0o644)
    guard fd >= 0 else { throw AsyncBenchError(message: "cannot create \(path): errno \(errno)") }
    defer { close(fd); unlink(path) }
    var page = [UInt8](repeating: 0x5A, count: 4096)
    let t0 = now()
    for i in 0..<count {
        _ = page.withUnsafeMutableBytes { pwrite(fd, $0.baseAddress, 4096, off_t(i) * 4096) }
        fdatasync(fd)
    }
    return now() - t0
}

/// State of one async step, touched only on the realm's queue (and read after it finished).
final class AsyncStepState: @unchecked Sendable {
    var realm: Realm?
    var completed = 0
    var errors: [String] = []
}

/// Runs the async steps from the synchronous command dispatch (the main thread only waits).
func runAsyncBlocking(n: Int, rounds: Int, dir: String?, steps: Set<String>?) throws {
    let done = DispatchSemaphore(value: 0)
    let failure = AsyncStepState()
    Task.detached {
        do { try await runAsync(n: n, rounds: rounds, dir: dir, steps: steps) } catch {
            failure.errors.append("\(error)")
        }
        done.signal()
    }
    done.wait()
    if let error = failure.errors.first { throw AsyncBenchError(message: error) }
}

struct AsyncBenchError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
