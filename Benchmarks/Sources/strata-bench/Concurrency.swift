import Foundation
import Strata

// strata-bench concurrency: what issue #5 asks to measure, as JSON lines.
//   freeze_results      freeze() of a 1M-object Results (and the first count of the frozen results)
//   frozen_first_access   the first subscript of the frozen results, which evaluates their keys
//   frozen_read_1thread   read every object (name and age) of the frozen results on one thread
//   frozen_read_2threads  the same on 2 threads at once, half each (cpu_seconds: the threads' CPU
//                         time, which shows contention even when other processes share the cores)
//   point_get_checked     point gets by primary key with the confinement check (the default)
//   point_get_unchecked   the same with Realm._strataConfinementChecks = false

func runConcurrency(n: Int, dir: String?) throws {
    let base = dir ?? NSTemporaryDirectory() + "/strata-concurrency-\(getpid())"
    try? FileManager.default.removeItem(atPath: base)
    try FileManager.default.createDirectory(atPath: base, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: base) }
    let path = base + "/concurrency.realm"
    let config = Realm.Configuration(fileURL: URL(fileURLWithPath: path), objectTypes: [W1Person.self])
    let realm = try Realm(configuration: config)
    try realm.write {
        for i in 0..<n {
            let p = W1Person()
            p.id = Int64(i)
            p.name = "person-\(i)"
            p.age = Int64(i % 100)
            p.score = Double(i) * 0.5
            realm.add(p)
        }
    }
    let results = realm.objects(W1Person.self)

    var t0 = now()
    let frozen = results.freeze()
    let frozenCount = frozen.count
    var t = now() - t0
    emitConcurrency(
        "freeze_results", n: n, seconds: t, extra: ["count": frozenCount, "how": "results.freeze() then .count"])

    // The first access evaluates the results' keys; timed apart so that the read steps below
    // compare reading alone.
    t0 = now()
    let firstAge = frozen[0].age
    t = now() - t0
    emitConcurrency(
        "frozen_first_access", n: frozenCount, seconds: t,
        extra: ["how": "frozen[0]: evaluates the keys", "age": firstAge])

    t0 = now()
    let c0 = threadCPUTime()
    let single = readAll(frozen, 0..<frozenCount)
    t = now() - t0
    let cpu = threadCPUTime() - c0
    emitConcurrency(
        "frozen_read_1thread", n: frozenCount, seconds: t,
        extra: ["checksum": single, "cpu_seconds": (cpu * 1e6).rounded() / 1e6])

    let half = frozenCount / 2
    let sums = Sums()
    t0 = now()
    let group = DispatchGroup()
    // Frozen results may be shared between threads; the box states it to the compiler.
    let shared = FrozenBox(frozen)
    for part in [0..<half, half..<frozenCount] {
        group.enter()
        Thread.detachNewThread {
            let c0 = threadCPUTime()
            let sum = readAll(shared.results, part)
            sums.add(sum, cpu: threadCPUTime() - c0)
            group.leave()
        }
    }
    group.wait()
    t = now() - t0
    // cpu_seconds sums the threads' CPU time: equal to the one-thread figure when the threads do
    // not slow each other down, whatever else the (shared) machine runs.
    emitConcurrency(
        "frozen_read_2threads", n: frozenCount, seconds: t,
        extra: [
            "checksum": sums.total, "matches_single_thread": sums.total == single, "threads": 2,
            "cpu_seconds": (sums.cpu * 1e6).rounded() / 1e6,
        ])

    var rng = SplitMix(state: 42)
    let ids = (0..<n).map { _ in Int64(rng.next() % UInt64(n)) }
    for checked in [true, false, true, false] {
        Realm._strataConfinementChecks = checked
        t0 = now()
        var sum: Int64 = 0
        for id in ids {
            guard let p = realm.object(ofType: W1Person.self, forPrimaryKey: id) else { continue }
            sum &+= p.age &+ Int64(p.name.utf8.count)
        }
        t = now() - t0
        emitConcurrency(
            checked ? "point_get_checked" : "point_get_unchecked", n: n, seconds: t, extra: ["checksum": sum])
    }
    Realm._strataConfinementChecks = true
}

/// Reads name and age of the objects at `range` of `r`.
func readAll(_ r: Results<W1Person>, _ range: Range<Int>) -> Int64 {
    var sum: Int64 = 0
    for i in range {
        let p = r[i]
        sum &+= p.age &+ Int64(p.name.utf8.count)
    }
    return sum
}

/// Frozen results are immutable and readable from any thread.
final class FrozenBox: @unchecked Sendable {
    let results: Results<W1Person>
    init(_ results: Results<W1Person>) {
        precondition(results.isFrozen)
        self.results = results
    }
}

final class Sums: @unchecked Sendable {
    private let lock = NSLock()
    private(set) var total: Int64 = 0
    private(set) var cpu = 0.0
    func add(_ v: Int64, cpu seconds: Double) { lock.lock(); total &+= v; cpu += seconds; lock.unlock() }
}

/// The CPU time the calling thread has used, in seconds (`CLOCK_THREAD_CPUTIME_ID`).
func threadCPUTime() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

func emitConcurrency(_ step: String, n: Int, seconds: Double, extra: [String: Any] = [:]) {
    var obj: [String: Any] = [
        "engine": "strata", "step": step, "n": n, "seconds": (seconds * 1e6).rounded() / 1e6,
        "per_sec": seconds > 0 ? Int(Double(n) / seconds) : 0,
    ]
    for (k, v) in extra { obj[k] = v }
    let data = try! JSONSerialization.data(withJSONObject: obj, options: [.sortedKeys])
    print(String(decoding: data, as: UTF8.self))
}
