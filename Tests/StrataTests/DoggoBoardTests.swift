import Foundation
import XCTest

#if canImport(Glibc)
    import Glibc
#endif

/// The DoggoBoard example in a terminal (a tmux pane): it lists the dogs of a file, redraws when
/// another process adds, renames or deletes one, and edits through its `$`-bindings.
final class DoggoBoardTests: SeedTestCase {
    /// The `DoggoBoard` executable SwiftPM builds beside the test bundle.
    private func boardExecutable() throws -> String {
        let dirs = [
            Bundle(for: DoggoBoardTests.self).bundleURL.deletingLastPathComponent().path,
            (CommandLine.arguments.first.map { ($0 as NSString).deletingLastPathComponent }) ?? "",
        ]
        for d in dirs {
            let p = (d as NSString).appendingPathComponent("DoggoBoard")
            if FileManager.default.isExecutableFile(atPath: p) { return p }
        }
        XCTFail("DoggoBoard not found beside the test bundle (run swift build --build-tests)")
        throw SeedAbort()
    }

    /// Runs `tmux arguments`; returns its status and output. Spawned and reaped directly:
    /// Foundation's `Process` waits for descriptors the tmux server keeps open.
    private func tmux(_ arguments: [String]) -> (status: Int32, output: String) {
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
        guard posix_spawnp(&pid, "tmux", &actions, nil, argv, environ) == 0 else { return (-1, "") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let output = (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? ""
        return ((status & 0x7f) == 0 ? (status >> 8) & 0xff : -1, output)
    }

    /// Runs the board executable once (the "other process") and returns its standard output.
    @discardableResult
    private func board(_ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try boardExecutable())
        process.arguments = arguments
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, "DoggoBoard \(arguments)")
        return String(decoding: data, as: UTF8.self)
    }

    func testBoardRedrawsForAnotherProcessesWritesAndEditsThroughBindings() throws {
        let executable = try boardExecutable()
        guard tmux(["-V"]).status == 0 else { throw XCTSkip("tmux is not installed (.ci/run installs it)") }
        let file = url("board.realm").path
        let socket = dir + "/tmux.sock"
        let session = "doggoboard-\(UUID().uuidString.prefix(8))"
        XCTAssertEqual(
            tmux([
                "-S", socket, "new-session", "-d", "-s", session, "-x", "120", "-y", "30",
                "'\(executable)' '\(file)'",
            ]).status, 0)
        defer { _ = tmux(["-S", socket, "kill-server"]) }
        var screen = ""
        func waitForScreen(_ condition: (String) -> Bool, line: UInt = #line) {
            for _ in 0..<300 {
                screen = tmux(["-S", socket, "capture-pane", "-p", "-t", session]).output
                if condition(screen) { return }
                usleep(50_000)
            }
            XCTFail("the board never showed what was expected:\n\(screen)", line: line)
        }
        func type(_ text: String) {
            XCTAssertEqual(tmux(["-S", socket, "send-keys", "-t", session, text, "Enter"]).status, 0)
        }

        waitForScreen { $0.contains("DoggoBoard: 0 dogs") }
        // Another process adds a dog: the board redraws.
        try board(["add", "Rex", file])
        waitForScreen { $0.contains("DoggoBoard: 1 dog") && $0.contains("1. Rex") }
        // The board adds one through `$dogs.append`.
        type("a Bella")
        waitForScreen { $0.contains("DoggoBoard: 2 dogs") && $0.contains("1. Bella") && $0.contains("2. Rex") }
        XCTAssertEqual(try board(["list", file]), "Bella\nRex\n")
        // The board renames through a binding; the other process sees it.
        type("r 2 Rexy")
        waitForScreen { $0.contains("2. Rexy") }
        XCTAssertEqual(try board(["list", file]), "Bella\nRexy\n")
        // Another process renames and deletes: the board redraws each time.
        try board(["rename", "Bella", "Belle", file])
        waitForScreen { $0.contains("1. Belle") }
        try board(["delete", "Belle", file])
        waitForScreen { $0.contains("DoggoBoard: 1 dog") && $0.contains("1. Rexy") && !$0.contains("Belle") }
        // A favorite toy through a binding, then a delete through `$dogs.remove(atOffsets:)`.
        type("t 1 ball")
        waitForScreen { $0.contains("1. Rexy (loves ball)") }
        XCTAssertEqual(try board(["list", file]), "Rexy ball\n")
        type("d 1")
        waitForScreen { $0.contains("DoggoBoard: 0 dogs") }
        XCTAssertEqual(try board(["list", file]), "")
        type("q")
        for _ in 0..<100 where tmux(["-S", socket, "has-session", "-t", session]).status == 0 { usleep(50_000) }
        XCTAssertNotEqual(tmux(["-S", socket, "has-session", "-t", session]).status, 0, "q quits the board")
    }
}
