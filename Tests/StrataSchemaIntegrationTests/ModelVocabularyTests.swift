import Foundation
import Strata
import XCTest

/// The unmanaged model vocabulary: values, collections and identity.
final class ModelVocabularyTests: XCTestCase {
    func testObjectIdRoundTripsThroughItsHexString() throws {
        let id = ObjectId.generate()
        XCTAssertEqual(id.stringValue.count, 24)
        XCTAssertEqual(try ObjectId(string: id.stringValue), id)
        XCTAssertEqual(try ObjectId(string: "5F3A2B1C0D0E0F1011121314").stringValue, "5f3a2b1c0d0e0f1011121314")
        XCTAssertThrowsError(try ObjectId(string: "not hex"))
        XCTAssertThrowsError(try ObjectId(string: "zz3a2b1c0d0e0f1011121314"))
    }

    func testObjectIdsAreUniqueAndOrderedByCreation() throws {
        let ids = (0..<1000).map { _ in ObjectId.generate() }
        XCTAssertEqual(Set(ids).count, 1000)
        XCTAssertLessThanOrEqual(abs(ids[0].timestamp.timeIntervalSinceNow), 2)
        let early = try ObjectId(string: "000000010000000000000000")
        XCTAssertLessThan(early, ids[0])
        XCTAssertEqual(early.timestamp, Date(timeIntervalSince1970: 1))
    }

    func testDecimal128ParsesComparesAndPrintsExactly() throws {
        let a = try Decimal128(string: "0.10")
        let b = try Decimal128(string: "1e-1")
        XCTAssertEqual(a, b)
        XCTAssertEqual(a.hashValue, b.hashValue)
        XCTAssertEqual(Decimal128(0.1), b)
        XCTAssertEqual(try Decimal128(string: "-12.50").description, "-12.50")
        XCTAssertEqual(try Decimal128(string: "1.5E+40").description, "1.5E+40")
        XCTAssertEqual(Decimal128(42).description, "42")
        XCTAssertLessThan(try Decimal128(string: "-3"), try Decimal128(string: "-2.5"))
        XCTAssertLessThan(try Decimal128(string: "2.5"), try Decimal128(string: "3"))
        XCTAssertLessThan(try Decimal128(string: "0.001"), try Decimal128(string: "0.01"))
        XCTAssertFalse(try Decimal128(string: "7") < Decimal128(string: "7.000"))
        XCTAssertThrowsError(try Decimal128(string: "1.2.3"))
        XCTAssertThrowsError(try Decimal128(string: "12345678901234567890123456789012345"), "35 significant digits")
        XCTAssertNoThrow(
            try Decimal128(string: "1234567890123456789012345678901234000"), "trailing zeros fold into the exponent")
        XCTAssertTrue(Decimal128(Double.nan).isNaN)
    }

    func testListMutatesInPlace() {
        let list = List<Int>()
        list.append(1)
        list.append(objectsIn: [2, 3, 4])
        list.insert(0, at: 0)
        list.remove(at: 4)
        list.move(from: 0, to: 2)
        list[0] = 10
        XCTAssertEqual(Array(list), [10, 2, 0, 3])
        XCTAssertEqual(list.index(of: 0), 2)
        list.removeAll()
        XCTAssertTrue(list.isEmpty)
    }

    func testMutableSetKeepsDistinctMembers() {
        let set = MutableSet(["a", "b", "a"])
        XCTAssertEqual(Array(set), ["a", "b"])
        let other = MutableSet(["b", "c"])
        XCTAssertTrue(set.intersects(other))
        set.formUnion(other)
        XCTAssertEqual(Array(set), ["a", "b", "c"])
        set.subtract(MutableSet(["a"]))
        XCTAssertEqual(Array(set), ["b", "c"])
        set.formIntersection(MutableSet(["c", "d"]))
        XCTAssertEqual(Array(set), ["c"])
        XCTAssertTrue(set.isSubset(of: other))
    }

    func testMapIteratesInKeyOrder() {
        let map = Map<String, Int>()
        map["b"] = 2
        map["a"] = 1
        map.updateValue(3, forKey: "c")
        map["b"] = nil
        XCTAssertEqual(map.keys, ["a", "c"])
        XCTAssertEqual(map.values, [1, 3])
        XCTAssertEqual(map.map(\.key), ["a", "c"])
        map.removeObject(for: "a")
        XCTAssertEqual(map.count, 1)
    }

    func testObjectsCompareByIdentityAndDefaultTheirValues() {
        let a = Owner(), b = Owner()
        XCTAssertNotEqual(a, b)
        XCTAssertEqual(a, a)
        XCTAssertNotEqual(a._id, b._id, "each unmanaged object gets its own UUID primary key")
        XCTAssertEqual(Owner.className(), "Owner")
        XCTAssertEqual(a.objectSchema.className, "Owner")
        let pet = Pet()
        XCTAssertEqual(pet.name, "")
        XCTAssertEqual(pet.age, 0)
    }

    func testAnyRealmValueHoldsEachKind() {
        let owner = Owner()
        XCTAssertEqual(AnyRealmValue.int(3).intValue, 3)
        XCTAssertNil(AnyRealmValue.string("x").intValue)
        XCTAssertEqual(AnyRealmValue.string("x").stringValue, "x")
        XCTAssertTrue(AnyRealmValue.object(owner).objectValue === owner)
        XCTAssertEqual(AnyRealmValue.object(owner), .object(owner))
        XCTAssertNotEqual(AnyRealmValue.object(owner), .object(Owner()))
    }
}

// A conformance added in an extension: the generator only looks at class declarations.
extension Pet: ObjectKeyIdentifiable {}

/// `ObjectKeyIdentifiable` ids are distinct per instance.
final class ObjectKeyIdentifiableTests: XCTestCase {
    func testIdsDifferPerInstanceAndAreStable() {
        let a = Pet(), b = Pet()
        XCTAssertNotEqual(a.id, b.id)
        XCTAssertEqual(a.id, a.id)
    }
}
