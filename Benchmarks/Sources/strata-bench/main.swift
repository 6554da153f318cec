import Foundation
import StrataPOSIX
import StrataStorage

// strata-bench: one JSON line per step, in the shape of shared/WORKLOAD.md:
//   {"engine":..., "step":..., "n":..., "seconds":..., "per_sec":..., "file_bytes":...}
// Steps run in one process except the open steps, which run in a fresh child process.

let usage = """
    usage: strata-bench storage [--n N] [--dir DIR] [--small-commits K] [--group G] [--steps a,b,...]
           strata-bench concurrency [--n N] [--dir DIR]  (issue #5: freeze, frozen reads on 2 threads, confinement check cost)
           strata-bench async [--n N] [--rounds R] [--dir DIR] [--steps a,b]  (issue #6: async commits vs small_txn and the disk, N = 10,000 by default)
           strata-bench notify [--n N] [--dir DIR] [--steps a,b]  (change notifications: latency, notifier cost on N objects (1M), commit rate with observers)
           strata-bench collections [--n N] [--rounds R] [--dir DIR] [--steps a,b]  (queries of an N-element List next to Results, N = 100,000 by default)
           strata-bench sync [--n N] [--dir DIR] [--steps fsync_probe,upload,latency,download] [--samples K]
                             [--batch B] [--pg-options "-c name=value ..."] [--pg-log FILE]
                                                        (issue #25: StrataSync against a PostgreSQL it starts: upload vs bare INSERTs, latency, initial download; N = 100,000 by default)
           strata-bench open-probe --path P --key K     (internal: time an open in a fresh process)
           strata-bench w1 ...                          (the standard workload W1: see below)
    """

struct Args {
    var command = ""
    var n = 1_000_000
    var dir: String? = nil
    var smallCommits = 10_000
    var group = 100
    var rounds = 5
    var path = ""
    var key = 0
    var steps: Set<String>? = nil
    var samples = 200
    var batch = 1_000
    var pgOptions = ""
    var pgLog: String? = nil
    func wants(_ step: String) -> Bool { steps?.contains(step) ?? true }
}

func parseArgs() -> Args {
    var a = Args()
    var it = CommandLine.arguments.dropFirst().makeIterator()
    guard let cmd = it.next() else { print(usage); exit(2) }
    a.command = cmd
    while let flag = it.next() {
        guard let value = it.next() else { print(usage); exit(2) }
        switch flag {
        case "--n": a.n = Int(value) ?? a.n
        case "--dir": a.dir = value
        case "--small-commits": a.smallCommits = Int(value) ?? a.smallCommits
        case "--group": a.group = Int(value) ?? a.group
        case "--rounds": a.rounds = max(1, Int(value) ?? a.rounds)
        case "--path": a.path = value
        case "--key": a.key = Int(value) ?? 0
        case "--steps": a.steps = Set(value.split(separator: ",").map(String.init))
        case "--samples": a.samples = max(1, Int(value) ?? a.samples)
        case "--batch": a.batch = max(1, Int(value) ?? a.batch)
        case "--pg-options": a.pgOptions = value
        case "--pg-log": a.pgLog = value
        default: print(usage); exit(2)
        }
    }
    return a
}

@inline(never)
func now() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

func fileBytes(_ path: String) -> Int64 {
    (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.int64Value ?? 0
}

func emit(_ step: String, n: Int, seconds: Double, fileBytes: Int64, extra: [String: Any] = [:]) {
    var obj: [String: Any] = [
        "engine": "strata", "step": step, "n": n, "seconds": (seconds * 1e6).rounded() / 1e6,
        "per_sec": seconds > 0 ? (Double(n) / seconds).rounded() : 0, "file_bytes": fileBytes,
    ]
    for (k, v) in extra { obj[k] = v }
    let data = try! JSONSerialization.data(withJSONObject: obj, options: [.sortedKeys])
    FileHandle.standardOutput.write(data + Data("\n".utf8))
}

/// 8-byte big-endian key for id.
@inline(__always)
func keyBytes(_ id: Int, into buf: UnsafeMutableRawPointer) {
    buf.storeBytes(of: UInt64(id).bigEndian, as: UInt64.self)
}

/// A ~30-byte value: "person-<id>" plus age and score, like W1's row.
func valueBytes(_ id: Int) -> [UInt8] {
    var v = Array("person-\(id)".utf8)
    withUnsafeBytes(of: Int64(id % 100).littleEndian) { v.append(contentsOf: $0) }
    withUnsafeBytes(of: (Double(id) * 0.5).bitPattern.littleEndian) { v.append(contentsOf: $0) }
    return v
}

struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

func fsyncProbe(dir: String, count: Int) throws -> Double {
    let path = dir + "/fsync-probe.bin"
    let fd = try System.open(path, create: true)
    defer { System.close(fd); try? System.unlink(path) }
    let page = UnsafeMutableRawPointer.allocate(byteCount: 4096, alignment: 4096)
    defer { page.deallocate() }
    memset(page, 0x5A, 4096)
    let t0 = now()
    for i in 0..<count {
        try System.pwrite(fd, from: page, count: 4096, offset: Int64(i) * 4096)
        try System.fdatasync(fd)
    }
    let s = now() - t0
    emit(
        "fsync_probe", n: count, seconds: s, fileBytes: fileBytes(path),
        extra: ["what": "4 KiB append + fdatasync loop"])
    return Double(count) / s
}

func runStorage(_ a: Args) throws {
    let dir = a.dir ?? (FileManager.default.temporaryDirectory.path + "/strata-bench-\(getpid())")
    try? FileManager.default.removeItem(atPath: dir)
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let n = a.n
    let fsyncRate = a.wants("fsync_probe") ? try fsyncProbe(dir: dir, count: 2000) : 1

    // kv_bulk_insert: N puts in shuffled key order, one transaction, one durable commit.
    let path = dir + "/kv.strata"
    var ids = Array(0..<n)
    var rng = SplitMix(state: 42)
    ids.shuffle(using: &rng)
    let values = (0..<n).map(valueBytes)
    var db: Database? = try Database(path: path)
    let kbuf = UnsafeMutableRawPointer.allocate(byteCount: 8, alignment: 8)
    defer { kbuf.deallocate() }
    var t0 = now()
    var putSeconds = 0.0
    try db!.write { txn in
        let t = try txn.openTree("kv", create: true)
        for id in ids {
            keyBytes(id, into: kbuf)
            try values[id].withUnsafeBytes { v in
                _ = try txn.put(UnsafeRawBufferPointer(start: kbuf, count: 8), v, in: t)
            }
        }
        putSeconds = now() - t0
    }
    let bulkSeconds = now() - t0
    emit(
        "kv_bulk_insert", n: n, seconds: bulkSeconds, fileBytes: fileBytes(path),
        extra: [
            "durability": "one fdatasync per commit", "put_seconds": (putSeconds * 1e6).rounded() / 1e6,
            "commit_seconds": ((bulkSeconds - putSeconds) * 1e6).rounded() / 1e6,
        ])

    // kv_small_commit: durable single-put commits.
    let k = a.wants("kv_small_commit") ? a.smallCommits : 0
    t0 = now()
    for i in 0..<k {
        let id = n + i
        keyBytes(id, into: kbuf)
        try db!.write { txn in
            try valueBytes(id).withUnsafeBytes { v in
                _ = try txn.put(UnsafeRawBufferPointer(start: kbuf, count: 8), v, in: try txn.openTree("kv"))
            }
        }
    }
    var s = now() - t0
    let smallRate = Double(k) / s
    if k > 0 {
        emit(
            "kv_small_commit", n: k, seconds: s, fileBytes: fileBytes(path),
            extra: [
                "durability": "fdatasync per commit", "fsyncs": k,
                "vs_fsync_probe": (smallRate / fsyncRate * 1000).rounded() / 1000,
            ])
    }

    // kv_grouped_commit: deferred single-put commits, one fdatasync per group.
    let kg = a.wants("kv_grouped_commit") ? a.smallCommits : 0
    t0 = now()
    for i in 0..<kg {
        let id = n + k + i
        keyBytes(id, into: kbuf)
        try db!.write(durability: .deferred) { txn in
            try valueBytes(id).withUnsafeBytes { v in
                _ = try txn.put(UnsafeRawBufferPointer(start: kbuf, count: 8), v, in: try txn.openTree("kv"))
            }
        }
        if (i + 1) % a.group == 0 { try db!.sync() }
    }
    try db!.sync()
    s = now() - t0
    if kg > 0 {
        emit(
            "kv_grouped_commit", n: kg, seconds: s, fileBytes: fileBytes(path),
            extra: [
                "durability": "fdatasync per \(a.group) commits", "fsyncs": (kg + a.group - 1) / a.group,
                "vs_small_commit": ((Double(kg) / s) / smallRate * 100).rounded() / 100,
            ])
    }

    // kv_point_get: 1M random gets of keys that exist.
    let total = n
    var checksum = 0
    let gets = 1_000_000
    var lookups = [Int](repeating: 0, count: gets)
    var rng2 = SplitMix(state: 7)
    for i in 0..<gets { lookups[i] = Int(rng2.next() % UInt64(total)) }
    try db!.read { r in
        guard let t = try r.tree(named: "kv") else { fatalError("tree missing") }
        t0 = now()
        for id in lookups {
            keyBytes(id, into: kbuf)
            if let v = try r.get(UnsafeRawBufferPointer(start: kbuf, count: 8), in: t) { checksum &+= v.count }
        }
        emit("kv_point_get", n: gets, seconds: now() - t0, fileBytes: fileBytes(path), extra: ["checksum": checksum])

        // kv_scan: a full ordered scan.
        t0 = now()
        var rows = 0
        var bytes = 0
        try r.forEach(in: t) { _, v in
            rows += 1
            bytes &+= v.count
            return true
        }
        emit("kv_scan", n: rows, seconds: now() - t0, fileBytes: fileBytes(path), extra: ["checksum": bytes])
    }
    db!.close()
    db = nil

    // kv_open: a fresh process opens the file and reads one key.
    if !a.wants("kv_open") { return }
    let exe = CommandLine.arguments[0]
    for _ in 0..<3 {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: exe)
        p.arguments = ["open-probe", "--path", path, "--key", String(n / 2)]
        try p.run()
        p.waitUntilExit()
    }
}

func openProbe(_ a: Args) throws {
    let kbuf = UnsafeMutableRawPointer.allocate(byteCount: 8, alignment: 8)
    defer { kbuf.deallocate() }
    let t0 = now()
    let db = try Database(path: a.path)
    var found = false
    try db.read { r in
        keyBytes(a.key, into: kbuf)
        found =
            try r.tree(named: "kv").flatMap { try r.get(UnsafeRawBufferPointer(start: kbuf, count: 8), in: $0) } != nil
    }
    let s = now() - t0
    emit(
        "kv_open", n: 1, seconds: s, fileBytes: fileBytes(a.path),
        extra: ["found": found, "what": "fresh process: open + read one key"])
    db.close()
}

do {
    switch CommandLine.arguments.dropFirst().first {
    case "w1": try runW1(parseW1Args())
    case "w1-step": try runW1Step(parseW1Args())
    default:
        let args = parseArgs()
        switch args.command {
        case "storage": try runStorage(args)
        case "concurrency": try runConcurrency(n: args.n, dir: args.dir)
        case "async":
            let n = CommandLine.arguments.contains("--n") ? args.n : 10_000
            try runAsyncBlocking(n: n, rounds: args.rounds, dir: args.dir, steps: args.steps)
        case "open-probe": try openProbe(args)
        case "notify": try runNotify(args)
        case "collections": try runCollectionQueries(args)
        case "sync": try runSync(args)
        case "notify-child": try runNotifyChild(args)
        default: print(usage); print(w1Usage); exit(2)
        }
    }
} catch {
    FileHandle.standardError.write(Data("strata-bench: \(error)\n".utf8))
    exit(1)
}
