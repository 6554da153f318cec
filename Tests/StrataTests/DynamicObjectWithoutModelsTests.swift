import Foundation
import Strata
import XCTest

/// A file read and written through the dynamic API by a realm that names no model class at all,
/// and the parts of the dynamic API that work alongside models: descriptions, `AnyRealmValue`,
/// migration objects by member name, notifications of dynamic results.
final class DynamicObjectWithoutModelsTests: SeedTestCase {
    func writeSample() throws {
        let realm = try Realm(
            configuration: Realm.Configuration(
                fileURL: url(), objectTypes: [DynamicDog.self, DynamicPerson.self, DynamicAddress.self]))
        try realm.write {
            let ann = realm.create(DynamicPerson.self, value: ["name": "Ann"])
            ann.dogs.append(realm.create(DynamicDog.self, value: ["id": 1, "name": "Rex", "age": 3]))
            ann.anything = .object(ann.dogs[0])
        }
    }

    func testFileIsReadAndWrittenWithoutAnyModelClass() throws {
        try writeSample()
        do {
            let realm = try Realm(configuration: Realm.Configuration(fileURL: url(), objectTypes: []))
            let ann = try XCTUnwrap(realm.dynamicObjects("DynamicPerson").first)
            XCTAssertEqual(ann.dynamicList("dogs").map { $0["name"] as? String }, ["Rex"])
            try realm.write {
                let bo = realm.dynamicCreate("DynamicDog", value: ["id": 2, "name": "Bo", "owner": ann])
                ann.dynamicList("dogs").append(bo)
                realm.dynamicCreate("DynamicPerson", value: ["name": "Cy", "dogs": [["id": 3, "name": "Max"]]])
            }
            XCTAssertEqual(realm.dynamicObjects("DynamicDog").count, 3)
            XCTAssertEqual(
                realm.dynamicObjects("DynamicDog").filter("owner.name == 'Ann'").map { $0["name"] as? String }, ["Bo"])
        }
        let realm = try Realm(
            configuration: Realm.Configuration(
                fileURL: url(), objectTypes: [DynamicDog.self, DynamicPerson.self, DynamicAddress.self]))
        XCTAssertEqual(realm.object(ofType: DynamicPerson.self, forPrimaryKey: "Ann")?.dogs.map(\.name), ["Rex", "Bo"])
        XCTAssertEqual(realm.object(ofType: DynamicPerson.self, forPrimaryKey: "Cy")?.dogs.map(\.name), ["Max"])
        XCTAssertEqual(realm.object(ofType: DynamicDog.self, forPrimaryKey: 2)?.owner?.name, "Ann")
    }

    func testDescriptionUsesTheStoredClassName() throws {
        try writeSample()
        let realm = try Realm(configuration: Realm.Configuration(fileURL: url(), objectTypes: []))
        let rex = try XCTUnwrap(realm.dynamicObject(ofType: "DynamicDog", forPrimaryKey: 1))
        let text = rex.description
        XCTAssertTrue(text.hasPrefix("DynamicDog {\n"), text)
        XCTAssertTrue(text.contains("\tname = Rex;\n"), text)
        XCTAssertTrue(text.contains("\tage = 3;\n"), text)
    }

    func testAnyRealmValueGivesItsObjectAsADynamicObject() throws {
        try writeSample()
        let realm = try Realm(
            configuration: Realm.Configuration(
                fileURL: url(), objectTypes: [DynamicDog.self, DynamicPerson.self, DynamicAddress.self]))
        let ann = try XCTUnwrap(realm.object(ofType: DynamicPerson.self, forPrimaryKey: "Ann"))
        let dog: DynamicObject? = ann.anything.dynamicObject
        XCTAssertEqual(dog?["name"] as? String, "Rex")
        XCTAssertEqual(dog?.objectSchema.className, "DynamicDog")
        XCTAssertNil(AnyRealmValue.int(1).dynamicObject)
    }

    func testUndefinedKeyAccessorsReadAndWrite() throws {
        try writeSample()
        let realm = try Realm(configuration: Realm.Configuration(fileURL: url(), objectTypes: []))
        let rex = try XCTUnwrap(realm.dynamicObject(ofType: "DynamicDog", forPrimaryKey: 1))
        try realm.write { rex.setValue(5, forUndefinedKey: "age") }
        XCTAssertEqual(rex.value(forUndefinedKey: "age") as? Int, 5)
    }

    func testDynamicResultsDeliverChangeNotifications() throws {
        try writeSample()
        let realm = try Realm(configuration: Realm.Configuration(fileURL: url(), objectTypes: []))
        var counts: [Int] = []
        var insertions: [[Int]] = []
        let token = realm.dynamicObjects("DynamicDog").observe { change in
            switch change {
            case .initial(let results): counts.append(results.count)
            case .update(let results, _, let inserted, _):
                counts.append(results.count)
                insertions.append(inserted)
            case .error(let e): XCTFail("\(e)")
            }
        }
        spin(until: { counts.count == 1 })
        try realm.write { realm.dynamicCreate("DynamicDog", value: ["id": 9, "name": "Zed"]) }
        spin(until: { counts.count == 2 })
        XCTAssertEqual(counts, [1, 2])
        XCTAssertEqual(insertions, [[1]])
        token.invalidate()
    }

    func testMigrationObjectsReadByMemberName() throws {
        try writeSample()
        final class Seen: @unchecked Sendable { var names: [String] = [] }
        let seen = Seen()
        _ = try Realm(
            configuration: Realm.Configuration(
                fileURL: url(), schemaVersion: 1,
                migrationBlock: { migration, _ in
                    let block: MigrationObjectEnumerateBlock = { old, _ in
                        seen.names.append(old?.name as? String ?? "?")
                    }
                    migration.enumerateObjects(ofType: "DynamicDog", block)
                },
                objectTypes: [DynamicDog.self, DynamicPerson.self, DynamicAddress.self]))
        XCTAssertEqual(seen.names, ["Rex"])
    }

    func testThreadSafeReferencesOfDynamicObjectsResolveOnAnotherThread() throws {
        try writeSample()
        let configuration = Realm.Configuration(fileURL: url(), objectTypes: [])
        let realm = try Realm(configuration: configuration)
        let rex = try XCTUnwrap(realm.dynamicObject(ofType: "DynamicDog", forPrimaryKey: 1))
        let objectReference = ThreadSafeReference(to: rex)
        let resultsReference = ThreadSafeReference(to: realm.dynamicObjects("DynamicDog").filter("age > 1"))
        let worker = WorkerThread("strata.tests.dynamic-resolve")
        defer { worker.stop() }
        let resolved = worker.sync { () -> (String?, Int?) in
            let realm = try! Realm(configuration: configuration)
            let dog = realm.resolve(objectReference)
            let dogs = realm.resolve(resultsReference)
            return (dog?["name"] as? String, dogs?.count)
        }
        XCTAssertEqual(resolved.0, "Rex")
        XCTAssertEqual(resolved.1, 1)
    }

    final class DynamicHolder: @unchecked Sendable {
        @ThreadSafe var dog: DynamicObject?
        @ThreadSafe var dogs: Results<DynamicObject>?
    }

    func testThreadSafeWrapperKeepsDynamicObjectsAcrossThreads() throws {
        try writeSample()
        let realm = try Realm(configuration: Realm.Configuration(fileURL: url(), objectTypes: []))
        let holder = DynamicHolder()
        holder.dog = realm.dynamicObject(ofType: "DynamicDog", forPrimaryKey: 1)
        holder.dogs = realm.dynamicObjects("DynamicDog")
        let worker = WorkerThread("strata.tests.dynamic-wrapper")
        defer { worker.stop() }
        let seen = worker.sync { (holder.dog?["name"] as? String, holder.dogs?.count) }
        XCTAssertEqual(seen.0, "Rex")
        XCTAssertEqual(seen.1, 1)
    }

    func testObservingADynamicObjectReportsItsChangedProperties() throws {
        try writeSample()
        let realm = try Realm(configuration: Realm.Configuration(fileURL: url(), objectTypes: []))
        let rex = try XCTUnwrap(realm.dynamicObject(ofType: "DynamicDog", forPrimaryKey: 1))
        var changed: [[String]] = []
        let token = rex.observe(keyPaths: ["age"]) { (change: ObjectChange<DynamicObject>) in
            if case .change(_, let properties) = change { changed.append(properties.map(\.name)) }
        }
        try realm.write { rex["name"] = "Max" }
        try realm.write { rex["age"] = 4 }
        spin(until: { !changed.isEmpty })
        XCTAssertEqual(changed, [["age"]])
        token.invalidate()
    }
}
