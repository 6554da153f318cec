import Foundation
import Strata
import StrataTestSupport
import XCTest

/// `List` as a `RangeReplaceableCollection`: slice assignment of another length and the editing
/// methods, on unmanaged and managed lists, each one change of the stored list; indexes and ranges
/// outside the list are reported and change nothing.
final class ListEditingTests: SeedTestCase {
    private func names(_ list: List<Dog>) -> [String] { list.map(\.name) }

    private func dogs(_ names: String...) -> [Dog] { names.map { Dog(value: ["name": $0]) } }

    /// Runs `edit` on an unmanaged list and on a managed one holding `start`, and checks both end
    /// as `expected`.
    private func check(
        _ start: [String], _ expected: [String], _ what: String, line: UInt = #line, _ edit: (List<Dog>) -> Void
    ) throws {
        let unmanaged = List<Dog>()
        unmanaged.append(objectsIn: start.map { Dog(value: ["name": $0]) })
        edit(unmanaged)
        XCTAssertEqual(names(unmanaged), expected, "unmanaged: \(what)", line: line)

        let realm = try open()
        let person = Person()
        person.id = Int.random(in: 1...Int.max)
        person.dogs.append(objectsIn: start.map { Dog(value: ["name": $0]) })
        try realm.write { realm.add(person) }
        try realm.write { edit(person.dogs) }
        XCTAssertEqual(names(person.dogs), expected, "managed: \(what)", line: line)
        let reread = try XCTUnwrap(realm.object(ofType: Person.self, forPrimaryKey: person.id))
        XCTAssertEqual(names(reread.dogs), expected, "managed, read again: \(what)", line: line)
    }

    func testSliceAssignmentShrinksAndGrowsTheList() throws {
        try check(["a", "b", "c", "d"], ["b", "c", "d"], "list[0..<2] = list[1..<2]") { list in
            list[0..<2] = list[1..<2]
        }
        try check(["a", "b"], ["a", "x", "y", "z", "b"], "list[1..<1] = three new") { list in
            let added = List<Dog>()
            added.append(objectsIn: ["x", "y", "z"].map { Dog(value: ["name": $0]) })
            list[1..<1] = added[0..<3]
        }
        try check(["a", "b", "c"], ["a", "b", "c"], "list[0..<3] read back as a slice") { list in
            XCTAssertEqual(list[1..<3].map(\.name), ["b", "c"])
        }
    }

    func testEditingMethods() throws {
        try check(["a", "d"], ["a", "b", "c", "d"], "insert(contentsOf:at:)") { list in
            list.insert(contentsOf: ["b", "c"].map { Dog(value: ["name": $0]) }, at: 1)
        }
        try check(["a", "b", "c", "d"], ["c", "d"], "removeFirst(2)") { $0.removeFirst(2) }
        try check(["a", "b", "c"], ["b", "c"], "removeFirst()") { $0.removeFirst() }
        try check(["a", "b", "c", "d"], ["a"], "removeLast(3)") { $0.removeLast(3) }
        try check(["a", "b", "c", "d"], ["a", "d"], "removeSubrange(1..<3)") { $0.removeSubrange(1..<3) }
        try check(["a", "b", "c"], ["a", "x", "c"], "replaceSubrange(1..<2, with: one)") { list in
            list.replaceSubrange(1..<2, with: [Dog(value: ["name": "x"])])
        }
        try check(["a", "b", "c", "d", "e"], ["a", "c", "e"], "remove(atOffsets: [1, 3])") { list in
            list.remove(atOffsets: IndexSet([1, 3]))
        }
        try check(["a", "b", "c", "d", "e"], ["b", "d", "a", "c", "e"], "move(fromOffsets: [0, 2], toOffset: 4)") {
            list in
            list.move(fromOffsets: IndexSet([0, 2]), toOffset: 4)
        }
        try check(["a", "b", "c"], ["c", "a", "b"], "move(fromOffsets: [2], toOffset: 0)") { list in
            list.move(fromOffsets: IndexSet([2]), toOffset: 0)
        }
        try check(["a", "b", "c"], ["a", "b", "c", "x"], "generic RangeReplaceableCollection code") { list in
            func appendGenerically<C: RangeReplaceableCollection>(_ c: inout C, _ e: C.Element) { c.append(e) }
            var alias = list
            appendGenerically(&alias, Dog(value: ["name": "x"]))
        }
    }

    func testEditsOutsideTheListAreReportedAndChangeNothing() throws {
        try check(["a", "b"], ["a", "b"], "out of range") { list in
            list.removeFirst(3)
            list.removeLast(-1)
            list.removeSubrange(1..<5)
            list.replaceSubrange(2..<3, with: [Dog()])
            list.insert(contentsOf: [Dog()], at: 3)
            list.remove(atOffsets: IndexSet([0, 2]))
            list.move(fromOffsets: IndexSet([0]), toOffset: 3)
        }
        XCTAssertEqual(takeViolations().count, 14, "each of the seven edits is reported, unmanaged and managed")
        try check([], [], "empty") { $0.removeFirst() }
        XCTAssertEqual(
            takeViolations(),
            ["Cannot remove the first element of an empty List.", "Cannot remove the first element of an empty List."])
    }

    func testEditingAManagedListOutsideAWriteIsReported() throws {
        let realm = try open()
        let person = Person()
        person.id = 1
        person.dogs.append(objectsIn: dogs("a", "b"))
        try realm.write { realm.add(person) }
        person.dogs.removeFirst(1)
        person.dogs[0..<1] = person.dogs[1..<2]
        XCTAssertEqual(names(person.dogs), ["a", "b"])
        XCTAssertEqual(
            takeViolations(),
            Array(repeating: "Cannot modify managed objects outside of a write transaction.", count: 2))
    }
}
