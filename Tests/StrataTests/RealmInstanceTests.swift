import Foundation
import Strata
import XCTest

/// One realm state per file and thread, the realm's own API (`Realm(fileURL:)`, `isEmpty`,
/// configurations), `invalidate()`, read-only opens beside read-write ones, and version isolation.
final class RealmInstanceTests: SeedTestCase {
    /// Every way of opening gives the same realm on one thread: a write begun through one is
    /// the other's write, and objects it creates are visible through the other.
    func testRealmsOpenedTwiceOnOneThreadShareTheirWriteTransaction() throws {
        Realm.Configuration.defaultConfiguration = config()
        let openers: [(String, () throws -> Realm)] = [
            ("Realm()", { try Realm() }),
            ("Realm(configuration:)", { try Realm(configuration: self.config()) }),
            ("Realm(fileURL:)", { try Realm(fileURL: self.url()) }),
        ]
        for (i, first) in openers.enumerated() {
            for (j, second) in openers.enumerated() {
                let a = try first.1()
                let b = try second.1()
                XCTAssertTrue(a == b, "\(first.0) and \(second.0) are the same realm")
                a.beginWrite()
                XCTAssertTrue(b.isInWriteTransaction, "\(first.0) began, \(second.0) sees the write")
                b.add(SeedDog(value: ["name": "dog-\(i)-\(j)", "age": 1]))
                XCTAssertEqual(
                    a.objects(SeedDog.self).filter("name == %@", "dog-\(i)-\(j)").count, 1,
                    "an object created through \(second.0) is seen by \(first.0) inside the write")
                try b.commitWrite()
                XCTAssertFalse(a.isInWriteTransaction)
            }
        }
        XCTAssertEqual(try Realm().objects(SeedDog.self).count, 9)
    }

    func testRealmFileURLOpensThatFileWithTheDefaultSettings() throws {
        var d = config("other.realm")
        d.schemaVersion = 0
        Realm.Configuration.defaultConfiguration = d
        let realm = try Realm(fileURL: url("chosen.realm"))
        XCTAssertEqual(realm.configuration.fileURL?.path, url("chosen.realm").path)
        try realm.write { realm.add(SeedDog(value: ["name": "Rex", "age": 3])) }
        XCTAssertTrue(FileManager.default.fileExists(atPath: url("chosen.realm").path))
        XCTAssertFalse(FileManager.default.fileExists(atPath: url("other.realm").path))
    }

    func testIsEmptyUntilAnObjectIsAddedAndAgainAfterDeleteAll() throws {
        let realm = try open()
        XCTAssertTrue(realm.isEmpty)
        realm.beginWrite()
        realm.add(SeedDoggoToy(value: ["name": "Wubba"]))
        XCTAssertFalse(realm.isEmpty, "a write in progress counts")
        try realm.commitWrite()
        XCTAssertFalse(realm.isEmpty)
        try realm.write { realm.deleteAll() }
        XCTAssertTrue(realm.isEmpty)
    }

    func testConfigurationsAreEqualWhenTheirSettingsAre() {
        var a = config()
        var b = Realm.Configuration(fileURL: url())
        XCTAssertEqual(a, b)
        b.schemaVersion = 2
        XCTAssertNotEqual(a, b)
        b = a
        b.readOnly = true
        XCTAssertNotEqual(a, b)
        b = a
        b.inMemoryIdentifier = "memory"
        XCTAssertNotEqual(a, b)
        b = a
        b.objectTypes = [SeedDog.self]
        XCTAssertNotEqual(a, b)
        a.objectTypes = [SeedDog.self]
        XCTAssertEqual(a, b)
        b.migrationBlock = { _, _ in }
        XCTAssertNotEqual(a, b, "a migration block against none")
    }

    func testConfigurationDescriptionNamesItsSettings() {
        var c = config()
        c.schemaVersion = 7
        c.readOnly = true
        let text = c.description
        XCTAssertTrue(text.hasPrefix("Realm.Configuration {"), text)
        XCTAssertTrue(text.contains("fileURL = \(url().path);"), text)
        XCTAssertTrue(text.contains("schemaVersion = 7;"), text)
        XCTAssertTrue(text.contains("readOnly = 1;"), text)
        XCTAssertEqual("\(c)", text)
    }

    /// As in RealmSwift, `invalidate()` invalidates the objects obtained before it; objects
    /// fetched afterwards work.
    func testInvalidateMakesLiveObjectsInvalidated() throws {
        let realm = try open()
        try realm.write { realm.add(SeedDog(value: ["name": "Rex", "age": 3])) }
        let dog = try XCTUnwrap(realm.objects(SeedDog.self).first)
        XCTAssertFalse(dog.isInvalidated)
        realm.invalidate()
        XCTAssertTrue(dog.isInvalidated)
        _ = dog.name
        XCTAssertEqual(takeViolations().map { $0.hasPrefix("Object has been deleted or invalidated.") }, [true])
        let again = try XCTUnwrap(realm.objects(SeedDog.self).first)
        XCTAssertFalse(again.isInvalidated)
        XCTAssertEqual(again.name, "Rex")
        XCTAssertTrue(dog.isInvalidated, "stays invalidated")
    }

    /// A file opened read-write, then read-only on the same thread while the first realm lives:
    /// the read-only realm reads the data and refuses writes; the read-write one goes on writing.
    func testReadOnlyOpenWhileTheFileIsOpenReadWrite() throws {
        let writable = try open()
        try writable.write { writable.add(SeedDog(value: ["name": "Rex", "age": 3])) }
        var c = config()
        c.readOnly = true
        let readOnly = try Realm(configuration: c)
        XCTAssertTrue(readOnly.isReadOnly)
        XCTAssertEqual(readOnly.objects(SeedDog.self).map(\.name), ["Rex"])
        readOnly.beginWrite()
        XCTAssertFalse(readOnly.isInWriteTransaction)
        XCTAssertEqual(takeViolations().count, 1)
        try writable.write { writable.add(SeedDog(value: ["name": "Fido", "age": 1])) }
        readOnly.refresh()
        XCTAssertEqual(readOnly.objects(SeedDog.self).count, 2)
    }

    /// The reverse: read-only first (kept alive), then read-write: the read-write realm writes,
    /// and the read-only one sees the commit after refreshing.
    func testReadWriteOpenWhileTheFileIsOpenReadOnly() throws {
        do {
            let realm = try open()
            try realm.write { realm.add(SeedDog(value: ["name": "Rex", "age": 3])) }
        }
        var c = config()
        c.readOnly = true
        let readOnly = try Realm(configuration: c)
        XCTAssertEqual(readOnly.objects(SeedDog.self).count, 1)
        let writable = try open()
        XCTAssertFalse(writable.isReadOnly)
        try writable.write { writable.add(SeedDog(value: ["name": "Fido", "age": 1])) }
        XCTAssertEqual(writable.objects(SeedDog.self).count, 2)
        readOnly.refresh()
        XCTAssertEqual(readOnly.objects(SeedDog.self).count, 2)
    }

    /// An object of this file from a realm of another thread is refused at `add`.
    func testAddingAnObjectOfAnotherThreadsRealmFailsAtAdd() throws {
        let configuration = config()
        let foreign = onNewThread { () -> Unchecked<SeedDoggoToy> in
            let realm = try! Realm(configuration: configuration)
            let toy = SeedDoggoToy(value: ["name": "Wubba"])
            try! realm.write { realm.add(toy) }
            return Unchecked(toy)
        }
        let realm = try open()
        var atAdd: [String] = []
        try realm.write {
            realm.add(foreign.value)
            atAdd = takeViolations()
        }
        XCTAssertEqual(
            atAdd, ["Object is already managed by another Realm. Use create instead to copy it into this Realm."])
        XCTAssertEqual(realm.objects(SeedDoggoToy.self).count, 1, "only the other thread's own add")
    }

    /// The same for an object of this file's realm opened with another configuration on this
    /// thread (here read-only beside read-write: two realm instances).
    func testAddingAnObjectOfARealmWithAnotherConfigurationFailsAtAdd() throws {
        let writable = try open()
        try writable.write { writable.add(SeedDoggoToy(value: ["name": "Wubba"])) }
        var c = config()
        c.readOnly = true
        let readOnly = try Realm(configuration: c)
        XCTAssertFalse(readOnly == writable)
        let toy = try XCTUnwrap(readOnly.objects(SeedDoggoToy.self).first)
        try writable.write { writable.add(toy) }
        XCTAssertEqual(
            takeViolations(),
            ["Object is already managed by another Realm. Use create instead to copy it into this Realm."])
        XCTAssertEqual(writable.objects(SeedDoggoToy.self).count, 1)
    }

    func testThawingAnUnmanagedObjectIsAViolation() {
        let dog = SeedDog(value: ["name": "Rex", "age": 3])
        XCTAssertTrue(dog.thaw() === dog)
        XCTAssertEqual(takeViolations(), ["Unmanaged objects cannot be thawed."])
    }

    /// A live realm, and an object thawed into it, read the realm's version until it refreshes,
    /// even after another thread committed: thawing does not refresh the live realm.
    func testLiveRealmAndThawedObjectKeepTheirVersionUntilRefresh() throws {
        let realm = try open()
        try realm.write { realm.add(SeedDog(value: ["name": "Rex", "age": 3])) }
        let dog = try XCTUnwrap(realm.objects(SeedDog.self).first)
        XCTAssertEqual(dog.age, 3)
        let configuration = config()
        onNewThread {
            let other = try! Realm(configuration: configuration)
            try! other.write { other.objects(SeedDog.self).first!.age = 4 }
        }
        XCTAssertEqual(dog.age, 3, "the live realm keeps its version")
        let frozen = dog.freeze()
        let thawed = try XCTUnwrap(frozen.thaw())
        XCTAssertEqual(thawed.age, 3, "the thawed object reads the live realm's version")
        XCTAssertEqual(dog.age, 3, "thawing did not refresh the live realm")
        XCTAssertTrue(realm.refresh())
        XCTAssertEqual(dog.age, 4)
        XCTAssertEqual(thawed.age, 4)
        XCTAssertEqual(frozen.age, 3, "a frozen object never changes")
    }
}
