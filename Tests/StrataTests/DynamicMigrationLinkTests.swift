import Foundation
import Strata
import XCTest

/// Links and collections of links in a migration block, as RealmSwift gives them: old lists as
/// `List<MigrationObject>`, new ones live and writable, and links set to new objects relink.
final class DynamicMigrationLinkTests: SeedTestCase {
    final class Seen: @unchecked Sendable {
        var oldKidNames: [[String]] = []
        var newKidTitles: [[String]] = []
        var oldListType = ""
    }

    /// Version 1: a parent with kids Ann and Bob, Bob its favorite.
    func writeVersion1() throws {
        let realm = try Realm(
            configuration: Realm.Configuration(fileURL: url(), objectTypes: [MigChildV1.self, MigParentV1.self]))
        try realm.write {
            let parent = MigParentV1()
            parent.kids.append(objectsIn: [MigChildV1(value: ["name": "Ann"]), MigChildV1(value: ["name": "Bob"])])
            parent.favorite = parent.kids[1]
            realm.add(parent)
        }
    }

    func migrate(_ block: @escaping MigrationBlock) throws -> Realm {
        try Realm(
            configuration: Realm.Configuration(
                fileURL: url(), schemaVersion: 2,
                migrationBlock: { migration, version in
                    migration.renameProperty(onType: "MigChild", from: "name", to: "title")
                    block(migration, version)
                }, objectTypes: [MigChild.self, MigParent.self]))
    }

    func testListsOfLinksAreListsOfMigrationObjects() throws {
        try writeVersion1()
        let seen = Seen()
        _ = try migrate { migration, _ in
            migration.enumerateObjects(ofType: "MigParent") { old, new in
                seen.oldListType = "\(type(of: old!["kids"]!))"
                let oldKids = old!["kids"] as? List<MigrationObject>
                seen.oldKidNames.append(oldKids?.map { $0["name"] as? String ?? "?" } ?? [])
                let newKids = new!["kids"] as? List<MigrationObject>
                seen.newKidTitles.append(newKids?.map { $0["title"] as? String ?? "?" } ?? [])
            }
        }
        XCTAssertEqual(seen.oldListType, "List<MigrationObject>")
        XCTAssertEqual(seen.oldKidNames, [["Ann", "Bob"]])
        XCTAssertEqual(seen.newKidTitles, [["Ann", "Bob"]])
    }

    func testNewListTakesObjectsMigrationCreates() throws {
        try writeVersion1()
        let realm = try migrate { migration, _ in
            migration.enumerateObjects(ofType: "MigParent") { _, new in
                let kids = new!["kids"] as? List<MigrationObject>
                kids?.append(migration.create("MigChild", value: ["title": "Cy"]))
                kids?.remove(at: 0)
            }
        }
        let parent = try XCTUnwrap(realm.objects(MigParent.self).first)
        XCTAssertEqual(parent.kids.map(\.title), ["Bob", "Cy"])
        XCTAssertEqual(realm.objects(MigChild.self).count, 3)
        XCTAssertEqual(realm.objects(MigChild.self).filter("title == 'Cy'").first?.parents.count, 1)
    }

    func testSettingALinkToANewObjectRelinks() throws {
        try writeVersion1()
        let realm = try migrate { migration, _ in
            migration.enumerateObjects(ofType: "MigParent") { _, new in
                let kids = new!["kids"] as? List<MigrationObject>
                new!["favorite"] = kids?.first
            }
        }
        let parent = try XCTUnwrap(realm.objects(MigParent.self).first)
        XCTAssertEqual(parent.favorite?.title, "Ann")
        let ann = try XCTUnwrap(realm.objects(MigChild.self).filter("title == 'Ann'").first)
        try realm.write { realm.delete(ann) }
        XCTAssertNil(parent.favorite, "the new link has its backlink")
    }

    func testStoringAnOldObjectFailsTheMigrationAndKeepsTheFile() throws {
        try writeVersion1()
        XCTAssertThrowsError(
            try migrate { migration, _ in
                migration.enumerateObjects(ofType: "MigParent") { old, new in
                    new!["favorite"] = (old!["kids"] as? List<MigrationObject>)?.first
                }
            }
        ) { error in
            XCTAssertEqual((error as? Realm.Error)?.realmCode, .schemaMismatch)
            XCTAssertTrue("\(error)".contains("old object of 'MigChild'"), "\(error)")
        }
        let realm = try Realm(
            configuration: Realm.Configuration(fileURL: url(), objectTypes: [MigChildV1.self, MigParentV1.self]))
        XCTAssertEqual(realm.objects(MigParentV1.self).first?.favorite?.name, "Bob")
    }
}
