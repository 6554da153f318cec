import Foundation
import Strata
import StrataStorage
import StrataTestSupport
import XCTest

/// Files of every released format version, made by that release's code (Tests/Fixtures/Formats),
/// open in this build: read-only without a change, writable with an upgrade to the current format
/// (both meta records, so an older build refuses the file instead of misreading it), and every
/// object, link, list, embedded object, set, map and mixed value reads back as written
/// (FormatFixtureContent).
final class FormatUpgradeTests: TemporaryDirectoryTestCase {
    var dir: String { temporaryDirectory.path }

    override func setUp() {
    }

    override func tearDown() {
    }

    /// A copy of fixture `name` in the test's directory.
    private func copyOfFixture(_ name: String) throws -> String {
        let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/Formats/\(name)")
        let path = dir + "/" + name
        try FileManager.default.copyItem(atPath: source.path, toPath: path)
        return path
    }

    private func configuration(_ path: String, readOnly: Bool = false) -> Realm.Configuration {
        Realm.Configuration(
            fileURL: URL(fileURLWithPath: path), readOnly: readOnly,
            objectTypes: [Dog.self, DogToy.self, Person.self, Address.self, Item.self])
    }

    /// The format version recorded in each meta slot of the file at `path`.
    private func slotFormats(_ path: String) throws -> [UInt32] {
        let bytes = try Array(Data(contentsOf: URL(fileURLWithPath: path)))
        func u32(_ at: Int) -> UInt32 { bytes[at..<(at + 4)].reversed().reduce(0) { $0 << 8 | UInt32($1) } }
        let pageSize = Int(u32(44))
        return [u32(40), u32(pageSize + 40)]
    }

    /// Checks every object of the fixture against the values it was written with.
    private func checkEveryObject(_ realm: Realm, file: StaticString = #filePath, line: UInt = #line) {
        typealias C = FormatFixtureContent
        let toys = realm.objects(DogToy.self)
        XCTAssertEqual(Set(toys.map(\.name)), Set((0..<C.toys).map(C.toyName)), file: file, line: line)
        let dogs = Dictionary(uniqueKeysWithValues: realm.objects(Dog.self).map { ($0.name, $0) })
        XCTAssertEqual(dogs.count, C.dogs, file: file, line: line)
        var owners: [Int: Set<String>] = [:]
        for p in 0..<C.people { for d in C.personDogs(p) { owners[d, default: []].insert(C.personName(p)) } }
        for i in 0..<C.dogs {
            guard let dog = dogs[C.dogName(i)] else { XCTFail("dog \(i) missing", file: file, line: line); continue }
            XCTAssertEqual(dog.age, C.dogAge(i), "dog \(i)", file: file, line: line)
            XCTAssertEqual(dog.breed, C.dogBreed(i), "dog \(i)", file: file, line: line)
            XCTAssertEqual(dog.favoriteToy?.name, C.dogToy(i).map(C.toyName), "dog \(i)", file: file, line: line)
            XCTAssertEqual(Set(dog.owners.map(\.name)), owners[i] ?? [], "dog \(i)'s owners", file: file, line: line)
        }
        XCTAssertEqual(realm.objects(Person.self).count, C.people, file: file, line: line)
        for p in 0..<C.people {
            guard let person = realm.object(ofType: Person.self, forPrimaryKey: p) else {
                XCTFail("person \(p) missing", file: file, line: line); continue
            }
            XCTAssertEqual(person.name, C.personName(p), file: file, line: line)
            XCTAssertEqual(
                person.dogs.map(\.name), C.personDogs(p).map(C.dogName), "person \(p)'s dogs", file: file, line: line)
            let expected = C.personAddress(p)
            XCTAssertEqual(person.address?.street, expected?.street, "person \(p)", file: file, line: line)
            XCTAssertEqual(person.address?.city, expected?.city, "person \(p)", file: file, line: line)
        }
        XCTAssertEqual(realm.objects(Item.self).count, C.items, file: file, line: line)
        for i in 0..<C.items {
            guard let item = realm.object(ofType: Item.self, forPrimaryKey: C.itemId(i)) else {
                XCTFail("item \(i) missing", file: file, line: line); continue
            }
            XCTAssertEqual(item.status, C.itemStatus(i), "item \(i)", file: file, line: line)
            XCTAssertEqual(item.title, C.itemTitle(i), "item \(i)", file: file, line: line)
            XCTAssertEqual(item.priority, C.itemPriority(i), "item \(i)", file: file, line: line)
            XCTAssertEqual(item.score, C.itemScore(i), "item \(i)", file: file, line: line)
            XCTAssertEqual(item.due, C.itemDue(i), "item \(i)", file: file, line: line)
            XCTAssertEqual(Set(item.tags), C.itemTags(i), "item \(i)", file: file, line: line)
            XCTAssertEqual(
                Dictionary(uniqueKeysWithValues: item.labels.map { ($0.key, $0.value) }), C.itemLabels(i), "item \(i)",
                file: file, line: line)
            XCTAssertEqual(item.extra, C.itemExtra(i), "item \(i)", file: file, line: line)
        }
        // The index and the queries over converted data.
        XCTAssertEqual(
            realm.objects(Item.self).where { $0.status == "open" }.count,
            (0..<C.items).filter { C.itemStatus($0) == "open" }.count, file: file, line: line)
        XCTAssertEqual(
            realm.objects(Dog.self).where { $0.age > 10 }.count, (0..<C.dogs).filter { C.dogAge($0) > 10 }.count,
            file: file, line: line)
    }

    /// Format 1 with columnar clusters (Strata 0.2), opened read-only: every object reads back and
    /// the file is not changed (it stays format 1).
    func testFormat1ClusterFileOpensReadOnlyUnchanged() throws {
        try assertOpensReadOnlyUnchanged("format1-clusters.realm", format: 1)
    }

    /// Opens fixture `name` read-only, through a `Realm` (every object reads back) and through
    /// StrataStorage: the file's bytes do not change, and it stays at `format` (with no area pages).
    private func assertOpensReadOnlyUnchanged(
        _ name: String, format: UInt32, file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let path = try copyOfFixture(name)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        XCTAssertEqual(try slotFormats(path), [format, format], file: file, line: line)
        try {
            let realm = try Realm(configuration: configuration(path, readOnly: true))
            checkEveryObject(realm, file: file, line: line)
        }()
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), before, file: file, line: line)
        var options = Database.Options()
        options.readOnly = true
        let db = try Database(path: path, options: options)
        XCTAssertEqual(db.formatVersion, format, file: file, line: line)
        XCTAssertEqual(try db.verify().areaPages, 0, file: file, line: line)
        db.close()
    }

    /// Format 1 with columnar clusters, opened writable: upgraded to the current format in both
    /// meta records (so a build that reads only format 1 refuses it, naming both versions), every
    /// object intact before and after a reopen, and new writes work.
    func testFormat1ClusterFileIsUpgradedOnWritableOpen() throws {
        let path = try copyOfFixture("format1-clusters.realm")
        try {
            let realm = try Realm(configuration: configuration(path))
            checkEveryObject(realm)
            try realm.write { realm.add(Dog(value: ["name": "after the upgrade", "age": 1])) }
        }()
        XCTAssertEqual(try slotFormats(path), [strataFormatVersion, strataFormatVersion])
        let realm = try Realm(configuration: configuration(path))
        XCTAssertEqual(realm.objects(Dog.self).where { $0.name == "after the upgrade" }.count, 1)
        try realm.write { realm.delete(realm.objects(Dog.self).where { $0.name == "after the upgrade" }) }
        checkEveryObject(realm)
    }

    /// Format 2 (Strata 0.3, made by its code before the bump to 3), opened read-only: every
    /// object reads back, the file is not changed and stays format 2.
    func testFormat2FileOpensReadOnlyUnchanged() throws {
        try assertOpensReadOnlyUnchanged("format2.realm", format: 2)
    }

    /// Format 2 opened writable: upgraded to format 3 in both meta records with nothing else
    /// changed (a format-2 file is a format-3 file without areas), every object intact, new
    /// writes work, and the file verifies with no leaked page.
    func testFormat2FileIsUpgradedOnWritableOpen() throws {
        let path = try copyOfFixture("format2.realm")
        try {
            let realm = try Realm(configuration: configuration(path))
            checkEveryObject(realm)
            try realm.write { realm.add(Dog(value: ["name": "after the upgrade", "age": 1])) }
        }()
        XCTAssertEqual(try slotFormats(path), [3, 3])
        XCTAssertEqual(strataFormatVersion, 3)
        try {
            let realm = try Realm(configuration: configuration(path))
            XCTAssertEqual(realm.objects(Dog.self).where { $0.name == "after the upgrade" }.count, 1)
            try realm.write { realm.delete(realm.objects(Dog.self).where { $0.name == "after the upgrade" }) }
            checkEveryObject(realm)
        }()
        var options = Database.Options()
        options.readOnly = true
        let report = try Database(path: path, options: options).verify()
        XCTAssertEqual(report.leakedPages, [])
    }

    /// A raw storage file of format 1 opened writable through StrataStorage is upgraded the same
    /// way, and its trees are intact.
    func testFormat1FileIsUpgradedByAWritableDatabaseOpen() throws {
        let path = try copyOfFixture("format1-clusters.realm")
        var ro = Database.Options()
        ro.readOnly = true
        let names = try Database(path: path, options: ro).read { r in try r.treeNames() }
        let db = try Database(path: path)
        XCTAssertEqual(db.formatVersion, strataFormatVersion)
        XCTAssertEqual(try db.read { r in try r.treeNames() }, names)
        XCTAssertEqual(try db.verify().leakedPages, [])
        db.close()
        XCTAssertEqual(try slotFormats(path), [strataFormatVersion, strataFormatVersion])
    }

    /// Format 1 with one row per object (Strata 0.1, made by that release's code): a read-only
    /// open is refused with `readOnly` saying it must be converted (and changes nothing); a
    /// writable open converts the rows to clusters and upgrades the format, and every object,
    /// link, list, embedded object, set, map and mixed value reads back.
    func testFormat1RowFileIsConvertedAndUpgradedOnWritableOpen() throws {
        let path = try copyOfFixture("format1-rows.realm")
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        XCTAssertEqual(try slotFormats(path), [1, 1])
        XCTAssertThrowsError(try Realm(configuration: configuration(path, readOnly: true))) { error in
            XCTAssertEqual((error as? Realm.Error)?.realmCode, .readOnly, "\(error)")
        }
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), before, "a read-only open changed the file")
        try {
            let realm = try Realm(configuration: configuration(path))
            checkEveryObject(realm)
        }()
        XCTAssertEqual(try slotFormats(path), [strataFormatVersion, strataFormatVersion])
        var ro = Database.Options()
        ro.readOnly = true
        let names = try Database(path: path, options: ro).read { r in try r.treeNames() }
        XCTAssertFalse(names.contains { $0.hasPrefix("o:") }, "rows remain: \(names)")
        let realm = try Realm(configuration: configuration(path, readOnly: true))
        checkEveryObject(realm)
    }
}
