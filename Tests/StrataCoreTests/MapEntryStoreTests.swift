import XCTest
@testable import StrataCore
import StrataStorage

/// `StoreTransaction.setMapEntry`: one entry of a stored map set, replaced or removed, the
/// bytes equal to the encoding of the whole map (entries in ascending key order), the other
/// objects of the cluster untouched, and what does not fit refused with nothing changed.
final class MapEntryStoreTests: CoreTestCase {
    static let box = StoreTable(
        name: "Box",
        columns: [
            StoreColumn(name: "id", type: .int, isPrimaryKey: true),
            StoreColumn(name: "scores", type: .int, collection: .map, isNullable: true),
            StoreColumn(name: "name", type: .string),
            StoreColumn(name: "labels", type: .string, collection: .map),
        ])
    let scores = 1, label = 2, labels = 3

    private func stored(_ txn: StoreTransaction, _ key: Int64, _ column: Int) throws -> [UInt8] {
        let row = try XCTUnwrap(try txn.row(Self.box, key: key))
        return Array(try XCTUnwrap(row.variableBytes(column)))
    }

    func testRandomEntryEditsMatchTheWholeMapEncoding() throws {
        var rng = CoreRandom(seed: 11)
        var model: [Int64: [StoreValue]] = [:]
        try write([Self.box]) { txn in
            for id in Int64(0)..<20 {
                let values: [StoreValue] = [
                    .int(id), id % 4 == 0 ? .null : .map(["k\(id)": .int(id)]), .string("box \(id)"), .map([:]),
                ]
                try txn.insert(into: Self.box, values: values)
                model[id] = values
            }
        }
        // Keys with shared prefixes, empty and non-ASCII keys, so that insertion points fall
        // before, between and after stored entries.
        let keyPool = ["", "a", "ab", "abc", "b", "k3", "k30", "z", "é", "e\u{301}x", "日本", "zz"]
        for round in 0..<300 {
            let id = Int64.random(in: 0..<20, using: &rng)
            let column = Bool.random(using: &rng) ? scores : labels
            let mapKey = keyPool.randomElement(using: &rng)!
            let value: StoreValue?
            switch Int.random(in: 0..<4, using: &rng) {
            case 0: value = nil
            case 1 where column == scores: value = .null
            default:
                value =
                    column == scores
                    ? .int(Int64(round)) : .string(String(repeating: "v", count: Int.random(in: 0..<30, using: &rng)))
            }
            var entries: [String: StoreValue]
            switch model[id]![column] {
            case .map(let m): entries = m
            default: entries = [:]
            }
            let expectedPrevious = entries[mapKey]
            let previous = try write([Self.box]) { txn in
                try txn.setMapEntry(Self.box, key: id, column: column, mapKey: mapKey, to: value)
            }
            XCTAssertEqual(previous, expectedPrevious, "round \(round)")
            if model[id]![column] == .null, value == nil {
                // Removing from a null map leaves it null.
            } else {
                entries[mapKey] = value
                model[id]![column] = .map(entries)
            }
            try read([Self.box]) { txn in
                for (key, values) in model {
                    let row = try XCTUnwrap(try txn.row(Self.box, key: key))
                    for c in 0..<values.count {
                        XCTAssertEqual(row.value(c), values[c], "round \(round): object \(key), column \(c)")
                    }
                }
                if case .map = model[id]![column] {
                    var whole: [UInt8] = []
                    ValueCodec.write(model[id]![column], &whole)
                    XCTAssertEqual(try stored(txn, id, column), whole, "round \(round): bytes of object \(id)")
                }
            }
        }
    }

    func testWhatDoesNotFitIsRefusedWithNothingChanged() throws {
        try write([Self.box]) { txn in
            try txn.insert(into: Self.box, values: [.int(1), .map(["a": .int(1)]), .string("one"), .map([:])])
        }
        XCTAssertThrowsError(
            try write([Self.box]) { txn in
                try txn.setMapEntry(Self.box, key: 1, column: scores, mapKey: "b", to: .string("x"))
            }
        ) { error in
            guard case StoreError.typeMismatch(_, "scores", _, _) = error else { return XCTFail("\(error)") }
        }
        XCTAssertThrowsError(
            try write([Self.box]) { txn in try txn.setMapEntry(Self.box, key: 1, column: labels, mapKey: "b", to: .null)
            }
        ) { error in
            guard case StoreError.nullNotAllowed(_, "labels") = error else { return XCTFail("\(error)") }
        }
        XCTAssertThrowsError(
            try write([Self.box]) { txn in
                try txn.setMapEntry(Self.box, key: 1, column: label, mapKey: "b", to: .string("x"))
            }
        ) { error in
            guard case StoreError.typeMismatch(_, "name", _, _) = error else { return XCTFail("\(error)") }
        }
        XCTAssertThrowsError(
            try write([Self.box]) { txn in
                try txn.setMapEntry(Self.box, key: 9, column: scores, mapKey: "b", to: .int(2))
            }
        ) { error in
            guard case StoreError.objectMissing(_, 9) = error else { return XCTFail("\(error)") }
        }
        try read([Self.box]) { txn in
            let row = try XCTUnwrap(try txn.row(Self.box, key: 1))
            XCTAssertEqual(row.values(), [.int(1), .map(["a": .int(1)]), .string("one"), .map([:])])
        }
    }
}
