import Foundation
import XCTest

/// A PostgreSQL server of the tests' own: `initdb` into a temporary directory, `pg_ctl start`
/// on a free loopback port, a database per test (`createDatabase`), `pg_ctl stop` at the end.
/// It uses Debian's server binaries (on `PATH` or under /usr/lib/postgresql/*/bin); as root, it
/// runs them as the `postgres` user, since the server refuses to run as root.
final class PostgresTestServer: @unchecked Sendable {
    let directory: String
    let port: Int
    let user = "strata"
    private let binaries: String
    private let asUser: String?
    private var stopped = false

    /// Why the server cannot start here (no binaries), or nil.
    static var unavailableReason: String? {
        findBinaries() == nil
            ? "PostgreSQL's server binaries (initdb, pg_ctl) are not installed: apt-get install -y postgresql (.ci/run does)."
            : nil
    }

    private static func findBinaries() -> String? {
        var dirs = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init)
        if let versions = try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql") {
            dirs += versions.sorted(by: >).map { "/usr/lib/postgresql/\($0)/bin" }
        }
        return dirs.first {
            FileManager.default.isExecutableFile(atPath: $0 + "/initdb")
                && FileManager.default.isExecutableFile(atPath: $0 + "/pg_ctl")
        }
    }

    /// Starts a new server.
    init() throws {
        guard let bin = Self.findBinaries() else { throw XCTSkip(Self.unavailableReason!) }
        binaries = bin
        asUser = getuid() == 0 ? "postgres" : nil
        directory = "/tmp/strata-pg-\(getpid())-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        if let u = asUser {
            _ = try Self.run("/bin/chown", ["-R", u, directory])
        }
        port = Self.freePort()
        try runServerTool("initdb", ["-D", directory + "/data", "-U", user, "--auth=trust", "-E", "UTF8", "--no-sync"])
        try runServerTool(
            "pg_ctl",
            [
                "-D", directory + "/data", "-l", directory + "/server.log", "-w", "-t", "60", "-o",
                "-p \(port) -k \(directory) -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200",
                "start",
            ])
    }

    deinit { stop() }

    /// Stops the server now (immediate shutdown, as a crash would) and removes its directory.
    func stop() {
        guard !stopped else { return }
        stopped = true
        _ = try? runServerTool("pg_ctl", ["-D", directory + "/data", "-m", "immediate", "-w", "stop"])
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// Stops the server without removing its data (`start()` brings it back).
    func pause() throws {
        try runServerTool("pg_ctl", ["-D", directory + "/data", "-m", "immediate", "-w", "stop"])
    }

    /// Starts the server again after `pause()`.
    func start() throws {
        try runServerTool(
            "pg_ctl",
            [
                "-D", directory + "/data", "-l", directory + "/server.log", "-w", "-t", "60", "-o",
                "-p \(port) -k \(directory) -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200",
                "start",
            ])
    }

    /// Creates database `name`.
    func createDatabase(_ name: String) throws {
        _ = try sql("CREATE DATABASE \(name)", database: "postgres")
    }

    /// Runs `statement` with psql in `database`; returns what it printed (unaligned, tuples only).
    ///
    /// A statement that waits more than a minute for a lock fails (`lock_timeout`), and the error
    /// carries the database's sessions and the locks they wait for: a test that stalled behind a
    /// transaction left open says which one, rather than running into the test's time limit.
    @discardableResult
    func sql(_ statement: String, database: String, lockTimeoutMilliseconds: Int = 60_000) throws -> String {
        let args = [
            "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-h", "127.0.0.1", "-p", "\(port)", "-U", user, "-d",
            database,
        ]
        let listing = [
            "-c",
            "SELECT pid, backend_type, application_name, state, wait_event_type, wait_event, backend_xid, backend_xmin, now() - xact_start AS in_transaction, now() - state_change AS in_state, pg_blocking_pids(pid), left(query, 160) FROM pg_stat_activity WHERE pid <> pg_backend_pid() AND backend_type NOT IN ('checkpointer', 'background writer', 'walwriter', 'logical replication launcher', 'autovacuum launcher')",
            "-c",
            "SELECT pid, locktype, relation::regclass, page, tuple, transactionid, virtualxid, virtualtransaction, mode, granted FROM pg_locks WHERE pid <> pg_backend_pid() ORDER BY pid",
        ]
        // While the statement waits (5 s in), the sessions and locks are listed: the holder of
        // a lock may be gone by the time the wait times out.
        let waiting = WaitingListing()
        DispatchQueue.global().asyncAfter(deadline: .now() + 5) {
            guard waiting.stillWaiting else { return }
            let text = (try? Self.run(Self.psql, args + listing)) ?? "(could not list the sessions)"
            waiting.record(text)
        }
        do {
            let out = try Self.run(
                Self.psql, args + ["-c", statement],
                environment: ["PGOPTIONS": "-c lock_timeout=\(lockTimeoutMilliseconds)"])
            waiting.finish()
            return out
        } catch let error as NSError where error.localizedDescription.contains("lock timeout") {
            waiting.finish()
            let after = (try? Self.run(Self.psql, args + listing)) ?? "(could not list the sessions)"
            throw NSError(
                domain: "PostgresTestServer", code: error.code,
                userInfo: [
                    NSLocalizedDescriptionKey:
                        "\(error.localizedDescription)\nSessions and locks 5 s into the wait (pid|type|application|state|wait type|wait|xid|xmin|in transaction|in state|blocked by|query; pid|locktype|relation|page|tuple|xid|vxid|holder vxid|mode|granted):\n\(waiting.listing ?? "(none)")\nAfter the timeout:\n\(after)"
                ])
        } catch {
            waiting.finish()
            throw error
        }
    }

    /// What a waiting `sql` statement's watcher listed (guarded by a lock).
    private final class WaitingListing: @unchecked Sendable {
        private let lock = NSLock()
        private var done = false
        private var text: String?
        var stillWaiting: Bool { lock.withLock { !done } }
        var listing: String? { lock.withLock { text } }
        func record(_ t: String) { lock.withLock { text = t } }
        func finish() { lock.withLock { done = true } }
    }

    /// Starts `statement` with psql in `database` in the background; returns its process id
    /// (kill it to end it).
    func sqlInBackground(_ statement: String, database: String) throws -> pid_t {
        try Self.spawn(
            Self.psql,
            [
                "-X", "-q", "-v", "ON_ERROR_STOP=1", "-h", "127.0.0.1", "-p", "\(port)", "-U", user, "-d", database,
                "-c", statement,
            ], environment: [:], output: "/dev/null")
    }

    private static let psql =
        ["/usr/bin/psql", "/usr/local/bin/psql"].first { FileManager.default.isExecutableFile(atPath: $0) }
        ?? "/usr/bin/psql"

    private func runServerTool(_ tool: String, _ args: [String]) throws {
        let path = binaries + "/" + tool
        if let u = asUser {
            try Self.run("/usr/sbin/runuser", ["-u", u, "--", path] + args)
        } else {
            try Self.run(path, args)
        }
    }

    /// Runs `tool` with `args` and waits for it (posix_spawn and waitpid: Foundation's `Process`
    /// waits on the run loop, which an async test on the main actor does not turn); returns what
    /// it printed. The server `pg_ctl` starts keeps the output file open, so it is read at exit.
    @discardableResult
    static func run(_ tool: String, _ args: [String], environment: [String: String] = [:]) throws -> String {
        let outPath = "/tmp/strata-pg-out-\(getpid())-\(UUID().uuidString.prefix(8))"
        let pid = try spawn(tool, args, environment: environment, output: outPath)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let text = (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? ""
        unlink(outPath)
        let exited = (status & 0x7f) == 0
        let code = (status >> 8) & 0xff
        guard exited && code == 0 else {
            throw NSError(
                domain: "PostgresTestServer", code: Int(code),
                userInfo: [
                    NSLocalizedDescriptionKey:
                        "\(tool) \(args.joined(separator: " ")) failed (status \(status)): \(text)"
                ])
        }
        return text
    }

    /// Starts `tool` with `args` and `environment` added, its output to `output`; returns its pid.
    static func spawn(_ tool: String, _ args: [String], environment: [String: String], output: String) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        var env = ProcessInfo.processInfo.environment
        for (k, v) in environment { env[k] = v }
        let argv = ([tool] + args).map { strdup($0) } + [nil]
        let envp = env.map { strdup("\($0)=\($1)") } + [nil]
        defer {
            for a in argv { free(a) }
            for e in envp { free(e) }
        }
        var pid: pid_t = 0
        let rc = posix_spawn(&pid, tool, &actions, nil, argv, envp)
        guard rc == 0 else {
            throw NSError(
                domain: "PostgresTestServer", code: Int(rc),
                userInfo: [NSLocalizedDescriptionKey: "cannot start \(tool): \(rc)"])
        }
        return pid
    }

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
