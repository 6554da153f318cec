import XCTest
@testable import StrataCore
import StrataStorage

/// Backlink counts across list edits that keep most elements in place.
extension LinkTests {
    func testListEditsKeepBacklinkCountsIncludingDuplicates() throws {
        var rng = CoreRandom(seed: 77)
        try write(Self.tables) { txn in
            for n in 0..<6 { try txn.insert(into: Self.dog, values: [.string("d\(n)"), .null]) }
            try txn.insert(into: Self.person, values: personValues(1, dogs: [0, 1, 1, 2]))
        }
        var dogs: [Int64] = [0, 1, 1, 2]
        for round in 0..<200 {
            var next = dogs
            let kind = Int.random(in: 0..<7, using: &rng)
            let dog = Int64.random(in: 0..<6, using: &rng)
            switch kind {
            case 0: next.append(dog)
            case 1: next.insert(dog, at: Int.random(in: 0...next.count, using: &rng))
            case 2 where !next.isEmpty: next.remove(at: Int.random(in: 0..<next.count, using: &rng))
            case 3 where !next.isEmpty:
                let from = Int.random(in: 0..<next.count, using: &rng)
                let moved = next.remove(at: from)
                next.insert(moved, at: Int.random(in: 0...next.count, using: &rng))
            case 4 where next.count > 1: next.swapAt(0, next.count - 1)
            case 5 where !next.isEmpty: next[Int.random(in: 0..<next.count, using: &rng)] = dog
            case 6: next = Array(next.prefix(next.count / 2)) + [dog, dog]
            default: next.append(dog)
            }
            try write(Self.tables) { txn in
                try txn.set(Self.person, key: 1, column: pDogs, to: .list(next.map(StoreValue.link)))
                try checkLinkInvariants(txn, "round \(round), edit \(kind): \(dogs) -> \(next)")
            }
            dogs = next
        }
    }

    func testDifferingMiddlesDropTheSharedHeadAndTail() {
        func middles(_ a: [Int64], _ b: [Int64]) -> [[Int64]] {
            let (x, y) = StoreTransaction.differingMiddles(a, b)
            return [Array(x), Array(y)]
        }
        XCTAssertEqual(middles([1, 2, 3], [1, 2, 3, 4]), [[], [4]])
        XCTAssertEqual(middles([1, 2, 3], [0, 1, 2, 3]), [[], [0]])
        XCTAssertEqual(middles([1, 2, 3], [1, 3]), [[2], []])
        XCTAssertEqual(middles([1, 2, 3, 4], [1, 3, 2, 4]), [[2, 3], [3, 2]])
        XCTAssertEqual(middles([5, 5], [5, 5, 5]), [[], [5]])
        XCTAssertEqual(middles([], [7]), [[], [7]])
        XCTAssertEqual(middles([7], []), [[7], []])
        XCTAssertEqual(middles([1, 2], [1, 2]), [[], []])
    }
}

/// Backlink counts across single map-entry edits.
extension LinkTests {
    func testMapEntryEditsKeepBacklinkCounts() throws {
        var rng = CoreRandom(seed: 78)
        try write(Self.tables) { txn in
            for n in 0..<6 { try txn.insert(into: Self.dog, values: [.string("d\(n)"), .null]) }
            try txn.insert(into: Self.person, values: personValues(1, dogMap: ["a": .link(0), "b": .link(0)]))
        }
        for round in 0..<200 {
            let mapKey = ["a", "b", "c", "d"].randomElement(using: &rng)!
            let value: StoreValue? =
                switch Int.random(in: 0..<4, using: &rng) {
                case 0: nil
                case 1: .null
                default: .link(Int64.random(in: 0..<6, using: &rng))
                }
            try write(Self.tables) { txn in
                try txn.setMapEntry(Self.person, key: 1, column: pDogMap, mapKey: mapKey, to: value)
                try checkLinkInvariants(txn, "round \(round): \(mapKey) = \(String(describing: value))")
            }
        }
    }
}

/// Backlink counts and embedded owners across list splices.
extension LinkTests {
    func testListSplicesKeepBacklinkCountsIncludingDuplicates() throws {
        var rng = CoreRandom(seed: 79)
        try write(Self.tables) { txn in
            for n in 0..<6 { try txn.insert(into: Self.dog, values: [.string("d\(n)"), .null]) }
            try txn.insert(into: Self.person, values: personValues(1, dogs: [0, 1, 1, 2]))
        }
        var dogs: [Int64] = [0, 1, 1, 2]
        for round in 0..<200 {
            let lower = Int.random(in: 0...dogs.count, using: &rng)
            let upper = Int.random(in: lower...min(dogs.count, lower + 2), using: &rng)
            let added = (0..<Int.random(in: 0..<3, using: &rng)).map { _ in Int64.random(in: 0..<6, using: &rng) }
            try write(Self.tables) { txn in
                try txn.spliceList(Self.person, key: 1, column: pDogs, lower..<upper, with: added.map(StoreValue.link))
                try checkLinkInvariants(txn, "round \(round): \(dogs) [\(lower)..<\(upper)] = \(added)")
            }
            dogs.replaceSubrange(lower..<upper, with: added)
        }
    }
}
