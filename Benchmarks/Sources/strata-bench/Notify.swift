import Foundation
import Strata

// strata-bench notify: change notifications, as JSON lines (one per step).
//   notify_latency_same_process   an observer of a filtered 100k-object Results (delivered on a
//                                 serial queue); a one-object insert commit at a time from the main
//                                 thread; latency from the commit's return to the delivered
//                                 change set: p50_seconds, p99_seconds
//   notify_latency_other_process  the same observer; the commits come from a child process
//                                 (`strata-bench notify-child`), which prints each commit's
//                                 CLOCK_MONOTONIC time; latency to the parent's delivery
//   notify_cost_1m                one-object modifications in a 1M-object file with an observer
//                                 of an unsorted filtered Results: commit-to-delivery time per
//                                 commit (`notifier_seconds_per_commit`, an upper bound of the
//                                 notifier's work) next to one full run of the same query
//                                 (`full_query_seconds`)
//   notify_idle_wakeups           the same observer, no commits for 2 s: how often the process's
//                                 threads woke (voluntary context switches of all its threads,
//                                 from /proc; Linux only)
//   small_txn_observers_K         durable one-object insert commits per second with K = 0, 10,
//                                 100 Results observers on the file

/// A box the observers' queue and the measuring thread share.
final class Deliveries: @unchecked Sendable {
    private let lock = NSCondition()
    private var times: [Double] = []

    func record() {
        let t = now()
        lock.lock()
        times.append(t)
        lock.broadcast()
        lock.unlock()
    }

    /// Waits until `count` deliveries were recorded; returns the time of the `count`-th.
    func wait(for count: Int, timeout: Double = 30) -> Double? {
        lock.lock()
        defer { lock.unlock() }
        let deadline = Date(timeIntervalSinceNow: timeout)
        while times.count < count {
            if !lock.wait(until: deadline) { return nil }
        }
        return times[count - 1]
    }

    var count: Int { lock.lock(); defer { lock.unlock() }; return times.count }
    var all: [Double] { lock.lock(); defer { lock.unlock() }; return times }
}

func percentile(_ xs: [Double], _ p: Double) -> Double {
    guard !xs.isEmpty else { return 0 }
    let s = xs.sorted()
    return s[min(s.count - 1, Int((Double(s.count - 1) * p).rounded()))]
}

/// Fills `realm` with `n` W1 persons (ages 0...99), in commits of 10,000.
func fillPersons(_ realm: Realm, _ n: Int) throws {
    var id: Int64 = 0
    while id < n {
        try realm.write {
            for _ in 0..<min(10_000, n - Int(id)) {
                realm.add(W1Person(value: ["id": id, "name": "person-\(id)", "age": id % 100, "score": Double(id)]))
                id += 1
            }
        }
    }
}

func notifyDir(_ dir: String?) -> String {
    let d = (dir ?? NSTemporaryDirectory()) + "/strata-bench-notify-\(getpid())"
    try? FileManager.default.removeItem(atPath: d)
    try? FileManager.default.createDirectory(atPath: d, withIntermediateDirectories: true)
    return d
}

func runNotify(_ args: Args) throws {
    let dir = notifyDir(args.dir)
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let samples = 200

    if args.wants("notify_latency_same_process") || args.wants("notify_latency_other_process")
        || args.wants("notify_idle_wakeups")
    {
        let path = dir + "/latency.realm"
        let config = Realm.Configuration(fileURL: URL(fileURLWithPath: path), objectTypes: [W1Person.self])
        let realm = try Realm(configuration: config)
        try fillPersons(realm, 100_000)
        let queue = DispatchQueue(label: "observer")
        let deliveries = Deliveries()
        let token = realm.objects(W1Person.self).filter("age < 50").observe(on: queue) { change in
            if case .update = change { deliveries.record() }
            if case .initial = change { deliveries.record() }
        }
        guard deliveries.wait(for: 1) != nil else { throw BenchError("no initial notification") }
        var next: Int64 = 1_000_000
        if args.wants("notify_latency_same_process") {
            var lat: [Double] = []
            for i in 0..<samples {
                try realm.write { realm.add(W1Person(value: ["id": next, "name": "n", "age": 10, "score": 0.0])) }
                next += 1
                let t0 = now()
                guard let t1 = deliveries.wait(for: i + 2) else { throw BenchError("delivery \(i) timed out") }
                lat.append(t1 - t0)
            }
            emit(
                "notify_latency_same_process", n: samples, seconds: lat.reduce(0, +), fileBytes: fileBytes(path),
                extra: [
                    "p50_seconds": percentile(lat, 0.5), "p99_seconds": percentile(lat, 0.99), "objects": 100_000,
                    "what":
                        "commit return to delivered change set, filtered Results of 100k, delivery on a serial queue",
                ])
        }
        if args.wants("notify_latency_other_process") {
            let base = deliveries.count
            let child = Process()
            child.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
            child.arguments = ["notify-child", "--path", path, "--n", "\(samples)", "--key", "\(next + 1_000_000)"]
            let out = Pipe()
            child.standardOutput = out
            try child.run()
            var commitTimes: [Double] = []
            var buffer = Data()
            let handle = out.fileHandleForReading
            while commitTimes.count < samples {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                buffer.append(chunk)
                while let nl = buffer.firstIndex(of: 10) {
                    let line = String(decoding: buffer[buffer.startIndex..<nl], as: UTF8.self)
                    buffer = Data(buffer[(nl + 1)...])
                    if let t = Double(line) { commitTimes.append(t) }
                }
            }
            child.waitUntilExit()
            guard commitTimes.count == samples else {
                throw BenchError("the child committed \(commitTimes.count) of \(samples)")
            }
            // Each commit's latency: to the first delivery at or after it (CLOCK_MONOTONIC in
            // both processes); a delivery covering several commits counts for each.
            let deadline = now() + 30
            while (deliveries.all.last ?? 0) < commitTimes.last!, now() < deadline { usleep(1_000) }
            let times = deliveries.all.dropFirst(base)
            var lat: [Double] = []
            for t0 in commitTimes {
                if let t1 = times.first(where: { $0 >= t0 }) { lat.append(t1 - t0) }
            }
            emit(
                "notify_latency_other_process", n: samples, seconds: lat.reduce(0, +), fileBytes: fileBytes(path),
                extra: [
                    "p50_seconds": percentile(lat, 0.5), "p99_seconds": percentile(lat, 0.99), "objects": 100_000,
                    "deliveries": deliveries.count - base, "commits_reached": lat.count,
                    "what": "child process commit (its CLOCK_MONOTONIC) to delivered change set in the parent",
                ])
        }
        if args.wants("notify_idle_wakeups"), let before = notifierContextSwitches() {
            let seconds = 2.0
            usleep(UInt32(seconds * 1e6))
            if let after = notifierContextSwitches() {
                emit(
                    "notify_idle_wakeups", n: after - before, seconds: seconds, fileBytes: fileBytes(path),
                    extra: [
                        "wakeups_per_second": Double(after - before) / seconds,
                        "what":
                            "notifier thread's voluntary context switches while one observer waits and nobody commits",
                    ])
            }
        }
        token.invalidate()
    }

    if args.wants("notify_cost_1m") {
        let path = dir + "/cost.realm"
        let config = Realm.Configuration(fileURL: URL(fileURLWithPath: path), objectTypes: [W1Person.self])
        let realm = try Realm(configuration: config)
        let n = args.n
        try fillPersons(realm, n)
        // One full run of the query (fresh Results, keys evaluated).
        var full: [Double] = []
        for _ in 0..<3 {
            let t0 = now()
            _ = realm.objects(W1Person.self).filter("age < 50").last
            full.append(now() - t0)
        }
        let queue = DispatchQueue(label: "observer")
        let deliveries = Deliveries()
        let token = realm.objects(W1Person.self).filter("age < 50").observe(on: queue) { change in
            switch change {
            case .initial, .update: deliveries.record()
            case .error: break
            }
        }
        guard deliveries.wait(for: 1, timeout: 120) != nil else { throw BenchError("no initial notification") }
        let commits = 100
        var per: [Double] = []
        for i in 0..<commits {
            // A different object each time, of age 0 (ids that are multiples of 100), moved to
            // another age below 50: it stays in the results and is reported modified.
            let id = Int64((i * 7919) % n / 100 * 100)
            try realm.write { realm.object(ofType: W1Person.self, forPrimaryKey: id)?.age = Int64(1 + i % 40) }
            let t0 = now()
            guard let t1 = deliveries.wait(for: i + 2) else { throw BenchError("delivery \(i) timed out") }
            per.append(t1 - t0)
        }
        let fullQuery = percentile(full, 0.5)
        let perCommit = percentile(per, 0.5)
        emit(
            "notify_cost_1m", n: commits, seconds: per.reduce(0, +), fileBytes: fileBytes(path),
            extra: [
                "notifier_seconds_per_commit": perCommit, "full_query_seconds": fullQuery,
                "ratio": fullQuery > 0 ? perCommit / fullQuery : 0, "objects": n,
                "what":
                    "median commit-to-delivery per one-object commit (upper bound of notifier work) vs one full query run",
            ])
        token.invalidate()
    }

    for k in [0, 10, 100] where args.wants("small_txn_observers_\(k)") {
        let path = dir + "/small-\(k).realm"
        let config = Realm.Configuration(fileURL: URL(fileURLWithPath: path), objectTypes: [W1Person.self])
        let realm = try Realm(configuration: config)
        try fillPersons(realm, 10_000)
        let queue = DispatchQueue(label: "observers")
        let deliveries = Deliveries()
        var tokens: [NotificationToken] = []
        for j in 0..<k {
            tokens.append(
                realm.objects(W1Person.self).filter("age == \(j % 100)").observe(on: queue) { change in
                    if case .initial = change { deliveries.record() }
                })
        }
        if k > 0 { _ = deliveries.wait(for: k, timeout: 60) }
        let commits = min(args.smallCommits, 2_000)
        var id: Int64 = 10_000_000
        let t0 = now()
        for _ in 0..<commits {
            try realm.write { realm.add(W1Person(value: ["id": id, "name": "s", "age": id % 100, "score": 0.0])) }
            id += 1
        }
        let s = now() - t0
        emit(
            "small_txn_observers_\(k)", n: commits, seconds: s, fileBytes: fileBytes(path),
            extra: ["observers": k, "what": "durable one-object insert commits per second with K Results observers"])
        tokens.forEach { $0.invalidate() }
    }
}

/// The child of notify_latency_other_process: commits one insert at a time into `--path`,
/// printing each commit's CLOCK_MONOTONIC seconds, 5 ms apart.
func runNotifyChild(_ args: Args) throws {
    let config = Realm.Configuration(fileURL: URL(fileURLWithPath: args.path), objectTypes: [W1Person.self])
    let realm = try Realm(configuration: config)
    var id = Int64(args.key)
    for _ in 0..<args.n {
        try realm.write { realm.add(W1Person(value: ["id": id, "name": "c", "age": 10, "score": 0.0])) }
        FileHandle.standardOutput.write(Data("\(now())\n".utf8))
        id += 1
        usleep(5_000)
    }
}

struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ d: String) { description = d }
}

/// The voluntary context switches of all of this process's threads so far (each time a thread
/// went to sleep), from /proc/self/task; nil without /proc. While the process idles, they count
/// the wake-ups of its background threads (the notifier's, mostly).
func notifierContextSwitches() -> Int? {
    guard let tasks = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task") else { return nil }
    var total = 0
    for task in tasks {
        guard let status = try? String(contentsOfFile: "/proc/self/task/\(task)/status", encoding: .utf8) else {
            continue
        }
        for line in status.split(separator: "\n") where line.hasPrefix("voluntary_ctxt_switches:") {
            total += Int(line.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) ?? 0
        }
    }
    return total
}
