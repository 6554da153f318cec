import Foundation
import Strata
import XCTest

/// `AnyRealmValue` as RealmSwift has it: typed accessors, nested `.list` and `.dictionary`
/// values stored and read back, equality and `Codable`.
final class AnyRealmValueTests: SeedTestCase {
    func testTypedAccessorsAnswerOnlyForTheirCase() throws {
        let date = Date(timeIntervalSince1970: 1_700_000_000)
        let uuid = UUID()
        let id = ObjectId.generate()
        XCTAssertEqual(AnyRealmValue.date(date).dateValue, date)
        XCTAssertEqual(AnyRealmValue.uuid(uuid).uuidValue, uuid)
        XCTAssertEqual(AnyRealmValue.objectId(id).objectIdValue, id)
        XCTAssertEqual(AnyRealmValue.decimal128("1.5").decimal128Value, "1.5")
        XCTAssertEqual(AnyRealmValue.float(2.5).floatValue, 2.5)
        XCTAssertEqual(AnyRealmValue.data(Data([1, 2])).dataValue, Data([1, 2]))
        XCTAssertNil(AnyRealmValue.int(1).dateValue)
        XCTAssertNil(AnyRealmValue.string("x").uuidValue)
        XCTAssertNil(AnyRealmValue.none.listValue)
        XCTAssertEqual(AnyRealmValue(), .none)
        let dog = SeedDog(value: ["name": "Rex"])
        XCTAssertTrue(AnyRealmValue.object(dog).object(SeedDog.self) === dog)
        XCTAssertNil(AnyRealmValue.object(dog).object(SeedPerson.self))
    }

    func testNestedCollectionsCompareByTheirElements() {
        let a = AnyRealmValue.fromArray([.int(1), .fromDictionary(["k": .string("v")])])
        let b = AnyRealmValue.fromArray([.int(1), .fromDictionary(["k": .string("v")])])
        XCTAssertEqual(a, b)
        XCTAssertNotEqual(a, AnyRealmValue.fromArray([.int(2)]))
        XCTAssertEqual(a.listValue?.count, 2)
        XCTAssertEqual(a.listValue?[1].dictionaryValue?["k"], .string("v"))
        XCTAssertEqual(Set([a, b]).count, 1)
    }

    /// Lists and dictionaries nested in an `AnyRealmValue` property are stored with the object
    /// and read back whole, nested at any depth.
    func testNestedListAndDictionaryAreStoredAndReadBack() throws {
        let realm = try open()
        let payload = AnyRealmValue.fromDictionary([
            "name": .string("Rex"),
            "scores": .fromArray([.int(3), .double(4.5), .none]),
            "owner": .fromDictionary(["id": .objectId(try ObjectId(string: "5f3a2b1c0d0e0f1011121314"))]),
        ])
        try realm.write {
            realm.add(Invoice(value: ["customer": "map", "payload": payload]))
            realm.add(
                Invoice(value: [
                    "customer": "list", "payload": AnyRealmValue.fromArray([.string("a"), .fromArray([.bool(true)])]),
                ]))
        }
        let byName = Dictionary(uniqueKeysWithValues: realm.objects(Invoice.self).map { ($0.customer, $0.payload) })
        let stored = try XCTUnwrap(byName["map"]?.dictionaryValue)
        XCTAssertEqual(Set(stored.keys), ["name", "scores", "owner"])
        XCTAssertEqual(stored["name"], .string("Rex"))
        XCTAssertEqual(stored["scores"]?.listValue.map(Array.init), [.int(3), .double(4.5), .none])
        XCTAssertEqual(stored["owner"]?.dictionaryValue?["id"]?.objectIdValue?.stringValue, "5f3a2b1c0d0e0f1011121314")
        XCTAssertEqual(byName["map"], payload)
        let list = try XCTUnwrap(byName["list"]?.listValue)
        XCTAssertEqual(list.count, 2)
        XCTAssertEqual(list[0], .string("a"))
        XCTAssertEqual(list[1].listValue?.first, .bool(true))

        // Replaced inside a write, the new nested value is stored.
        let invoice = try XCTUnwrap(realm.objects(Invoice.self).filter("customer == 'list'").first)
        try realm.write { invoice.payload = .fromArray([.int(9)]) }
        XCTAssertEqual(
            realm.objects(Invoice.self).filter("customer == 'list'").first?.payload.listValue?.first, .int(9))
    }

    func testCodableWritesPlainValues() throws {
        let value = AnyRealmValue.fromArray([.int(1), .string("a"), .bool(true), .none, .double(2.5)])
        let json = try JSONEncoder().encode(value)
        XCTAssertEqual(String(decoding: json, as: UTF8.self), #"[1,"a",true,null,2.5]"#)
        XCTAssertEqual(try JSONDecoder().decode(AnyRealmValue.self, from: json), value)
        let dict = try JSONDecoder().decode(AnyRealmValue.self, from: Data(#"{"k":[1,{"n":null}]}"#.utf8))
        XCTAssertEqual(dict, .fromDictionary(["k": .fromArray([.int(1), .fromDictionary(["n": .none])])]))
        XCTAssertEqual(
            String(decoding: try JSONEncoder().encode(AnyRealmValue.decimal128("1.50")), as: UTF8.self), #""1.50""#)
        XCTAssertThrowsError(try JSONEncoder().encode(AnyRealmValue.object(SeedDog()))) { error in
            guard case EncodingError.invalidValue = error else { return XCTFail("\(error)") }
        }
    }
}
