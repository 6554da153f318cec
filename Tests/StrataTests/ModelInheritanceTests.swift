import Foundation
import Strata
import XCTest

/// A subclass of a model class, as RealmSwift treats it: a model class of its own, stored in its
/// own table under its own name, with its superclass's properties first and then its own. There
/// is no polymorphism: `objects(InhAnimal.self)` holds only InhAnimal objects, and a link or list
/// declared with a class holds objects of exactly that class.
final class ModelInheritanceTests: SeedTestCase {
    func testASubclassHasItsSuperclassPropertiesFirstThenItsOwn() throws {
        let cat = InhCat().objectSchema
        XCTAssertEqual(cat.className, "InhCat")
        XCTAssertEqual(cat.properties.map(\.name), ["id", "name", "lives", "toy"])
        XCTAssertEqual(cat.primaryKeyProperty?.name, "id")
        let kitten = InhKitten().objectSchema
        XCTAssertEqual(kitten.className, "InhKitten")
        XCTAssertEqual(kitten.properties.map(\.name), ["id", "name", "lives", "toy", "weeks"])
        XCTAssertEqual(kitten.properties.map(\.columnName), ["id", "name", "lives_left", "toy", "weeks"])
        XCTAssertEqual(InhAnimal().objectSchema.properties.map(\.name), ["id", "name"])
        XCTAssertEqual(InhKitten.className(), "InhKitten")
        XCTAssertEqual(InhCat.strataPropertyIndex(for: \InhCat.lives), 2)
        XCTAssertEqual(InhKitten.strataPropertyIndex(for: \InhKitten.name), 1)
    }

    func testEachClassOfAHierarchyIsStoredInItsOwnTable() throws {
        do {
            let realm = try open()
            try realm.write {
                realm.add(InhAnimal(value: ["id": 1, "name": "Generic"]))
                realm.add(InhCat(value: ["id": 1, "name": "Tom", "lives": 7]))
                realm.add(InhKitten(value: ["id": 1, "name": "Kit", "lives": 9, "weeks": 6]))
                realm.add(InhKitten(value: ["id": 2, "name": "Pip", "lives": 8, "weeks": 10]))
            }
        }
        let realm = try open()
        // The same primary key in each table: they are different classes.
        XCTAssertEqual(realm.objects(InhAnimal.self).map(\.name), ["Generic"])
        XCTAssertEqual(realm.objects(InhCat.self).map(\.name), ["Tom"])
        XCTAssertEqual(realm.objects(InhKitten.self).map(\.name), ["Kit", "Pip"])
        let tom = try XCTUnwrap(realm.object(ofType: InhCat.self, forPrimaryKey: 1))
        XCTAssertTrue(type(of: tom) == InhCat.self)
        XCTAssertEqual(tom.lives, 7)
        let pip = try XCTUnwrap(realm.object(ofType: InhKitten.self, forPrimaryKey: 2))
        XCTAssertEqual([pip.name, "\(pip.lives)", "\(pip.weeks)"], ["Pip", "8", "10"])
        XCTAssertEqual(realm.objects(InhKitten.self).where { $0.weeks > 8 && $0.lives == 8 }.map(\.name), ["Pip"])
        XCTAssertEqual(realm.objects(InhKitten.self).filter("name BEGINSWITH 'K'").map(\.id), [1])
        XCTAssertEqual(
            realm.objects(InhKitten.self).sorted(byKeyPath: "weeks", ascending: false).map(\.name), ["Pip", "Kit"])
        try realm.write {
            pip.lives -= 1
            pip.weeks += 1
        }
        XCTAssertEqual(pip.log, ["weeks 10 -> 11"])
        XCTAssertEqual(realm.object(ofType: InhKitten.self, forPrimaryKey: 2)?.lives, 7)
        XCTAssertEqual(realm.objects(InhKitten.self).filter("lives == 7").map(\.name), ["Pip"])
        XCTAssertEqual(InhKitten(value: ["weeks": 3]).log, [], "filling in an object runs no observer")
        XCTAssertEqual(realm.object(ofType: InhCat.self, forPrimaryKey: 1)?.lives, 7)
    }

    func testLinksToAHierarchyHoldTheirDeclaredClassOnly() throws {
        let realm = try open()
        try realm.write {
            let shelter = InhShelter()
            shelter.star = InhKitten(value: ["id": 5, "name": "Star"])
            shelter.cats.append(InhCat(value: ["id": 3, "name": "Tom"]))
            shelter.animals.append(InhAnimal(value: ["id": 4, "name": "Rex"]))
            realm.add(shelter)
        }
        let shelter = try XCTUnwrap(realm.objects(InhShelter.self).first)
        XCTAssertEqual(shelter.star?.name, "Star")
        XCTAssertTrue(type(of: shelter.star!) == InhKitten.self)
        XCTAssertEqual(shelter.cats.map(\.name), ["Tom"])
        XCTAssertEqual(shelter.animals.map(\.name), ["Rex"])

        // A kitten is an InhCat in Swift, but not in a list of InhCat (RealmSwift refuses it too).
        XCTAssertThrowsError(try realm.write { shelter.cats.append(InhKitten(value: ["id": 6, "name": "Kit"])) }) {
            error in
            XCTAssertEqual((error as? Realm.Error)?.realmCode, .invalidValue)
            XCTAssertTrue(
                "\(error)".contains(
                    "Object of type 'InhKitten' cannot be stored in property 'cats', which holds 'InhCat' objects"),
                "\(error)")
        }
        XCTAssertEqual(shelter.cats.map(\.name), ["Tom"])
        XCTAssertEqual(realm.objects(InhKitten.self).map(\.name), ["Star"])
    }

    func testLinkingObjectsOfAPropertyASubclassDeclares() throws {
        let realm = try open()
        try realm.write {
            let toy = InhToy()
            toy.label = "mouse"
            realm.add(InhCat(value: ["id": 1, "name": "Tom", "toy": toy]))
            realm.add(InhCat(value: ["id": 2, "name": "Ann", "toy": toy]))
        }
        let toy = try XCTUnwrap(realm.objects(InhToy.self).first)
        XCTAssertEqual(toy.cats.map(\.name).sorted(), ["Ann", "Tom"])
        XCTAssertEqual(realm.objects(InhCat.self).where { $0.toy.label == "mouse" }.count, 2)
    }
}
