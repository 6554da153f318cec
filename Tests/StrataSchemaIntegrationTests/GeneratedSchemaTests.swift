import Foundation
import Strata
import XCTest

/// The schema StrataPlugin generated for the models of this target, checked at run time.
final class GeneratedSchemaTests: XCTestCase {
    func testSchemaListsEveryModelInDeclarationOrder() {
        XCTAssertEqual(
            Schema.generated.objectSchemas.map(\.className), ["AllTypes", "Owner", "Address", "Reading", "Pet"])
        XCTAssertEqual(Schema.generated.schemaVersion, 2)
    }

    func testScalarPropertiesHaveTheirStorageTypes() throws {
        let schema = AllTypes.strataObjectSchema
        let expected: [(String, PropertyType, Bool)] = [
            ("_id", .objectId, false), ("bool", .bool, false), ("int", .int, false), ("int8", .int, false),
            ("int16", .int, false), ("int32", .int, false), ("int64", .int, false), ("float", .float, false),
            ("double", .double, false), ("string", .string, false), ("data", .data, false), ("date", .date, false),
            ("decimal", .decimal128, false), ("uuid", .UUID, false), ("any", .any, false),
            ("optionalInt", .int, true), ("optionalString", .string, true), ("mood", .string, false),
            ("priority", .int, true),
        ]
        for (name, type, optional) in expected {
            let property = try XCTUnwrap(schema[name], name)
            XCTAssertEqual(property.type, type, name)
            XCTAssertEqual(property.isOptional, optional, name)
            XCTAssertEqual(property.collection, .none, name)
        }
        XCTAssertEqual(schema.primaryKeyProperty?.name, "_id")
        XCTAssertEqual(schema["int8"]?.swiftType, "Int8")
        XCTAssertEqual(schema["mood"]?.persistedEnumTypeName, "Mood")
        XCTAssertEqual(schema["priority"]?.persistedEnumTypeName, "Priority")
        XCTAssertEqual(schema["double"]?.defaultValueSource, "0.0")
        XCTAssertEqual(schema.properties.count, 24)
    }

    func testCollectionsRecordKindAndElement() throws {
        let schema = AllTypes.strataObjectSchema
        XCTAssertEqual(schema["strings"]?.collection, .list)
        XCTAssertEqual(schema["strings"]?.type, .string)
        XCTAssertEqual(schema["optionalInts"]?.isOptional, true)
        XCTAssertEqual(schema["optionalInts"]?.isArray, true)
        XCTAssertEqual(schema["tags"]?.isSet, true)
        XCTAssertEqual(schema["scores"]?.isMap, true)
        XCTAssertEqual(schema["scores"]?.type, .int)
        XCTAssertEqual(schema["moods"]?.persistedEnumTypeName, "Mood")
    }

    func testLinksBacklinksAndEmbeddedObjects() throws {
        let owner = Owner.strataObjectSchema
        XCTAssertEqual(owner.primaryKeyProperty?.type, .UUID)
        XCTAssertEqual(owner["name"]?.isIndexed, true)
        XCTAssertEqual(owner["pets"]?.type, .object)
        XCTAssertEqual(owner["pets"]?.objectClassName, "Pet")
        XCTAssertEqual(owner["pets"]?.isArray, true)
        XCTAssertEqual(owner["favorite"]?.isOptional, true)
        XCTAssertEqual(owner["favorite"]?.objectClassName, "Pet")
        XCTAssertEqual(owner["petsByName"]?.isMap, true)
        XCTAssertEqual(owner["petsByName"]?.isOptional, true)
        XCTAssertEqual(owner["address"]?.objectClassName, "Address")

        let pet = Pet.strataObjectSchema
        XCTAssertEqual(pet.primaryKeyProperty?.name, "name")
        XCTAssertEqual(pet["owners"]?.type, .linkingObjects)
        XCTAssertEqual(pet["owners"]?.objectClassName, "Owner")
        XCTAssertEqual(pet["owners"]?.linkOriginPropertyName, "pets")

        XCTAssertTrue(Address.strataObjectSchema.isEmbedded)
        XCTAssertNil(Address.strataObjectSchema.primaryKeyProperty)
        XCTAssertTrue(Reading.strataObjectSchema.isAsymmetric)
    }

    func testKeyPathTableMapsKeyPathsToSchemaIndexes() {
        XCTAssertEqual(Owner.strataPropertyIndex(for: \Owner._id), 0)
        XCTAssertEqual(Owner.strataPropertyIndex(for: \Owner.name), 1)
        XCTAssertEqual(Owner.strataProperty(for: \Owner.pets)?.name, "pets")
        XCTAssertEqual(Pet.strataProperty(for: \Pet.owners)?.type, .linkingObjects)
        for (index, property) in AllTypes.strataObjectSchema.properties.enumerated() {
            XCTAssertEqual(AllTypes.strataAccessors.properties[index].name, property.name)
        }
    }

    func testMigrationStepsFromTheHistoryFile() {
        XCTAssertEqual(Schema.generated.migrations.count, 1)
        let migration = Schema.generated.migrations[0]
        XCTAssertEqual(migration.fromVersion, 1)
        XCTAssertEqual(migration.toVersion, 2)
        XCTAssertEqual(
            migration.steps,
            [
                .addType("AllTypes"),
                .removeProperty(type: "Pet", property: "phone"),
                .renameProperty(type: "Pet", from: "nick", to: "nickname"),
                .changePropertyType(type: "Pet", property: "age", from: "String", to: "Int", needsUserCode: true),
                .addProperty(type: "Pet", property: "tags", defaultValueSource: nil),
            ])
        XCTAssertEqual(Schema.generated.migrationSteps(from: 2), [])
    }
}
