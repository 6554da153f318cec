import Foundation
import Strata
import StrataPOSIX
import StrataStorage
import XCTest

/// Helpers of the asynchronous-write tests: the storage engine's view of the versions.
class AsyncWriteTestCase: SeedTestCase {
    /// The storage engine's view of the file: (latest, durable) version.
    func versions(_ name: String = "test.realm") throws -> (latest: UInt64, durable: UInt64) {
        let db = try Database(path: url(name).path)
        defer { db.close() }
        return (db.latestVersion.rawValue, db.durableVersion.rawValue)
    }
}
