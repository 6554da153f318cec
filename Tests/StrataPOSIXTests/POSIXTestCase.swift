import Foundation
import XCTest
import StrataPOSIX
@_exported import StrataTestSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Gives each test its own temporary directory (removed afterwards) and disarms every fault at
/// the end, so a failing test cannot leave one armed for the next.
class POSIXTestCase: TemporaryDirectoryTestCase {
    var directory: String { temporaryDirectory.path }

    override func tearDownWithError() throws {
        FaultInjector.disarmAll()
        try super.tearDownWithError()
    }

    /// Creates `name` holding `bytes` and returns a read-write descriptor for it.
    func makeFile(_ name: String, _ bytes: [UInt8] = []) throws -> FileDescriptor {
        let fd = try System.open(path(name), create: true)
        if !bytes.isEmpty {
            try bytes.withUnsafeBytes { try System.pwrite(fd, from: $0.baseAddress!, count: $0.count, offset: 0) }
        }
        return fd
    }

    /// The file's bytes, read with Foundation (not through the wrappers under test).
    func contents(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: URL(fileURLWithPath: path(name))))
    }

    /// Reads `count` bytes at `offset` through `System.pread`.
    func read(_ fd: FileDescriptor, count: Int, offset: Int64 = 0) throws -> [UInt8] {
        var out = [UInt8](repeating: 0, count: count)
        let n = try out.withUnsafeMutableBytes {
            try System.pread(fd, into: $0.baseAddress!, count: count, offset: offset)
        }
        return Array(out[..<n])
    }

    /// `count` bytes of a recognisable pattern starting at `seed`.
    func pattern(_ count: Int, seed: Int = 0) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: ($0 &* 31) &+ seed &+ ($0 >> 8)) }
    }

    /// Whether `fd` is an open descriptor of this process.
    func isOpen(_ raw: Int32) -> Bool { fcntl(raw, F_GETFD) != -1 }

    /// Asserts that `body` throws a `SystemError` for `call` with `errno`, naming `path`.
    func assertSystemError(
        call: String, errno expected: Int32, path expectedPath: String, _ label: String = "",
        file: StaticString = #filePath, line: UInt = #line, _ body: () throws -> Void
    ) {
        XCTAssertThrowsError(try body(), label, file: file, line: line) { error in
            guard let e = error as? SystemError else {
                return XCTFail("\(label): not a SystemError: \(error)", file: file, line: line)
            }
            XCTAssertEqual(e.call, call, label, file: file, line: line)
            XCTAssertEqual(e.errno, expected, label, file: file, line: line)
            XCTAssertEqual(e.path, expectedPath, label, file: file, line: line)
            let text = e.description
            XCTAssertTrue(
                text.hasPrefix("\(call)(2) failed on \(expectedPath): "), "\(label): \(text)", file: file, line: line)
            XCTAssertTrue(
                text.contains("(\(e.errnoName))") && !e.errnoName.hasPrefix("errno "), "\(label): \(text)", file: file,
                line: line)
        }
    }
}
