// strata-storage-stress: a writer (or reader) process that the crash tests in
// Tests/StrataStorageCrashTests start and kill with SIGKILL at random moments.
//
// Every line it prints on stdout is written with one write(2) call after the work it reports is
// done, so a line the parent has read is a promise the file must keep after any crash.
//
// Modes:
//   crash    --path P --seed S --commits N [--deferred-every K]
//            Opens P, reads the `last` key (0 if absent) and prints "start <n>" with n = last + 1.
//            Then makes commits n, n+1, ... (StressWorkload.ops). With full durability it prints
//            "<i>" after commit i returns. With --deferred-every K the commits are `.deferred`;
//            after every K-th commit (and at the end) it calls sync() and then prints "<i>":
//            an acknowledgement covers every commit up to i.
//   digest   --seed S --commits N
//            Prints StressWorkload.digest, so a test can check that the child runs the same workload code (a stale build would not).
//   counter  --path P --worker W --commits N [--deferred-every K] [--start-at MS]
//            Each commit increments counter W in tree `counters` and adds record `r-W-<count>`
//            to tree `records`. Prints "<count>" after each acknowledged commit.
//   reader   --path P --workers W --target T
//            Checks, in snapshot after snapshot, that the sum of the counters equals the number
//            of records and that worker w's records are exactly r-w-1...r-w-<counter w>. Prints
//            "ok <snapshots>" and exits 0 once the counters reach T; prints "violation: ..." and
//            exits 1 on the first inconsistent snapshot.
//   crash also takes --exit-without-close 1: exit after the last commit without closing the
//            database, as a process that ends without tearing down (the file is not marked clean).
//   open     --path P
//            Opens (or creates) P, reads the catalog, prints "ok <trees>".
//   fill     --path P [--value-bytes B]
//            Commits one B-byte value per transaction (tree `fill`, keys v1, v2, ...), printing
//            each commit's number once durable, until a commit fails: prints "error <message>"
//            and exits 3 (tests run it on a small file system until the disk is full).
//   hold     --path P
//            Opens P, begins a read transaction, prints "pinned <version>", and keeps the
//            snapshot until stdin reaches end of file (or the process is killed).
//
// Every mode that opens the file takes --start-at MS (milliseconds since the epoch): it waits
// until then before opening, so that several processes open (or create) the file together; and
// --key-hex K (128 hexadecimal digits): the 64-byte key of an encrypted file (a test key).
//
// Exit status: 0 on success, 1 on an invariant violation, 2 on an error (message on stderr).
import StrataStorage
import StrataStressWorkload

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes `line` and a newline to stdout with one write(2): unbuffered, so it is out of this
/// process the moment the call returns, and a SIGKILL afterwards cannot lose it.
func emit(_ line: String) {
    var bytes = Array((line + "\n").utf8)
    var done = 0
    while done < bytes.count {
        let n = bytes.withUnsafeMutableBytes { write(1, $0.baseAddress! + done, $0.count - done) }
        if n > 0 { done += n } else if errno != EINTR { exit(2) }
    }
}

func fail(_ message: String, status: Int32 = 2) -> Never {
    let text = "strata-storage-stress: \(message)\n"
    _ = text.withCString { write(2, $0, strlen($0)) }
    exit(status)
}

/// With `--start-at MS` (milliseconds since the epoch, CLOCK_REALTIME), waits until then: tests
/// start several processes with one deadline so that they open the file at the same moment.
func waitForStart(_ args: Arguments) {
    guard let at = args.values["start-at"], let ms = Int64(at) else { return }
    var now = timespec()
    clock_gettime(CLOCK_REALTIME, &now)
    let remaining = ms * 1_000_000 - (Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec))
    guard remaining > 0 else { return }
    var req = timespec(tv_sec: Int(remaining / 1_000_000_000), tv_nsec: Int(remaining % 1_000_000_000))
    var rest = timespec()
    while nanosleep(&req, &rest) != 0 && errno == EINTR { req = rest }
}

func openDatabase(_ path: String, _ args: Arguments) -> Database {
    waitForStart(args)
    var options = Database.Options()
    if let hex = args.values["key-hex"] {
        let digits = Array(hex.utf8)
        guard digits.count == 128, let key = hexBytes(digits) else { fail("--key-hex needs 128 hexadecimal digits") }
        options.encryptionKey = key
    }
    do {
        return try Database(path: path, options: options)
    } catch {
        fail("cannot open \(path): \(error)")
    }
}

/// The bytes that pairs of hexadecimal digits spell, or nil for a character that is not one.
func hexBytes(_ digits: [UInt8]) -> [UInt8]? {
    guard digits.count % 2 == 0 else { return nil }
    var out: [UInt8] = []
    var i = 0
    while i < digits.count {
        guard let byte = UInt8(String(decoding: digits[i...i + 1], as: UTF8.self), radix: 16) else { return nil }
        out.append(byte)
        i += 2
    }
    return out
}

func bigEndian(_ v: UInt64) -> [UInt8] { withUnsafeBytes(of: v.bigEndian) { Array($0) } }
func fromBigEndian(_ b: [UInt8]) -> UInt64 { b.reduce(0) { $0 << 8 | UInt64($1) } }

// MARK: Modes

func runCrash(_ args: Arguments) throws {
    let path = args.string("path")
    let seed = UInt64(args.int("seed"))
    let commits = args.int("commits")
    let deferredEvery = args.int("deferred-every", default: 0)
    let db = openDatabase(path, args)
    let last: Int = try db.read { r in
        guard let t = try r.tree(named: StressWorkload.treeName), let v = try r.get(StressWorkload.lastKey, in: t)
        else { return 0 }
        guard let n = Int(String(decoding: v, as: UTF8.self)) else { fail("the `last` key holds no number", status: 1) }
        return n
    }
    emit("start \(last + 1)")
    var i = last + 1
    let end = last + commits
    while i <= end {
        let ops = StressWorkload.ops(seed: seed, commit: i)
        try db.write(durability: deferredEvery > 0 ? .deferred : .full) { txn in
            let t = try txn.openTree(StressWorkload.treeName, create: true)
            for op in ops {
                switch op {
                case .put(let k, let v): try txn.put(k, v, in: t)
                case .delete(let k): try txn.delete(k, in: t)
                }
            }
        }
        if deferredEvery == 0 {
            emit("\(i)")
        } else if i % deferredEvery == 0 || i == end {
            try db.sync()
            emit("\(i)")
        }
        i += 1
    }
    if args.int("exit-without-close", default: 0) != 0 { exit(0) }
    db.close()
}

func runCounter(_ args: Arguments) throws {
    let path = args.string("path")
    let worker = args.int("worker")
    let commits = args.int("commits")
    let deferredEvery = args.int("deferred-every", default: 0)
    let db = openDatabase(path, args)
    let counterKey = Array("w\(worker)".utf8)
    for n in 1...max(commits, 1) {
        let durability: Durability = deferredEvery > 0 && n % deferredEvery != 0 && n != commits ? .deferred : .full
        let count: UInt64 = try db.write(durability: durability) { txn in
            let counters = try txn.openTree("counters", create: true)
            let records = try txn.openTree("records", create: true)
            let next = (try txn.get(counterKey, in: counters).map(fromBigEndian) ?? 0) + 1
            try txn.put(counterKey, bigEndian(next), in: counters)
            let value = Array(
                repeating: UInt8(truncatingIfNeeded: worker &* 37 &+ Int(next)), count: 16 + Int(next % 300))
            try txn.put(Array("r-\(worker)-\(next)".utf8), value, in: records)
            return next
        }
        if durability == .full { emit("\(count)") }
    }
    db.close()
}

func runReader(_ args: Arguments) throws {
    let path = args.string("path")
    let workers = args.int("workers")
    let target = UInt64(args.int("target"))
    let db = openDatabase(path, args)
    var snapshots = 0
    var lastVersion = VersionID(0)
    while true {
        let (total, version) = try db.read { r -> (UInt64, VersionID) in
            guard let counters = try r.tree(named: "counters"), let records = try r.tree(named: "records") else {
                return (0, r.version)
            }
            var counts = [UInt64](repeating: 0, count: workers)
            var sum: UInt64 = 0
            for w in 0..<workers {
                counts[w] = try r.get(Array("w\(w)".utf8), in: counters).map(fromBigEndian) ?? 0
                sum += counts[w]
            }
            if sum != records.count {
                fail(
                    "violation: \(r.version): counters sum to \(sum) but `records` has \(records.count) entries",
                    status: 1)
            }
            var seen = [UInt64](repeating: 0, count: workers)
            try r.forEach(in: records) { k, _ in
                let parts = String(decoding: k, as: UTF8.self).split(separator: "-")
                guard parts.count == 3, let w = Int(parts[1]), w >= 0, w < workers, let n = UInt64(parts[2]), n >= 1,
                    n <= counts[w]
                else {
                    fail(
                        "violation: \(r.version): unexpected record \(String(decoding: k, as: UTF8.self)) (counters \(counts))",
                        status: 1)
                }
                seen[w] += 1
                return true
            }
            if seen != counts {
                fail("violation: \(r.version): records per worker \(seen), counters \(counts)", status: 1)
            }
            return (sum, r.version)
        }
        if version < lastVersion {
            fail("violation: snapshot \(version) is older than an earlier one, \(lastVersion)", status: 1)
        }
        lastVersion = version
        snapshots += 1
        if total >= target {
            emit("ok \(snapshots)")
            break
        }
        // Throttle only: leave the CPU to the writers. Correctness never depends on this pause.
        usleep(500)
    }
    db.close()
}

func runHold(_ args: Arguments) throws {
    let db = openDatabase(args.string("path"), args)
    let snapshot = try db.beginRead()
    emit("pinned \(snapshot.version.rawValue)")
    var byte: UInt8 = 0
    while read(0, &byte, 1) > 0 {}
    snapshot.end()
    db.close()
}

/// Opens the file (creating it if needed), reads every tree, and prints "ok <trees>".
func runOpen(_ args: Arguments) throws {
    let db = openDatabase(args.string("path"), args)
    let trees = try db.read { r in try r.treeNames().count }
    emit("ok \(trees)")
    db.close()
}

/// Commits one value of `--value-bytes` bytes per transaction, printing the commit's number once
/// it is durable, until a commit fails: then prints "error <message>" and exits 3.
func runFill(_ args: Arguments) throws {
    let db = openDatabase(args.string("path"), args)
    let size = args.int("value-bytes", default: 200_000)
    var n = try db.read { r in try r.tree(named: "fill").map { Int($0.count) } ?? 0 }
    while true {
        do {
            try db.write { txn in
                let t = try txn.openTree("fill", create: true)
                try txn.put(
                    Array("v\(n + 1)".utf8), Array(repeating: UInt8(truncatingIfNeeded: n + 1), count: size), in: t)
            }
        } catch {
            emit("error \(error)")
            db.close()
            exit(3)
        }
        n += 1
        emit("\(n)")
    }
}

let args = Arguments(CommandLine.arguments)
do {
    switch args.values["mode"] ?? "crash" {
    case "crash": try runCrash(args)
    case "digest": emit(String(StressWorkload.digest(seed: UInt64(args.int("seed")), commits: args.int("commits"))))
    case "counter": try runCounter(args)
    case "reader": try runReader(args)
    case "hold": try runHold(args)
    case "open": try runOpen(args)
    case "fill": try runFill(args)
    case let other: fail("unknown --mode '\(other)' (crash, digest, counter, reader, hold, open, fill)")
    }
} catch {
    fail("\(error)")
}
