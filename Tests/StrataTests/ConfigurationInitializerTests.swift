import Foundation
import Strata
import StrataTestSupport
import XCTest

/// `Realm.Configuration`'s initializer takes RealmSwift's arguments in RealmSwift's order, and
/// each one does what setting the property does.
final class ConfigurationInitializerTests: SeedTestCase {
    func testRealmSwiftsFullInitializerCallCompilesAndSetsEveryProperty() {
        let seed = url("seed.realm")
        let config = Realm.Configuration(
            fileURL: url("full.realm"),
            inMemoryIdentifier: nil,
            encryptionKey: nil,
            readOnly: false,
            schemaVersion: 4,
            migrationBlock: { _, _ in },
            deleteRealmIfMigrationNeeded: false,
            shouldCompactOnLaunch: { total, used in total > 2 * used },
            objectTypes: [Dog.self, DogToy.self],
            seedFilePath: seed)
        XCTAssertEqual(config.fileURL?.lastPathComponent, "full.realm")
        XCTAssertNil(config.encryptionKey)
        XCTAssertEqual(config.schemaVersion, 4)
        XCTAssertNotNil(config.migrationBlock)
        XCTAssertEqual(config.shouldCompactOnLaunch?(100, 10), true)
        XCTAssertEqual(config.shouldCompactOnLaunch?(100, 90), false)
        XCTAssertEqual(config.objectTypes?.count, 2)
        XCTAssertEqual(config.seedFilePath, seed)
    }

    func testSeedFilePathGivenToTheInitializerIsCopiedOnFirstOpen() throws {
        try {
            let seed = try Realm(
                configuration: Realm.Configuration(fileURL: url("seed.realm"), objectTypes: [Dog.self, DogToy.self]))
            try seed.write { seed.add(Dog(value: ["name": "Seeded"])) }
        }()
        let config = Realm.Configuration(
            fileURL: url("app.realm"), objectTypes: [Dog.self, DogToy.self], seedFilePath: url("seed.realm"))
        let realm = try Realm(configuration: config)
        XCTAssertEqual(realm.objects(Dog.self).map(\.name), ["Seeded"])
    }

    func testShouldCompactOnLaunchGivenToTheInitializerIsAskedAtTheFirstOpen() throws {
        try {
            let realm = try Realm(
                configuration: Realm.Configuration(fileURL: url(), objectTypes: [Dog.self, DogToy.self]))
            try realm.write { for i in 0..<2_000 { realm.add(Dog(value: ["name": "dog \(i)"])) } }
            try realm.write { realm.delete(realm.objects(Dog.self).filter("name != 'dog 0'")) }
        }()
        let before = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: url().path)[.size] as? Int)
        let asked = Locked<[Int]>([])
        let config = Realm.Configuration(
            fileURL: url(),
            shouldCompactOnLaunch: { total, used in
                asked.value = [total, used]
                return true
            },
            objectTypes: [Dog.self, DogToy.self])
        let realm = try Realm(configuration: config)
        XCTAssertEqual(asked.value.first, before)
        XCTAssertEqual(realm.objects(Dog.self).map(\.name), ["dog 0"])
        let after = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: url().path)[.size] as? Int)
        XCTAssertLessThan(after, before)
    }

    func testTheKeyTakesPartInEqualityButIsNeverPrinted() {
        var a = Realm.Configuration(fileURL: url())
        let b = a
        a.encryptionKey = Data(repeating: 0xAB, count: 64)
        XCTAssertNotEqual(a, b)
        XCTAssertTrue(a.description.contains("encryptionKey = <64 bytes>;"), a.description)
        XCTAssertFalse(a.description.lowercased().contains("abab"), a.description)
    }
}
