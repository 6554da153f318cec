import Foundation
import Strata
import StrataPOSIX
import StrataStorage
import XCTest

/// Helpers of the asynchronous-write tests: spinning the main run loop (which drains
/// DispatchQueue.main) and the storage engine's view of the versions.
class AsyncWriteTestCase: SeedTestCase {
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

    /// The storage engine's view of the file: (latest, durable) version.
    func versions(_ name: String = "test.realm") throws -> (latest: UInt64, durable: UInt64) {
        let db = try Database(path: url(name).path)
        defer { db.close() }
        return (db.latestVersion.rawValue, db.durableVersion.rawValue)
    }
}
