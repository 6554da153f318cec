import Foundation
import Strata
import StrataTestSupport
import XCTest

extension Dog {
    /// A computed property: not persisted, so not a sort key.
    fileprivate var initial: String { String(name.prefix(1)) }
}

/// `sectioned(by:)` on `Results`, `List`, `MutableSet` and `LinkingObjects`: keys and sections
/// checked against a Swift grouping of the same objects, live after writes, frozen and thawed.
final class SectionedResultsTests: SeedTestCase {
    private static let names = ["Ada", "Bo", "Bob", "Cy", "Cyd", "Dot", "Eve", "Fay", "Flo", "Gus", "Hal", "Ivy"]
    private static let breeds: [String?] = [nil, "Collie", "Husky", "Pug"]

    /// A plain copy of a dog, for the Swift side of the comparisons.
    private struct Plain {
        var name: String
        var age: Int
        var breed: String? = nil
    }

    /// Adds `count` random dogs and returns what was added.
    private func addRandomDogs(_ realm: Realm, count: Int, seed: UInt64) throws -> [Plain] {
        var random = SeededRandom(seed: seed)
        var plain: [Plain] = []
        try realm.write {
            for _ in 0..<count {
                let p = Plain(
                    name: Self.names[random.below(Self.names.count)], age: random.below(6),
                    breed: Self.breeds[random.below(Self.breeds.count)])
                plain.append(p)
                realm.add(Dog(value: ["name": p.name, "age": p.age, "breed": p.breed as Any]))
            }
        }
        return plain
    }

    /// The sections Swift makes of `dogs` sorted by `areInIncreasingOrder`: keys in order of
    /// first appearance, each with its dogs' names in sort order.
    private func grouping<K: Hashable>(
        _ dogs: [Plain], by key: (Plain) -> K, sortedBy areInIncreasingOrder: (Plain, Plain) -> Bool
    ) -> [(key: K, names: [String])] {
        var result: [(key: K, names: [String])] = []
        var index: [K: Int] = [:]
        for dog in dogs.sorted(by: areInIncreasingOrder) {
            let k = key(dog)
            if let i = index[k] {
                result[i].names.append(dog.name)
            } else {
                index[k] = result.count
                result.append((k, [dog.name]))
            }
        }
        return result
    }

    private func assertSections<K: Hashable>(
        _ sections: SectionedResults<K, Dog>, _ expected: [(key: K, names: [String])], file: StaticString = #filePath,
        line: UInt = #line
    ) {
        XCTAssertEqual(sections.count, expected.count, file: file, line: line)
        XCTAssertEqual(sections.allKeys, expected.map(\.key), file: file, line: line)
        XCTAssertEqual(sections.map(\.key), expected.map(\.key), file: file, line: line)
        for (section, want) in zip(sections, expected) {
            XCTAssertEqual(section.count, want.names.count, file: file, line: line)
            XCTAssertEqual(section.map(\.name), want.names, "section \(want.key)", file: file, line: line)
        }
    }

    func testSectionsByAPropertyMatchASwiftGroupingInBothDirections() throws {
        let realm = try open()
        let plain = try addRandomDogs(realm, count: 60, seed: 21)
        let dogs = realm.objects(Dog.self)
        for ascending in [true, false] {
            let sections = dogs.sectioned(
                by: \.age,
                sortDescriptors: [
                    SortDescriptor(keyPath: "age", ascending: ascending), SortDescriptor(keyPath: "name"),
                ])
            let expected = grouping(plain, by: \.age) {
                $0.age != $1.age ? (ascending ? $0.age < $1.age : $0.age > $1.age) : $0.name < $1.name
            }
            assertSections(sections, expected)
            // The key path form sorts by the key alone: same keys, same members.
            let byKeyPath = dogs.sectioned(by: \.age, ascending: ascending)
            XCTAssertEqual(byKeyPath.allKeys, expected.map(\.key))
            XCTAssertEqual(byKeyPath.map { $0.map(\.name).sorted() }, expected.map { $0.names.sorted() })
        }
    }

    func testSectionsByABlockGroupNamesByFirstLetter() throws {
        let realm = try open()
        let plain = try addRandomDogs(realm, count: 50, seed: 7)
        let sections = realm.objects(Dog.self).sectioned(
            by: { String($0.name.prefix(1)) }, sortDescriptors: [SortDescriptor(keyPath: "name")])
        let expected = grouping(plain, by: { String($0.name.prefix(1)) }, sortedBy: { $0.name < $1.name })
        assertSections(sections, expected)
        XCTAssertEqual(sections.allKeys, Array(Set(plain.map { String($0.name.prefix(1)) })).sorted())
    }

    func testOptionalKeysMakeASectionForNil() throws {
        let realm = try open()
        let plain = try addRandomDogs(realm, count: 40, seed: 3)
        let sections = realm.objects(Dog.self).sectioned(
            by: \.breed, sortDescriptors: [SortDescriptor(keyPath: "breed"), SortDescriptor(keyPath: "name")])
        let expected = grouping(plain, by: \.breed) {
            $0.breed != $1.breed ? ($0.breed ?? "") < ($1.breed ?? "") : $0.name < $1.name
        }
        XCTAssertEqual(expected.first?.key, String?.none, "nil sorts first")
        assertSections(sections, expected)
    }

    func testRandomWritesKeepTheLiveSectionsEqualToASwiftGrouping() throws {
        let realm = try open()
        var random = SeededRandom(seed: 2101)
        var model: [String: Int] = [:]  // name -> age, the Swift side
        var serial = 0
        let dogs = realm.objects(Dog.self)
        let sections = dogs.sectioned(
            by: \.age, sortDescriptors: [SortDescriptor(keyPath: "age"), SortDescriptor(keyPath: "name")])
        func expected() -> [(key: Int, names: [String])] {
            grouping(model.map { Plain(name: $0.key, age: $0.value) }, by: \.age) {
                $0.age != $1.age ? $0.age < $1.age : $0.name < $1.name
            }
        }
        for step in 0..<150 {
            try realm.write {
                for _ in 0..<(1 + random.below(3)) {
                    let names = model.keys.sorted()
                    switch names.isEmpty ? 0 : random.below(4) {
                    case 0, 1:
                        serial += 1
                        let name = "D" + String(1000 + serial)
                        let age = random.below(8)
                        model[name] = age
                        realm.add(Dog(value: ["name": name, "age": age]))
                    case 2:
                        let name = names[random.below(names.count)]
                        model[name] = nil
                        realm.delete(dogs.where { $0.name == name })
                    default:
                        let name = names[random.below(names.count)]
                        let age = random.below(8)
                        model[name] = age
                        dogs.where { $0.name == name }.first!.age = age
                    }
                }
                if step % 10 == 0 { assertSections(sections, expected()) }  // inside the write
            }
            assertSections(sections, expected())
        }
        XCTAssertGreaterThan(sections.count, 3, "the run made several sections")
    }

    func testFrozenSectionsAreComputedOnceWhenReadFromSeveralThreadsAtOnce() throws {
        let realm = try open()
        let plain = try addRandomDogs(realm, count: 200, seed: 11)
        let want = grouping(plain, by: \.age) {
            $0.age != $1.age ? $0.age < $1.age : $0.name < $1.name
        }.map { "\($0.key):\($0.names.joined(separator: ","))" }
        for _ in 0..<5 {
            nonisolated(unsafe) let frozen = realm.objects(Dog.self).sectioned(
                by: \.age, sortDescriptors: [SortDescriptor(keyPath: "age"), SortDescriptor(keyPath: "name")]
            ).freeze()
            let seen = Locked<[[String]]>([])
            let group = DispatchGroup()
            for _ in 0..<4 {
                group.enter()
                Thread.detachNewThread {
                    let read = frozen.map { "\($0.key):\($0.map(\.name).joined(separator: ","))" }
                    seen.mutate { $0.append(read) }
                    group.leave()
                }
            }
            XCTAssertEqual(group.wait(timeout: .now() + 30), .success)
            XCTAssertEqual(seen.value.count, 4)
            for read in seen.value { XCTAssertEqual(read, want) }
        }
    }

    func testSubscriptsByPositionAndIndexPathAndSectionIdentity() throws {
        let realm = try open()
        try realm.write {
            for (name, age) in [("Rex", 3), ("Ada", 1), ("Bo", 3), ("Cy", 1), ("Dot", 7)] {
                realm.add(Dog(value: ["name": name, "age": age]))
            }
        }
        let sections = realm.objects(Dog.self).sectioned(
            by: \.age, sortDescriptors: [SortDescriptor(keyPath: "age"), SortDescriptor(keyPath: "name")])
        XCTAssertEqual(sections.allKeys, [1, 3, 7])
        XCTAssertEqual(sections[1].key, 3)
        XCTAssertEqual(sections[1].id, 3)
        XCTAssertEqual(sections[1].map(\.name), ["Bo", "Rex"])
        XCTAssertEqual(sections[1][1].name, "Rex")
        XCTAssertEqual(sections[IndexPath(item: 1, section: 0)].name, "Cy")
        XCTAssertEqual(sections[IndexPath(item: 0, section: 2)].name, "Dot")
        XCTAssertEqual(IndexPath(item: 4, section: 2).section, 2)
        XCTAssertEqual(IndexPath(item: 4, section: 2).item, 4)
        XCTAssertEqual(sections.first?.first?.name, "Ada")
        XCTAssertEqual(sections.last?.last?.name, "Dot")
        XCTAssertEqual(sections[0], sections[0])
        XCTAssertNotEqual(sections[0], sections[1])
        XCTAssertEqual(sections, sections)
        let again = realm.objects(Dog.self).sectioned(by: \.age, ascending: true)
        XCTAssertNotEqual(sections, again, "separately made sectioned results differ, as in RealmSwift")
        XCTAssertFalse(sections.isFrozen)
        XCTAssertFalse(sections.isInvalidated)
        XCTAssertTrue(sections.realm == realm)
    }

    func testSectionsFollowInsertsDeletesAndKeyChanges() throws {
        let realm = try open()
        try realm.write {
            for (name, age) in [("Ada", 1), ("Bo", 2), ("Cy", 2)] { realm.add(Dog(value: ["name": name, "age": age])) }
        }
        let dogs = realm.objects(Dog.self)
        let sections = dogs.sectioned(
            by: \.age, sortDescriptors: [SortDescriptor(keyPath: "age"), SortDescriptor(keyPath: "name")])
        let ones = sections[0]
        XCTAssertEqual(sections.allKeys, [1, 2])

        try realm.write { realm.add(Dog(value: ["name": "Dot", "age": 0])) }
        XCTAssertEqual(sections.allKeys, [0, 1, 2])
        XCTAssertEqual(sections[0].map(\.name), ["Dot"])

        // Moving the only dog of age 1 to age 2 removes its section; the section value held
        // is then empty and invalidated, and fills again when the key comes back.
        let ada = try XCTUnwrap(dogs.where { $0.name == "Ada" }.first)
        try realm.write { ada.age = 2 }
        XCTAssertEqual(sections.allKeys, [0, 2])
        XCTAssertEqual(sections[1].map(\.name), ["Ada", "Bo", "Cy"])
        XCTAssertEqual(ones.count, 0)
        XCTAssertTrue(ones.isInvalidated)

        try realm.write {
            realm.delete(dogs.where { $0.name == "Dot" })
            realm.add(Dog(value: ["name": "Eve", "age": 1]))
            // Inside the write the sections show the write's own changes.
            XCTAssertEqual(sections.allKeys, [1, 2])
        }
        XCTAssertEqual(ones.map(\.name), ["Eve"])
        XCTAssertFalse(ones.isInvalidated)
        XCTAssertEqual(sections.map(\.count), [1, 3])
    }

    func testFrozenSectionsKeepTheirVersionAndThawFollowsTheRealm() throws {
        let realm = try open()
        try realm.write {
            for (name, age) in [("Ada", 1), ("Bo", 2)] { realm.add(Dog(value: ["name": name, "age": age])) }
        }
        let live = realm.objects(Dog.self).sectioned(by: \.age, ascending: true)
        let frozen = live.freeze()
        let frozenSection = live[1].freeze()
        XCTAssertTrue(frozen.isFrozen)
        XCTAssertTrue(frozenSection.isFrozen)
        try realm.write {
            realm.add(Dog(value: ["name": "Cy", "age": 3]))
            realm.add(Dog(value: ["name": "Dot", "age": 2]))
        }
        XCTAssertEqual(live.allKeys, [1, 2, 3])
        XCTAssertEqual(frozen.allKeys, [1, 2])
        XCTAssertEqual(frozen[1].map(\.name), ["Bo"])
        XCTAssertEqual(frozenSection.map(\.name), ["Bo"])

        // Frozen sections are readable from another thread.
        let other = Locked<[String]>([])
        let done = expectation(description: "read on another thread")
        nonisolated(unsafe) let shared = frozen
        Thread.detachNewThread {
            other.value = shared.flatMap { $0.map(\.name) }
            done.fulfill()
        }
        wait(for: [done], timeout: 10)
        XCTAssertEqual(other.value, ["Ada", "Bo"])

        let thawed = try XCTUnwrap(frozen.thaw())
        XCTAssertFalse(thawed.isFrozen)
        XCTAssertEqual(thawed.allKeys, [1, 2, 3])
        XCTAssertEqual(Set(thawed[1].map(\.name)), ["Bo", "Dot"])
        let thawedSection = try XCTUnwrap(frozenSection.thaw())
        XCTAssertEqual(thawedSection.key, 2)
        XCTAssertEqual(thawedSection.count, 2)

        // Sectioning frozen results gives frozen sections.
        let fromFrozenResults = realm.objects(Dog.self).freeze().sectioned(by: \.age, ascending: false)
        XCTAssertTrue(fromFrozenResults.isFrozen)
        XCTAssertEqual(fromFrozenResults.allKeys, [3, 2, 1])
    }

    func testListSetAndLinkingObjectsAreSectionedInTheirOwnScope() throws {
        let realm = try open()
        try realm.write {
            let person = Person()
            person.id = 1
            person.dogs.append(objectsIn: [
                Dog(value: ["name": "Rex", "age": 5]), Dog(value: ["name": "Bo", "age": 2]),
                Dog(value: ["name": "Ada", "age": 5]),
            ])
            realm.add(person)
            realm.add(Dog(value: ["name": "Stray", "age": 2]))
            let kennel = CollectionKennel()
            kennel.id = 1
            kennel.residents.insert(objectsIn: person.dogs)
            realm.add(kennel)
            let other = Person()
            other.id = 2
            other.name = "Ann"
            other.dogs.append(person.dogs[0])
            realm.add(other)
            person.name = "Zed"
        }
        let person = try XCTUnwrap(realm.object(ofType: Person.self, forPrimaryKey: 1))
        let byAge = person.dogs.sectioned(by: \.age, ascending: false)
        XCTAssertEqual(byAge.allKeys, [5, 2])
        XCTAssertEqual(Set(byAge[0].map(\.name)), ["Rex", "Ada"])
        XCTAssertEqual(byAge[1].map(\.name), ["Bo"], "the stray dog of age 2 is not in the list")

        let kennel = try XCTUnwrap(realm.object(ofType: CollectionKennel.self, forPrimaryKey: 1))
        let byInitial = kennel.residents.sectioned(
            by: { String($0.name.prefix(1)) }, sortDescriptors: [SortDescriptor(keyPath: "name")])
        XCTAssertEqual(byInitial.allKeys, ["A", "B", "R"])

        let rex = person.dogs[0]
        let owners = rex.owners.sectioned(by: \.name, ascending: true)
        XCTAssertEqual(owners.allKeys, ["Ann", "Zed"])

        // The list's sections follow the list, and are invalidated with its owner.
        try realm.write { person.dogs.append(realm.objects(Dog.self).where { $0.name == "Stray" }.first!) }
        XCTAssertEqual(byAge[1].map(\.name).sorted(), ["Bo", "Stray"])
        let frozenByAge = byAge.freeze()
        XCTAssertTrue(frozenByAge.isFrozen)
        try realm.write { realm.delete(person) }
        XCTAssertTrue(byAge.isInvalidated)
        XCTAssertEqual(byAge.count, 0)
        XCTAssertEqual(frozenByAge.allKeys, [5, 2], "frozen sections keep the deleted owner's list")
        XCTAssertNil(frozenByAge.thaw(), "the owner is gone from the live realm")
        XCTAssertEqual(owners.allKeys, ["Ann"])
    }

    func testSectioningByAComputedKeyPathIsReportedOnceAndKeepsTheOrder() throws {
        let realm = try open()
        try realm.write {
            for name in ["Bo", "Ada", "Bob"] { realm.add(Dog(value: ["name": name])) }
        }
        let sections = realm.objects(Dog.self).sectioned(by: \.initial, ascending: true)
        let violations = takeViolations()
        XCTAssertEqual(violations.count, 1)
        XCTAssertTrue(violations.first?.contains("is not a persisted property of Dog") ?? false, "\(violations)")
        XCTAssertEqual(sections.allKeys, ["B", "A"], "unsorted: the objects' order")
        XCTAssertEqual(sections[0].map(\.name), ["Bo", "Bob"])
        let person = Person()
        person.id = 1
        try realm.write { realm.add(person) }
        XCTAssertEqual(person.dogs.sectioned(by: \.initial, ascending: true).count, 0)
        XCTAssertEqual(takeViolations().count, 1)
    }

    func testSectioningWithoutSortDescriptorsIsReported() throws {
        let realm = try open()
        try realm.write { realm.add(Dog(value: ["name": "Ada", "age": 1])) }
        let sections = realm.objects(Dog.self).sectioned(by: { $0.age }, sortDescriptors: [])
        XCTAssertEqual(takeViolations(), ["There must be at least one SortDescriptor when using SectionedResults."])
        XCTAssertEqual(sections.allKeys, [1])
    }
}
