import XCTest
@testable import StrataCore
import StrataStorage

/// `StoreTransaction.spliceList`: a range of a stored list replaced, the bytes equal to the
/// encoding of the whole list, the other objects of the cluster untouched, and what does not
/// fit refused with nothing changed.
final class ListSpliceStoreTests: CoreTestCase {
    static let bag = ListAppendStoreTests.bag
    let tags = 1, label = 2, numbers = 3

    func testRandomSplicesMatchTheWholeListEncoding() throws {
        var rng = CoreRandom(seed: 9)
        var model: [Int64: [StoreValue]] = [:]
        try write([Self.bag]) { txn in
            for id in Int64(0)..<20 {
                let values: [StoreValue] = [
                    .int(id), .list((0..<Int(id % 5)).map { .string("t\(id)-\($0)") }), .string("bag \(id)"),
                    id % 3 == 0 ? .null : .list([.int(id), .null]),
                ]
                try txn.insert(into: Self.bag, values: values)
                model[id] = values
            }
        }
        for round in 0..<300 {
            let id = Int64.random(in: 0..<20, using: &rng)
            let column = Bool.random(using: &rng) ? tags : numbers
            var elements: [StoreValue]
            switch model[id]![column] {
            case .list(let l): elements = l
            default: elements = []
            }
            let lower = Int.random(in: 0...elements.count, using: &rng)
            let upper = Int.random(in: lower...min(elements.count, lower + 3), using: &rng)
            let count = Int.random(in: 0..<3, using: &rng)
            let added: [StoreValue] =
                column == tags
                ? (0..<count).map { _ in .string(String(repeating: "y", count: Int.random(in: 0..<20, using: &rng))) }
                : (0..<count).map { _ in Bool.random(using: &rng) ? .null : .int(Int64(round)) }
            let wasNull = model[id]![column] == .null
            if wasNull && (lower, upper) != (0, 0) { continue }
            let removed = try write([Self.bag]) { txn in
                try txn.spliceList(Self.bag, key: id, column: column, lower..<upper, with: added)
            }
            XCTAssertEqual(removed, Array(elements[lower..<upper]), "round \(round)")
            if !(wasNull && added.isEmpty) {
                elements.replaceSubrange(lower..<upper, with: added)
                model[id]![column] = .list(elements)
            }
            try read([Self.bag]) { txn in
                for (key, values) in model {
                    let row = try XCTUnwrap(try txn.row(Self.bag, key: key))
                    for c in 0..<values.count {
                        XCTAssertEqual(row.value(c), values[c], "round \(round): object \(key), column \(c)")
                    }
                }
                if case .list = model[id]![column] {
                    var whole: [UInt8] = []
                    ValueCodec.write(model[id]![column], &whole)
                    let row = try XCTUnwrap(try txn.row(Self.bag, key: id))
                    XCTAssertEqual(
                        Array(try XCTUnwrap(row.variableBytes(column))), whole, "round \(round): bytes of object \(id)")
                }
            }
        }
    }

    func testReplacingElementsWithEqualOnesRecordsNoChange() throws {
        try write([Self.bag]) { txn in
            try txn.insert(
                into: Self.bag, values: [.int(1), .list([.string("a"), .string("b")]), .string("one"), .list([])])
        }
        try write([Self.bag]) { txn in
            let before = txn.changeCount
            try txn.spliceList(Self.bag, key: 1, column: tags, 1..<2, with: [.string("b")])
            XCTAssertEqual(txn.changeCount, before, "an equal replacement is not a change")
            try txn.spliceList(Self.bag, key: 1, column: tags, 1..<2, with: [.string("c")])
            XCTAssertEqual(txn.changeCount, before + 1)
        }
    }

    func testWhatDoesNotFitIsRefusedWithNothingChanged() throws {
        try write([Self.bag]) { txn in
            try txn.insert(into: Self.bag, values: [.int(1), .list([.string("a")]), .string("one"), .list([])])
        }
        XCTAssertThrowsError(
            try write([Self.bag]) { txn in try txn.spliceList(Self.bag, key: 1, column: tags, 0..<0, with: [.int(2)]) }
        ) { error in
            guard case StoreError.typeMismatch(_, "tags", _, _) = error else { return XCTFail("\(error)") }
        }
        XCTAssertThrowsError(
            try write([Self.bag]) { txn in try txn.spliceList(Self.bag, key: 1, column: tags, 0..<2, with: []) }
        ) { error in
            guard case StoreError.typeMismatch(_, "tags", _, _) = error else { return XCTFail("\(error)") }
        }
        XCTAssertThrowsError(
            try write([Self.bag]) { txn in try txn.spliceList(Self.bag, key: 1, column: tags, 1..<1, with: [.null]) }
        ) { error in
            guard case StoreError.nullNotAllowed(_, "tags") = error else { return XCTFail("\(error)") }
        }
        XCTAssertThrowsError(
            try write([Self.bag]) { txn in
                try txn.spliceList(Self.bag, key: 1, column: label, 0..<0, with: [.string("b")])
            }
        ) { error in
            guard case StoreError.typeMismatch(_, "name", _, _) = error else { return XCTFail("\(error)") }
        }
        XCTAssertThrowsError(
            try write([Self.bag]) { txn in
                try txn.spliceList(Self.bag, key: 9, column: tags, 0..<0, with: [.string("b")])
            }
        ) { error in
            guard case StoreError.objectMissing(_, 9) = error else { return XCTFail("\(error)") }
        }
        try read([Self.bag]) { txn in
            let row = try XCTUnwrap(try txn.row(Self.bag, key: 1))
            XCTAssertEqual(row.values(), [.int(1), .list([.string("a")]), .string("one"), .list([])])
        }
    }
}
