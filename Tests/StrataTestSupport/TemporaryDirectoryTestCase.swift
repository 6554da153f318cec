import Foundation
import XCTest

/// A test case that gives each test its own new temporary directory, removed after the test, and
/// small file systems mounted inside it on request (unmounted after the test).
open class TemporaryDirectoryTestCase: XCTestCase {
    /// This test's directory (under the system's temporary directory).
    public private(set) var temporaryDirectory: URL!

    /// File systems this test mounted, unmounted after it.
    private var mounts: [String] = []

    override open func setUpWithError() throws {
        try super.setUpWithError()
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("strata-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        temporaryDirectory = url
    }

    override open func tearDownWithError() throws {
        for m in mounts.reversed() { _ = runTool("/bin/umount", ["-l", m]) }
        mounts = []
        if let temporaryDirectory { try? FileManager.default.removeItem(at: temporaryDirectory) }
        try super.tearDownWithError()
    }

    /// Removes everything inside this test's directory (for a test that runs several rounds,
    /// each on new files).
    public func emptyTemporaryDirectory() {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: temporaryDirectory.path)) ?? []
        for name in names { try? FileManager.default.removeItem(at: temporaryDirectory.appendingPathComponent(name)) }
    }

    /// The path of `name` inside this test's directory.
    public func path(_ name: String = "test.strata") -> String { temporaryDirectory.appendingPathComponent(name).path }

    /// Mounts a tmpfs of `megabytes` MiB inside the test's directory and returns its path; skips
    /// the test, printing why, where mounting is not permitted.
    public func mountSmallFileSystem(megabytes: Int = 8) throws -> String {
        #if os(Linux)
            let m = temporaryDirectory.appendingPathComponent("small-fs-\(mounts.count)").path
            try FileManager.default.createDirectory(atPath: m, withIntermediateDirectories: true)
            let (status, output) = runTool("/bin/mount", ["-t", "tmpfs", "-o", "size=\(megabytes)m", "tmpfs", m])
            guard status == 0 else {
                print(
                    "\(name): skipped: mounting a tmpfs is not permitted here (\(output.trimmingCharacters(in: .whitespacesAndNewlines)))"
                )
                throw XCTSkip("mounting a tmpfs is not permitted here: \(output)")
            }
            mounts.append(m)
            return m
        #else
            throw XCTSkip("the small file system is a Linux tmpfs")
        #endif
    }

    /// Remounts a file system of ``mountSmallFileSystem(megabytes:)`` read-only (or read-write
    /// again); fails the test if that is refused.
    public func remount(_ m: String, readOnly: Bool, file: StaticString = #filePath, line: UInt = #line) {
        let (status, output) = runTool("/bin/mount", ["-o", readOnly ? "remount,ro" : "remount,rw", m])
        XCTAssertEqual(status, 0, output, file: file, line: line)
    }

    /// Runs `tool` and returns its exit status and combined output.
    public func runTool(_ tool: String, _ arguments: [String]) -> (Int32, String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: tool)
        p.arguments = arguments
        let pipe = Pipe()
        p.standardOutput = pipe
        p.standardError = pipe
        do { try p.run() } catch { return (-1, "\(error)") }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}
