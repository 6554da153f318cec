import Foundation
import Strata
import StrataTestSupport
import XCTest

/// Where and how a realm file is opened: missing directories, read-only volumes, the size of a
/// new file, damage found at open.
final class RealmOpeningTests: TemporaryDirectoryTestCase {
    var dir: String { temporaryDirectory.path }

    private func configuration(_ path: String, readOnly: Bool = false) -> Realm.Configuration {
        Realm.Configuration(
            fileURL: URL(fileURLWithPath: path), readOnly: readOnly,
            objectTypes: [Dog.self, DogToy.self, Person.self, Address.self])
    }

    /// A path in a directory that does not exist fails with `fileNotFound` naming the directory,
    /// and creates nothing (it used to create the directories and an empty database, so a typo
    /// in a path silently gave an empty realm).
    func testPathInAMissingDirectoryFailsWithFileNotFoundAndCreatesNothing() throws {
        let missing = dir + "/no-such-dir/sub/app.realm"
        XCTAssertThrowsError(try Realm(configuration: configuration(missing))) { error in
            guard let e = error as? Realm.Error else { return XCTFail("\(error)") }
            XCTAssertEqual(e.realmCode, .fileNotFound)
            XCTAssertTrue(e.message.contains("\(dir)/no-such-dir/sub"), e.message)
            XCTAssertTrue(e.message.contains("does not exist"), e.message)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir + "/no-such-dir"))
    }

    /// A path below a regular file fails with `fileAccess` (RealmSwift's code for `/dev/null/foo`).
    func testPathBelowAFileFailsWithFileAccess() throws {
        XCTAssertThrowsError(try Realm(configuration: configuration("/dev/null/foo.realm"))) { error in
            XCTAssertEqual((error as? Realm.Error)?.realmCode, .fileAccess, "\(error)")
        }
    }

    /// A new realm file with the models' schema and one object is small (it took 5 MiB).
    func testNewRealmFileIsSmall() throws {
        let path = dir + "/small.realm"
        try { () throws -> Void in
            let realm = try Realm(configuration: configuration(path))
            try realm.write { realm.add(Dog(value: ["name": "Rex", "age": 3])) }
        }()
        let size = try XCTUnwrap(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        XCTAssertLessThanOrEqual(size, 256 << 10, "a new realm with one object takes \(size) bytes")
        let realm = try Realm(configuration: configuration(path))
        XCTAssertEqual(realm.objects(Dog.self).first?.name, "Rex")
    }

    /// A realm shipped on a read-only volume (no lock file can be created there) opens with
    /// `readOnly: true` and reads its objects.
    func testReadOnlyRealmOpensOnAReadOnlyVolume() throws {
        let volume = try mountSmallFileSystem()
        let path = volume + "/bundled.realm"
        try { () throws -> Void in
            let realm = try Realm(configuration: configuration(path))
            try realm.write {
                for i in 0..<50 { realm.add(Dog(value: ["name": "dog-\(i)", "age": i])) }
            }
        }()
        try? FileManager.default.removeItem(atPath: path + ".lock")
        remount(volume, readOnly: true)

        let realm = try Realm(configuration: configuration(path, readOnly: true))
        XCTAssertEqual(realm.objects(Dog.self).count, 50)
        XCTAssertEqual(realm.objects(Dog.self).where { $0.age >= 45 }.count, 5)
        XCTAssertTrue(realm.isReadOnly)
    }

    /// The newest commit of a file that was made durable and then damaged (a flipped byte in one
    /// of its pages; the file and its lock file copied as a process left them): the open throws
    /// `invalidDatabase` saying so and changes nothing; `openLastIntactVersion` opens the previous
    /// commit.
    func testDamagedNewestCommitThrowsInvalidDatabaseAndOpenLastIntactVersionRecovers() throws {
        let path = dir + "/live.realm"
        let copy = dir + "/copy.realm"
        let realm = try Realm(configuration: configuration(path))
        try realm.write { realm.add(Dog(value: ["name": "first", "age": 1])) }
        // A large last commit, so that its pages are easy to find: every page it wrote holds
        // this marker's bytes or the leaves around it.
        try realm.write {
            for i in 0..<200 { realm.add(Dog(value: ["name": "second-\(i)", "age": 2])) }
        }
        // Copy the data file and the lock file while the realm is open: the state a process
        // leaves when it ends without closing the file.
        var bytes = try Array(Data(contentsOf: URL(fileURLWithPath: path)))
        let lock = try Data(contentsOf: URL(fileURLWithPath: path + ".lock"))
        // Damage a page the last commit wrote: one holding the names "second-...".
        let needle = Array("second-150".utf8)
        let at = try XCTUnwrap(
            bytes.indices.first { i in i + needle.count <= bytes.count && Array(bytes[i..<(i + needle.count)]) == needle
            })
        bytes[at] ^= 0x01
        try Data(bytes).write(to: URL(fileURLWithPath: copy))
        try lock.write(to: URL(fileURLWithPath: copy + ".lock"))

        XCTAssertThrowsError(try Realm(configuration: configuration(copy))) { error in
            guard let e = error as? Realm.Error else { return XCTFail("\(error)") }
            XCTAssertEqual(e.realmCode, .invalidDatabase)
            XCTAssertTrue(e.message.contains("openLastIntactVersion"), e.message)
        }
        XCTAssertEqual(
            try Array(Data(contentsOf: URL(fileURLWithPath: copy))), bytes, "a failed open wrote to the file")

        var recover = configuration(copy)
        recover.openLastIntactVersion = true
        let recovered = try Realm(configuration: recover)
        XCTAssertEqual(recovered.objects(Dog.self).count, 1)
        XCTAssertEqual(recovered.objects(Dog.self).first?.name, "first")
    }

    /// An open that fails on a file that was not closed cleanly (its schema pages damaged) writes
    /// nothing to it: no clean-close record, no recovery write. It used to rewrite a meta page.
    func testFailedOpenOfAnUncleanFileWritesNothing() throws {
        let path = dir + "/unclean.realm"
        let copy = dir + "/unclean-copy.realm"
        let realm = try Realm(configuration: configuration(path))
        try realm.write { for i in 0..<20 { realm.add(Dog(value: ["name": "dog-\(i)", "age": i])) } }
        try realm.write { realm.add(Dog(value: ["name": "last", "age": 99])) }
        var bytes = try Array(Data(contentsOf: URL(fileURLWithPath: path)))
        let lock = try Data(contentsOf: URL(fileURLWithPath: path + ".lock"))
        // The schema tree's leaf: the only page naming the property `breed` (the first commit
        // wrote it; the last commit did not touch it).
        let pageSize = 8192
        let needle = Array("breed".utf8)
        let pages = Set(
            bytes.indices.filter { i in
                i + needle.count <= bytes.count && Array(bytes[i..<(i + needle.count)]) == needle
            }.map { $0 / pageSize })
        XCTAssertEqual(pages.count, 1, "one page holds the schema")
        let page = try XCTUnwrap(pages.first)
        for i in (page * pageSize)..<((page + 1) * pageSize) { bytes[i] = 0 }
        try Data(bytes).write(to: URL(fileURLWithPath: copy))
        try lock.write(to: URL(fileURLWithPath: copy + ".lock"))

        XCTAssertThrowsError(try Realm(configuration: configuration(copy))) { error in
            XCTAssertEqual((error as? Realm.Error)?.realmCode, .invalidDatabase, "\(error)")
        }
        XCTAssertEqual(
            try Array(Data(contentsOf: URL(fileURLWithPath: copy))), bytes, "the failed open wrote to the file")
    }
}
