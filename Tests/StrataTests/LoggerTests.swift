import Foundation
import Strata
import XCTest

/// `Logger`: levels per category, and what Strata logs at each level.
final class LoggerTests: SeedTestCase {
    final class Lines: @unchecked Sendable {
        let lock = NSLock()
        var items: [(LogLevel, String, String)] = []
        func add(_ l: LogLevel, _ c: String, _ m: String) { lock.lock(); items.append((l, c, m)); lock.unlock() }
        func messages(_ level: LogLevel? = nil) -> [String] {
            lock.lock(); defer { lock.unlock() }
            return items.filter { level == nil || $0.0 == level }.map(\.2)
        }
    }

    var savedLogger: Logger!
    var savedLevels: [String: LogLevel] = [:]
    let lines = Lines()

    override func setUp() {
        super.setUp()
        savedLogger = Logger.shared
        for c in [Category.realm, Category.sdk, Category.app] { savedLevels[c.rawValue] = Logger.logLevel(for: c) }
        let lines = self.lines
        Logger.shared = Logger(function: { level, category, message in lines.add(level, category.rawValue, message) })
    }

    override func tearDown() {
        Logger.shared = savedLogger
        Logger.setLogLevel(savedLevels[Category.realm.rawValue] ?? .info)
        super.tearDown()
    }

    func testSettingACategorySetsItsSubcategories() {
        Logger.setLogLevel(.info)
        Logger.setLogLevel(.trace, for: Category.Storage.all)
        XCTAssertEqual(Logger.logLevel(for: Category.Storage.transaction), .trace)
        XCTAssertEqual(Logger.logLevel(for: Category.Storage.notification), .trace)
        XCTAssertEqual(Logger.logLevel(for: Category.sdk), .info)
        Logger.setLogLevel(.warn)
        XCTAssertEqual(Logger.logLevel(for: Category.Storage.query), .warn)
        XCTAssertEqual(Logger.shared.level, .warn)
    }

    func testOpeningAndCommitsAreLoggedAtDetailAndTrace() throws {
        Logger.setLogLevel(.trace)
        let realm = try Realm(
            configuration: Realm.Configuration(
                fileURL: url(), objectTypes: [Dog.self, DogToy.self, Person.self, Address.self]))
        try realm.write { realm.add(Dog(value: ["name": "Rex"])) }
        XCTAssertTrue(lines.messages(.detail).contains("Opened '\(url().path)'"), "\(lines.items)")
        XCTAssertTrue(lines.messages(.detail).contains { $0.contains("creating Dog") }, "\(lines.items)")
        XCTAssertTrue(
            lines.messages(.trace).contains("Committed a write transaction to '\(url().path)'"), "\(lines.items)")
        XCTAssertTrue(lines.items.contains { $0.1 == "Realm.Storage.Transaction" })
    }

    func testNothingBelowTheLevelIsLogged() throws {
        Logger.setLogLevel(.info)
        let realm = try Realm(
            configuration: Realm.Configuration(
                fileURL: url(), objectTypes: [Dog.self, DogToy.self, Person.self, Address.self]))
        try realm.write { realm.add(Dog(value: ["name": "Rex"])) }
        try realm.writeCopy(toFile: url("copy.realm"))
        XCTAssertEqual(lines.messages(.trace), [])
        XCTAssertEqual(lines.messages(.detail), [])
        XCTAssertEqual(lines.messages(.info).filter { $0.contains("Wrote a copy") }.count, 1, "\(lines.items)")
        Logger.setLogLevel(.off)
        try realm.write { realm.add(Dog(value: ["name": "Fido"])) }
        try realm.writeCopy(toFile: url("copy2.realm"))
        XCTAssertEqual(lines.messages(.info).filter { $0.contains("Wrote a copy") }.count, 1)
    }

    func testMigrationsAreLoggedAtInfo() throws {
        Logger.setLogLevel(.info)
        var config = Realm.Configuration(
            fileURL: url(), objectTypes: [Dog.self, DogToy.self, Person.self, Address.self])
        try { _ = try Realm(configuration: config) }()
        config.schemaVersion = 4
        config.migrationBlock = { _, _ in }
        _ = try Realm(configuration: config)
        XCTAssertTrue(
            lines.messages(.info).contains("Migrating '\(url().path)' from schema version 0 to 4"), "\(lines.items)")
    }
}
