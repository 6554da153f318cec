import Foundation
import Strata
import XCTest

/// The `strata` commands on encrypted files: the key from `--key-file` or `STRATA_ENCRYPTION_KEY`,
/// and `copy --encrypt/--decrypt` adding, changing and removing encryption, checked by opening
/// the results through the Realm API.
final class EncryptedFileCommandTests: ToolTestCase {
    let key = Data((0..<64).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 3) })
    let otherKey = Data((0..<64).map { UInt8(truncatingIfNeeded: 200 &- $0) })

    func hex(_ key: Data) -> String { key.map { String(format: "%02x", $0) }.joined() }

    func encryptedConfiguration(_ name: String, key: Data) -> Realm.Configuration {
        var c = configuration(name)
        c.encryptionKey = key
        return c
    }

    /// The owners' dogs of the app file, read back through the Realm API.
    func dogsByOwner(_ realm: Realm) -> [String: [String]] {
        var out: [String: [String]] = [:]
        for owner in realm.objects(ToolOwner.self) { out[owner.id] = owner.dogs.map(\.name) }
        return out
    }

    let expectedDogs = ["ada": ["Rex", "Fido"], "bob": ["Ace \"the\" dog"]]

    /// An encrypted copy of the app file (made through the Realm API, independently of the tool).
    func makeEncryptedFile(_ name: String = "enc.realm") throws {
        try makeAppFile()
        let realm = try Realm(configuration: configuration())
        try realm.writeCopy(toFile: URL(fileURLWithPath: path(name)), encryptionKey: key)
    }

    func testCopyEncryptWritesACopyThatOpensOnlyWithTheKey() throws {
        try makeAppFile()
        try key.write(to: URL(fileURLWithPath: path("app.key")))
        let run = try strata(["copy", path("app.realm"), path("enc.realm"), "--encrypt", path("app.key")])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stdout.contains("encrypted"), run.stdout)
        let realm = try Realm(configuration: encryptedConfiguration("enc.realm", key: key))
        XCTAssertEqual(dogsByOwner(realm), expectedDogs)
        XCTAssertThrowsError(try Realm(configuration: configuration("enc.realm")))
        // The dogs' names are nowhere in the file's bytes.
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path("enc.realm")))
        XCTAssertNil(bytes.range(of: Data("Fido".utf8)))
    }

    func testCopyDecryptWritesAPlainCopy() throws {
        try makeEncryptedFile()
        try key.write(to: URL(fileURLWithPath: path("app.key")))
        let run = try strata(["copy", path("enc.realm"), path("plain.realm"), "--decrypt", path("app.key")])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stdout.contains("decrypted"), run.stdout)
        let realm = try Realm(configuration: configuration("plain.realm"))
        XCTAssertEqual(dogsByOwner(realm), expectedDogs)
    }

    func testCopyWithKeyFileAndEncryptChangesTheKey() throws {
        try makeEncryptedFile()
        try key.write(to: URL(fileURLWithPath: path("old.key")))
        // A key file may hold the key as hexadecimal digits, with a final newline.
        try Data((hex(otherKey) + "\n").utf8).write(to: URL(fileURLWithPath: path("new.key")))
        let run = try strata([
            "copy", path("enc.realm"), path("rekeyed.realm"), "--key-file", path("old.key"), "--encrypt",
            path("new.key"),
        ])
        XCTAssertEqual(run.status, 0, run.stderr)
        let realm = try Realm(configuration: encryptedConfiguration("rekeyed.realm", key: otherKey))
        XCTAssertEqual(dogsByOwner(realm), expectedDogs)
        XCTAssertThrowsError(try Realm(configuration: encryptedConfiguration("rekeyed.realm", key: key)))
    }

    func testCopyOfAnEncryptedFileKeepsItsKeyByDefault() throws {
        try makeEncryptedFile()
        let run = try strata(
            ["copy", path("enc.realm"), path("backup.realm")], environment: ["STRATA_ENCRYPTION_KEY": hex(key)])
        XCTAssertEqual(run.status, 0, run.stderr)
        let realm = try Realm(configuration: encryptedConfiguration("backup.realm", key: key))
        XCTAssertEqual(dogsByOwner(realm), expectedDogs)
        XCTAssertThrowsError(try Realm(configuration: configuration("backup.realm")))
    }

    func testCommandsReadAnEncryptedFileWithKeyFileOrEnvironment() throws {
        try makeEncryptedFile()
        try key.write(to: URL(fileURLWithPath: path("app.key")))
        for (extra, environment) in [
            (["--key-file", path("app.key")], [String: String]()),
            ([], ["STRATA_ENCRYPTION_KEY": hex(key).uppercased()]),
        ] {
            let dump = try strata(["dump", path("enc.realm"), "--type", "ToolOwner"] + extra, environment: environment)
            XCTAssertEqual(dump.status, 0, dump.stderr)
            XCTAssertEqual(try dump.lines.map { try json($0)["id"] as? String }, ["ada", "bob"])
            let verify = try strata(["verify", path("enc.realm")] + extra, environment: environment)
            XCTAssertEqual(verify.status, 0, verify.stdout + verify.stderr)
            XCTAssertTrue(verify.stdout.contains("OK"), verify.stdout)
            let schema = try strata(["schema", path("enc.realm")] + extra, environment: environment)
            XCTAssertEqual(schema.status, 0, schema.stderr)
            XCTAssertTrue(schema.stdout.contains("ToolDog"), schema.stdout)
            let stats = try strata(["stats", path("enc.realm")] + extra, environment: environment)
            XCTAssertEqual(stats.status, 0, stats.stderr)
        }
    }

    func testCommandWithoutKeySaysHowToGiveIt() throws {
        try makeEncryptedFile()
        let run = try strata(["dump", path("enc.realm")], environment: ["STRATA_ENCRYPTION_KEY": ""])
        XCTAssertNotEqual(run.status, 0)
        XCTAssertTrue(run.stderr.contains("is encrypted"), run.stderr)
        XCTAssertTrue(run.stderr.contains("--key-file"), run.stderr)
        XCTAssertTrue(run.stdout.isEmpty, run.stdout)
    }

    func testVerifyWithTheWrongKeyIsAKeyErrorNotDamage() throws {
        try makeEncryptedFile()
        try otherKey.write(to: URL(fileURLWithPath: path("wrong.key")))
        let run = try strata(["verify", path("enc.realm"), "--key-file", path("wrong.key")])
        XCTAssertNotEqual(run.status, 0)
        XCTAssertTrue(run.stderr.contains("another key"), run.stderr)
        XCTAssertFalse(run.stdout.contains("DAMAGED"), run.stdout)
    }

    func testMalformedKeysAreRefusedWithTheirSource() throws {
        try makeEncryptedFile()
        try Data([1, 2, 3]).write(to: URL(fileURLWithPath: path("short.key")))
        let short = try strata(["dump", path("enc.realm"), "--key-file", path("short.key")])
        XCTAssertNotEqual(short.status, 0)
        XCTAssertTrue(short.stderr.contains("short.key holds 3 bytes"), short.stderr)
        let badHex = try strata(
            ["dump", path("enc.realm")], environment: ["STRATA_ENCRYPTION_KEY": String(repeating: "g", count: 128)])
        XCTAssertNotEqual(badHex.status, 0)
        XCTAssertTrue(badHex.stderr.contains("STRATA_ENCRYPTION_KEY"), badHex.stderr)
        let missing = try strata(["copy", path("enc.realm"), path("out.realm"), "--decrypt", path("nothing.key")])
        XCTAssertNotEqual(missing.status, 0)
        XCTAssertTrue(missing.stderr.contains("nothing.key"), missing.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("out.realm")))
    }

    func testDecryptOfAPlainFileIsRefused() throws {
        try makeAppFile()
        try key.write(to: URL(fileURLWithPath: path("app.key")))
        let run = try strata(["copy", path("app.realm"), path("out.realm"), "--decrypt", path("app.key")])
        XCTAssertNotEqual(run.status, 0)
        XCTAssertTrue(run.stderr.contains("not encrypted"), run.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("out.realm")))
    }
}
