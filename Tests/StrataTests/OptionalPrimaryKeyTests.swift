import Foundation
import Strata
import XCTest

// Models with optional primary keys (and a plain Int key to compare with).

final class OptIntKeyed: Object {
    @Persisted(primaryKey: true) var id: Int?
    @Persisted var value = ""
}

final class OptInt8Keyed: Object {
    @Persisted(primaryKey: true) var id: Int8?
    @Persisted var value = ""
}

final class OptStringKeyed: Object {
    @Persisted(primaryKey: true) var id: String?
    @Persisted var value = ""
}

final class OptObjectIdKeyed: Object {
    @Persisted(primaryKey: true) var id: ObjectId?
    @Persisted var value = ""
}

final class OptUUIDKeyed: Object {
    @Persisted(primaryKey: true) var id: UUID?
    @Persisted var value = ""
}

/// A non-optional `Int` key, where `Int.min` is an ordinary key.
final class PlainIntKeyed: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var value = ""
}

/// Optional primary keys (`Int?`, `String?`, `ObjectId?`, `UUID?`): nil is a key like any other,
/// held by at most one object, found by `object(ofType:forPrimaryKey: nil)`, updated by the
/// update policies, and sorted and queried as nil.
final class OptionalPrimaryKeyTests: SeedTestCase {
    func testANilIntKeyIsStoredFoundAndReadBackAfterReopening() throws {
        do {
            let realm = try open()
            try realm.write {
                realm.add(OptIntKeyed(value: ["value": "none"]))
                realm.add(OptIntKeyed(value: ["id": 7, "value": "seven"]))
                realm.add(OptIntKeyed(value: ["id": -3, "value": "minus three"]))
            }
        }
        let realm = try open()
        let keyless = try XCTUnwrap(realm.object(ofType: OptIntKeyed.self, forPrimaryKey: nil))
        XCTAssertNil(keyless.id)
        XCTAssertEqual(keyless.value, "none")
        XCTAssertEqual(realm.object(ofType: OptIntKeyed.self, forPrimaryKey: nil as Int?)?.value, "none")
        XCTAssertEqual(realm.object(ofType: OptIntKeyed.self, forPrimaryKey: NSNull())?.value, "none")
        XCTAssertEqual(realm.object(ofType: OptIntKeyed.self, forPrimaryKey: 7)?.value, "seven")
        XCTAssertNil(realm.object(ofType: OptIntKeyed.self, forPrimaryKey: 8))
        let all = realm.objects(OptIntKeyed.self)
        XCTAssertEqual(all.sorted(byKeyPath: "id").map(\.id), [nil, -3, 7])
        XCTAssertEqual(all.where { $0.id == nil }.map(\.value), ["none"])
        XCTAssertEqual(all.filter("id == nil").map(\.value), ["none"])
        XCTAssertEqual(all.filter("id != nil").count, 2)
        XCTAssertEqual(all.where { $0.id < 0 }.map(\.value), ["minus three"])
        XCTAssertEqual(all.filter("id IN {nil, 7}").map(\.value).sorted(), ["none", "seven"])
    }

    func testASecondNilKeyIsADuplicateAndUpdatePoliciesFindTheNilKeyedObject() throws {
        let realm = try open()
        try realm.write { realm.add(OptIntKeyed(value: ["value": "first"])) }
        XCTAssertThrowsError(try realm.write { realm.add(OptIntKeyed(value: ["value": "second"])) }) { error in
            XCTAssertEqual((error as? Realm.Error)?.realmCode, .primaryKeyExists)
        }
        try realm.write { realm.add(OptIntKeyed(value: ["value": "updated"]), update: .modified) }
        try realm.write { realm.create(OptIntKeyed.self, value: ["id": NSNull(), "value": "created"], update: .all) }
        XCTAssertEqual(realm.objects(OptIntKeyed.self).map(\.value), ["created"])

        try realm.write { realm.delete(realm.object(ofType: OptIntKeyed.self, forPrimaryKey: nil)!) }
        XCTAssertNil(realm.object(ofType: OptIntKeyed.self, forPrimaryKey: nil))
        try realm.write { realm.add(OptIntKeyed(value: ["value": "again"])) }
        XCTAssertEqual(realm.object(ofType: OptIntKeyed.self, forPrimaryKey: nil)?.value, "again")
    }

    func testIntMinIsRefusedAsAnOptionalIntKeyButNotAsAPlainOne() throws {
        let realm = try open()
        XCTAssertThrowsError(try realm.write { realm.add(OptIntKeyed(value: ["id": Int.min, "value": "min"])) }) {
            error in
            XCTAssertEqual((error as? Realm.Error)?.realmCode, .invalidValue)
            XCTAssertTrue(
                "\(error)".contains("-9223372036854775808 cannot be the primary key of 'OptIntKeyed.id'"), "\(error)")
        }
        XCTAssertEqual(realm.objects(OptIntKeyed.self).count, 0)
        XCTAssertNil(realm.object(ofType: OptIntKeyed.self, forPrimaryKey: Int.min))
        try realm.write { realm.add(PlainIntKeyed(value: ["id": Int.min, "value": "min"])) }
        XCTAssertEqual(realm.object(ofType: PlainIntKeyed.self, forPrimaryKey: Int.min)?.value, "min")
    }

    func testEveryOptionalKeyTypeHoldsANilKey() throws {
        let oid = ObjectId.generate()
        let uuid = UUID()
        do {
            let realm = try open()
            try realm.write {
                realm.add(OptInt8Keyed(value: ["value": "nil"]))
                realm.add(OptInt8Keyed(value: ["id": Int8(-128), "value": "min"]))
                realm.add(OptStringKeyed(value: ["value": "nil"]))
                realm.add(OptStringKeyed(value: ["id": "", "value": "empty"]))
                realm.add(OptObjectIdKeyed(value: ["value": "nil"]))
                realm.add(OptObjectIdKeyed(value: ["id": oid, "value": "oid"]))
                realm.add(OptUUIDKeyed(value: ["value": "nil"]))
                realm.add(OptUUIDKeyed(value: ["id": uuid, "value": "uuid"]))
            }
            let secondNilKeys: [(String, () -> Object)] = [
                ("OptInt8Keyed", { OptInt8Keyed(value: ["value": "again"]) }),
                ("OptStringKeyed", { OptStringKeyed(value: ["value": "again"]) }),
                ("OptObjectIdKeyed", { OptObjectIdKeyed(value: ["value": "again"]) }),
                ("OptUUIDKeyed", { OptUUIDKeyed(value: ["value": "again"]) }),
            ]
            for (name, make) in secondNilKeys {
                XCTAssertThrowsError(try realm.write { realm.add(make()) }, name) { error in
                    XCTAssertEqual((error as? Realm.Error)?.realmCode, .primaryKeyExists, name)
                }
            }
        }
        let realm = try open()
        XCTAssertEqual(realm.object(ofType: OptInt8Keyed.self, forPrimaryKey: nil)?.value, "nil")
        XCTAssertEqual(realm.object(ofType: OptInt8Keyed.self, forPrimaryKey: Int8(-128))?.value, "min")
        XCTAssertEqual(realm.object(ofType: OptStringKeyed.self, forPrimaryKey: nil)?.value, "nil")
        XCTAssertEqual(realm.object(ofType: OptStringKeyed.self, forPrimaryKey: "")?.value, "empty")
        XCTAssertEqual(realm.object(ofType: OptObjectIdKeyed.self, forPrimaryKey: nil)?.value, "nil")
        XCTAssertEqual(realm.object(ofType: OptObjectIdKeyed.self, forPrimaryKey: oid)?.value, "oid")
        XCTAssertEqual(realm.object(ofType: OptUUIDKeyed.self, forPrimaryKey: nil as UUID?)?.value, "nil")
        XCTAssertEqual(realm.object(ofType: OptUUIDKeyed.self, forPrimaryKey: uuid)?.value, "uuid")
        XCTAssertEqual(realm.objects(OptStringKeyed.self).sorted(byKeyPath: "id").map(\.value), ["nil", "empty"])
        XCTAssertEqual(realm.objects(OptUUIDKeyed.self).where { $0.id == nil }.map(\.value), ["nil"])
        try realm.write { realm.add(OptStringKeyed(value: ["value": "changed"]), update: .modified) }
        XCTAssertEqual(realm.object(ofType: OptStringKeyed.self, forPrimaryKey: nil)?.value, "changed")
        XCTAssertEqual(realm.objects(OptStringKeyed.self).count, 2)
    }
}
