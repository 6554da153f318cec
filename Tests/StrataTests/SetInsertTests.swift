import Foundation
import Strata
import XCTest

/// Inserting into a managed `MutableSet`: members stay unique however they arrive (one by one,
/// together, already stored, the same new object twice), and the set reads back right within
/// the same write.
final class SetInsertTests: SeedTestCase {
    func testInsertsKeepMembersUniqueAcrossAndWithinWrites() throws {
        let realm = try open()
        let kennel = CollectionKennel(value: ["id": 1])
        let rex = Dog(value: ["name": "rex"])
        try realm.write { realm.add([kennel, rex] as [Object]) }
        let newcomer = Dog(value: ["name": "new"])
        try realm.write {
            for i in 0..<40 {
                kennel.residents.insert(i % 10 == 0 ? rex : Dog(value: ["name": "d\(i)"]))
                XCTAssertEqual(kennel.residents.count, i < 10 ? i + 1 : i - (i / 10) + 1)
            }
            kennel.residents.insert(objectsIn: [newcomer, rex, newcomer])
            XCTAssertEqual(kennel.residents.count, 38)
        }
        try realm.write { kennel.residents.insert(objectsIn: Array(kennel.residents)) }
        XCTAssertEqual(kennel.residents.count, 38)
        XCTAssertEqual(realm.objects(Dog.self).count, 38, "rex, 36 new dogs and the newcomer, each added once")
        XCTAssertTrue(kennel.residents.contains(rex))
        XCTAssertTrue(kennel.residents.contains(newcomer))
        XCTAssertEqual(Set(kennel.residents.map(\.name)).count, 38)
    }

    func testInsertingValuesKeepsOneOfEach() throws {
        let realm = try open()
        let item = Item()
        try realm.write { realm.add(item) }
        try realm.write {
            for tag in ["a", "b", "a", "c", "b", "é"] { item.tags.insert(tag) }
            item.tags.insert(objectsIn: ["d", "a", "d"])
        }
        XCTAssertEqual(item.tags.sorted(), ["a", "b", "c", "d", "é"])
        try realm.write { item.tags.insert("a") }
        XCTAssertEqual(item.tags.count, 5)
    }

    func testInsertOutsideAWriteChangesNothing() throws {
        let realm = try open()
        let item = Item()
        try realm.write { realm.add(item) }
        item.tags.insert("outside")
        XCTAssertEqual(takeViolations().count, 1)
        XCTAssertEqual(item.tags.count, 0)
    }
}
