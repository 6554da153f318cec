import Foundation
import Strata
import XCTest

// `override class func propertiesMapping()`: properties stored under other names than their
// Swift names. As in RealmSwift, the Swift names are the API (queries, key paths, sorting,
// aggregates, `create` dictionaries, `objectSchema[name]`, new objects of a migration) and the
// stored names are what the file holds (and what a migration's old objects, read with the
// file's schema, are named by).

/// "MappedPerson" as the file stores it, by stored names, to look at the file without the
/// model's mapping (hand-written, like MigrationTests' old versions).
final class MappedPersonStored: HandWrittenObject {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var first_name = ""
    @Persisted var age_years = 0
    @Persisted var best_friend: MappedPersonStored?
    @Persisted var tags: List<String>
}

extension MappedPersonStored: ObjectSchemaProviding {
    typealias StrataRoot = MappedPersonStored
    static let strataObjectSchema = ObjectSchema(
        className: "MappedPerson", kind: .object,
        properties: [
            Strata.Property(name: "id", type: .int, swiftType: "Int", isPrimaryKey: true, defaultValueSource: "0"),
            Strata.Property(name: "first_name", type: .string, swiftType: "String", defaultValueSource: "\"\""),
            Strata.Property(name: "age_years", type: .int, swiftType: "Int", defaultValueSource: "0"),
            Strata.Property(
                name: "best_friend", type: .object, swiftType: "MappedPersonStored?", isOptional: true,
                objectClassName: "MappedPerson"),
            Strata.Property(name: "tags", type: .string, swiftType: "List<String>", collection: .list),
        ])
    static let strataAccessors = ObjectAccessors<MappedPersonStored>(
        make: { MappedPersonStored() },
        properties: [
            PropertyAccessor(
                name: "id", keyPath: \MappedPersonStored.id, get: { $0.id._strataPropertyValue },
                set: { (o: MappedPersonStored, v: PropertyValue) throws(PropertyValueError) in
                    o.id = try _strataDecode(v, property: "MappedPerson.id")
                }),
            PropertyAccessor(
                name: "first_name", keyPath: \MappedPersonStored.first_name,
                get: { $0.first_name._strataPropertyValue },
                set: { (o: MappedPersonStored, v: PropertyValue) throws(PropertyValueError) in
                    o.first_name = try _strataDecode(v, property: "MappedPerson.first_name")
                }),
            PropertyAccessor(
                name: "age_years", keyPath: \MappedPersonStored.age_years, get: { $0.age_years._strataPropertyValue },
                set: { (o: MappedPersonStored, v: PropertyValue) throws(PropertyValueError) in
                    o.age_years = try _strataDecode(v, property: "MappedPerson.age_years")
                }),
            PropertyAccessor(
                name: "best_friend", keyPath: \MappedPersonStored.best_friend,
                get: { $0.best_friend._strataPropertyValue },
                set: { (o: MappedPersonStored, v: PropertyValue) throws(PropertyValueError) in
                    o.best_friend = try _strataDecode(v, property: "MappedPerson.best_friend")
                }),
            PropertyAccessor(
                name: "tags", keyPath: \MappedPersonStored.tags, get: { $0.tags._strataPropertyValue },
                set: { (o: MappedPersonStored, v: PropertyValue) throws(PropertyValueError) in
                    o.tags = try _strataDecode(v, property: "MappedPerson.tags")
                }),
        ],
        bindPropertyIndexes: { o in
            o.$id = _PersistedSlot(propertyIndex: 0)
            o.$first_name = _PersistedSlot(propertyIndex: 1)
            o.$age_years = _PersistedSlot(propertyIndex: 2)
            o.$best_friend = _PersistedSlot(propertyIndex: 3)
            o.$tags = _PersistedSlot(propertyIndex: 4)
        }
    )
}

/// "MappedPerson" at schema version 0: `first_name` and a `years` string, which version 1
/// replaced with the Int `age` (stored as `age_years`).
final class MappedPersonV0: HandWrittenObject {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var first_name = ""
    @Persisted var years = ""
}

extension MappedPersonV0: ObjectSchemaProviding {
    typealias StrataRoot = MappedPersonV0
    static let strataObjectSchema = ObjectSchema(
        className: "MappedPerson", kind: .object,
        properties: [
            Strata.Property(name: "id", type: .int, swiftType: "Int", isPrimaryKey: true, defaultValueSource: "0"),
            Strata.Property(name: "first_name", type: .string, swiftType: "String", defaultValueSource: "\"\""),
            Strata.Property(name: "years", type: .string, swiftType: "String", defaultValueSource: "\"\""),
        ])
    static let strataAccessors = ObjectAccessors<MappedPersonV0>(
        make: { MappedPersonV0() },
        properties: [
            PropertyAccessor(
                name: "id", keyPath: \MappedPersonV0.id, get: { $0.id._strataPropertyValue },
                set: { (o: MappedPersonV0, v: PropertyValue) throws(PropertyValueError) in
                    o.id = try _strataDecode(v, property: "MappedPerson.id")
                }),
            PropertyAccessor(
                name: "first_name", keyPath: \MappedPersonV0.first_name, get: { $0.first_name._strataPropertyValue },
                set: { (o: MappedPersonV0, v: PropertyValue) throws(PropertyValueError) in
                    o.first_name = try _strataDecode(v, property: "MappedPerson.first_name")
                }),
            PropertyAccessor(
                name: "years", keyPath: \MappedPersonV0.years, get: { $0.years._strataPropertyValue },
                set: { (o: MappedPersonV0, v: PropertyValue) throws(PropertyValueError) in
                    o.years = try _strataDecode(v, property: "MappedPerson.years")
                }),
        ],
        bindPropertyIndexes: { o in
            o.$id = _PersistedSlot(propertyIndex: 0)
            o.$first_name = _PersistedSlot(propertyIndex: 1)
            o.$years = _PersistedSlot(propertyIndex: 2)
        }
    )
}

final class PropertiesMappingTests: SeedTestCase {
    func config(
        _ types: [ObjectBase.Type], readOnly: Bool = false, version: UInt64 = 0, block: MigrationBlock? = nil
    ) -> Realm.Configuration {
        Realm.Configuration(
            fileURL: url(), readOnly: readOnly, schemaVersion: version, migrationBlock: block, objectTypes: types)
    }

    func testTheSchemaNamesPropertiesBySwiftNameAndGivesTheirStoredNames() throws {
        let schema = MappedPerson().objectSchema
        XCTAssertEqual(schema.properties.map(\.name), ["id", "firstName", "age", "friend", "tags", "friendOf"])
        XCTAssertEqual(
            schema.properties.map(\.columnName), ["id", "first_name", "age_years", "best_friend", "tags", "friendOf"])
        XCTAssertEqual(schema["firstName"]?.columnName, "first_name")
        XCTAssertNil(schema["first_name"])
        XCTAssertEqual(MappedPerson.propertiesMapping()["age"], "age_years")
    }

    func testValuesAreStoredUnderTheMappedNames() throws {
        do {
            let realm = try Realm(configuration: config([MappedPerson.self]))
            try realm.write {
                let bob = realm.create(MappedPerson.self, value: ["id": 2, "firstName": "Bob"])
                realm.create(
                    MappedPerson.self, value: ["id": 1, "firstName": "Ann", "age": 41, "friend": bob, "tags": ["x"]])
            }
        }
        // The file, read without the mapping: columns first_name, age_years and best_friend.
        let stored = try Realm(configuration: config([MappedPersonStored.self], readOnly: true))
        let ann = try XCTUnwrap(stored.object(ofType: MappedPersonStored.self, forPrimaryKey: 1))
        XCTAssertEqual(ann.first_name, "Ann")
        XCTAssertEqual(ann.age_years, 41)
        XCTAssertEqual(ann.best_friend?.first_name, "Bob")
        XCTAssertEqual(Array(ann.tags), ["x"])
    }

    func testQueriesSortingAggregatesAndLinksUseTheSwiftNames() throws {
        do {
            let realm = try Realm(configuration: config([MappedPerson.self]))
            try realm.write {
                let bob = realm.create(MappedPerson.self, value: ["id": 2, "firstName": "Bob", "age": 30])
                let ann = realm.create(MappedPerson.self, value: ["id": 1, "firstName": "Ann", "age": 41])
                ann.friend = bob
                ann.tags.append("admin")
                realm.create(MappedPerson.self, value: ["id": 3, "firstName": "Cy", "age": 7, "friend": bob])
            }
        }
        let realm = try Realm(configuration: config([MappedPerson.self]))
        let people = realm.objects(MappedPerson.self)
        XCTAssertEqual(people.filter("firstName == 'Ann'").map(\.id), [1])
        XCTAssertEqual(people.filter("age > %@", 10).sorted(byKeyPath: "age").map(\.firstName), ["Bob", "Ann"])
        XCTAssertEqual(people.where { $0.firstName.starts(with: "C") }.map(\.age), [7])
        XCTAssertEqual(
            people.filter("friend.firstName == 'Bob'").sorted(byKeyPath: "firstName").map(\.firstName), ["Ann", "Cy"])
        XCTAssertEqual(people.where { $0.friend.age == 30 }.count, 2)
        XCTAssertEqual(people.filter("ANY friendOf.age > 40").map(\.firstName), ["Bob"])
        XCTAssertEqual(people.filter("friendOf.@count == 2").map(\.firstName), ["Bob"])
        XCTAssertEqual(people.filter("ANY tags == 'admin'").map(\.firstName), ["Ann"])
        XCTAssertEqual(people.sorted(byKeyPath: "firstName", ascending: false).map(\.id), [3, 2, 1])
        XCTAssertEqual(people.sum(ofProperty: "age") as Int, 78)
        XCTAssertEqual(people.max(ofProperty: "age") as Int?, 41)
        let bob = try XCTUnwrap(realm.object(ofType: MappedPerson.self, forPrimaryKey: 2))
        XCTAssertEqual(bob.friendOf.map(\.firstName).sorted(), ["Ann", "Cy"])
        XCTAssertEqual(people.distinct(by: ["friend.firstName"]).count, 2)
    }

    func testAStoredNameIsNotAPropertyNameInQueries() throws {
        let realm = try Realm(configuration: config([MappedPerson.self]))
        try realm.write { realm.create(MappedPerson.self, value: ["id": 1, "firstName": "Ann"]) }
        // RealmSwift resolves query names against the Swift names only.
        XCTAssertEqual(realm.objects(MappedPerson.self).filter("first_name == 'Ann'").count, 0)
        let violations = takeViolations()
        XCTAssertEqual(violations.count, 1)
        XCTAssertTrue(violations.first?.contains("first_name") ?? false, "\(violations)")
    }

    func testAMigrationReadsOldObjectsByStoredNameAndWritesNewObjectsBySwiftName() throws {
        do {
            let old = try Realm(configuration: config([MappedPersonV0.self]))
            try old.write {
                old.add(MappedPersonV0(value: ["id": 1, "first_name": "Ann", "years": "41"]))
                old.add(MappedPersonV0(value: ["id": 2, "first_name": "Bob", "years": "30"]))
            }
        }
        let log = MigrationLog()
        do {
            let realm = try Realm(
                configuration: config([MappedPerson.self], version: 1) { migration, _ in
                    migration.enumerateObjects(ofType: "MappedPerson") { oldObject, newObject in
                        guard let oldObject, let newObject else { return }
                        log.enumerated.append(
                            "old first_name=\(oldObject["first_name"] ?? "nil") firstName=\(oldObject["firstName"] ?? "nil"); new firstName=\(newObject["firstName"] ?? "nil") first_name=\(newObject["first_name"] ?? "nil")"
                        )
                        newObject["age"] = Int(oldObject["years"] as! String)!
                        newObject["firstName"] = (newObject["firstName"] as! String).uppercased()
                    }
                })
            XCTAssertEqual(realm.objects(MappedPerson.self).sorted(byKeyPath: "id").map(\.age), [41, 30])
        }
        XCTAssertEqual(
            log.enumerated,
            [
                "old first_name=Ann firstName=nil; new firstName=Ann first_name=nil",
                "old first_name=Bob firstName=nil; new firstName=Bob first_name=nil",
            ])
        let realm = try Realm(configuration: config([MappedPerson.self], version: 1))
        XCTAssertEqual(realm.objects(MappedPerson.self).sorted(byKeyPath: "id").map(\.firstName), ["ANN", "BOB"])
        XCTAssertEqual(realm.objects(MappedPerson.self).filter("age == 30").first?.firstName, "BOB")
    }
}
