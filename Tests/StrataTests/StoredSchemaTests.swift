import Foundation
import XCTest

@testable import Strata

/// `realm.schema` and a migration's `oldSchema`/`newSchema`: the classes a file stores, read
/// from the file rather than from the app's models.
final class StoredSchemaTests: SeedTestCase {
    func configuration(_ types: [ObjectBase.Type], version: UInt64 = 0) -> Realm.Configuration {
        Realm.Configuration(fileURL: url(), schemaVersion: version, objectTypes: types)
    }

    func testRealmSchemaDescribesTheStoredClassesAndProperties() throws {
        let realm = try Realm(configuration: configuration([NoteDog.self, NoteToy.self, NoteOwner.self]))
        let schema = realm.schema
        XCTAssertEqual(schema.objectSchema.map(\.className), ["NoteDog", "NoteOwner", "NoteToy"])
        let dog = try XCTUnwrap(schema["NoteDog"])
        XCTAssertEqual(dog.properties.map(\.name), ["name", "age", "toy"])
        XCTAssertEqual(dog["name"]?.type, .string)
        XCTAssertEqual(dog["name"]?.isOptional, false)
        XCTAssertEqual(dog["age"]?.type, .int)
        XCTAssertEqual(dog["toy"]?.type, .object)
        XCTAssertEqual(dog["toy"]?.objectClassName, "NoteToy")
        XCTAssertEqual(dog["toy"]?.isOptional, true)
        XCTAssertEqual(dog["toy"]?.swiftType, "NoteToy?")
        let owner = try XCTUnwrap(schema["NoteOwner"])
        XCTAssertEqual(owner.primaryKeyProperty?.name, "id")
        XCTAssertEqual(owner["dogs"]?.isArray, true)
        XCTAssertEqual(owner["dogs"]?.objectClassName, "NoteDog")
        XCTAssertEqual(owner["dogs"]?.swiftType, "List<NoteDog>")
        XCTAssertEqual(schema.schemaVersion, 0)
    }

    func testRealmSchemaIncludesClassesTheConfigurationNoLongerNames() throws {
        try {
            let realm = try Realm(configuration: configuration([NoteDog.self, NoteToy.self, NoteOwner.self]))
            try realm.write { realm.add(NoteOwner(value: ["id": 1])) }
        }()
        let realm = try Realm(configuration: configuration([NoteDog.self, NoteToy.self]))
        XCTAssertEqual(realm.schema.objectSchema.map(\.className), ["NoteDog", "NoteOwner", "NoteToy"])
    }

    func testMigrationSeesTheOldAndTheNewSchema() throws {
        try {
            let realm = try Realm(configuration: configuration([NoteDog.self, NoteToy.self]))
            try realm.write { realm.add(NoteDog(value: ["name": "Rex"])) }
        }()
        var config = configuration([NoteDog.self, NoteToy.self, NoteOwner.self], version: 1)
        let seen = Locked<[String]>([])
        config.migrationBlock = { migration, _ in
            seen.value = [
                "old \(migration.oldSchema.schemaVersion): "
                    + migration.oldSchema.objectSchema.map(\.className).joined(separator: ","),
                "new \(migration.newSchema.schemaVersion): "
                    + migration.newSchema.objectSchema.map(\.className).joined(separator: ","),
            ]
        }
        let realm = try Realm(configuration: config)
        XCTAssertEqual(seen.value, ["old 0: NoteDog,NoteToy", "new 1: NoteDog,NoteOwner,NoteToy"])
        XCTAssertEqual(realm.schema.schemaVersion, 1)
    }
}
