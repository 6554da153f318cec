import Foundation

/// The PostgreSQL server `strata-bench sync` starts for itself: `initdb` into a new directory in
/// /tmp, `pg_ctl start` on a free loopback port with the server's durable defaults (fsync and
/// synchronous_commit on), databases made with psql, and `pg_ctl -m fast stop` plus removal of the
/// directory at the end. Debian's server binaries are found on `PATH` or under
/// /usr/lib/postgresql/*/bin; as root they run as the `postgres` user (the server refuses root).
///
/// ## Concurrency
/// Used from one thread (the benchmark's main thread).
final class SyncBenchServer {
    let directory: String
    let port: Int
    let user = "strata"
    private let binaries: String
    private let asUser: String?
    private var stopped = false

    /// Starts a new server; `options` are added to the server's command line (`-c name=value`
    /// settings, for profiling runs).
    init(options: String = "") throws {
        guard let bin = Self.findBinaries() else {
            throw BenchError(
                "PostgreSQL's server binaries (initdb, pg_ctl) are not installed: apt-get install -y postgresql")
        }
        binaries = bin
        asUser = getuid() == 0 ? "postgres" : nil
        directory = "/tmp/strata-bench-pg-\(getpid())"
        try? FileManager.default.removeItem(atPath: directory)
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        port = Self.freePort()
        do {
            if let u = asUser { try Self.run("/bin/chown", ["-R", u, directory]) }
            // --no-sync only skips initdb's own flush of the new cluster's files; the server runs
            // with fsync=on and synchronous_commit=on (its defaults).
            try tool("initdb", ["-D", directory + "/data", "-U", user, "--auth=trust", "-E", "UTF8", "--no-sync"])
            try tool(
                "pg_ctl",
                [
                    "-D", directory + "/data", "-l", directory + "/server.log", "-w", "-t", "60", "-o",
                    "-p \(port) -k \(directory) -c listen_addresses=127.0.0.1 \(options)", "start",
                ])
        } catch {
            let log = (try? String(contentsOfFile: directory + "/server.log", encoding: .utf8)) ?? ""
            try? FileManager.default.removeItem(atPath: directory)
            throw log.isEmpty ? error : BenchError("\(error)\nserver log:\n\(log.suffix(2_000))")
        }
    }

    deinit { stop() }

    /// The server's log so far.
    var log: String { (try? String(contentsOfFile: directory + "/server.log", encoding: .utf8)) ?? "" }

    /// Stops the server (`-m fast`: sessions end, the server shuts down cleanly) and removes its
    /// directory. Safe to call more than once.
    func stop() {
        guard !stopped else { return }
        stopped = true
        _ = try? tool("pg_ctl", ["-D", directory + "/data", "-m", "fast", "-w", "-t", "60", "stop"])
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// Creates database `name`.
    func createDatabase(_ name: String) throws {
        try sql("CREATE DATABASE \(name)", database: "postgres")
    }

    /// Runs `statement` with psql in `database`; returns what it printed (unaligned, tuples only).
    @discardableResult
    func sql(_ statement: String, database: String) throws -> String {
        let psql =
            ["/usr/bin/psql", "/usr/local/bin/psql", binaries + "/psql"].first {
                FileManager.default.isExecutableFile(atPath: $0)
            } ?? "psql"
        return try Self.run(
            psql,
            [
                "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-h", "127.0.0.1", "-p", "\(port)", "-U", user, "-d",
                database, "-c", statement,
            ])
    }

    private func tool(_ name: String, _ args: [String]) throws {
        let path = binaries + "/" + name
        if let u = asUser {
            try Self.run("/usr/sbin/runuser", ["-u", u, "--", path] + args)
        } else {
            try Self.run(path, args)
        }
    }

    private static func findBinaries() -> String? {
        var dirs = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init)
        if let versions = try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql") {
            dirs += versions.sorted { (Int($0) ?? 0) > (Int($1) ?? 0) }.map { "/usr/lib/postgresql/\($0)/bin" }
        }
        return dirs.first {
            FileManager.default.isExecutableFile(atPath: $0 + "/initdb")
                && FileManager.default.isExecutableFile(atPath: $0 + "/pg_ctl")
        }
    }

    /// Runs `tool` with `args` and waits for it (posix_spawn and waitpid); returns what it printed
    /// (standard output and error, through a file: the server `pg_ctl` starts inherits the
    /// output and keeps it open, so a pipe would not reach its end).
    @discardableResult
    private static func run(_ tool: String, _ args: [String]) throws -> String {
        let outPath = "/tmp/strata-bench-pg-out-\(getpid())"
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        let argv = ([tool] + args).map { strdup($0) } + [nil]
        let envp = ProcessInfo.processInfo.environment.map { strdup("\($0)=\($1)") } + [nil]
        defer {
            for a in argv { free(a) }
            for e in envp { free(e) }
        }
        var pid: pid_t = 0
        let rc = posix_spawn(&pid, tool, &actions, nil, argv, envp)
        guard rc == 0 else { throw BenchError("cannot start \(tool): \(String(cString: strerror(rc)))") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let text = (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? ""
        unlink(outPath)
        guard status & 0x7f == 0, (status >> 8) & 0xff == 0 else {
            throw BenchError("\(tool) \(args.joined(separator: " ")) failed (wait status \(status)): \(text)")
        }
        return text
    }

    /// A loopback TCP port nobody listens on now (bound to port 0, then released).
    private static func freePort() -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = 0
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, len) } }
        _ = withUnsafeMutablePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &len) }
        }
        return Int(UInt16(bigEndian: addr.sin_port))
    }
}
