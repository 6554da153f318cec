import Foundation
import Strata
import XCTest

/// `PersistableEnum`s with `Float` and `Double` raw values, and enums as primary keys.
final class PersistableEnumTests: SeedTestCase {
    func testFloatingPointEnumsAreStoredAsTheirRawValues() throws {
        XCTAssertEqual(EnumShapes().objectSchema["size"]?.type, .double)
        XCTAssertEqual(EnumShapes().objectSchema["gauge"]?.type, .float)
        XCTAssertEqual(EnumShapes().size, .small, "no default: the first case")
        do {
            let realm = try open()
            try realm.write {
                let shapes = EnumShapes()
                shapes.size = .large
                shapes.gauge = .thick
                shapes.sizes.append(objectsIn: [.large, .small, .large])
                realm.add(shapes)
                realm.add(EnumShapes())
            }
        }
        let realm = try open()
        let all = realm.objects(EnumShapes.self)
        XCTAssertEqual(all.map(\.size), [.large, .small])
        XCTAssertEqual(all.map(\.gauge), [.thick, nil])
        XCTAssertEqual(Array(all[0].sizes), [.large, .small, .large])
        XCTAssertEqual(all.where { $0.size == .large }.count, 1)
        XCTAssertEqual(all.filter("size > 1.0").count, 1)
        XCTAssertEqual(all.filter("gauge == 1.75").count, 1)
    }

    func testAnEnumPrimaryKeyFindsAndUpdatesItsObject() throws {
        XCTAssertEqual(EnumKeyedSlot().objectSchema.primaryKeyProperty?.name, "slot")
        do {
            let realm = try open()
            try realm.write {
                realm.add(EnumKeyedSlot(value: ["slot": EnumSlot.south, "note": "warm"]))
                realm.add(EnumKeyedSlot(value: ["slot": EnumSlot.north, "note": "cold"]))
            }
            XCTAssertThrowsError(try realm.write { realm.add(EnumKeyedSlot(value: ["slot": EnumSlot.north])) }) {
                error in
                XCTAssertEqual((error as? Realm.Error)?.realmCode, .primaryKeyExists)
            }
            try realm.write {
                realm.add(EnumKeyedSlot(value: ["slot": EnumSlot.north, "note": "icy"]), update: .modified)
            }
        }
        let realm = try open()
        XCTAssertEqual(realm.object(ofType: EnumKeyedSlot.self, forPrimaryKey: EnumSlot.north)?.note, "icy")
        XCTAssertEqual(realm.object(ofType: EnumKeyedSlot.self, forPrimaryKey: EnumSlot.south)?.note, "warm")
        XCTAssertEqual(realm.objects(EnumKeyedSlot.self).count, 2)
    }

    func testAnOptionalEnumPrimaryKeyAcceptsNilAsOneKey() throws {
        do {
            let realm = try open()
            try realm.write {
                realm.add(EnumKeyedLevel(value: ["level": EnumLevel.high, "note": "top"]))
                realm.add(EnumKeyedLevel(value: ["note": "unset"]))
            }
        }
        let realm = try open()
        XCTAssertEqual(realm.object(ofType: EnumKeyedLevel.self, forPrimaryKey: EnumLevel.high)?.note, "top")
        XCTAssertEqual(realm.object(ofType: EnumKeyedLevel.self, forPrimaryKey: nil)?.note, "unset")
        XCTAssertNil(realm.object(ofType: EnumKeyedLevel.self, forPrimaryKey: EnumLevel.low))
        XCTAssertEqual(realm.objects(EnumKeyedLevel.self).sorted(byKeyPath: "level").map(\.note), ["unset", "top"])
    }
}
