import Foundation
import XCTest
@testable import StrataStorage
import StrataPOSIX
@_exported import StrataTestSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Gives each test its own temporary directory, removed afterwards (with the file systems it
/// mounted), and disarms every injected fault at the end.
class CrashTestCase: TemporaryDirectoryTestCase {
    var directory: URL { temporaryDirectory }

    override func tearDownWithError() throws {
        FaultInjector.disarmAll()
        try super.tearDownWithError()
    }

    func open(_ path: String, verifyAll: Bool = false) throws -> Database {
        var o = Database.Options()
        o.mapReserve = 64 << 20
        o.verifyAllOnOpen = verifyAll
        return try Database(path: path, options: o)
    }

    func readFile(_ p: String) throws -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: p) else { throw CocoaError(.fileReadNoSuchFile) }
        return Array(data)
    }

    /// Replaces the file at `p` (and removes its lock file, as a copy to a new place would).
    func writeFile(_ p: String, _ bytes: [UInt8]) throws {
        try? FileManager.default.removeItem(atPath: p)
        try? FileManager.default.removeItem(atPath: p + ".lock")
        try Data(bytes).write(to: URL(fileURLWithPath: p))
    }

    /// Overwrites the bytes of the file at `p` in place, keeping its lock file (damage on disk).
    func overwriteInPlace(_ p: String, _ bytes: [UInt8]) throws {
        let handle = try XCTUnwrap(FileHandle(forWritingAtPath: p))
        defer { try? handle.close() }
        try handle.seek(toOffset: 0)
        try handle.write(contentsOf: Data(bytes))
    }

    /// An integer from the environment (for longer local runs), else `fallback`.
    func environmentInt(_ name: String, _ fallback: Int) -> Int {
        ProcessInfo.processInfo.environment[name].flatMap(Int.init) ?? fallback
    }
}

extension ReadTransaction {
    func allEntries(_ tree: Tree) throws -> [([UInt8], [UInt8])] {
        var out: [([UInt8], [UInt8])] = []
        try forEach(in: tree) { k, v in
            out.append((Array(k), Array(v))); return true
        }
        return out
    }
}

/// Where the `strata-storage-stress` executable is: `STRATA_STRESS_EXECUTABLE` if set, else the
/// build products directory that holds the running test bundle (SwiftPM builds every product of
/// the package there, `.build/<triple>/debug/` for `swift build --build-tests`).
enum StressExecutable {
    static let name = "strata-storage-stress"

    static func candidates(_ name: String = name) -> [String] {
        var dirs: [String] = []
        if let exe = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            dirs.append((exe as NSString).deletingLastPathComponent)
        }
        dirs.append(Bundle(for: CrashTestCase.self).bundleURL.deletingLastPathComponent().path)
        dirs.append(Bundle.main.bundleURL.path)
        dirs.append(Bundle.main.bundleURL.deletingLastPathComponent().path)
        if let arg0 = CommandLine.arguments.first { dirs.append((arg0 as NSString).deletingLastPathComponent) }
        var out: [String] = []
        if let explicit = ProcessInfo.processInfo.environment["STRATA_STRESS_EXECUTABLE"] { out.append(explicit) }
        for d in dirs where !d.isEmpty {
            let p = (d as NSString).appendingPathComponent(name)
            if !out.contains(p) { out.append(p) }
        }
        return out
    }

    static func path(_ name: String = name) throws -> String {
        let tried = candidates(name)
        if let found = tried.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) { return found }
        struct Missing: Error, CustomStringConvertible { var description: String }
        throw Missing(
            description: """
                The crash tests need the \(name) executable, which SwiftPM builds beside the test bundle. \
                Run `swift build --build-tests` before `swift test --skip-build`, or set STRATA_STRESS_EXECUTABLE. \
                Looked in: \(tried.joined(separator: ", "))
                """)
    }
}

/// A child process running `strata-storage-stress`, with its stdout readable line by line.
///
/// Spawned with `posix_spawn`; its stdin, stdout and stderr are pipes whose other ends only this
/// object holds (they are close-on-exec), so end of file on stdout means the child is gone.
final class StressChild {
    let pid: pid_t
    let arguments: [String]
    private let stdoutFD: Int32
    private let stderrFD: Int32
    private var stdinFD: Int32
    private var buffer: [UInt8] = []
    private var atEOF = false
    private var exitStatus: Int32?
    /// Every line read so far.
    private(set) var lines: [String] = []

    let executableName: String

    init(_ arguments: [String], executable name: String = StressExecutable.name) throws {
        let executable = try StressExecutable.path(name)
        self.executableName = name
        self.arguments = arguments
        var outPipe: [Int32] = [0, 0], errPipe: [Int32] = [0, 0], inPipe: [Int32] = [0, 0]
        // pipe2(O_CLOEXEC) is not exported to Swift; the tests spawn from one thread at a time, so
        // setting the flag right after pipe(2) leaves no window for another spawn to inherit them.
        for i in 0..<3 {
            let ok = i == 0 ? pipe(&outPipe) : i == 1 ? pipe(&errPipe) : pipe(&inPipe)
            guard ok == 0 else { throw POSIXError(.EMFILE) }
        }
        for fd in outPipe + errPipe + inPipe { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, inPipe[0], 0)
        posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errPipe[1], 2)
        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for a in argv { free(a) } }
        var pid: pid_t = 0
        let rc = posix_spawn(&pid, executable, &actions, nil, argv, environ)
        close(outPipe[1])
        close(errPipe[1])
        close(inPipe[0])
        guard rc == 0 else {
            close(outPipe[0]); close(errPipe[0]); close(inPipe[1])
            throw POSIXError(POSIXErrorCode(rawValue: rc) ?? .EIO)
        }
        self.pid = pid
        self.stdoutFD = outPipe[0]
        self.stderrFD = errPipe[0]
        self.stdinFD = inPipe[1]
    }

    deinit {
        if exitStatus == nil {
            kill(pid, SIGKILL)
            _ = waitForExit()
        }
        close(stdoutFD)
        close(stderrFD)
        if stdinFD >= 0 { close(stdinFD) }
    }

    /// The next line the child printed, waiting for it; nil once the child closed stdout (exited).
    func readLine() -> String? {
        while true {
            if let nl = buffer.firstIndex(of: 10) {
                let line = String(decoding: buffer[..<nl], as: UTF8.self)
                buffer.removeSubrange(...nl)
                lines.append(line)
                return line
            }
            if atEOF {
                guard !buffer.isEmpty else { return nil }
                // A partial line: the child died in the middle of a write. Not an acknowledgement.
                buffer.removeAll()
                return nil
            }
            var chunk = [UInt8](repeating: 0, count: 4096)
            let n = chunk.withUnsafeMutableBytes { read(stdoutFD, $0.baseAddress!, $0.count) }
            if n > 0 {
                buffer.append(contentsOf: chunk[..<n])
            } else if n == 0 || errno != EINTR {
                atEOF = true
            }
        }
    }

    /// Reads every remaining line until the child's stdout closes.
    @discardableResult
    func drain() -> [String] {
        var out: [String] = []
        while let l = readLine() { out.append(l) }
        return out
    }

    /// Closes the child's stdin (the `hold` mode's signal to let go).
    func closeStdin() {
        if stdinFD >= 0 { close(stdinFD); stdinFD = -1 }
    }

    func killNow() { kill(pid, SIGKILL) }

    enum Termination: Equatable {
        case exited(Int32)
        case signaled(Int32)
    }

    /// Waits for the child to end and reports how.
    @discardableResult
    func waitForExit() -> Termination {
        if exitStatus == nil {
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
            exitStatus = status
        }
        let s = exitStatus!
        return s & 0x7f == 0 ? .exited((s >> 8) & 0xff) : .signaled(s & 0x7f)
    }

    /// What the child wrote on stderr (read after it exited).
    func stderrText() -> String {
        var out: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(stderrFD, $0.baseAddress!, $0.count) }
            if n > 0 { out.append(contentsOf: chunk[..<n]) } else if n < 0 && errno == EINTR { continue } else { break }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// A one-line account of the child for failure messages.
    func summary() -> String {
        "\(executableName) \(arguments.joined(separator: " ")) -> \(waitForExit()); stdout \(lines.suffix(5)); stderr: \(stderrText())"
    }
}
