import Foundation
import Logging
import Strata
import StrataLogging
import XCTest

/// Strata's log messages reach a swift-log `Logger` through `Logger.swiftLog(_:)`.
final class SwiftLogBridgeTests: XCTestCase {
    /// A swift-log handler that keeps what it receives.
    final class Recorder: LogHandler, @unchecked Sendable {
        let lock = NSLock()
        var records: [(Logging.Logger.Level, String, String?)] = []
        var metadata: Logging.Logger.Metadata = [:]
        var logLevel: Logging.Logger.Level = .trace

        subscript(metadataKey key: String) -> Logging.Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(
            level: Logging.Logger.Level, message: Logging.Logger.Message, metadata: Logging.Logger.Metadata?,
            source: String, file: String, function: String, line: UInt
        ) {
            lock.lock()
            defer { lock.unlock() }
            var category: String?
            if case .string(let c)? = metadata?["strata.category"] { category = c }
            records.append((level, "\(message)", category))
        }
    }

    func testMessagesOfACopyReachTheSwiftLogHandlerWithTheirCategory() throws {
        let recorder = Recorder()
        let saved = Strata.Logger.shared
        let savedLevel = Strata.Logger.logLevel(for: Category.realm)
        defer {
            Strata.Logger.shared = saved
            Strata.Logger.setLogLevel(savedLevel)
        }
        Strata.Logger.shared = .swiftLog(Logging.Logger(label: "test") { _ in recorder })
        Strata.Logger.setLogLevel(.detail)
        let dir = NSTemporaryDirectory() + "/strata-log-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try {
            let realm = try Realm(
                configuration: Realm.Configuration(fileURL: URL(fileURLWithPath: dir + "/a.realm"), objectTypes: []))
            try realm.writeCopy(toFile: URL(fileURLWithPath: dir + "/b.realm"))
        }()
        let copy = recorder.records.first { $0.1.contains("Wrote a copy of") }
        XCTAssertEqual(copy?.0, .info)
        XCTAssertEqual(copy?.2, "Realm.SDK")
        XCTAssertTrue(
            recorder.records.contains { $0.0 == .notice && $0.1.contains("Opened '\(dir)/a.realm'") },
            "\(recorder.records)")
    }

    func testLevelsMapOntoSwiftLogLevels() {
        XCTAssertEqual(Strata.Logger.swiftLogLevel(.fatal), .critical)
        XCTAssertEqual(Strata.Logger.swiftLogLevel(.warn), .warning)
        XCTAssertEqual(Strata.Logger.swiftLogLevel(.detail), .notice)
        XCTAssertEqual(Strata.Logger.swiftLogLevel(.trace), .trace)
        XCTAssertNil(Strata.Logger.swiftLogLevel(.off))
    }
}
