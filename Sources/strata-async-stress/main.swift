import Foundation
import Strata

// strata-async-stress: the writer process the async-commit crash tests kill with SIGKILL.
//
//   strata-async-stress write <path> <first-id>
//       Opens the realm on the main thread and keeps 64 asynchronous writes in flight: each
//       inserts the next id with beginAsyncWrite + commitAsyncWrite(allowGrouping: true) (every
//       tenth without grouping) and, in its completion, prints "durable <id>" and queues the next.
//       Runs until killed.
//   strata-async-stress insert <path> <first-id> <count> [<pause-ms>]
//       Inserts ids first-id, first-id+1, ... one commit each (durable, synchronous), printing
//       "committed <id> <monotonic-ns>" after each commit (CLOCK_MONOTONIC, comparable across
//       processes) and waiting pause-ms (default 0) before the next; then exits. Change
//       notification tests and benchmarks use it as the writer in another process.
//   strata-async-stress verify <path>
//       Prints "ids <count> <min> <max>" for the ids in the file and "holes <n>" for the ids missing
//       between min and max, then exits.

/// Writes `line` and a newline to stdout with one write(2): no buffering, so a line the test
/// reads was printed before the process died.
func say(_ line: String) {
    var bytes = Array((line + "\n").utf8)
    _ = bytes.withUnsafeMutableBytes { write(1, $0.baseAddress, $0.count) }
}

let args = CommandLine.arguments
guard args.count >= 3 else {
    FileHandle.standardError.write(Data("usage: strata-async-stress write <path> <first-id> | verify <path>\n".utf8))
    exit(2)
}
let config = Realm.Configuration(fileURL: URL(fileURLWithPath: args[2]), objectTypes: [StressEntry.self])

switch args[1] {
case "verify":
    do {
        let realm = try Realm(configuration: config)
        let ids = realm.objects(StressEntry.self).map(\.id).sorted()
        let lo = ids.first ?? 0, hi = ids.last ?? -1
        say("ids \(ids.count) \(lo) \(hi)")
        say("holes \(ids.isEmpty ? 0 : (hi - lo + 1) - ids.count)")
        exit(0)
    } catch {
        FileHandle.standardError.write(Data("verify failed: \(error)\n".utf8))
        exit(1)
    }
case "insert":
    guard args.count >= 5, let first = Int(args[3]), let count = Int(args[4]) else { exit(2) }
    let pause = args.count >= 6 ? (Int(args[5]) ?? 0) : 0
    do {
        let realm = try Realm(configuration: config)
        for id in first..<(first + count) {
            try realm.write { realm.add(StressEntry(value: ["id": id, "payload": "p\(id)"])) }
            var ts = timespec()
            clock_gettime(CLOCK_MONOTONIC, &ts)
            say("committed \(id) \(Int64(ts.tv_sec) * 1_000_000_000 + Int64(ts.tv_nsec))")
            if pause > 0 { usleep(UInt32(pause * 1000)) }
        }
        exit(0)
    } catch {
        FileHandle.standardError.write(Data("insert failed: \(error)\n".utf8))
        exit(1)
    }
case "write":
    guard args.count >= 4, let first = Int(args[3]) else { exit(2) }
    let realm: Realm
    do {
        realm = try Realm(configuration: config)
    } catch {
        FileHandle.standardError.write(Data("open failed: \(error)\n".utf8))
        exit(1)
    }
    var next = first
    func queueNext() {
        let id = next
        next += 1
        realm.beginAsyncWrite {
            realm.add(StressEntry(value: ["id": id, "payload": String(repeating: "x", count: id % 200)]))
            realm.commitAsyncWrite(allowGrouping: id % 10 != 0) { error in
                if let error {
                    FileHandle.standardError.write(Data("commit \(id) failed: \(error)\n".utf8))
                    exit(1)
                }
                say("durable \(id)")
                queueNext()
            }
        }
    }
    say("ready")
    for _ in 0..<64 { queueNext() }
    dispatchMain()
default:
    exit(2)
}
