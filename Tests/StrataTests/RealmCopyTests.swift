import Foundation
import Strata
import XCTest

/// `writeCopy(toFile:)` and `writeCopy(configuration:)`: compacted copies of the version a realm
/// shows, while other realms read and write.
final class RealmCopyTests: SeedTestCase {
    func configuration(_ name: String = "test.realm") -> Realm.Configuration {
        Realm.Configuration(fileURL: url(name), objectTypes: [Dog.self, DogToy.self, Person.self, Address.self])
    }

    func addDogs(_ realm: Realm, _ range: Range<Int>) throws {
        try realm.write {
            for i in range {
                realm.add(Dog(value: ["name": "dog\(i)", "age": i, "breed": String(repeating: "b", count: 100)]))
            }
        }
    }

    func dogNames(_ realm: Realm) -> [String] {
        realm.objects(Dog.self).map(\.name).sorted()
    }

    func testCopyHoldsTheObjectsAndLinksAndOpensAsARealm() throws {
        let realm = try Realm(configuration: configuration())
        try realm.write {
            let toy = DogToy(value: ["name": "ball"])
            let dog = Dog(value: ["name": "Rex", "age": 3, "favoriteToy": toy])
            let person = Person(value: ["id": 7, "name": "Ada"])
            person.dogs.append(dog)
            realm.add(person)
        }
        try realm.writeCopy(toFile: url("copy.realm"))
        let copy = try Realm(configuration: configuration("copy.realm"))
        let person = try XCTUnwrap(copy.object(ofType: Person.self, forPrimaryKey: 7))
        XCTAssertEqual(person.name, "Ada")
        XCTAssertEqual(person.dogs.map(\.name), ["Rex"])
        XCTAssertEqual(person.dogs.first?.favoriteToy?.name, "ball")
        XCTAssertEqual(copy.objects(Dog.self).first?.owners.map(\.id), [7])
        // The copy is a realm of its own: writing to it leaves the original as it was.
        try copy.write { copy.add(Dog(value: ["name": "Fido"])) }
        XCTAssertEqual(dogNames(copy), ["Fido", "Rex"])
        XCTAssertEqual(dogNames(realm), ["Rex"])
    }

    func testCopyRefusesAnExistingFileAndLeavesItAsItWas() throws {
        let realm = try Realm(configuration: configuration())
        try addDogs(realm, 0..<3)
        let existing = url("existing.realm")
        try Data("keep me".utf8).write(to: existing)
        XCTAssertThrowsError(try realm.writeCopy(toFile: existing)) { error in
            XCTAssertEqual((error as? Realm.Error)?.realmCode, .fileExists, "\(error)")
            XCTAssertTrue("\(error)".contains(existing.path), "\(error)")
        }
        XCTAssertEqual(try Data(contentsOf: existing), Data("keep me".utf8))
        // No temporary file is left beside it.
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.contains("copying") }
        XCTAssertEqual(leftovers, [])
    }

    func testCopyInsideAWriteHoldsTheChangesMadeSoFar() throws {
        let realm = try Realm(configuration: configuration())
        try addDogs(realm, 0..<2)
        try realm.write {
            realm.add(Dog(value: ["name": "uncommitted"]))
            try realm.writeCopy(toFile: url("copy.realm"))
            realm.cancelWrite()
        }
        XCTAssertEqual(dogNames(realm), ["dog0", "dog1"])
        let copy = try Realm(configuration: configuration("copy.realm"))
        XCTAssertEqual(dogNames(copy), ["dog0", "dog1", "uncommitted"])
    }

    /// The copy shows the version the realm shows, not one another thread committed meanwhile,
    /// and the other thread's writes are not blocked by it.
    func testCopyShowsTheRealmsVersionWhileAnotherThreadCommits() throws {
        let realm = try Realm(configuration: configuration())
        try addDogs(realm, 0..<10)
        XCTAssertEqual(realm.objects(Dog.self).count, 10)  // pins the version with 10 dogs
        let config = configuration()
        let done = expectation(description: "other thread committed")
        Thread.detachNewThread {
            do {
                let other = try Realm(configuration: config)
                try other.write { for i in 10..<20 { other.add(Dog(value: ["name": "dog\(i)"])) } }
            } catch { XCTFail("\(error)") }
            done.fulfill()
        }
        wait(for: [done], timeout: 30)
        try realm.writeCopy(toFile: url("copy.realm"))
        let copy = try Realm(configuration: configuration("copy.realm"))
        XCTAssertEqual(copy.objects(Dog.self).count, 10)
        realm.refresh()
        XCTAssertEqual(realm.objects(Dog.self).count, 20)
    }

    /// A file that grew and then lost most of its objects is larger than its data; the copy is not.
    func testCopyOfAFileThatGrewAndShrankIsSmallerThanTheFile() throws {
        let realm = try Realm(configuration: configuration())
        try addDogs(realm, 0..<5000)
        try realm.write { realm.delete(realm.objects(Dog.self).where { $0.age >= 500 }) }
        try realm.writeCopy(toFile: url("copy.realm"))
        let fileSize = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: url().path)[.size] as? Int)
        let copySize = try XCTUnwrap(
            FileManager.default.attributesOfItem(atPath: url("copy.realm").path)[.size] as? Int)
        XCTAssertLessThan(copySize * 2, fileSize, "copy \(copySize) bytes, file \(fileSize) bytes")
        let copy = try Realm(configuration: configuration("copy.realm"))
        XCTAssertEqual(copy.objects(Dog.self).count, 500)
        XCTAssertEqual(copy.objects(Dog.self).where { $0.age == 499 }.first?.name, "dog499")
    }

    func testCopyToAConfigurationWritesItsFile() throws {
        let realm = try Realm(configuration: configuration())
        try addDogs(realm, 0..<3)
        try realm.writeCopy(configuration: configuration("other.realm"))
        XCTAssertEqual(dogNames(try Realm(configuration: configuration("other.realm"))), ["dog0", "dog1", "dog2"])
        XCTAssertThrowsError(try realm.writeCopy(configuration: Realm.Configuration(inMemoryIdentifier: "copy"))) {
            error in
            XCTAssertEqual((error as? Realm.Error)?.realmCode, .fail, "\(error)")
        }
    }
}
