import Foundation
import Strata
import XCTest

// Schema changes between an "old" and a "new" version of a class.
//
// The old and new versions must be two Swift classes stored under one class name. The generator
// cannot produce that: the generated `strataObjectSchema.className` is always the Swift class
// name (an `override class func className()` is ignored; StrataSchemaKit/SchemaEmitter writes
// `className: "<declared name>"`), and one module cannot declare two classes of the same name.
// So the old versions below are written with hand-written `ObjectSchemaProviding` conformances
// (the protocol's default `strataModuleSchema` exists for such conformances), mirroring what the
// generator emits, with the new class's name. They derive from `HandWrittenObject`, an alias of
// `Object` the StrataPlugin does not recognise as a model base, so it generates nothing for them.
// The new versions are ordinary generated models (SeedModels.swift).

/// `Object`, under a name the StrataPlugin does not treat as a model base class.
typealias HandWrittenObject = Object

/// "MigAdditive" before `nickname`, `score` and `rank` were added.
final class MigAdditiveV0: HandWrittenObject {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var name = ""
}

extension MigAdditiveV0: ObjectSchemaProviding {
    typealias StrataRoot = MigAdditiveV0
    static let strataObjectSchema = ObjectSchema(
        className: "MigAdditive", kind: .object,
        properties: [
            Strata.Property(name: "id", type: .int, swiftType: "Int", isPrimaryKey: true, defaultValueSource: "0"),
            Strata.Property(name: "name", type: .string, swiftType: "String", defaultValueSource: "\"\""),
        ])
    static let strataAccessors = ObjectAccessors<MigAdditiveV0>(
        make: { MigAdditiveV0() },
        properties: [
            PropertyAccessor(
                name: "id", keyPath: \MigAdditiveV0.id, get: { $0.id._strataPropertyValue },
                set: { (o: MigAdditiveV0, v: PropertyValue) throws(PropertyValueError) in
                    o.id = try _strataDecode(v, property: "MigAdditive.id")
                }),
            PropertyAccessor(
                name: "name", keyPath: \MigAdditiveV0.name, get: { $0.name._strataPropertyValue },
                set: { (o: MigAdditiveV0, v: PropertyValue) throws(PropertyValueError) in
                    o.name = try _strataDecode(v, property: "MigAdditive.name")
                }),
        ],
        bindPropertyIndexes: { o in
            o.$id = _PersistedSlot(propertyIndex: 0)
            o.$name = _PersistedSlot(propertyIndex: 1)
        }
    )
}

/// "MigRetyped" while `age` was an `Int`.
final class MigRetypedV0: HandWrittenObject {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var age = 0
}

extension MigRetypedV0: ObjectSchemaProviding {
    typealias StrataRoot = MigRetypedV0
    static let strataObjectSchema = ObjectSchema(
        className: "MigRetyped", kind: .object,
        properties: [
            Strata.Property(name: "id", type: .int, swiftType: "Int", isPrimaryKey: true, defaultValueSource: "0"),
            Strata.Property(name: "age", type: .int, swiftType: "Int", defaultValueSource: "0"),
        ])
    static let strataAccessors = ObjectAccessors<MigRetypedV0>(
        make: { MigRetypedV0() },
        properties: [
            PropertyAccessor(
                name: "id", keyPath: \MigRetypedV0.id, get: { $0.id._strataPropertyValue },
                set: { (o: MigRetypedV0, v: PropertyValue) throws(PropertyValueError) in
                    o.id = try _strataDecode(v, property: "MigRetyped.id")
                }),
            PropertyAccessor(
                name: "age", keyPath: \MigRetypedV0.age, get: { $0.age._strataPropertyValue },
                set: { (o: MigRetypedV0, v: PropertyValue) throws(PropertyValueError) in
                    o.age = try _strataDecode(v, property: "MigRetyped.age")
                }),
        ],
        bindPropertyIndexes: { o in
            o.$id = _PersistedSlot(propertyIndex: 0)
            o.$age = _PersistedSlot(propertyIndex: 1)
        }
    )
}

/// "MigRenamed" while `givenName` was called `firstName`.
final class MigRenamedV0: HandWrittenObject {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var firstName = ""
    @Persisted var age = 0
}

extension MigRenamedV0: ObjectSchemaProviding {
    typealias StrataRoot = MigRenamedV0
    static let strataObjectSchema = ObjectSchema(
        className: "MigRenamed", kind: .object,
        properties: [
            Strata.Property(name: "id", type: .int, swiftType: "Int", isPrimaryKey: true, defaultValueSource: "0"),
            Strata.Property(name: "firstName", type: .string, swiftType: "String", defaultValueSource: "\"\""),
            Strata.Property(name: "age", type: .int, swiftType: "Int", defaultValueSource: "0"),
        ])
    static let strataAccessors = ObjectAccessors<MigRenamedV0>(
        make: { MigRenamedV0() },
        properties: [
            PropertyAccessor(
                name: "id", keyPath: \MigRenamedV0.id, get: { $0.id._strataPropertyValue },
                set: { (o: MigRenamedV0, v: PropertyValue) throws(PropertyValueError) in
                    o.id = try _strataDecode(v, property: "MigRenamed.id")
                }),
            PropertyAccessor(
                name: "firstName", keyPath: \MigRenamedV0.firstName, get: { $0.firstName._strataPropertyValue },
                set: { (o: MigRenamedV0, v: PropertyValue) throws(PropertyValueError) in
                    o.firstName = try _strataDecode(v, property: "MigRenamed.firstName")
                }),
            PropertyAccessor(
                name: "age", keyPath: \MigRenamedV0.age, get: { $0.age._strataPropertyValue },
                set: { (o: MigRenamedV0, v: PropertyValue) throws(PropertyValueError) in
                    o.age = try _strataDecode(v, property: "MigRenamed.age")
                }),
        ],
        bindPropertyIndexes: { o in
            o.$id = _PersistedSlot(propertyIndex: 0)
            o.$firstName = _PersistedSlot(propertyIndex: 1)
            o.$age = _PersistedSlot(propertyIndex: 2)
        }
    )
}

/// What a migration block saw (the block is `@Sendable`; tests run it synchronously).
final class MigrationLog: @unchecked Sendable {
    var calls = 0
    var oldSchemaVersions: [UInt64] = []
    var enumerated: [String] = []
    var deleteDataResults: [Bool] = []
}

final class MigrationTests: SeedTestCase {
    func configuration(
        _ types: [ObjectBase.Type], version: UInt64 = 0, block: MigrationBlock? = nil
    ) -> Realm.Configuration {
        Realm.Configuration(fileURL: url(), schemaVersion: version, migrationBlock: block, objectTypes: types)
    }

    /// The hand-written old versions really are stored under the new class's name.
    func testHandWrittenOldVersionsShareTheClassName() {
        XCTAssertEqual(MigAdditiveV0.strataObjectSchema.className, MigAdditive.strataObjectSchema.className)
        XCTAssertEqual(MigRetypedV0.strataObjectSchema.className, MigRetyped.strataObjectSchema.className)
        XCTAssertEqual(MigRenamedV0.strataObjectSchema.className, MigRenamed.strataObjectSchema.className)
    }

    // MARK: Additive changes

    /// Adding properties needs no migration: old objects read the type's zero value (Realm does
    /// not apply declared defaults to existing objects) or nil; new objects get the declared
    /// defaults; the new properties can be written.
    func testAddingAPropertyNeedsNoMigration() throws {
        do {
            let old = try Realm(configuration: configuration([MigAdditiveV0.self]))
            try old.write {
                old.add(MigAdditiveV0(value: ["id": 1, "name": "Ann"]))
                old.add(MigAdditiveV0(value: ["id": 2, "name": "Bob"]))
            }
        }
        do {
            let realm = try Realm(configuration: configuration([MigAdditive.self]))
            XCTAssertEqual(realm.objects(MigAdditive.self).count, 2)
            let ann = try XCTUnwrap(realm.object(ofType: MigAdditive.self, forPrimaryKey: 1))
            XCTAssertEqual(ann.name, "Ann")
            XCTAssertEqual(ann.nickname, "")
            XCTAssertNil(ann.rank)
            XCTAssertEqual(ann.score, 0, "existing objects get the type's zero value, not the declared default")
            try realm.write {
                ann.nickname = "Annie"
                ann.rank = 1
                realm.add(MigAdditive(value: ["id": 3, "name": "Cy"]))
            }
            XCTAssertEqual(
                realm.object(ofType: MigAdditive.self, forPrimaryKey: 3)?.score, 7,
                "new objects get the declared default")
        }
        let realm = try Realm(configuration: configuration([MigAdditive.self]))
        let ann = try XCTUnwrap(realm.object(ofType: MigAdditive.self, forPrimaryKey: 1))
        XCTAssertEqual(ann.nickname, "Annie")
        XCTAssertEqual(ann.rank, 1)
        XCTAssertEqual(realm.object(ofType: MigAdditive.self, forPrimaryKey: 2)?.name, "Bob")
        XCTAssertNil(realm.object(ofType: MigAdditive.self, forPrimaryKey: 2)?.rank)
        XCTAssertEqual(realm.object(ofType: MigAdditive.self, forPrimaryKey: 3)?.score, 7)
    }

    // MARK: Changes that need a migration

    /// A type change without a migration: `Realm.Error` `.schemaMismatch` naming the type and
    /// property; the file is unchanged.
    func testTypeChangeWithoutMigrationIsASchemaMismatch() throws {
        do {
            let old = try Realm(configuration: configuration([MigRetypedV0.self]))
            try old.write { old.add(MigRetypedV0(value: ["id": 1, "age": 3])) }
        }
        XCTAssertThrowsError(try Realm(configuration: configuration([MigRetyped.self]))) { error in
            guard let e = error as? Realm.Error else { return XCTFail("not a Realm.Error: \(error)") }
            XCTAssertEqual(e.realmCode, .schemaMismatch)
            XCTAssertTrue(e.message.contains("MigRetyped.age"), e.message)
        }
        let old = try Realm(configuration: configuration([MigRetypedV0.self]))
        XCTAssertEqual(old.object(ofType: MigRetypedV0.self, forPrimaryKey: 1)?.age, 3)
    }

    /// The same with `schemaVersion` raised and a migration block: `enumerateObjects(ofType:)`
    /// gives the old value and the new object to write.
    func testTypeChangeWithAMigrationBlock() throws {
        do {
            let old = try Realm(configuration: configuration([MigRetypedV0.self]))
            try old.write {
                old.add(MigRetypedV0(value: ["id": 1, "age": 3]))
                old.add(MigRetypedV0(value: ["id": 2, "age": 12]))
            }
        }
        let log = MigrationLog()
        do {
            let realm = try Realm(
                configuration: configuration([MigRetyped.self], version: 1) { migration, oldSchemaVersion in
                    log.calls += 1
                    log.oldSchemaVersions.append(oldSchemaVersion)
                    migration.enumerateObjects(ofType: "MigRetyped") { oldObject, newObject in
                        let age = oldObject!["age"] as! Int
                        log.enumerated.append("\(oldObject!["id"] as! Int):\(age)")
                        newObject!["age"] = "\(age) years"
                    }
                })
            XCTAssertEqual(log.calls, 1)
            XCTAssertEqual(log.oldSchemaVersions, [0])
            XCTAssertEqual(log.enumerated.sorted(), ["1:3", "2:12"])
            XCTAssertEqual(realm.object(ofType: MigRetyped.self, forPrimaryKey: 1)?.age, "3 years")
        }
        // Reopened at the new version: no migration runs again.
        do {
            let realm = try Realm(
                configuration: configuration([MigRetyped.self], version: 1) { _, _ in log.calls += 1 })
            XCTAssertEqual(realm.object(ofType: MigRetyped.self, forPrimaryKey: 2)?.age, "12 years")
            XCTAssertEqual(log.calls, 1)
        }
        // A lower schema version than the file's is refused.
        XCTAssertThrowsError(try Realm(configuration: configuration([MigRetyped.self], version: 0))) { error in
            XCTAssertEqual((error as? Realm.Error)?.realmCode, .schemaMismatch)
        }
    }

    /// `renameProperty(onType:from:to:)` moves the values; other properties are carried over.
    func testRenameProperty() throws {
        do {
            let old = try Realm(configuration: configuration([MigRenamedV0.self]))
            try old.write {
                old.add(MigRenamedV0(value: ["id": 1, "firstName": "Ann", "age": 30]))
                old.add(MigRenamedV0(value: ["id": 2, "firstName": "Bob", "age": 40]))
            }
        }
        do {
            let realm = try Realm(
                configuration: configuration([MigRenamed.self], version: 1) { migration, _ in
                    migration.renameProperty(onType: "MigRenamed", from: "firstName", to: "givenName")
                })
            XCTAssertEqual(realm.object(ofType: MigRenamed.self, forPrimaryKey: 1)?.givenName, "Ann")
        }
        let realm = try Realm(configuration: configuration([MigRenamed.self], version: 1))
        XCTAssertEqual(realm.objects(MigRenamed.self).count, 2)
        XCTAssertEqual(realm.object(ofType: MigRenamed.self, forPrimaryKey: 1)?.givenName, "Ann")
        XCTAssertEqual(realm.object(ofType: MigRenamed.self, forPrimaryKey: 1)?.age, 30)
        XCTAssertEqual(realm.object(ofType: MigRenamed.self, forPrimaryKey: 2)?.givenName, "Bob")
        XCTAssertEqual(realm.object(ofType: MigRenamed.self, forPrimaryKey: 2)?.age, 40)
    }

    /// Without the rename (and without raising the version) the removed property is reported.
    func testRemovedPropertyWithoutAVersionBumpIsASchemaMismatch() throws {
        do {
            let old = try Realm(configuration: configuration([MigRenamedV0.self]))
            try old.write { old.add(MigRenamedV0(value: ["id": 1, "firstName": "Ann", "age": 30])) }
        }
        XCTAssertThrowsError(try Realm(configuration: configuration([MigRenamed.self]))) { error in
            XCTAssertEqual((error as? Realm.Error)?.realmCode, .schemaMismatch)
            XCTAssertTrue("\(error)".contains("MigRenamed.firstName"), "\(error)")
        }
        // Raising the version without a block drops the old values (as in RealmSwift), keeps the rest.
        let realm = try Realm(configuration: configuration([MigRenamed.self], version: 1))
        XCTAssertEqual(realm.object(ofType: MigRenamed.self, forPrimaryKey: 1)?.givenName, "")
        XCTAssertEqual(realm.object(ofType: MigRenamed.self, forPrimaryKey: 1)?.age, 30)
    }

    // MARK: deleteData(forType:)

    /// `deleteData(forType:)` for a class the new schema no longer has: its objects and table
    /// are gone; the other classes are untouched.
    func testDeleteDataForARemovedType() throws {
        do {
            let old = try Realm(configuration: configuration([MigKeep.self, MigGone.self]))
            try old.write {
                for i in 1...2 { old.add(MigKeep(value: ["id": i, "name": "keep \(i)"])) }
                for i in 1...3 { old.add(MigGone(value: ["id": i, "label": "gone \(i)"])) }
            }
        }
        let log = MigrationLog()
        do {
            let realm = try Realm(
                configuration: configuration([MigKeep.self], version: 1) { migration, _ in
                    log.calls += 1
                    log.deleteDataResults.append(migration.deleteData(forType: "MigGone"))
                })
            XCTAssertEqual(log.calls, 1, "the migration block runs when schemaVersion is raised")
            XCTAssertEqual(log.deleteDataResults, [true])
            XCTAssertEqual(realm.objects(MigKeep.self).count, 2)
        }
        let realm = try Realm(configuration: configuration([MigKeep.self, MigGone.self], version: 1))
        XCTAssertEqual(realm.objects(MigGone.self).count, 0)
        XCTAssertNil(realm.object(ofType: MigGone.self, forPrimaryKey: 1))
        XCTAssertEqual(realm.objects(MigKeep.self).count, 2)
        XCTAssertEqual(realm.object(ofType: MigKeep.self, forPrimaryKey: 2)?.name, "keep 2")
    }

    /// `deleteData(forType:)` during a migration that is needed anyway (the rename), so the block
    /// certainly runs.
    func testDeleteDataDuringANeededMigration() throws {
        do {
            let old = try Realm(configuration: configuration([MigRenamedV0.self, MigGone.self]))
            try old.write {
                old.add(MigRenamedV0(value: ["id": 1, "firstName": "Ann", "age": 30]))
                for i in 1...3 { old.add(MigGone(value: ["id": i, "label": "gone \(i)"])) }
            }
        }
        let log = MigrationLog()
        do {
            _ = try Realm(
                configuration: configuration([MigRenamed.self], version: 1) { migration, _ in
                    migration.renameProperty(onType: "MigRenamed", from: "firstName", to: "givenName")
                    log.deleteDataResults.append(migration.deleteData(forType: "MigGone"))
                })
            XCTAssertEqual(log.deleteDataResults, [true])
        }
        let realm = try Realm(configuration: configuration([MigRenamed.self, MigGone.self], version: 1))
        XCTAssertEqual(realm.objects(MigGone.self).count, 0)
        XCTAssertEqual(realm.object(ofType: MigRenamed.self, forPrimaryKey: 1)?.givenName, "Ann")
    }

    /// `deleteData(forType:)` for a class still in the schema empties it; it can be refilled.
    func testDeleteDataForATypeStillInTheSchema() throws {
        do {
            let old = try Realm(configuration: configuration([MigCleared.self]))
            try old.write { for i in 1...3 { old.add(MigCleared(value: ["id": i, "value": i])) } }
        }
        let log = MigrationLog()
        do {
            let realm = try Realm(
                configuration: configuration([MigCleared.self], version: 1) { migration, _ in
                    log.deleteDataResults.append(migration.deleteData(forType: "MigCleared"))
                })
            XCTAssertEqual(log.deleteDataResults, [true])
            XCTAssertEqual(realm.objects(MigCleared.self).count, 0)
            try realm.write { realm.add(MigCleared(value: ["id": 1, "value": 100])) }
        }
        let realm = try Realm(configuration: configuration([MigCleared.self], version: 1))
        XCTAssertEqual(realm.objects(MigCleared.self).count, 1)
        XCTAssertEqual(realm.object(ofType: MigCleared.self, forPrimaryKey: 1)?.value, 100)
    }

    /// RealmSwift runs the migration block whenever `schemaVersion` is raised, also when the
    /// classes did not change (data-only migrations).
    func testMigrationBlockRunsForADataOnlyMigration() throws {
        do {
            let old = try Realm(configuration: configuration([MigCleared.self]))
            try old.write { for i in 1...3 { old.add(MigCleared(value: ["id": i, "value": i])) } }
        }
        let log = MigrationLog()
        do {
            _ = try Realm(
                configuration: configuration([MigCleared.self], version: 1) { migration, oldSchemaVersion in
                    log.calls += 1
                    log.oldSchemaVersions.append(oldSchemaVersion)
                    migration.enumerateObjects(ofType: "MigCleared") { oldObject, newObject in
                        newObject!["value"] = (oldObject!["value"] as! Int) * 10
                    }
                })
        }
        XCTAssertEqual(log.calls, 1)
        XCTAssertEqual(log.oldSchemaVersions, [0])
        let realm = try Realm(configuration: configuration([MigCleared.self], version: 1))
        XCTAssertEqual(realm.objects(MigCleared.self).map(\.value).sorted(), [10, 20, 30])
        // The file is at version 1 now: opening it at version 0 is refused.
        XCTAssertThrowsError(try Realm(configuration: configuration([MigCleared.self], version: 0))) { error in
            XCTAssertEqual((error as? Realm.Error)?.realmCode, .schemaMismatch)
        }
    }

    /// `deleteRealmIfMigrationNeeded` replaces the file's data instead of migrating.
    func testDeleteRealmIfMigrationNeeded() throws {
        do {
            let old = try Realm(configuration: configuration([MigRetypedV0.self]))
            try old.write { old.add(MigRetypedV0(value: ["id": 1, "age": 3])) }
        }
        var c = configuration([MigRetyped.self])
        c.deleteRealmIfMigrationNeeded = true
        let realm = try Realm(configuration: c)
        XCTAssertEqual(realm.objects(MigRetyped.self).count, 0)
        try realm.write { realm.add(MigRetyped(value: ["id": 1, "age": "three"])) }
        XCTAssertEqual(realm.object(ofType: MigRetyped.self, forPrimaryKey: 1)?.age, "three")
    }
}
