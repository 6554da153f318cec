import XCTest
@testable import StrataCore
import StrataStorage

/// `StoreTransaction.appendToList`: the new elements follow the stored ones, the other objects
/// of the cluster keep their values, and what does not fit is refused with nothing changed.
final class ListAppendStoreTests: CoreTestCase {
    static let bag = StoreTable(
        name: "Bag",
        columns: [
            StoreColumn(name: "id", type: .int, isPrimaryKey: true),
            StoreColumn(name: "tags", type: .string, collection: .list),
            StoreColumn(name: "name", type: .string),
            StoreColumn(name: "numbers", type: .int, collection: .list, isNullable: true),
        ])
    let tags = 1, label = 2, numbers = 3

    func testAppendsFollowTheStoredElementsAndLeaveNeighboursAlone() throws {
        var rng = CoreRandom(seed: 5)
        var model: [Int64: [StoreValue]] = [:]
        try write([Self.bag]) { txn in
            for id in Int64(0)..<30 {
                let values: [StoreValue] = [
                    .int(id), .list((0..<Int(id % 4)).map { .string("t\(id)-\($0)") }), .string("bag \(id)"),
                    .list(id % 3 == 0 ? [] : [.int(id), .null]),
                ]
                try txn.insert(into: Self.bag, values: values)
                model[id] = values
            }
        }
        for round in 0..<60 {
            let id = Int64.random(in: 0..<30, using: &rng)
            let column = Bool.random(using: &rng) ? tags : numbers
            let count = Int.random(in: 0..<4, using: &rng)
            let added: [StoreValue] =
                column == tags
                ? (0..<count).map { _ in .string(String(repeating: "x", count: Int.random(in: 0..<40, using: &rng))) }
                : (0..<count).map { _ in Bool.random(using: &rng) ? .null : .int(Int64(round)) }
            try write([Self.bag]) { txn in try txn.appendToList(Self.bag, key: id, column: column, added) }
            guard case .list(let stored) = model[id]![column] else { return XCTFail("model holds a list") }
            model[id]![column] = .list(stored + added)
            try read([Self.bag]) { txn in
                for (key, values) in model {
                    let row = try XCTUnwrap(try txn.row(Self.bag, key: key))
                    for c in 0..<values.count {
                        XCTAssertEqual(row.value(c), values[c], "round \(round): object \(key), column \(c)")
                    }
                }
            }
        }
    }

    func testWhatDoesNotFitIsRefusedWithNothingChanged() throws {
        try write([Self.bag]) { txn in
            try txn.insert(into: Self.bag, values: [.int(1), .list([.string("a")]), .string("one"), .list([])])
        }
        XCTAssertThrowsError(
            try write([Self.bag]) { txn in
                try txn.appendToList(Self.bag, key: 1, column: tags, [.string("b"), .int(2)])
            }
        ) { error in
            guard case StoreError.typeMismatch(_, "tags", _, _) = error else { return XCTFail("\(error)") }
        }
        XCTAssertThrowsError(
            try write([Self.bag]) { txn in try txn.appendToList(Self.bag, key: 1, column: tags, [.null]) }
        ) { error in
            guard case StoreError.nullNotAllowed(_, "tags") = error else { return XCTFail("\(error)") }
        }
        XCTAssertThrowsError(
            try write([Self.bag]) { txn in try txn.appendToList(Self.bag, key: 1, column: label, [.string("b")]) }
        ) { error in
            guard case StoreError.typeMismatch(_, "name", _, _) = error else { return XCTFail("\(error)") }
        }
        XCTAssertThrowsError(
            try write([Self.bag]) { txn in try txn.appendToList(Self.bag, key: 9, column: tags, [.string("b")]) }
        ) { error in
            guard case StoreError.objectMissing(_, 9) = error else { return XCTFail("\(error)") }
        }
        try read([Self.bag]) { txn in
            let row = try XCTUnwrap(try txn.row(Self.bag, key: 1))
            XCTAssertEqual(row.value(tags), .list([.string("a")]))
            XCTAssertEqual(row.value(label), .string("one"))
        }
    }
}
