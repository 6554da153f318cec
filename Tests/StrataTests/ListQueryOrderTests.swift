import Foundation
import Strata
import StrataTestSupport
import XCTest

/// The results of a query on a `List` come out in the list's current order: after moves, inserts,
/// swaps and removals within one write transaction (read before and after each change, from the
/// same `Results` and from new ones), after the write commits, and in later transactions. Checked
/// on a list the store reads element by element (short) and on one it matches against a scan of
/// the table (a list holding most of the table).
final class ListQueryOrderTests: SeedTestCase {
    /// A person whose list holds `count` new dogs named `dog-0`, `dog-1`, ... aged `i * 7 % 20`,
    /// added in a shuffled order, and the realm.
    private func makePerson(_ realm: Realm, count: Int, _ rng: inout SeededRandom) throws -> Person {
        var dogs = (0..<count).map { Dog(value: ["name": "dog-\($0)", "age": $0 * 7 % 20]) }
        dogs.shuffle(using: &rng)
        let person = Person()
        person.id = 1
        try realm.write {
            realm.add(person)
            person.dogs.append(objectsIn: dogs)
        }
        return person
    }

    /// Checks `results` (and a query made now) against a Swift evaluation over the list as it is.
    private func check(
        _ results: Results<Dog>, _ person: Person, _ what: String, line: UInt = #line
    ) {
        let expected = person.dogs.map { $0 }.filter { $0.age > 10 }.map(\.name)
        for (label, r) in [("held", results), ("new", person.dogs.where { $0.age > 10 })] {
            XCTAssertEqual(r.count, expected.count, "\(what), \(label) results: count", line: line)
            XCTAssertEqual(r.first?.name, expected.first, "\(what), \(label) results: first", line: line)
            XCTAssertEqual(r.last?.name, expected.last, "\(what), \(label) results: last", line: line)
            if expected.count > 2 {
                XCTAssertEqual(r[2].name, expected[2], "\(what), \(label) results: [2]", line: line)
            }
            XCTAssertEqual(r.map(\.name), expected, "\(what), \(label) results: order", line: line)
        }
    }

    private func checkEdits(count: Int, seed: UInt64) throws {
        let realm = try open()
        var rng = SeededRandom(seed: seed)
        let person = try makePerson(realm, count: count, &rng)
        let results = person.dogs.where { $0.age > 10 }
        check(results, person, "\(count) dogs after the first commit")

        try realm.write {
            let last = person.dogs.count - 1
            person.dogs.move(from: last, to: 0)
            check(results, person, "\(count): in the write, the last element moved to the front")
            person.dogs.move(from: 0, to: last)
            person.dogs.move(from: 1, to: last)
            check(results, person, "\(count): in the write, the second element moved to the end")
            person.dogs.insert(Dog(value: ["name": "new-front", "age": 15]), at: 0)
            person.dogs.append(Dog(value: ["name": "new-end", "age": 19]))
            check(results, person, "\(count): in the write, old dogs inserted at both ends")
            person.dogs.insert(person.dogs[person.dogs.count / 2], at: 1)
            check(results, person, "\(count): in the write, an element repeated near the front")
            person.dogs.swapAt(0, person.dogs.count - 1)
            person.dogs.remove(at: person.dogs.count / 3)
            check(results, person, "\(count): in the write, a swap and a removal")
        }
        check(results, person, "\(count): after the commit")

        // Each later transaction reads the list as committed.
        for round in 0..<3 {
            try realm.write {
                let from = rng.below(person.dogs.count)
                let to = rng.below(person.dogs.count)
                person.dogs.move(from: from, to: to)
                person.dogs.move(fromOffsets: IndexSet([0, 2, 4]), toOffset: person.dogs.count)
            }
            check(results, person, "\(count): after moves committed in transaction \(round)")
        }
        // Frozen results keep the order of their snapshot while live ones follow later moves.
        let frozen = results.freeze()
        let frozenOrder = results.map(\.name)
        try realm.write { person.dogs.move(from: 0, to: person.dogs.count - 1) }
        check(results, person, "\(count): after the last move")
        XCTAssertEqual(frozen.map(\.name), frozenOrder, "\(count): frozen results")
        XCTAssertEqual(frozen.last?.name, frozenOrder.last, "\(count): frozen results' last")
    }

    func testQueryOfALargeListFollowsItsOrderThroughEdits() throws {
        try checkEdits(count: 3_000, seed: 31)
    }

    func testQueryOfAShortListFollowsItsOrderThroughEdits() throws {
        try checkEdits(count: 40, seed: 32)
    }
}
