import Foundation
import Strata
import XCTest

/// `ObjectId` as RealmSwift defines it: `ObjectId()` is zero, `generate()` a new id, parsing,
/// the timestamp initializer, literals, `Codable`, and fresh primary keys on new objects.
final class ObjectIdTests: SeedTestCase {
    func testDefaultInitializerIsTheZeroId() {
        XCTAssertEqual(ObjectId().stringValue, "000000000000000000000000")
        XCTAssertEqual(ObjectId(), ObjectId())
        XCTAssertEqual(ObjectId().bytes, [UInt8](repeating: 0, count: 12))
    }

    func testGenerateMakesDistinctNonZeroIds() {
        let a = ObjectId.generate(), b = ObjectId.generate()
        XCTAssertNotEqual(a, b)
        XCTAssertNotEqual(a, ObjectId())
    }

    func testTimestampMachineAndProcessInitializerPlacesEachPart() {
        let date = Date(timeIntervalSince1970: 0x5F3A_2B1C)
        let id = ObjectId(timestamp: date, machineId: 0xABCDEF, processId: 0x1234)
        XCTAssertEqual(id.timestamp, date)
        XCTAssertTrue(id.stringValue.hasPrefix("5f3a2b1c" + "abcdef" + "1234"), id.stringValue)
        let next = ObjectId(timestamp: date, machineId: 0xABCDEF, processId: 0x1234)
        XCTAssertNotEqual(id, next, "the counter differs")
    }

    func testStringInitializerThrowsARealmErrorForBadInput() throws {
        XCTAssertEqual(try ObjectId(string: "5F3A2B1C0D0E0F1011121314").stringValue, "5f3a2b1c0d0e0f1011121314")
        do {
            _ = try ObjectId(string: "not an id")
            XCTFail("parsed a bad string")
        } catch let error as NSError {
            XCTAssertEqual(error.domain, "io.realm")
            XCTAssertEqual(error.code, Realm.Error.Code.invalidInput.rawValue)
            XCTAssertTrue(error.localizedDescription.contains("'not an id'"), error.localizedDescription)
        }
    }

    func testStaticStringLiteralInitializer() {
        XCTAssertEqual(ObjectId("5f3a2b1c0d0e0f1011121314").stringValue, "5f3a2b1c0d0e0f1011121314")
    }

    func testCodableUsesTheHexString() throws {
        let id = try ObjectId(string: "5f3a2b1c0d0e0f1011121314")
        let json = try JSONEncoder().encode([id])
        XCTAssertEqual(String(decoding: json, as: UTF8.self), #"["5f3a2b1c0d0e0f1011121314"]"#)
        XCTAssertEqual(try JSONDecoder().decode([ObjectId].self, from: json), [id])
        XCTAssertThrowsError(try JSONDecoder().decode([ObjectId].self, from: Data(#"["xyz"]"#.utf8))) { error in
            guard case DecodingError.dataCorrupted = error else { return XCTFail("\(error)") }
        }
    }

    /// `@Persisted(primaryKey: true) var _id: ObjectId` gets a new id per new object (not the
    /// zero `ObjectId()`), so objects created one after another do not collide.
    func testObjectIdPrimaryKeyDefaultsToANewIdPerObject() throws {
        let a = SeedDoggoToy(), b = SeedDoggoToy()
        XCTAssertNotEqual(a._id, ObjectId())
        XCTAssertNotEqual(a._id, b._id)
        let realm = try open()
        try realm.write {
            realm.add(a)
            realm.add(b)
            realm.create(SeedDoggoToy.self, value: ["name": "Created"])
        }
        let ids = realm.objects(SeedDoggoToy.self).map(\._id)
        XCTAssertEqual(Set(ids).count, 3)
        XCTAssertFalse(ids.contains(ObjectId()))
        XCTAssertEqual(realm.object(ofType: SeedDoggoToy.self, forPrimaryKey: a._id)?._id, a._id)
    }
}
