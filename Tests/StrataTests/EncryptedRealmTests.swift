import Foundation
import Strata
import XCTest

/// `Realm.Configuration.encryptionKey`, `schemaVersionAtURL(_:encryptionKey:)` and
/// `writeCopy(toFile:encryptionKey:)` on encrypted files.
final class EncryptedRealmTests: SeedTestCase {
    let key = Data((0..<64).map { UInt8($0 &* 3 &+ 11) })
    let otherKey = Data(repeating: 0xC3, count: 64)

    func configuration(_ name: String = "enc.realm", key: Data?, schemaVersion: UInt64 = 0) -> Realm.Configuration {
        Realm.Configuration(
            fileURL: url(name), encryptionKey: key, schemaVersion: schemaVersion, objectTypes: [Dog.self, DogToy.self])
    }

    func addDogs(_ realm: Realm, _ names: [String]) throws {
        try realm.write {
            for (i, name) in names.enumerated() {
                realm.add(
                    Dog(value: ["name": name, "age": i, "favoriteToy": DogToy(value: ["name": "toy of \(name)"])]))
            }
        }
    }

    func dogNames(_ realm: Realm) -> [String] { realm.objects(Dog.self).map(\.name).sorted() }

    func code(_ body: () throws -> Void) -> (Realm.Error.Code?, String) {
        do {
            try body()
            return (nil, "no error")
        } catch {
            return ((error as? Realm.Error)?.realmCode, "\(error)")
        }
    }

    func testObjectsWrittenWithAKeyReadBackAfterReopening() throws {
        do {
            let realm = try Realm(configuration: configuration(key: key))
            try addDogs(realm, ["Rex", "Fido", "Bella"])
            XCTAssertEqual(dogNames(realm), ["Bella", "Fido", "Rex"])
        }
        let realm = try Realm(configuration: configuration(key: key))
        XCTAssertEqual(dogNames(realm), ["Bella", "Fido", "Rex"])
        XCTAssertEqual(realm.objects(Dog.self).filter("name == 'Rex'").first?.favoriteToy?.name, "toy of Rex")
        try realm.write { realm.objects(Dog.self).filter("name == 'Fido'").first!.age = 42 }
        XCTAssertEqual(realm.objects(Dog.self).filter("age == 42").first?.name, "Fido")
    }

    func testTheFileHoldsNoPlaintextOfTheObjects() throws {
        let name = "Sir Reginald Barkington the Third"
        do {
            let realm = try Realm(configuration: configuration(key: key))
            try addDogs(realm, (0..<50).map { "\(name) \($0)" })
        }
        let bytes = try Data(contentsOf: url("enc.realm"))
        XCTAssertNil(bytes.range(of: Data(name.utf8)), "the dog's name is in the file in clear")
        XCTAssertNil(bytes.range(of: Data("Dog".utf8)), "the schema's type name is in the file in clear")
        // The control: the same objects without a key are found.
        do {
            let realm = try Realm(configuration: configuration("plain.realm", key: nil))
            try addDogs(realm, [name])
        }
        XCTAssertNotNil(try Data(contentsOf: url("plain.realm")).range(of: Data(name.utf8)))
    }

    func testAWrongKeyAMissingKeyAndAKeyForAPlainFileAreRefused() throws {
        do {
            let realm = try Realm(configuration: configuration(key: key))
            try addDogs(realm, ["Rex"])
        }
        do {
            let realm = try Realm(configuration: configuration("plain.realm", key: nil))
            try addDogs(realm, ["Rex"])
        }
        let wrong = code { _ = try Realm(configuration: configuration(key: otherKey)) }
        XCTAssertEqual(wrong.0, .invalidDatabase, wrong.1)
        XCTAssertTrue(wrong.1.contains("encrypted with another key"), wrong.1)
        let missing = code { _ = try Realm(configuration: configuration(key: nil)) }
        XCTAssertEqual(missing.0, .invalidDatabase, missing.1)
        XCTAssertTrue(missing.1.contains("is encrypted"), missing.1)
        let plain = code { _ = try Realm(configuration: configuration("plain.realm", key: key)) }
        XCTAssertEqual(plain.0, .invalidDatabase, plain.1)
        XCTAssertTrue(plain.1.contains("is not encrypted"), plain.1)
        // The refused opens changed nothing.
        XCTAssertEqual(dogNames(try Realm(configuration: configuration(key: key))), ["Rex"])
        XCTAssertEqual(dogNames(try Realm(configuration: configuration("plain.realm", key: nil))), ["Rex"])
    }

    func testAKeyThatIsNot64BytesIsRefusedAndCreatesNothing() {
        let short = code { _ = try Realm(configuration: configuration(key: Data(count: 32))) }
        XCTAssertEqual(short.0, .fail, short.1)
        XCTAssertTrue(short.1.contains("64 bytes") && short.1.contains("has 32 bytes"), short.1)
        XCTAssertFalse(FileManager.default.fileExists(atPath: url("enc.realm").path))
    }

    func testARealmOfAnOpenFileWithAnotherKeyIsRefused() throws {
        let realm = try Realm(configuration: configuration(key: key))
        try addDogs(realm, ["Rex"])
        let other = code { _ = try Realm(configuration: configuration(key: nil)) }
        XCTAssertEqual(other.0, .fail, other.1)
        XCTAssertTrue(other.1.contains("already opened"), other.1)
        XCTAssertEqual(dogNames(realm), ["Rex"])
    }

    func testSchemaVersionAtURLReadsAnEncryptedFileWithItsKey() throws {
        do {
            let realm = try Realm(configuration: configuration(key: key, schemaVersion: 7))
            try addDogs(realm, ["Rex"])
        }
        XCTAssertEqual(try schemaVersionAtURL(url("enc.realm"), encryptionKey: key), 7)
        let missing = code { _ = try schemaVersionAtURL(url("enc.realm")) }
        XCTAssertEqual(missing.0, .invalidDatabase, missing.1)
        let wrong = code { _ = try schemaVersionAtURL(url("enc.realm"), encryptionKey: otherKey) }
        XCTAssertEqual(wrong.0, .invalidDatabase, wrong.1)
        XCTAssertTrue(wrong.1.contains("another key"), wrong.1)
    }

    func testWriteCopyAddsChangesAndRemovesEncryption() throws {
        let plain = try Realm(configuration: configuration("plain.realm", key: nil))
        try addDogs(plain, ["Rex", "Fido"])
        try plain.writeCopy(toFile: url("added.realm"), encryptionKey: key)
        let added = try Realm(configuration: configuration("added.realm", key: key))
        XCTAssertEqual(dogNames(added), ["Fido", "Rex"])
        // The file itself refuses another key (read through a handle of its own).
        XCTAssertEqual(code { _ = try schemaVersionAtURL(url("added.realm")) }.0, .invalidDatabase)
        // A realm of the open file with another key is refused before the file is reached.
        let reopened = code { _ = try Realm(configuration: configuration("added.realm", key: nil)) }
        XCTAssertEqual(reopened.0, .fail, reopened.1)
        XCTAssertTrue(reopened.1.contains("already opened"), reopened.1)

        try added.writeCopy(configuration: configuration("changed.realm", key: otherKey))
        XCTAssertEqual(
            dogNames(try Realm(configuration: configuration("changed.realm", key: otherKey))), ["Fido", "Rex"])
        XCTAssertEqual(
            code { _ = try schemaVersionAtURL(url("changed.realm"), encryptionKey: key) }.0, .invalidDatabase)

        try added.writeCopy(toFile: url("removed.realm"))
        XCTAssertEqual(dogNames(try Realm(configuration: configuration("removed.realm", key: nil))), ["Fido", "Rex"])
        let bad = code { try added.writeCopy(toFile: url("bad.realm"), encryptionKey: Data(count: 10)) }
        XCTAssertEqual(bad.0, .fail, bad.1)
        XCTAssertFalse(FileManager.default.fileExists(atPath: url("bad.realm").path))
    }

    /// Scans of an encrypted realm (counts, sums, filters) read what a plain realm holds, scan
    /// after scan: the first two reach each leaf through a buffer of their own, later ones
    /// through the mirror (`SealedFile.scanPage`), and writes between them rewrite leaves.
    func testScansOfAnEncryptedRealmAgreeWithAPlainOneScanAfterScan() throws {
        func fill(_ realm: Realm) throws {
            try realm.write {
                for i in 0..<3_000 { realm.add(Dog(value: ["name": "dog \(i)", "age": i])) }
            }
        }
        do {
            try fill(try Realm(configuration: configuration(key: key)))
            try fill(try Realm(configuration: configuration("plain.realm", key: nil)))
        }
        let encrypted = try Realm(configuration: configuration(key: key))
        let plain = try Realm(configuration: configuration("plain.realm", key: nil))
        for round in 0..<5 {
            let e = encrypted.objects(Dog.self).where { $0.age > 1_000 }
            let p = plain.objects(Dog.self).where { $0.age > 1_000 }
            XCTAssertEqual(e.count, p.count, "round \(round)")
            XCTAssertEqual(e.sum(ofProperty: "age") as Int, p.sum(ofProperty: "age") as Int, "round \(round)")
            XCTAssertEqual(encrypted.objects(Dog.self).count, plain.objects(Dog.self).count, "round \(round)")
            XCTAssertEqual(Array(e.map(\.name)), Array(p.map(\.name)), "round \(round)")
            // Scans through the compiled test (strings), with and without sorting.
            func names(_ realm: Realm) -> [String] {
                Array(realm.objects(Dog.self).filter("name BEGINSWITH 'dog 2'").map(\.name))
            }
            func sortedAges(_ realm: Realm) -> [Int] {
                Array(realm.objects(Dog.self).where { $0.name.contains("7") }.sorted(byKeyPath: "age").map(\.age))
            }
            XCTAssertEqual(names(encrypted), names(plain), "round \(round)")
            XCTAssertEqual(sortedAges(encrypted), sortedAges(plain), "round \(round)")
            XCTAssertEqual(names(encrypted).count, 1_111, "round \(round)")
            if round == 0 {
                XCTAssertEqual(e.count, 1_999)
                XCTAssertEqual(e.sum(ofProperty: "age") as Int, (1_001...2_999).reduce(0, +))
            }
            for realm in [encrypted, plain] {
                try realm.write {
                    for dog in realm.objects(Dog.self) where dog.age % 7 == round { dog.age += 500 }
                }
            }
        }
    }
}
