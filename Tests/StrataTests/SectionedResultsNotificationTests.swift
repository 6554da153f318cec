import Foundation
import Strata
import StrataTestSupport
import XCTest

/// `observe` on `SectionedResults` and `ResultsSection`: the initial call, then index paths and
/// section positions of what each commit changed, checked against the sections read back.
final class SectionedResultsNotificationTests: SeedTestCase {
    /// Spins the main run loop (which delivers this realm's notifications) until `condition` holds.
    private func spin(until condition: () -> Bool, file: StaticString = #filePath, line: UInt = #line) {
        let deadline = Date(timeIntervalSinceNow: 20)
        while !condition() {
            if Date() > deadline { return XCTFail("timed out", file: file, line: line) }
            _ = RunLoop.current.run(mode: .default, before: Date(timeIntervalSinceNow: 0.005))
        }
    }

    /// Spins the main run loop for a moment: long enough for a notification that is coming.
    private func drain() {
        let end = Date(timeIntervalSinceNow: 0.3)
        while Date() < end { _ = RunLoop.current.run(mode: .default, before: Date(timeIntervalSinceNow: 0.005)) }
    }

    private struct Update: Equatable {
        var keys: [String]
        var deletions: [IndexPath]
        var insertions: [IndexPath]
        var modifications: [IndexPath]
        var sectionsToInsert: IndexSet
        var sectionsToDelete: IndexSet
    }

    private func addWords(_ realm: Realm) throws {
        try realm.write {
            for word in ["banana", "box", "apple", "chalk"] { realm.add(Dog(value: ["name": word])) }
        }
    }

    private func firstLetter(_ dog: Dog) -> String { String(dog.name.prefix(1)) }

    func testSectionedResultsReportSectionAndItemChanges() throws {
        let realm = try open()
        try addWords(realm)
        let dogs = realm.objects(Dog.self)
        let sections = dogs.sectioned(by: firstLetter, sortDescriptors: [SortDescriptor(keyPath: "name")])
        var initial: [String]?
        var updates: [Update] = []
        let token = sections.observe(keyPaths: [\Dog.name]) { change in
            switch change {
            case .initial(let s): initial = s.allKeys
            case .update(let s, let d, let i, let m, let si, let sd):
                updates.append(
                    Update(
                        keys: s.allKeys, deletions: d, insertions: i, modifications: m,
                        sectionsToInsert: si, sectionsToDelete: sd))
            }
        }
        XCTAssertNil(initial, "delivered after observe returned")
        spin(until: { initial != nil })
        XCTAssertEqual(initial, ["a", "b", "c"])

        // a: apple | b: banana box | c: chalk  ->  b: bog | c: chalk | z: zebra
        try realm.write {
            realm.delete(dogs.where { $0.name == "banana" || $0.name == "apple" })
            dogs.where { $0.name == "box" }.first!.name = "bog"
            realm.add(Dog(value: ["name": "zebra"]))
        }
        spin(until: { updates.count == 1 })
        XCTAssertEqual(
            updates.first,
            Update(
                keys: ["b", "c", "z"], deletions: [IndexPath(item: 0, section: 1)],
                insertions: [IndexPath(item: 0, section: 2)], modifications: [IndexPath(item: 1, section: 1)],
                sectionsToInsert: [2], sectionsToDelete: [0]))
        XCTAssertEqual(sections.map { $0.map(\.name) }, [["bog"], ["chalk"], ["zebra"]])

        // A change of another property than the key paths observed delivers nothing.
        try realm.write { dogs.where { $0.name == "chalk" }.first!.age = 9 }
        drain()
        XCTAssertEqual(updates.count, 1)
        try realm.write { realm.add(Dog(value: ["name": "cat"])) }
        spin(until: { updates.count == 2 })
        XCTAssertEqual(updates.last?.insertions, [IndexPath(item: 0, section: 1)])
        XCTAssertEqual(updates.last?.sectionsToInsert, [])
        token.invalidate()
    }

    func testAnElementMovingWithinItsSectionIsDeletedAndInserted() throws {
        let realm = try open()
        try addWords(realm)
        let dogs = realm.objects(Dog.self)
        let sections = dogs.sectioned(by: firstLetter, sortDescriptors: [SortDescriptor(keyPath: "name")])
        var initial = false
        var updates: [Update] = []
        let token = sections.observe { change in
            switch change {
            case .initial: initial = true
            case .update(let s, let d, let i, let m, let si, let sd):
                updates.append(
                    Update(
                        keys: s.allKeys, deletions: d, insertions: i, modifications: m, sectionsToInsert: si,
                        sectionsToDelete: sd))
            }
        }
        spin(until: { initial })
        // b: banana box -> b: box bz
        try realm.write { dogs.where { $0.name == "banana" }.first!.name = "bz" }
        spin(until: { updates.count == 1 })
        XCTAssertEqual(updates.first?.deletions, [IndexPath(item: 0, section: 1)])
        XCTAssertEqual(updates.first?.insertions, [IndexPath(item: 1, section: 1)])
        XCTAssertEqual(updates.first?.modifications, [])
        XCTAssertEqual(sections[1].map(\.name), ["box", "bz"])
        token.invalidate()
    }

    /// Applies each change set to the previous sections, as a table view applies batch updates
    /// (deletions in previous positions, then insertions in new ones), and compares the result
    /// with the sections read back, over random writes. Each dog is identified by its age (unique
    /// here, never changed); its name decides its section and position.
    func testChangeSetsTurnThePreviousSectionsIntoTheNewOnes() throws {
        let realm = try open()
        var random = SeededRandom(seed: 77)
        let letters = ["a", "b", "c", "d", "e"]
        var serial = 0
        func name() -> String { letters[random.below(5)] + String(random.below(1000)) }
        try realm.write {
            for _ in 0..<12 {
                serial += 1
                realm.add(Dog(value: ["name": name(), "age": serial]))
            }
        }
        let dogs = realm.objects(Dog.self)
        let sections = dogs.sectioned(
            by: firstLetter, sortDescriptors: [SortDescriptor(keyPath: "name"), SortDescriptor(keyPath: "age")])
        var shown: [[Int]] = []
        var deliveries = 0
        let token = sections.observe { change in
            switch change {
            case .initial(let s): shown = s.map { $0.map(\.age) }
            case .update(let s, let deletions, let insertions, _, let sectionsToInsert, let sectionsToDelete):
                let now = s.map { $0.map(\.age) }
                for path in deletions.reversed() { shown[path.section].remove(at: path.item) }
                for section in sectionsToDelete.reversed() { shown.remove(at: section) }
                for section in sectionsToInsert { shown.insert([], at: section) }
                for path in insertions { shown[path.section].insert(now[path.section][path.item], at: path.item) }
            }
            deliveries += 1
        }
        spin(until: { deliveries == 1 })
        for round in 0..<40 {
            try realm.write {
                let all = Array(dogs)
                for _ in 0..<(1 + random.below(2)) {
                    switch all.isEmpty ? 0 : random.below(3) {
                    case 0:
                        serial += 1
                        realm.add(Dog(value: ["name": name(), "age": serial]))
                    case 1:
                        let dog = all[random.below(all.count)]
                        if !dog.isInvalidated { realm.delete(dog) }
                    default:
                        let dog = all[random.below(all.count)]
                        if !dog.isInvalidated { dog.name = name() }
                    }
                }
            }
            spin(until: { deliveries == round + 2 })
            XCTAssertEqual(shown, sections.map { $0.map(\.age) }, "round \(round)")
        }
        token.invalidate()
    }

    func testSectionObserverSeesOnlyItsOwnKey() throws {
        let realm = try open()
        try addWords(realm)
        let dogs = realm.objects(Dog.self)
        let sections = dogs.sectioned(by: firstLetter, sortDescriptors: [SortDescriptor(keyPath: "name")])
        let aSection = sections[0]
        let bSection = sections[1]
        var aUpdates: [Update] = []
        var bUpdates: [Update] = []
        var initials = 0
        func record(_ change: SectionedResultsChange<ResultsSection<String, Dog>>, into updates: inout [Update]) {
            switch change {
            case .initial: initials += 1
            case .update(let s, let d, let i, let m, let si, let sd):
                updates.append(
                    Update(
                        keys: [s.key], deletions: d, insertions: i, modifications: m,
                        sectionsToInsert: si, sectionsToDelete: sd))
            }
        }
        let aToken = aSection.observe { record($0, into: &aUpdates) }
        let bToken = bSection.observe { record($0, into: &bUpdates) }
        spin(until: { initials == 2 })

        try realm.write { realm.delete(dogs.where { $0.name == "banana" || $0.name == "apple" }) }
        spin(until: { aUpdates.count == 1 && bUpdates.count == 1 })
        XCTAssertEqual(aUpdates.first?.sectionsToDelete, [0])
        XCTAssertEqual(aUpdates.first?.deletions, [])
        XCTAssertEqual(bUpdates.first?.deletions, [IndexPath(item: 0, section: 0)])
        XCTAssertEqual(bUpdates.first?.sectionsToDelete, [])

        // A change in section c only: neither observer is called.
        try realm.write { realm.add(Dog(value: ["name": "cup"])) }
        drain()
        XCTAssertEqual(aUpdates.count, 1)
        XCTAssertEqual(bUpdates.count, 1)

        try realm.write { realm.add(Dog(value: ["name": "app"])) }
        spin(until: { aUpdates.count == 2 })
        XCTAssertEqual(aUpdates.last?.sectionsToInsert, [0])
        XCTAssertEqual(aUpdates.last?.insertions, [IndexPath(item: 0, section: 0)])
        XCTAssertEqual(aSection.map(\.name), ["app"])
        XCTAssertEqual(bUpdates.count, 1)
        aToken.invalidate()
        bToken.invalidate()
    }
}
