import Foundation
import Strata
import XCTest

// Issue 18, item 2: the renames recorded in this target's schema history (strata-schema.json:
// version 2 renamed `Pet.nick` to `nickname`, removed `phone`, made `age` an Int) are applied by
// the runtime with the data, and `Realm.Configuration.schemaVersion` is the history's number.

/// `Object`, under a name the StrataPlugin does not treat as a model base class.
typealias HandWrittenObject = Object

/// "Pet" as version 1 of the history recorded it, written by hand (the generator only knows the
/// current models).
final class PetV1: HandWrittenObject {
    @Persisted(primaryKey: true) var name = ""
    @Persisted(originProperty: "pets") var owners: LinkingObjects<Owner>
    @Persisted var nick = ""
    @Persisted var age = ""
    @Persisted var phone = ""
}

extension PetV1: ObjectSchemaProviding {
    typealias StrataRoot = PetV1
    static let strataObjectSchema = ObjectSchema(
        className: "Pet", kind: .object,
        properties: [
            Strata.Property(
                name: "name", type: .string, swiftType: "String", isPrimaryKey: true, isIndexed: true,
                defaultValueSource: "\"\""),
            Strata.Property(
                name: "owners", type: .linkingObjects, swiftType: "LinkingObjects<Owner>", objectClassName: "Owner",
                linkOriginPropertyName: "pets"),
            Strata.Property(name: "nick", type: .string, swiftType: "String", defaultValueSource: "\"\""),
            Strata.Property(name: "age", type: .string, swiftType: "String", defaultValueSource: "\"\""),
            Strata.Property(name: "phone", type: .string, swiftType: "String", defaultValueSource: "\"\""),
        ])
    static let strataAccessors = ObjectAccessors<PetV1>(
        make: { PetV1() },
        properties: [
            PropertyAccessor(
                name: "name", keyPath: \PetV1.name, get: { $0.name._strataPropertyValue },
                set: { (o: PetV1, v: PropertyValue) throws(PropertyValueError) in
                    o.name = try _strataDecode(v, property: "Pet.name")
                }),
            PropertyAccessor(name: "owners", keyPath: \PetV1.owners, get: { $0.owners._strataPropertyValue }, set: nil),
            PropertyAccessor(
                name: "nick", keyPath: \PetV1.nick, get: { $0.nick._strataPropertyValue },
                set: { (o: PetV1, v: PropertyValue) throws(PropertyValueError) in
                    o.nick = try _strataDecode(v, property: "Pet.nick")
                }),
            PropertyAccessor(
                name: "age", keyPath: \PetV1.age, get: { $0.age._strataPropertyValue },
                set: { (o: PetV1, v: PropertyValue) throws(PropertyValueError) in
                    o.age = try _strataDecode(v, property: "Pet.age")
                }),
            PropertyAccessor(
                name: "phone", keyPath: \PetV1.phone, get: { $0.phone._strataPropertyValue },
                set: { (o: PetV1, v: PropertyValue) throws(PropertyValueError) in
                    o.phone = try _strataDecode(v, property: "Pet.phone")
                }),
        ],
        bindPropertyIndexes: { o in
            o.$name = _PersistedSlot(propertyIndex: 0)
            o.$owners = _PersistedSlot(propertyIndex: 1)
            o.$nick = _PersistedSlot(propertyIndex: 2)
            o.$age = _PersistedSlot(propertyIndex: 3)
            o.$phone = _PersistedSlot(propertyIndex: 4)
        }
    )
}

final class HistoryMigrationTests: XCTestCase {
    var dir = ""
    var violations: [String] = []

    override func setUp() {
        super.setUp()
        dir = NSTemporaryDirectory() + "/strata-history-\(UUID().uuidString)"
        try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        // A misuse report must fail the test, not stop the process.
        Realm.violationHandler = { [unowned self] in self.violations.append($0) }
    }

    override func tearDown() {
        XCTAssertEqual(violations, [])
        Realm.violationHandler = nil
        try? FileManager.default.removeItem(atPath: dir)
        super.tearDown()
    }

    var url: URL { URL(fileURLWithPath: dir + "/pets.realm") }

    /// A file with one Pet as version 1 stored it, owned through `Owner.pets`.
    func writeVersion1() throws {
        let realm = try Realm(configuration: Realm.Configuration(fileURL: url, objectTypes: [PetV1.self]))
        try realm.write { realm.add(PetV1(value: ["name": "Rex", "nick": "Rexy", "age": "3", "phone": "555"])) }
        XCTAssertEqual(realm.objects(PetV1.self).first?.nick, "Rexy")
    }

    /// The recorded rename moves `nick`'s values to `nickname`; the block converts `age` (a change
    /// the history marks as needing code) from the old object's String.
    func testRecordedRenameMovesTheValues() throws {
        try writeVersion1()
        let realm = try Realm(
            configuration: Realm.Configuration(
                fileURL: url, schemaVersion: 2,
                migrationBlock: { migration, oldVersion in
                    migration.enumerateObjects(ofType: "Pet") { old, new in
                        new?["age"] = Int(old?["age"] as? String ?? "") ?? 0
                    }
                }, objectTypes: [Pet.self]))
        let pet = try XCTUnwrap(realm.object(ofType: Pet.self, forPrimaryKey: "Rex"))
        XCTAssertEqual(pet.nickname, "Rexy", "the recorded rename kept the value")
        XCTAssertEqual(pet.age, 3)
        XCTAssertEqual(pet.tags.count, 0)
        XCTAssertEqual(realm.objects(Pet.self).filter("nickname == %@", "Rexy").count, 1)
    }

    /// `schemaVersion` left at 0 means the version the history recorded (2): the open migrates
    /// the version-0 file, and afterwards the file is at version 2.
    func testSchemaVersionZeroMeansTheRecordedVersion() throws {
        try writeVersion1()
        do {
            let realm = try Realm(configuration: Realm.Configuration(fileURL: url))
            XCTAssertEqual(realm.object(ofType: Pet.self, forPrimaryKey: "Rex")?.nickname, "Rexy")
            XCTAssertEqual(
                realm.object(ofType: Pet.self, forPrimaryKey: "Rex")?.age, 0, "no block: the retyped age is the default"
            )
        }
        let older: UInt64 = 1
        XCTAssertThrowsError(
            try Realm(configuration: Realm.Configuration(fileURL: url, schemaVersion: older, objectTypes: [PetV1.self]))
        ) { error in
            XCTAssertEqual((error as? Realm.Error)?.realmCode, .schemaMismatch)
            XCTAssertTrue("\(error)".contains("less than last set version 2"), "\(error)")
        }
    }

    /// A configuration version lower than the recorded one is refused at open, saying why.
    func testASchemaVersionBelowTheRecordedOneIsRefused() throws {
        try writeVersion1()
        let older: UInt64 = 1
        XCTAssertThrowsError(try Realm(configuration: Realm.Configuration(fileURL: url, schemaVersion: older))) {
            error in
            XCTAssertEqual((error as? Realm.Error)?.realmCode, .schemaMismatch)
            XCTAssertTrue("\(error)".contains("records version 2"), "\(error)")
        }
    }
}
