import Foundation
import XCTest

/// A test case that gives each test its own new temporary directory, removed after the test.
open class TemporaryDirectoryTestCase: XCTestCase {
    /// This test's directory (under the system's temporary directory).
    public private(set) var temporaryDirectory: URL!

    override open func setUpWithError() throws {
        try super.setUpWithError()
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("strata-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        temporaryDirectory = url
    }

    override open func tearDownWithError() throws {
        if let temporaryDirectory { try? FileManager.default.removeItem(at: temporaryDirectory) }
        try super.tearDownWithError()
    }

    /// The path of `name` inside this test's directory.
    public func path(_ name: String = "test.strata") -> String { temporaryDirectory.appendingPathComponent(name).path }
}
