import Foundation
import Strata
import StrataStorage
import XCTest

/// Whole files through the Realm API: `fileExists(for:)`, `deleteFiles(for:)`, `seedFilePath`,
/// `schemaVersionAtURL`, `performMigration(for:)`.
final class RealmFileManagementTests: SeedTestCase {
    func configuration(_ name: String = "test.realm") -> Realm.Configuration {
        Realm.Configuration(fileURL: url(name), objectTypes: [Dog.self, DogToy.self, Person.self, Address.self])
    }

    func testFileExistsOnceARealmWasOpened() throws {
        XCTAssertFalse(Realm.fileExists(for: configuration()))
        _ = try Realm(configuration: configuration())
        XCTAssertTrue(Realm.fileExists(for: configuration()))
    }

    func testDeleteFilesRemovesTheFileAndItsLockFile() throws {
        try {
            let realm = try Realm(configuration: configuration())
            try realm.write { realm.add(Dog(value: ["name": "Rex"])) }
        }()
        XCTAssertTrue(try Realm.deleteFiles(for: configuration()))
        XCTAssertFalse(FileManager.default.fileExists(atPath: url().path))
        XCTAssertFalse(FileManager.default.fileExists(atPath: url().path + ".lock"))
        XCTAssertFalse(try Realm.deleteFiles(for: configuration()))
        // Opened again, it is a new, empty realm.
        XCTAssertEqual(try Realm(configuration: configuration()).objects(Dog.self).count, 0)
    }

    func testDeleteFilesRefusesWhileARealmOfThisProcessHasTheFileOpen() throws {
        let realm = try Realm(configuration: configuration())
        try realm.write { realm.add(Dog(value: ["name": "Rex"])) }
        XCTAssertThrowsError(try Realm.deleteFiles(for: configuration())) { error in
            XCTAssertEqual((error as? Realm.Error)?.realmCode, .alreadyOpen, "\(error)")
        }
        XCTAssertEqual(realm.objects(Dog.self).first?.name, "Rex")
        XCTAssertTrue(FileManager.default.fileExists(atPath: url().path))
    }

    /// Another handle on the file (as another process has: the lock is per open file
    /// description) keeps it from being deleted.
    func testDeleteFilesRefusesWhileAnotherHandleHasTheFileOpen() throws {
        try {
            let realm = try Realm(configuration: configuration())
            try realm.write { realm.add(Dog(value: ["name": "Rex"])) }
        }()
        var options = Database.Options()
        options.pageSize = 8192
        let other = try Database(path: url().path, options: options)
        XCTAssertThrowsError(try Realm.deleteFiles(for: configuration())) { error in
            XCTAssertEqual((error as? Realm.Error)?.realmCode, .alreadyOpen, "\(error)")
        }
        other.close()
        XCTAssertEqual(try Realm(configuration: configuration()).objects(Dog.self).first?.name, "Rex")
    }

    func testSeedFileIsCopiedOnFirstOpenOnly() throws {
        try {
            let seed = try Realm(configuration: configuration("seed.realm"))
            try seed.write { seed.add(Dog(value: ["name": "Seeded"])) }
        }()
        var config = configuration()
        config.seedFilePath = url("seed.realm")
        try {
            let realm = try Realm(configuration: config)
            XCTAssertEqual(realm.objects(Dog.self).map(\.name), ["Seeded"])
            try realm.write { realm.add(Dog(value: ["name": "Mine"])) }
        }()
        // The file exists now: opening again keeps its data rather than copying the seed again.
        let realm = try Realm(configuration: config)
        XCTAssertEqual(realm.objects(Dog.self).map(\.name).sorted(), ["Mine", "Seeded"])
        // The seed itself is unchanged.
        XCTAssertEqual(try Realm(configuration: configuration("seed.realm")).objects(Dog.self).count, 1)
    }

    func testMissingSeedFileIsFileNotFoundAndCreatesNothing() throws {
        var config = configuration()
        config.seedFilePath = url("no-such-seed.realm")
        XCTAssertThrowsError(try Realm(configuration: config)) { error in
            XCTAssertEqual((error as? Realm.Error)?.realmCode, .fileNotFound, "\(error)")
            XCTAssertTrue("\(error)".contains("no-such-seed.realm"), "\(error)")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: url().path))
    }

    func testSchemaVersionAtURLReadsTheStoredVersion() throws {
        var config = configuration()
        config.schemaVersion = 3
        try { _ = try Realm(configuration: config) }()
        XCTAssertEqual(try schemaVersionAtURL(url()), 3)
        // Also while a realm has the file open.
        let realm = try Realm(configuration: config)
        XCTAssertEqual(try schemaVersionAtURL(url()), 3)
        _ = realm
    }

    func testSchemaVersionAtURLOfAMissingFileIsFileNotFound() {
        XCTAssertThrowsError(try schemaVersionAtURL(url("missing.realm"))) { error in
            XCTAssertEqual((error as? Realm.Error)?.realmCode, .fileNotFound, "\(error)")
        }
    }

    func testSchemaVersionAtURLOfAForeignFileIsInvalidDatabase() throws {
        try Data(repeating: 7, count: 20000).write(to: url("foreign.realm"))
        XCTAssertThrowsError(try schemaVersionAtURL(url("foreign.realm"))) { error in
            XCTAssertEqual((error as? Realm.Error)?.realmCode, .invalidDatabase, "\(error)")
        }
    }

    func testPerformMigrationRunsTheMigrationOnceWithoutKeepingTheFileOpen() throws {
        try {
            let realm = try Realm(configuration: configuration())
            try realm.write { realm.add(Dog(value: ["name": "rex", "age": 2])) }
        }()
        let log = MigrationLog()
        var config = configuration()
        config.schemaVersion = 2
        config.migrationBlock = { migration, old in
            log.calls += 1
            log.oldSchemaVersions.append(old)
            migration.enumerateObjects(ofType: "Dog") { _, new in
                new!["name"] = (new!["name"] as! String).uppercased()
            }
        }
        try Realm.performMigration(for: config)
        XCTAssertEqual(log.calls, 1)
        XCTAssertEqual(log.oldSchemaVersions, [0])
        XCTAssertEqual(try schemaVersionAtURL(url()), 2)
        // Nothing keeps the file open: it can be deleted.
        XCTAssertFalse(Database.isOpen(path: url().path))
        let realm = try Realm(configuration: config)
        XCTAssertEqual(realm.objects(Dog.self).first?.name, "REX")
        XCTAssertEqual(log.calls, 1)
    }
}
