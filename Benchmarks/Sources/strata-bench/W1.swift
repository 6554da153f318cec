import Foundation

// The standard workload W1 (shared/WORKLOAD.md), one fresh child process per step.
//
//   strata-bench w1 [--n N] [--engine strata|strata-encrypted|strata-kv|grdb|grdb-record|all|a,b] [--dir DIR] [--rounds R] [--no-strace]
//                   [--gets G] [--small-txns K] [--updates U] [--keep]
//
// --rounds R repeats the whole sequence on fresh files; ratios use the median per step. The disk
// of a shared machine swings (fsync rate seen from 400/s to 4,000/s within minutes), so
// small_txn especially needs R >= 3 before its ratio means anything.
//
// The parent (`w1`) runs, for each step in order and each engine in turn, a child
// `strata-bench w1-step --engine E --step S --path P --n N ...` over one file per engine, reads the
// child's JSON line, adds what only the parent knows (fsync counts from strace, the child's wall
// time), and prints it. After all steps it prints, per step, one `ratio_vs_grdb` line and one
// `ratio_vs_grdb-record` line (each peer that ran).
//
// Inputs are the same for every engine and every language: ids and lookups come from SplitMix64
// (seeded) and a Fisher-Yates shuffle written out below (`w1Shuffle`), not from the standard
// library's `shuffle(using:)`, whose algorithm is not specified.

// MARK: - The engine protocol

/// One engine measured by W1. Each step runs in a fresh process: the child opens the engine with
/// `init(path:)`, runs exactly one step method (timed), calls `afterStep()` (not timed), reads
/// `fileBytes()`, and `close()`s.
///
/// ## Adding an engine (for example the object layer, `strata`)
/// 1. Add ONE file, `Benchmarks/Sources/strata-bench/W1<Name>.swift`, with a `final class` that
///    conforms to `W1Engine` (`W1StrataKV.swift` is the smallest example; `W1GRDB.swift` shows
///    SQL). Give it `static let name = "strata"` and state its durability in `durability`.
/// 2. Add the type to `w1Engines` below (one line). The engine is then selectable with
///    `--engine strata` and is part of `--engine all`; ratios against `grdb` come for free.
/// 3. If it needs the `Strata` module, add `.product(name: "Strata", package: "Strata")` (and, for
///    `@Persisted` models, `plugins: [.plugin(name: "StrataPlugin", package: "Strata")]`) to the
///    `strata-bench` target in `Benchmarks/Package.swift`.
/// Rules: each step method does the whole step the way an expert user of that engine would write
/// it (prepared statements, no per-row allocation that the API lets you avoid), with the
/// durability it states; `pointGets` and `readOne` fold what they read into `W1Checksum` so the
/// parent can check that all engines read the same data.
protocol W1Engine: AnyObject {
    /// The `engine` field of the JSON lines.
    static var name: String { get }
    /// How commits are made durable (journal mode, sync setting, fsyncs per commit), in words.
    static var durability: String { get }
    /// The file name extension of this engine's database file.
    static var fileExtension: String { get }
    /// Every file that makes up the database at `path` (removed before a run).
    static func files(at path: String) -> [String]

    /// Opens the database at `path`, creating it (and its schema) if missing.
    init(path: String) throws
    /// bulk_insert: insert all `people` in ONE write transaction, committed durably.
    func bulkInsert(_ people: [Person]) throws
    /// small_txn: one write transaction inserting `person`, committed durably.
    func insertOne(_ person: Person) throws
    /// point_get: look up each id by primary key, reading name and age into the checksum.
    func pointGets(_ ids: [Int64], into checksum: inout W1Checksum) throws
    /// scan_filter: count the objects with age > 50 and sum their score, over all objects.
    func scanFilter() throws -> (count: Int, scoreSum: Double)
    /// update: in ONE write transaction, set age = age + 1 for each id (committed durably).
    func updateAges(_ ids: [Int64]) throws
    /// open_first_read: read one object (name and age into the checksum); false if missing.
    func readOne(_ id: Int64, into checksum: inout W1Checksum) throws -> Bool
    /// Extra JSON fields describing how `step` was done (e.g. the SQL). Not timed.
    func notes(for step: W1Step) -> [String: Any]
    /// Called after the timed step, not timed (e.g. a WAL checkpoint); returns extra JSON fields.
    func afterStep() throws -> [String: Any]
    /// The database's size on disk, and what was counted.
    func fileBytes() -> (bytes: Int64, what: String)
    func close() throws
}

/// The engines `--engine all` runs, in this order. Add new engines here.
var w1Engines: [any W1Engine.Type] {
    [GRDBEngine.self, GRDBRecordEngine.self, StrataKVEngine.self, StrataEngine.self, StrataEncryptedEngine.self]
}

/// The peers ratios are printed against, when they ran: GRDB through SQL and through its record API.
let w1Peers: [any W1Engine.Type] = [GRDBEngine.self, GRDBRecordEngine.self]

// MARK: - The model and the inputs

/// W1's `Person`.
struct Person {
    var id: Int64
    var name: String
    var age: Int64
    var score: Double

    init(id: Int64) {
        self.id = id
        self.name = "person-\(id)"
        self.age = id % 100
        self.score = Double(id) * 0.5
    }
}

/// SplitMix64 (Steele, Lea, Flood 2014), the reference constants.
struct SplitMix64 {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    /// Uniform enough in 0..<bound for a benchmark (modulo bias < 2^-40 for bound < 2^24).
    mutating func next(below bound: Int) -> Int { Int(next() % UInt64(bound)) }
}

/// Fisher-Yates from the top: for i = count-1 down to 1, swap a[i] with a[next() % (i+1)].
func w1Shuffle(_ a: inout [Int64], seed: UInt64) {
    var rng = SplitMix64(seed: seed)
    var i = a.count - 1
    while i > 0 {
        let j = rng.next(below: i + 1)
        a.swapAt(i, j)
        i -= 1
    }
}

enum W1Seeds {
    static let insertOrder: UInt64 = 42
    static let pointGets: UInt64 = 7
    static let updates: UInt64 = 99
}

/// FNV-1a over what was read (name bytes, then age as 8 little-endian bytes folded as one word),
/// in lookup order. Engines that read the same data produce the same value.
struct W1Checksum {
    var value: UInt64 = 0xCBF2_9CE4_8422_2325
    @inline(__always)
    mutating func add(name: UnsafeRawBufferPointer, age: Int64) {
        var h = value
        for b in name { h = (h ^ UInt64(b)) &* 0x0000_0100_0000_01B3 }
        h = (h ^ UInt64(bitPattern: age)) &* 0x0000_0100_0000_01B3
        value = h
    }
    @inline(__always)
    mutating func add(name: String, age: Int64) {
        var s = name
        s.withUTF8 { add(name: UnsafeRawBufferPointer($0), age: age) }
    }
}

enum W1Step: String, CaseIterable {
    case bulkInsert = "bulk_insert"
    case smallTxn = "small_txn"
    case pointGet = "point_get"
    case scanFilter = "scan_filter"
    case update = "update"
    case openFirstRead = "open_first_read"
}

struct W1Args {
    var n = 1_000_000
    var engines: [any W1Engine.Type] = w1Engines
    var dir: String? = nil
    var strace = true
    var gets = 1_000_000
    var smallTxns = 10_000
    var updates = 100_000
    var keep = false
    var rounds = 1
    // w1-step only
    var step: W1Step? = nil
    var path = ""
    var engineName = ""
}

let w1Usage = """
    usage: strata-bench w1 [--n N] [--engine all|grdb|grdb-record|strata-kv|strata|strata-encrypted|a,b] [--dir DIR] [--rounds R] [--no-strace] [--keep]
                           [--gets G] [--small-txns K] [--updates U]
           strata-bench w1-step --engine E --step S --path P --n N [--gets G] [--small-txns K] [--updates U]
                           (internal: one step in this process)
    engines: \(w1Engines.map { $0.name }.joined(separator: ", ")); steps: \(W1Step.allCases.map(\.rawValue).joined(separator: ", "))
    """

func w1Fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("strata-bench: \(message)\n\(w1Usage)\n".utf8))
    exit(2)
}

func parseW1Args() -> W1Args {
    var a = W1Args()
    var it = CommandLine.arguments.dropFirst(2).makeIterator()
    while let flag = it.next() {
        if flag == "--no-strace" { a.strace = false; continue }
        if flag == "--keep" { a.keep = true; continue }
        guard let value = it.next() else { w1Fail("\(flag) needs a value") }
        func int() -> Int {
            guard let v = Int(value.replacingOccurrences(of: "_", with: "")), v >= 0 else {
                w1Fail("\(flag): not a count: \(value)")
            }
            return v
        }
        switch flag {
        case "--n": a.n = int()
        case "--gets": a.gets = int()
        case "--small-txns": a.smallTxns = int()
        case "--updates": a.updates = int()
        case "--rounds": a.rounds = max(1, int())
        case "--dir": a.dir = value
        case "--path": a.path = value
        case "--step":
            guard let s = W1Step(rawValue: value) else { w1Fail("unknown step \(value)") }
            a.step = s
        case "--engine":
            a.engineName = value
            if value == "all" { a.engines = w1Engines; break }
            a.engines = value.split(separator: ",").map { name in
                guard let e = w1Engines.first(where: { $0.name == name }) else { w1Fail("unknown engine \(name)") }
                return e
            }
        default: w1Fail("unknown option \(flag)")
        }
    }
    if a.n < 1 { w1Fail("--n must be at least 1") }
    return a
}

// MARK: - JSON

func w1Round(_ x: Double, _ digits: Double = 1e6) -> Double { (x * digits).rounded() / digits }

func w1JSONLine(_ obj: [String: Any]) -> String {
    let data = try! JSONSerialization.data(withJSONObject: obj, options: [.sortedKeys, .withoutEscapingSlashes])
    return String(decoding: data, as: UTF8.self)
}

func w1Print(_ obj: [String: Any]) {
    FileHandle.standardOutput.write(Data((w1JSONLine(obj) + "\n").utf8))
}

func wallClock() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_REALTIME, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

// MARK: - The child: one step

func runW1Step(_ a: W1Args) throws {
    guard let step = a.step, a.engines.count == 1, !a.path.isEmpty else {
        w1Fail("w1-step needs --engine E --step S --path P")
    }
    let E = a.engines[0]
    let n = a.n

    // Inputs, built before the clock starts.
    var bulk: [Person] = []
    var small: [Person] = []
    var ids: [Int64] = []
    switch step {
    case .bulkInsert:
        var order = (0..<Int64(n)).map { $0 }
        w1Shuffle(&order, seed: W1Seeds.insertOrder)
        bulk = order.map(Person.init(id:))
    case .smallTxn:
        small = (0..<Int64(a.smallTxns)).map { Person(id: Int64(n) + $0) }
    case .pointGet:
        var rng = SplitMix64(seed: W1Seeds.pointGets)
        ids = (0..<a.gets).map { _ in Int64(rng.next(below: n)) }
    case .update:
        // The first U of a seeded permutation of 0..<N: U distinct objects.
        var order = (0..<Int64(n)).map { $0 }
        w1Shuffle(&order, seed: W1Seeds.updates)
        ids = Array(order.prefix(min(a.updates, n)))
    case .scanFilter, .openFirstRead:
        break
    }

    var extra: [String: Any] = [:]
    var count = 0
    let openStart = now()
    let epochStart: Double
    let t0: Double
    var engine: (any W1Engine)?
    if step == .openFirstRead {
        // The fresh process's first work: open the N-object file and read one object by key.
        epochStart = wallClock()
        t0 = now()
        engine = try E.init(path: a.path)
    } else {
        engine = try E.init(path: a.path)
        extra["open_seconds"] = w1Round(now() - openStart)
        epochStart = wallClock()
        t0 = now()
    }
    let db = engine!
    switch step {
    case .bulkInsert:
        try db.bulkInsert(bulk)
        count = bulk.count
    case .smallTxn:
        for p in small { try db.insertOne(p) }
        count = small.count
        extra["commits"] = small.count
    case .pointGet:
        var c = W1Checksum()
        try db.pointGets(ids, into: &c)
        count = ids.count
        extra["checksum"] = String(c.value, radix: 16)
    case .scanFilter:
        let (matched, sum) = try db.scanFilter()
        count = n + a.smallTxns
        extra["matched"] = matched
        extra["score_sum"] = sum
    case .update:
        try db.updateAges(ids)
        count = ids.count
    case .openFirstRead:
        var c = W1Checksum()
        let key = Int64(n / 2)
        extra["found"] = try db.readOne(key, into: &c)
        extra["key"] = key
        extra["checksum"] = String(c.value, radix: 16)
        count = 1
    }
    let seconds = now() - t0
    let epochEnd = wallClock()
    for (k, v) in db.notes(for: step) { extra[k] = v }
    if step != .openFirstRead {  // keep that process to open + read + close, so its wall time compares
        let after = now()
        for (k, v) in try db.afterStep() { extra[k] = v }
        extra["after_step_seconds"] = w1Round(now() - after)
    }
    let (bytes, what) = db.fileBytes()
    extra["disk_bytes_allocated"] = E.files(at: a.path).map { w1FileSize($0, allocated: true) }.reduce(0, +)
    let closeStart = now()
    try db.close()
    engine = nil
    extra["close_seconds"] = w1Round(now() - closeStart)

    var obj: [String: Any] = [
        "engine": E.name, "step": step.rawValue, "n": count,
        "seconds": w1Round(seconds), "per_sec": seconds > 0 ? (Double(count) / seconds).rounded() : 0,
        "file_bytes": bytes, "file_bytes_counts": what, "durability": E.durability,
        "t_start_epoch": epochStart, "t_end_epoch": epochEnd,
    ]
    obj["objects_in_file"] = step == .bulkInsert ? n : n + a.smallTxns
    for (k, v) in extra { obj[k] = v }
    w1Print(obj)
}

// MARK: - The parent: orchestration

/// fsync-family calls seen by strace in a child, split by whether they fell inside the timed window.
struct FsyncCount {
    var inStep = 0
    var total = 0
    var byFile: [String: Int] = [:]
}

func parseStrace(_ path: String, from t0: Double, to t1: Double, dbPath: String) -> FsyncCount {
    var c = FsyncCount()
    guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return c }
    for line in text.split(separator: "\n") {
        if line.contains("resumed>") { continue }
        // "PID 1732190000.123456 fdatasync(3</dir/file-wal>) = 0" (or "<unfinished ...>")
        let fields = line.split(separator: " ", maxSplits: 2)
        guard fields.count == 3, let t = Double(fields[1]) else { continue }
        let call = fields[2]
        guard
            call.hasPrefix("fsync(") || call.hasPrefix("fdatasync(") || call.hasPrefix("msync(")
                || call.hasPrefix("sync_file_range(")
        else { continue }
        c.total += 1
        if t >= t0 && t <= t1 { c.inStep += 1 }
        var file = "?"
        if let lt = call.firstIndex(of: "<"), let gt = call[lt...].firstIndex(of: ">") {
            let full = String(call[call.index(after: lt)..<gt])
            file = full.hasPrefix(dbPath) ? "db" + full.dropFirst(dbPath.count) : (full as NSString).lastPathComponent
        }
        let name = String(call.prefix(while: { $0 != "(" }))
        c.byFile["\(name) \(file)", default: 0] += 1
    }
    return c
}

func straceUsable() -> Bool {
    guard FileManager.default.isExecutableFile(atPath: "/usr/bin/strace") else { return false }
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/usr/bin/strace")
    p.arguments = ["-f", "--seccomp-bpf", "-e", "trace=fdatasync", "-o", "/dev/null", "/bin/true"]
    p.standardOutput = FileHandle.nullDevice
    p.standardError = FileHandle.nullDevice
    do { try p.run() } catch { return false }
    p.waitUntilExit()
    return p.terminationStatus == 0
}

func runW1(_ a: W1Args) throws {
    let dir = a.dir ?? (FileManager.default.temporaryDirectory.path + "/strata-w1-\(getpid())")
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    let useStrace = a.strace && straceUsable()
    var exe = CommandLine.arguments[0]
    if !exe.hasPrefix("/") { exe = FileManager.default.currentDirectoryPath + "/" + exe }
    if !FileManager.default.isExecutableFile(atPath: exe), let p = Bundle.main.executablePath { exe = p }

    var paths: [String: String] = [:]
    for E in a.engines {
        let p = dir + "/w1-\(E.name).\(E.fileExtension)"
        for f in E.files(at: p) { try? FileManager.default.removeItem(atPath: f) }
        paths[E.name] = p
    }
    defer {
        if !a.keep {
            for E in a.engines {
                for f in E.files(at: paths[E.name]!) { try? FileManager.default.removeItem(atPath: f) }
            }
            if a.dir == nil { try? FileManager.default.removeItem(atPath: dir) }
        }
    }

    // results[round][step][engine]
    var results: [[W1Step: [String: [String: Any]]]] = []
    for round in 1...max(1, a.rounds) {
        if round > 1 {
            for E in a.engines {
                for f in E.files(at: paths[E.name]!) { try? FileManager.default.removeItem(atPath: f) }
            }
        }
        var thisRound: [W1Step: [String: [String: Any]]] = [:]
        for step in W1Step.allCases {
            for E in a.engines {
                var obj = try runChild(E, step, path: paths[E.name]!, dir: dir, exe: exe, strace: useStrace, a)
                if a.rounds > 1 { obj["round"] = round }
                w1Print(obj)
                thisRound[step, default: [:]][E.name] = obj
            }
        }
        crossCheck(thisRound)
        results.append(thisRound)
    }

    // Ratios against each peer that ran: median per_sec over rounds, engine / peer.
    func number(_ o: [String: Any]?, _ k: String) -> Double? { (o?[k] as? NSNumber)?.doubleValue }
    func median(_ xs: [Double]) -> Double? {
        guard !xs.isEmpty else { return nil }
        let s = xs.sorted()
        return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
    }
    for peer in w1Peers where a.engines.contains(where: { $0.name == peer.name }) {
        let p = peer.name
        for step in W1Step.allCases {
            guard let gRate = median(results.compactMap { number($0[step]?[p], "per_sec") }), gRate > 0 else {
                continue
            }
            let gBytes = median(results.compactMap { number($0[step]?[p], "file_bytes") }) ?? 0
            var ratio: [String: Double] = [:]
            var perRound: [String: [Double]] = [:]
            var sizes: [String: Double] = [:]
            for E in a.engines where !w1Peers.contains(where: { $0.name == E.name }) {
                guard let rate = median(results.compactMap { number($0[step]?[E.name], "per_sec") }) else { continue }
                ratio[E.name] = w1Round(rate / gRate, 1000)
                perRound[E.name] = results.compactMap { r in
                    guard let e = number(r[step]?[E.name], "per_sec"), let g = number(r[step]?[p], "per_sec"), g > 0
                    else { return nil }
                    return w1Round(e / g, 1000)
                }
                if gBytes > 0, let b = median(results.compactMap { number($0[step]?[E.name], "file_bytes") }) {
                    sizes[E.name] = w1Round(b / gBytes, 1000)
                }
            }
            var line: [String: Any] = [
                "step": step.rawValue, "n": a.n, "ratio_vs_\(p)": ratio, "file_bytes_vs_\(p)": sizes,
                "ratio_is": "per_sec(engine) / per_sec(\(p)): above 1 is faster than \(p)",
            ]
            if results.count > 1 {
                line["rounds"] = results.count
                line["ratio_is"] =
                    "median per_sec(engine) / median per_sec(\(p)) over rounds: above 1 is faster than \(p)"
                line["ratio_per_round"] = perRound
            }
            w1Print(line)
        }
    }
}

/// Runs one step in a fresh child process (under strace when `strace`), returns its JSON object
/// with the parent's additions.
func runChild(
    _ E: any W1Engine.Type, _ step: W1Step, path: String, dir: String, exe: String, strace: Bool, _ a: W1Args
) throws -> [String: Any] {
    var childArgs = [
        "w1-step", "--engine", E.name, "--step", step.rawValue, "--path", path, "--n", String(a.n),
        "--gets", String(a.gets), "--small-txns", String(a.smallTxns), "--updates", String(a.updates),
    ]
    let tracePath = dir + "/strace-\(E.name)-\(step.rawValue).txt"
    let p = Process()
    if strace {
        p.executableURL = URL(fileURLWithPath: "/usr/bin/strace")
        childArgs =
            [
                "-f", "--seccomp-bpf", "-ttt", "-y", "-e", "trace=fsync,fdatasync,msync,sync_file_range",
                "-o", tracePath, exe,
            ] + childArgs
    } else {
        p.executableURL = URL(fileURLWithPath: exe)
    }
    p.arguments = childArgs
    let out = Pipe()
    p.standardOutput = out
    let spawn = now()
    try p.run()
    let data = out.fileHandleForReading.readDataToEndOfFile()
    p.waitUntilExit()
    let wall = now() - spawn
    guard p.terminationStatus == 0,
        let line = String(decoding: data, as: UTF8.self).split(separator: "\n").last(where: { $0.hasPrefix("{") }),
        var obj = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
    else {
        throw W1Error.childFailed(
            "\(E.name) \(step.rawValue): exit \(p.terminationStatus), output: \(String(decoding: data, as: UTF8.self))")
    }
    obj["process_wall_seconds"] = w1Round(wall)
    let t0 = obj.removeValue(forKey: "t_start_epoch") as? Double ?? 0
    let t1 = obj.removeValue(forKey: "t_end_epoch") as? Double ?? 0
    if strace {
        let c = parseStrace(tracePath, from: t0, to: t1, dbPath: path)
        obj["fsyncs"] = c.inStep
        obj["fsyncs_whole_process"] = c.total
        obj["fsyncs_by_call_and_file"] = c.byFile
        obj["fsyncs_counted_by"] = "strace --seccomp-bpf -e fsync,fdatasync,msync,sync_file_range"
        try? FileManager.default.removeItem(atPath: tracePath)
    }
    return obj
}

/// Engines must have read the same data; a mismatch is reported on stderr.
func crossCheck(_ r: [W1Step: [String: [String: Any]]]) {
    for step in [W1Step.pointGet, .openFirstRead, .scanFilter] {
        guard let byEngine = r[step], byEngine.count > 1 else { continue }
        let keys = step == .scanFilter ? ["matched", "score_sum"] : ["checksum"]
        for k in keys where Set(byEngine.values.map { "\($0[k] ?? "nil")" }).count > 1 {
            FileHandle.standardError.write(
                Data(
                    "strata-bench: WARNING: engines disagree on \(step.rawValue) \(k): \(byEngine.mapValues { "\($0[k] ?? "nil")" })\n"
                        .utf8))
        }
    }
}

enum W1Error: Error, CustomStringConvertible {
    case childFailed(String)
    case missing(String)
    var description: String {
        switch self {
        case .childFailed(let s): return "w1 child failed: \(s)"
        case .missing(let s): return s
        }
    }
}
