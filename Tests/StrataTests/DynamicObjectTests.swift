import Foundation
import Strata
import XCTest

/// The dynamic API: `DynamicObject`s read and written by class and property name, through
/// results, links and collections, also for classes the configuration does not name.
final class DynamicObjectTests: SeedTestCase {
    let allTypes: [ObjectBase.Type] = [DynamicDog.self, DynamicPerson.self, DynamicAddress.self, DynamicToy.self]

    func fullConfig() -> Realm.Configuration {
        Realm.Configuration(fileURL: url(), objectTypes: allTypes)
    }

    /// Writes Ann with dogs Rex (3) and Bo (5) through the model classes.
    func writeSample() throws {
        let realm = try Realm(configuration: fullConfig())
        try realm.write {
            let ann = realm.create(
                DynamicPerson.self,
                value: ["name": "Ann", "scores": [3, 1, 2], "tags": ["a", "b"], "address": ["city": "Oslo"]])
            let rex = realm.create(DynamicDog.self, value: ["id": 1, "name": "Rex", "age": 3, "owner": ann])
            let bo = realm.create(DynamicDog.self, value: ["id": 2, "name": "Bo", "age": 5, "nickname": "B"])
            ann.dogs.append(objectsIn: [rex, bo])
            ann.favorites.insert(bo)
            ann.dogsByRole["guard"] = rex
            ann.anything = .string("hello")
            realm.create(DynamicToy.self, value: ["name": "Ball", "weight": 1.5, "dog": rex])
        }
    }

    func testDynamicObjectsReadValuesWrittenByModelClasses() throws {
        try writeSample()
        let realm = try Realm(configuration: fullConfig())
        let dogs = realm.dynamicObjects("DynamicDog")
        XCTAssertEqual(dogs.count, 2)
        XCTAssertEqual(realm.dynamicObjects("DynamicDog").first!["name"] as! String, "Rex")
        XCTAssertEqual(dogs[1]["age"] as? Int, 5)
        XCTAssertEqual(dogs[1].nickname as? String, "B")
        XCTAssertNil(dogs[0]["nickname"])
        XCTAssertEqual(dogs[0].value(forKey: "age") as? Int, 3)
        XCTAssertEqual(dogs[0].objectSchema.className, "DynamicDog")
        XCTAssertEqual(dogs[0].objectSchema.properties.map(\.name), ["id", "name", "age", "nickname", "owner"])
    }

    func testStringFilterAndSortWorkOnDynamicResults() throws {
        try writeSample()
        let realm = try Realm(configuration: fullConfig())
        let dogs = realm.dynamicObjects("DynamicDog")
        XCTAssertEqual(dogs.filter("age > %@", 4).map { $0["name"] as! String }, ["Bo"])
        XCTAssertEqual(dogs.sorted(byKeyPath: "name").map { $0["name"] as! String }, ["Bo", "Rex"])
        XCTAssertEqual(dogs.sorted(byKeyPath: "age", ascending: false).first?["name"] as? String, "Bo")
        XCTAssertEqual(dogs.filter("owner.name == 'Ann'").count, 1)
        XCTAssertEqual(dogs.filter("name BEGINSWITH 'R'").first?["id"] as? Int, 1)
    }

    func testDynamicCreateIsReadBackThroughModelClasses() throws {
        let realm = try Realm(configuration: fullConfig())
        try realm.write {
            realm.dynamicCreate("DynamicDog", value: ["id": 7, "name": "Rex"])
            realm.dynamicCreate("DynamicDog", value: [8, "Bo", 4])
        }
        XCTAssertEqual(realm.object(ofType: DynamicDog.self, forPrimaryKey: 7)?.name, "Rex")
        XCTAssertEqual(realm.object(ofType: DynamicDog.self, forPrimaryKey: 7)?.age, 0)
        XCTAssertNil(realm.object(ofType: DynamicDog.self, forPrimaryKey: 7)?.nickname)
        XCTAssertEqual(realm.object(ofType: DynamicDog.self, forPrimaryKey: 8)?.age, 4)
    }

    func testDynamicObjectForPrimaryKeyFindsTheObject() throws {
        try writeSample()
        let realm = try Realm(configuration: fullConfig())
        XCTAssertEqual(realm.dynamicObject(ofType: "DynamicDog", forPrimaryKey: 2)?["name"] as? String, "Bo")
        XCTAssertNil(realm.dynamicObject(ofType: "DynamicDog", forPrimaryKey: 99))
        XCTAssertEqual(realm.dynamicObject(ofType: "DynamicPerson", forPrimaryKey: "Ann")?["name"] as? String, "Ann")
    }

    func testSubscriptWritesAreReadBackThroughModelClasses() throws {
        try writeSample()
        let realm = try Realm(configuration: fullConfig())
        let rex = realm.dynamicObject(ofType: "DynamicDog", forPrimaryKey: 1)!
        try realm.write {
            rex["age"] = 4
            rex.nickname = "R"
            rex.setValue("Rexy", forKey: "name")
        }
        let typed = realm.object(ofType: DynamicDog.self, forPrimaryKey: 1)!
        XCTAssertEqual(typed.age, 4)
        XCTAssertEqual(typed.nickname, "R")
        XCTAssertEqual(typed.name, "Rexy")
        try realm.write { rex["nickname"] = nil }
        XCTAssertNil(typed.nickname)
    }

    func testLinksReadAndWriteAsDynamicObjects() throws {
        try writeSample()
        let realm = try Realm(configuration: fullConfig())
        let bo = realm.dynamicObject(ofType: "DynamicDog", forPrimaryKey: 2)!
        let rex = realm.dynamicObject(ofType: "DynamicDog", forPrimaryKey: 1)!
        let owner = rex["owner"] as? DynamicObject
        XCTAssertEqual(owner?["name"] as? String, "Ann")
        XCTAssertNil(bo["owner"])
        try realm.write {
            bo["owner"] = owner
            rex["owner"] = ["name": "Cy"]
        }
        XCTAssertEqual(realm.object(ofType: DynamicDog.self, forPrimaryKey: 2)?.owner?.name, "Ann")
        XCTAssertEqual(realm.object(ofType: DynamicDog.self, forPrimaryKey: 1)?.owner?.name, "Cy")
        XCTAssertEqual(realm.objects(DynamicPerson.self).count, 2)
        try realm.write { bo["owner"] = nil }
        XCTAssertNil(realm.object(ofType: DynamicDog.self, forPrimaryKey: 2)?.owner)
    }

    func testCollectionsOfLinksAreDynamicCollections() throws {
        try writeSample()
        let realm = try Realm(configuration: fullConfig())
        let ann = realm.dynamicObjects("DynamicPerson").first!
        let dogs = ann.dynamicList("dogs")
        XCTAssertEqual(dogs.map { $0["name"] as! String }, ["Rex", "Bo"])
        XCTAssertEqual((ann["dogs"] as? List<DynamicObject>)?.count, 2)
        XCTAssertEqual(ann.dynamicMutableSet("favorites").map { $0["name"] as! String }, ["Bo"])
        XCTAssertEqual((ann["favorites"] as? MutableSet<DynamicObject>)?.count, 1)
        let roles: Map<String, DynamicObject?> = ann.dynamicMap("dogsByRole")
        XCTAssertEqual(roles["guard"]??["name"] as? String, "Rex")
        XCTAssertEqual((ann["dogsByRole"] as? Map<String, DynamicObject?>)?.count, 1)
        try realm.write {
            let cy = realm.dynamicCreate("DynamicDog", value: ["id": 3, "name": "Cy"])
            ann.dynamicList("dogs").append(cy)
            ann.dynamicList("dogs").remove(at: 0)
            ann.dynamicMutableSet("favorites").insert(cy)
            roles["pup"] = cy
        }
        let typed = realm.object(ofType: DynamicPerson.self, forPrimaryKey: "Ann")!
        XCTAssertEqual(typed.dogs.map(\.name), ["Bo", "Cy"])
        XCTAssertEqual(Set(typed.favorites.map(\.name)), ["Bo", "Cy"])
        XCTAssertEqual(typed.dogsByRole["pup"]??.name, "Cy")
    }

    func testModelObjectsGiveDynamicCollectionsOfTheSameProperty() throws {
        try writeSample()
        let realm = try Realm(configuration: fullConfig())
        let ann = realm.object(ofType: DynamicPerson.self, forPrimaryKey: "Ann")!
        XCTAssertEqual(ann.dynamicList("dogs").map { $0["name"] as! String }, ["Rex", "Bo"])
        try realm.write { ann.dynamicList("dogs").removeAll() }
        XCTAssertEqual(ann.dogs.count, 0)
    }

    func testCollectionsOfValuesAreTypedCollections() throws {
        try writeSample()
        let realm = try Realm(configuration: fullConfig())
        let ann = realm.dynamicObjects("DynamicPerson").first!
        XCTAssertEqual(Array(ann["scores"] as! List<Int>), [3, 1, 2])
        XCTAssertEqual(Set(ann["tags"] as! MutableSet<String>), ["a", "b"])
        try realm.write {
            (ann["scores"] as! List<Int>).append(9)
            ann["tags"] = ["x"]
        }
        let typed = realm.object(ofType: DynamicPerson.self, forPrimaryKey: "Ann")!
        XCTAssertEqual(Array(typed.scores), [3, 1, 2, 9])
        XCTAssertEqual(Array(typed.tags), ["x"])
    }

    func testEmbeddedObjectsAnyRealmValueAndLinkingObjectsRead() throws {
        try writeSample()
        let realm = try Realm(configuration: fullConfig())
        let ann = realm.dynamicObjects("DynamicPerson").first!
        XCTAssertEqual((ann["address"] as? DynamicObject)?["city"] as? String, "Oslo")
        XCTAssertEqual(ann["anything"] as? String, "hello")
        XCTAssertEqual((ann["ownedDogs"] as? [DynamicObject])?.map { $0["name"] as! String }, ["Rex"])
        try realm.write {
            ann["address"] = ["city": "Rome"]
            ann["anything"] = 42
        }
        let typed = realm.object(ofType: DynamicPerson.self, forPrimaryKey: "Ann")!
        XCTAssertEqual(typed.address?.city, "Rome")
        XCTAssertEqual(typed.anything, .int(42))
        XCTAssertEqual(realm.dynamicObjects("DynamicPerson").count, 1)
    }

    func testClassNotInConfigurationIsReadAndWrittenDynamically() throws {
        try writeSample()
        do {
            let realm = try Realm(
                configuration: Realm.Configuration(
                    fileURL: url(), objectTypes: [DynamicDog.self, DynamicPerson.self, DynamicAddress.self]))
            let toys = realm.dynamicObjects("DynamicToy")
            XCTAssertEqual(toys.count, 1)
            XCTAssertEqual(toys.first?["weight"] as? Double, 1.5)
            XCTAssertEqual((toys.first?["dog"] as? DynamicObject)?["name"] as? String, "Rex")
            try realm.write {
                let rex = realm.dynamicObject(ofType: "DynamicDog", forPrimaryKey: 1)!
                realm.dynamicCreate("DynamicToy", value: ["name": "Rope", "weight": 2, "dog": rex])
                toys.first!["name"] = "Ball2"
            }
            XCTAssertEqual(toys.sorted(byKeyPath: "name").map { $0["name"] as! String }, ["Ball2", "Rope"])
            XCTAssertTrue(realm.schema.objectSchema.contains { $0.className == "DynamicToy" })
        }
        let realm = try Realm(configuration: fullConfig())
        let toys = realm.objects(DynamicToy.self).sorted(byKeyPath: "name")
        XCTAssertEqual(toys.map(\.name), ["Ball2", "Rope"])
        XCTAssertEqual(toys.map(\.weight), [1.5, 2])
        XCTAssertEqual(toys.last?.dog?.name, "Rex")
    }

    func testDeletingADynamicObjectRemovesItAndItsLinks() throws {
        try writeSample()
        let realm = try Realm(configuration: fullConfig())
        let rex = realm.dynamicObject(ofType: "DynamicDog", forPrimaryKey: 1)!
        try realm.write { realm.delete(rex) }
        XCTAssertTrue(rex.isInvalidated)
        XCTAssertNil(realm.object(ofType: DynamicDog.self, forPrimaryKey: 1))
        XCTAssertEqual(realm.objects(DynamicPerson.self).first?.dogs.map(\.name), ["Bo"])
        XCTAssertNil(realm.objects(DynamicToy.self).first?.dog)
    }

    func testUpdatePolicyModifiedUpdatesTheExistingObject() throws {
        try writeSample()
        let realm = try Realm(configuration: fullConfig())
        try realm.write {
            realm.dynamicCreate("DynamicDog", value: ["id": 2, "age": 6], update: .modified)
        }
        let bo = realm.object(ofType: DynamicDog.self, forPrimaryKey: 2)!
        XCTAssertEqual(bo.age, 6)
        XCTAssertEqual(bo.name, "Bo")
        XCTAssertEqual(realm.objects(DynamicDog.self).count, 2)
    }

    func testPropertiesMappedToStoredNamesAnswerToBothNames() throws {
        let realm = try Realm(configuration: Realm.Configuration(fileURL: url(), objectTypes: [DynamicMappedToy.self]))
        try realm.write { realm.create(DynamicMappedToy.self, value: ["title": "Kite"]) }
        let toy = realm.dynamicObjects("DynamicMappedToy").first!
        XCTAssertEqual(toy["title"] as? String, "Kite")
        XCTAssertEqual(toy["toy_title"] as? String, "Kite")
        try realm.write { toy["title"] = "Yo-yo" }
        XCTAssertEqual(realm.objects(DynamicMappedToy.self).first?.title, "Yo-yo")
    }

    func testFrozenDynamicObjectsKeepTheirVersion() throws {
        try writeSample()
        let realm = try Realm(configuration: fullConfig())
        let frozen = realm.dynamicObjects("DynamicDog").freeze()
        try realm.write { realm.dynamicObject(ofType: "DynamicDog", forPrimaryKey: 1)!["name"] = "Max" }
        XCTAssertTrue(frozen.first!.isFrozen)
        XCTAssertEqual(frozen.first!["name"] as? String, "Rex")
        XCTAssertEqual(realm.dynamicObjects("DynamicDog").first!["name"] as? String, "Max")
    }

    // MARK: Errors

    func testUnknownClassIsReportedAndGivesEmptyResults() throws {
        try writeSample()
        let realm = try Realm(configuration: fullConfig())
        XCTAssertEqual(realm.dynamicObjects("Cat").count, 0)
        XCTAssertNil(realm.dynamicObject(ofType: "Cat", forPrimaryKey: 1))
        let reported = takeViolations()
        XCTAssertEqual(reported.count, 2)
        XCTAssertTrue(reported.allSatisfy { $0.contains("Object type 'Cat' is not stored") }, "\(reported)")
        XCTAssertTrue(reported[0].contains("DynamicDog"), "the message lists the classes there are")
    }

    func testDynamicCreateOfUnknownClassFailsTheWriteWithATypedError() throws {
        let realm = try Realm(configuration: fullConfig())
        XCTAssertThrowsError(try realm.write { realm.dynamicCreate("Cat", value: ["name": "Tom"]) }) { error in
            XCTAssertEqual((error as? Realm.Error)?.realmCode, .invalidInput)
            XCTAssertTrue("\(error)".contains("Cat"))
        }
    }

    func testUnknownPropertyIsReportedOnReadAndFailsAWrite() throws {
        try writeSample()
        let realm = try Realm(configuration: fullConfig())
        let rex = realm.dynamicObject(ofType: "DynamicDog", forPrimaryKey: 1)!
        XCTAssertNil(rex["color"])
        XCTAssertEqual(
            takeViolations().map { $0.contains("Invalid property name 'color' for class 'DynamicDog'") }, [true])
        XCTAssertThrowsError(try realm.write { rex["color"] = "brown" }) { error in
            XCTAssertEqual((error as? Realm.Error)?.realmCode, .invalidInput)
            XCTAssertTrue("\(error)".contains("'color'"))
        }
    }

    func testWrongValueTypeFailsTheWriteAndKeepsCommittedData() throws {
        try writeSample()
        let realm = try Realm(configuration: fullConfig())
        let rex = realm.dynamicObject(ofType: "DynamicDog", forPrimaryKey: 1)!
        XCTAssertThrowsError(
            try realm.write {
                rex["name"] = "Changed"
                rex["age"] = "old"
            }
        ) { error in
            XCTAssertEqual((error as? Realm.Error)?.realmCode, .invalidValue)
            XCTAssertTrue("\(error)".contains("'DynamicDog.age'"), "\(error)")
        }
        XCTAssertThrowsError(try realm.write { rex["name"] = nil }) { error in
            XCTAssertEqual((error as? Realm.Error)?.realmCode, .invalidValue)
        }
        XCTAssertThrowsError(try realm.write { rex["owner"] = rex }) { error in
            XCTAssertEqual((error as? Realm.Error)?.realmCode, .invalidValue)
            XCTAssertTrue("\(error)".contains("DynamicPerson"), "\(error)")
        }
        XCTAssertThrowsError(try realm.write { realm.dynamicCreate("DynamicDog", value: ["name": "NoKey"]) }) {
            XCTAssertEqual(($0 as? Realm.Error)?.realmCode, .missingValue)
        }
        XCTAssertThrowsError(try realm.write { realm.dynamicCreate("DynamicDog", value: ["id": 1]) }) {
            XCTAssertEqual(($0 as? Realm.Error)?.realmCode, .primaryKeyExists)
        }
        let typed = realm.object(ofType: DynamicDog.self, forPrimaryKey: 1)!
        XCTAssertEqual(typed.name, "Rex")
        XCTAssertEqual(typed.age, 3)
        XCTAssertEqual(realm.objects(DynamicDog.self).count, 2)
    }

    func testWritingOutsideAWriteTransactionIsReported() throws {
        try writeSample()
        let realm = try Realm(configuration: fullConfig())
        let rex = realm.dynamicObject(ofType: "DynamicDog", forPrimaryKey: 1)!
        rex["age"] = 10
        realm.dynamicCreate("DynamicDog", value: ["id": 5])
        XCTAssertEqual(
            takeViolations(),
            Array(repeating: "Cannot modify managed objects outside of a write transaction.", count: 2))
        XCTAssertEqual(realm.object(ofType: DynamicDog.self, forPrimaryKey: 1)?.age, 3)
    }

    func testModelAPIsRefuseDynamicObjectWithAMessageNamingTheDynamicAPI() throws {
        try writeSample()
        let realm = try Realm(configuration: fullConfig())
        XCTAssertEqual(realm.objects(DynamicObject.self).count, 0)
        let reported = takeViolations()
        XCTAssertFalse(reported.isEmpty)
        XCTAssertTrue(reported.allSatisfy { $0.contains("realm.dynamicCreate") }, "\(reported)")
    }
}
