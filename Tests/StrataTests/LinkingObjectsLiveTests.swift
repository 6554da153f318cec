import Foundation
import Strata
import XCTest

/// A `LinkingObjects` value kept across writes follows them, as RealmSwift's live linking objects
/// do; a frozen one keeps its version.
final class LinkingObjectsLiveTests: SeedTestCase {
    func testAKeptValueFollowsLaterWritesAndOtherThreadsCommits() throws {
        let realm = try open()
        let rex = Dog(value: ["name": "rex"])
        try realm.write { realm.add(rex) }
        let owners = rex.owners
        XCTAssertEqual(owners.count, 0)
        try realm.write {
            realm.add(Person(value: ["id": 1, "name": "Ann", "dogs": [rex]] as [String: Any]))
            XCTAssertEqual(owners.map(\.name), ["Ann"], "inside the write, after the link was added")
        }
        let frozen = owners.freeze()
        let configuration = realm.configuration
        onNewThread {
            let other = try! Realm(configuration: configuration)
            let dog = other.objects(Dog.self).first!
            try! other.write { other.add(Person(value: ["id": 2, "name": "Bo", "dogs": [dog]] as [String: Any])) }
        }
        XCTAssertEqual(owners.count, 1, "this realm has not refreshed")
        realm.refresh()
        XCTAssertEqual(owners.map(\.name).sorted(), ["Ann", "Bo"])
        XCTAssertEqual(frozen.map(\.name), ["Ann"], "a frozen value keeps its version")
        try realm.write { realm.delete(realm.objects(Person.self).where { $0.id == 1 }) }
        XCTAssertEqual(owners.map(\.name), ["Bo"])
        XCTAssertEqual(owners.where { $0.name == "Bo" }.count, 1)
    }
}
