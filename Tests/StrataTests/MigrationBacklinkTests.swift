import Foundation
import Strata
import XCTest

// Issue 18, item 1: a migration must leave the backlinks of links it did not touch intact.

/// "MigChild" before `name` became `title`.
final class MigChildV1: HandWrittenObject {
    @Persisted var name = ""
    @Persisted(originProperty: "kids") var parents: LinkingObjects<MigParentV1>
}

extension MigChildV1: ObjectSchemaProviding {
    typealias StrataRoot = MigChildV1
    static let strataObjectSchema = ObjectSchema(
        className: "MigChild", kind: .object,
        properties: [
            Strata.Property(name: "name", type: .string, swiftType: "String", defaultValueSource: "\"\""),
            Strata.Property(
                name: "parents", type: .linkingObjects, swiftType: "LinkingObjects<MigParent>",
                objectClassName: "MigParent", linkOriginPropertyName: "kids"),
        ])
    static let strataAccessors = ObjectAccessors<MigChildV1>(
        make: { MigChildV1() },
        properties: [
            PropertyAccessor(
                name: "name", keyPath: \MigChildV1.name, get: { $0.name._strataPropertyValue },
                set: { (o: MigChildV1, v: PropertyValue) throws(PropertyValueError) in
                    o.name = try _strataDecode(v, property: "MigChild.name")
                }),
            PropertyAccessor(
                name: "parents", keyPath: \MigChildV1.parents, get: { $0.parents._strataPropertyValue }, set: nil),
        ],
        bindPropertyIndexes: { o in
            o.$name = _PersistedSlot(propertyIndex: 0)
            o.$parents = _PersistedSlot(propertyIndex: 1)
        }
    )
}

/// "MigParent" as version 1 wrote it (same shape as the generated one, linking `MigChildV1`).
final class MigParentV1: HandWrittenObject {
    @Persisted var kids: List<MigChildV1>
    @Persisted var favorite: MigChildV1?
}

extension MigParentV1: ObjectSchemaProviding {
    typealias StrataRoot = MigParentV1
    static let strataObjectSchema = ObjectSchema(
        className: "MigParent", kind: .object,
        properties: [
            Strata.Property(
                name: "kids", type: .object, swiftType: "List<MigChild>", collection: .list, objectClassName: "MigChild"
            ),
            Strata.Property(
                name: "favorite", type: .object, swiftType: "MigChild?", isOptional: true, objectClassName: "MigChild"),
        ])
    static let strataAccessors = ObjectAccessors<MigParentV1>(
        make: { MigParentV1() },
        properties: [
            PropertyAccessor(
                name: "kids", keyPath: \MigParentV1.kids, get: { $0.kids._strataPropertyValue },
                set: { (o: MigParentV1, v: PropertyValue) throws(PropertyValueError) in
                    o.kids = try _strataDecode(v, property: "MigParent.kids")
                }),
            PropertyAccessor(
                name: "favorite", keyPath: \MigParentV1.favorite, get: { $0.favorite._strataPropertyValue },
                set: { (o: MigParentV1, v: PropertyValue) throws(PropertyValueError) in
                    o.favorite = try _strataDecode(v, property: "MigParent.favorite")
                }),
        ],
        bindPropertyIndexes: { o in
            o.$kids = _PersistedSlot(propertyIndex: 0)
            o.$favorite = _PersistedSlot(propertyIndex: 1)
        }
    )
}

final class MigrationBacklinkTests: SeedTestCase {
    /// Version 1: one parent linking one child ("Ann") through its list and its to-one link.
    func writeVersion1() throws {
        let realm = try Realm(
            configuration: Realm.Configuration(fileURL: url(), objectTypes: [MigChildV1.self, MigParentV1.self]))
        try realm.write {
            let child = MigChildV1(value: ["name": "Ann"])
            let parent = MigParentV1()
            parent.kids.append(child)
            parent.favorite = child
            realm.add(parent)
        }
        let child = try XCTUnwrap(realm.objects(MigChildV1.self).first)
        XCTAssertEqual(child.parents.count, 1, "version 1 has the backlink")
    }

    func assertLinksIntact(_ realm: Realm, title: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let parent = try XCTUnwrap(realm.objects(MigParent.self).first, file: file, line: line)
        let child = try XCTUnwrap(realm.objects(MigChild.self).first, file: file, line: line)
        XCTAssertEqual(parent.kids.count, 1, file: file, line: line)
        XCTAssertEqual(parent.kids.first?.title, title, file: file, line: line)
        XCTAssertEqual(parent.favorite?.title, title, file: file, line: line)
        XCTAssertEqual(child.parents.count, 1, "the child's backlink to its parent", file: file, line: line)
        XCTAssertEqual(realm.objects(MigChild.self).filter("parents.@count == 1").count, 1, file: file, line: line)
        // Deleting the child must remove it from the parent's list and to-one link.
        try realm.write { realm.delete(child) }
        XCTAssertEqual(parent.kids.count, 0, file: file, line: line)
        XCTAssertNil(parent.favorite, file: file, line: line)
    }

    /// The case: `name` renamed to `title` with `renameProperty` in the migration block;
    /// afterwards `child.parents` is still 1, also after reopening.
    func testRenamingAPropertyKeepsTheBacklinksOfTheClass() throws {
        try writeVersion1()
        let config = Realm.Configuration(
            fileURL: url(), schemaVersion: 2,
            migrationBlock: { migration, _ in
                migration.renameProperty(onType: "MigChild", from: "name", to: "title")
            }, objectTypes: [MigChild.self, MigParent.self])
        do {
            let realm = try Realm(configuration: config)
            XCTAssertEqual(realm.objects(MigChild.self).first?.parents.count, 1)
        }
        try assertLinksIntact(try Realm(configuration: config), title: "Ann")
    }

    /// Removing a property (version raised, no block) leaves the backlinks intact too.
    func testRemovingAPropertyKeepsTheBacklinksOfTheClass() throws {
        try writeVersion1()
        let config = Realm.Configuration(
            fileURL: url(), schemaVersion: 2, objectTypes: [MigChild.self, MigParent.self])
        try assertLinksIntact(try Realm(configuration: config), title: "")
    }
}
