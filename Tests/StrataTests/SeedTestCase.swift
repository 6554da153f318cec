import Foundation
import Strata
@_exported import StrataTestSupport
import XCTest

/// Base of the seed tests: a fresh temporary directory per test, configurations for files in it,
/// and `Realm.violationHandler` installed so misuse is recorded (and asserted on) instead of
/// stopping the test process.
class SeedTestCase: TemporaryDirectoryTestCase {
    var dir: String { temporaryDirectory.path }
    /// Violations reported through `Realm.violationHandler` during the test. A test that expects
    /// some asserts on them and calls `takeViolations()`; any left at the end fail the test.
    var violations: [String] = []
    private var savedDefault: Realm.Configuration?

    override func setUp() {
        super.setUp()
        violations = []
        Realm.violationHandler = { [unowned self] message in self.violations.append(message) }
        savedDefault = Realm.Configuration.defaultConfiguration
    }

    override func tearDown() {
        XCTAssertEqual(violations, [], "unexpected violations reported through Realm.violationHandler")
        Realm.violationHandler = nil
        if let savedDefault { Realm.Configuration.defaultConfiguration = savedDefault }
        super.tearDown()
    }

    /// The violations so far, cleared.
    func takeViolations() -> [String] {
        defer { violations = [] }
        return violations
    }

    /// Spins the main run loop (which drains DispatchQueue.main) until `condition` holds.
    func spin(
        until condition: () -> Bool, timeout: TimeInterval = 20, file: StaticString = #filePath, line: UInt = #line
    ) {
        let deadline = Date(timeIntervalSinceNow: timeout)
        while !condition() {
            if Date() > deadline {
                XCTFail("timed out", file: file, line: line)
                return
            }
            _ = RunLoop.current.run(mode: .default, before: Date(timeIntervalSinceNow: 0.01))
        }
    }

    /// Spins the main run loop for `seconds`.
    func spin(for seconds: TimeInterval) {
        let end = Date(timeIntervalSinceNow: seconds)
        while Date() < end { _ = RunLoop.current.run(mode: .default, before: Date(timeIntervalSinceNow: 0.01)) }
    }

    func url(_ name: String = "test.realm") -> URL {
        URL(fileURLWithPath: dir + "/" + name)
    }

    func config(_ name: String = "test.realm") -> Realm.Configuration {
        Realm.Configuration(fileURL: url(name))
    }

    /// Opens a new realm on `name`. Callers keep no other realm, object or results of the file
    /// alive across a "reopen", so the file is really closed and opened again.
    func open(_ name: String = "test.realm") throws -> Realm {
        try Realm(configuration: config(name))
    }
}

/// An error a write block throws to cancel its transaction.
struct SeedAbort: Error, Equatable {}
