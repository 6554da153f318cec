import Foundation
import Strata
import XCTest

/// `isSameObject(as:)`, `==`, `hash` and `ObjectKeyIdentifiable.id` with RealmSwift's rules:
/// managed objects of a class with a primary key and frozen objects compare by stored object;
/// other objects by instance.
final class ObjectIdentityTests: SeedTestCase {
    private func seed(_ realm: Realm) throws {
        try realm.write {
            realm.add(KeyedPet(value: ["id": 1, "name": "Rex"]))
            realm.add(KeyedPet(value: ["id": 2, "name": "Ben"]))
            realm.add(PlainPet(value: ["name": "Tom"]))
            realm.add(PlainPet(value: ["name": "Kit"]))
        }
    }

    func testTwoReadsOfOneStoredObjectAreTheSameObject() throws {
        let realm = try open()
        try seed(realm)
        let a = try XCTUnwrap(realm.object(ofType: KeyedPet.self, forPrimaryKey: 1))
        let b = try XCTUnwrap(realm.objects(KeyedPet.self).first { $0.id == 1 })
        let other = try XCTUnwrap(realm.object(ofType: KeyedPet.self, forPrimaryKey: 2))
        XCTAssertFalse(a === b)
        XCTAssertTrue(a.isSameObject(as: b))
        XCTAssertFalse(a.isSameObject(as: other))
        XCTAssertFalse(a.isSameObject(as: nil))
        let plain = Array(realm.objects(PlainPet.self))
        let plainAgain = Array(realm.objects(PlainPet.self))
        XCTAssertTrue(plain[0].isSameObject(as: plainAgain[0]))
        XCTAssertFalse(plain[0].isSameObject(as: plainAgain[1]))
    }

    func testManagedObjectsWithAPrimaryKeyAreEqualAndHashAlikeAcrossReads() throws {
        let realm = try open()
        try seed(realm)
        let a = try XCTUnwrap(realm.object(ofType: KeyedPet.self, forPrimaryKey: 1))
        let b = try XCTUnwrap(realm.objects(KeyedPet.self).first { $0.id == 1 })
        XCTAssertEqual(a, b)
        XCTAssertEqual(a.hashValue, b.hashValue)
        XCTAssertNotEqual(a, realm.object(ofType: KeyedPet.self, forPrimaryKey: 2))
        XCTAssertEqual(Set(realm.objects(KeyedPet.self)).union(realm.objects(KeyedPet.self)).count, 2)
        XCTAssertTrue(Array(realm.objects(KeyedPet.self)).contains(a))
        XCTAssertEqual(Array(realm.objects(KeyedPet.self).sorted(byKeyPath: "id")).firstIndex(of: b), 0)
    }

    func testLiveObjectsWithoutAPrimaryKeyEqualOnlyThemselves() throws {
        let realm = try open()
        try seed(realm)
        let a = try XCTUnwrap(realm.objects(PlainPet.self).first)
        let b = try XCTUnwrap(realm.objects(PlainPet.self).first)
        XCTAssertEqual(a, a)
        XCTAssertNotEqual(a, b, "RealmSwift compares live objects without a primary key by instance")
        XCTAssertTrue(a.isSameObject(as: b))
    }

    func testFrozenCopiesOfOneStoredObjectAreEqualWithOrWithoutAPrimaryKey() throws {
        let realm = try open()
        try seed(realm)
        let plain = try XCTUnwrap(realm.objects(PlainPet.self).first)
        let keyed = try XCTUnwrap(realm.object(ofType: KeyedPet.self, forPrimaryKey: 1))
        let (p1, p2) = (plain.freeze(), plain.freeze())
        XCTAssertFalse(p1 === p2)
        XCTAssertEqual(p1, p2)
        XCTAssertEqual(p1.hashValue, p2.hashValue)
        XCTAssertEqual(Set([p1, p2]).count, 1)
        XCTAssertEqual(keyed.freeze(), keyed.freeze())
        XCTAssertNotEqual(p1, realm.objects(PlainPet.self)[1].freeze())
        // A frozen copy and its live object are of different realms.
        XCTAssertFalse(p1.isSameObject(as: plain))
        XCTAssertNotEqual(keyed.freeze(), keyed)
    }

    func testFrozenCopiesOfDifferentVersionsAreNotEqual() throws {
        let realm = try open()
        try seed(realm)
        let plain = try XCTUnwrap(realm.objects(PlainPet.self).first)
        let before = plain.freeze()
        try realm.write { plain.age = 5 }
        let after = plain.freeze()
        XCTAssertEqual(before.age, 0)
        XCTAssertEqual(after.age, 5)
        XCTAssertNotEqual(before, after)
    }

    func testUnmanagedObjectsEqualOnlyThemselvesAndKeepTheirHashWhenAdded() throws {
        let a = KeyedPet(value: ["id": 7])
        let b = KeyedPet(value: ["id": 7])
        XCTAssertNotEqual(a, b)
        XCTAssertFalse(a.isSameObject(as: b))
        XCTAssertEqual(a, a)
        var set: Set<KeyedPet> = [a]
        let realm = try open()
        try realm.write { realm.add(a) }
        XCTAssertTrue(set.contains(a), "adding the object keeps its hash")
        set.insert(try XCTUnwrap(realm.object(ofType: KeyedPet.self, forPrimaryKey: 7)))
        XCTAssertEqual(set.count, 1)
    }

    func testDeletedObjectsAreNotTheSameAsAnything() throws {
        let realm = try open()
        try seed(realm)
        let a = try XCTUnwrap(realm.object(ofType: KeyedPet.self, forPrimaryKey: 1))
        let b = try XCTUnwrap(realm.object(ofType: KeyedPet.self, forPrimaryKey: 1))
        try realm.write { realm.delete(a) }
        XCTAssertFalse(a.isSameObject(as: b))
        XCTAssertNotEqual(a, b)
        XCTAssertTrue(a.isSameObject(as: a))
    }

    func testObjectKeyIdentifiableIdIsStableForOneStoredObject() throws {
        let realm = try open()
        try seed(realm)
        let first = Array(realm.objects(PlainPet.self)).map(\.id)
        let second = Array(realm.objects(PlainPet.self)).map(\.id)
        XCTAssertEqual(first, second)
        XCTAssertEqual(Set(first).count, 2)
        let (x, y) = (PlainPet(), PlainPet())
        XCTAssertNotEqual(x.id, y.id, "two live unmanaged instances")
    }

    func testListIndexAndSetMembershipFindAnotherReadOfTheObject() throws {
        let realm = try open()
        try realm.write {
            let owner = Contact(value: ["id": 1, "name": "Ann"])
            owner.friends.append(Contact(value: ["id": 2, "name": "Bob"]))
            realm.add(owner)
        }
        let owner = try XCTUnwrap(realm.object(ofType: Contact.self, forPrimaryKey: 1))
        let bob = try XCTUnwrap(realm.object(ofType: Contact.self, forPrimaryKey: 2))
        XCTAssertTrue(owner.friends.contains(bob))
        XCTAssertEqual(owner.friends.firstIndex(of: bob), 0)
        XCTAssertEqual(owner.friends.index(of: bob), 0)
    }
}
