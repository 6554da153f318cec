import Foundation
import Strata
import XCTest

/// Links read in a migration come back as `MigrationObject`s (lists of links as `List`s of them),
/// whose properties can be read in turn, as RealmSwift's `DynamicObject`s.
final class MigrationLinkValueTests: SeedTestCase {
    final class Seen: @unchecked Sendable {
        var favoriteNames: [String?] = []
        var kidNames: [[String]] = []
        var newFavoriteTitles: [String?] = []
    }

    func testOldAndNewObjectsGiveLinksAsMigrationObjects() throws {
        try {
            let realm = try Realm(
                configuration: Realm.Configuration(fileURL: url(), objectTypes: [MigChildV1.self, MigParentV1.self]))
            try realm.write {
                let ann = MigChildV1(value: ["name": "Ann"])
                let bob = MigChildV1(value: ["name": "Bob"])
                let parent = MigParentV1()
                parent.kids.append(objectsIn: [ann, bob])
                parent.favorite = bob
                realm.add(parent)
            }
        }()
        let seen = Seen()
        let config = Realm.Configuration(
            fileURL: url(), schemaVersion: 2,
            migrationBlock: { migration, _ in
                migration.renameProperty(onType: "MigChild", from: "name", to: "title")
                migration.enumerateObjects(ofType: "MigParent") { old, new in
                    let favorite = old?["favorite"] as? MigrationObject
                    seen.favoriteNames.append(favorite?["name"] as? String)
                    let kids = old?["kids"] as? List<MigrationObject>
                    seen.kidNames.append(kids?.compactMap { $0["name"] as? String } ?? [])
                    seen.newFavoriteTitles.append((new?["favorite"] as? MigrationObject)?["title"] as? String)
                }
            }, objectTypes: [MigChild.self, MigParent.self])
        let realm = try Realm(configuration: config)
        XCTAssertEqual(seen.favoriteNames, ["Bob"])
        XCTAssertEqual(seen.kidNames, [["Ann", "Bob"]])
        XCTAssertEqual(seen.newFavoriteTitles, ["Bob"])
        XCTAssertEqual(realm.objects(MigParent.self).first?.favorite?.title, "Bob")
    }
}
