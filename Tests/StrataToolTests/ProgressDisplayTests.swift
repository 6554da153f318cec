import Foundation
import Strata
import XCTest
#if canImport(Glibc)
    import Glibc
#endif

/// Progress of long commands shows on a terminal (a tmux pane) and not when output is piped.
final class ProgressDisplayTests: ToolTestCase {
    func manyDogs() throws {
        let realm = try Realm(configuration: configuration())
        try realm.write {
            for i in 0..<5000 { realm.add(ToolDog(value: ["name": "dog\(i)", "age": i])) }
        }
    }

    /// Runs `tmux arguments` with its output in a file. Spawned and reaped directly: Foundation's
    /// `Process` waits for descriptors that the tmux server (which `new-session` forks off) keeps.
    func tmux(_ arguments: [String]) throws -> (Int32, String) {
        let outPath = dir + "/tmux-\(UUID().uuidString).out"
        defer { try? FileManager.default.removeItem(atPath: outPath) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        let argv: [UnsafeMutablePointer<CChar>?] = (["tmux"] + arguments).map { strdup($0) } + [nil]
        defer { for a in argv { free(a) } }
        var pid: pid_t = 0
        let rc = posix_spawnp(&pid, "tmux", &actions, nil, argv, environ)
        guard rc == 0 else { return (-1, "posix_spawnp: \(rc)") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let output = (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? ""
        return ((status & 0x7f) == 0 ? (status >> 8) & 0xff : -1, output)
    }

    func testDumpShowsProgressInATerminal() throws {
        try manyDogs()
        let executable = try Self.executable
        guard (try? tmux(["-V"]))?.0 == 0 else {
            throw XCTSkip("tmux is not installed (.ci/run installs it)")
        }
        let session = "strata-progress-\(UUID().uuidString.prefix(8))"
        let socket = dir + "/tmux.sock"
        XCTAssertEqual(
            try tmux(["-S", socket, "new-session", "-d", "-s", session, "-x", "250", "-y", "30", "sh"]).0, 0)
        defer { _ = try? tmux(["-S", socket, "kill-server"]) }
        let command = "'\(executable)' dump '\(path("app.realm"))' > '\(path("out.jsonl"))'; echo END$((6*7))-$?"
        XCTAssertEqual(try tmux(["-S", socket, "send-keys", "-t", session, command, "Enter"]).0, 0)
        var screen = ""
        for _ in 0..<300 {
            screen = try tmux(["-S", socket, "capture-pane", "-p", "-t", session]).1
            // The typed command reads `END$((6*7))`; only its output reads `END42`.
            if screen.contains("END42-") { break }
            usleep(100_000)
        }
        XCTAssertTrue(screen.contains("END42-0"), screen)
        XCTAssertTrue(screen.contains("Dumping: 5000 of 5000 objects (100%)"), screen)
        // The objects went to the file, not the screen.
        let dumped = try String(contentsOfFile: path("out.jsonl"), encoding: .utf8)
        XCTAssertEqual(dumped.split(separator: "\n").count, 5000)
        XCTAssertFalse(screen.contains("\"_type\""), screen)
    }

    func testNoProgressWhenOutputIsPiped() throws {
        try manyDogs()
        let dump = try strata(["dump", path("app.realm")])
        XCTAssertEqual(dump.lines.count, 5000)
        XCTAssertEqual(dump.stderr, "")
        let copy = try strata(["copy", path("app.realm"), path("copy.realm")])
        XCTAssertEqual(copy.status, 0, copy.stderr)
        XCTAssertEqual(copy.stderr, "")
    }
}
