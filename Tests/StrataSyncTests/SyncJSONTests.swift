import Foundation
import Strata
import XCTest

@testable import StrataSync

/// `SyncJSON`, the reader of the server's rows: numbers read exactly (the JSONSerialization of
/// swift-corelibs-foundation read about a third of random doubles a unit in the last place off,
/// so a Double arrived changed on the other replicas), strings and escapes, malformed input.
final class SyncJSONTests: SyncTestCase {
    /// A fixed sequence of doubles spread over the whole range (splitmix64 bit patterns).
    private func doubles(_ n: Int) -> [Double] {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        var out: [Double] = []
        while out.count < n {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            z ^= z >> 31
            let d = Double(bitPattern: z)
            if d.isFinite { out.append(d) }
        }
        return out
    }

    func testDoublesReadBackBitForBit() throws {
        let values = doubles(20_000) + [0.1 + 0.2, 5e-324, -1.7976931348623157e308, 2.0, 1e21, 123_456.789]
        let text = "[" + values.map { "\($0)" }.joined(separator: ",") + "]"
        let parsed = try XCTUnwrap(try SyncJSON.parse(text) as? [NSNumber])
        XCTAssertEqual(parsed.count, values.count)
        var wrong = 0
        for (p, v) in zip(parsed, values) where p.doubleValue.bitPattern != v.bitPattern { wrong += 1 }
        XCTAssertEqual(wrong, 0, "doubles read back changed")
    }

    func testNumbersKeepTheirKind() throws {
        let parsed = try XCTUnwrap(
            try SyncJSON.parse("[9007199254740993, -0, 1.0, 99999999999999999999, true, false, -12e-1, 0]")
                as? [NSNumber])
        let kinds = parsed.map { n -> String in
            switch String(cString: n.objCType) {
            case "c": "bool"
            case "d": "double"
            default: "int"
            }
        }
        // `-0` is how PostgreSQL prints a negative zero double: it stays one.
        XCTAssertEqual(kinds, ["int", "double", "double", "double", "bool", "bool", "double", "int"])
        XCTAssertEqual(parsed[1].doubleValue.sign, .minus)
        XCTAssertEqual(parsed[0].int64Value, 9_007_199_254_740_993)
        XCTAssertEqual(parsed[2].doubleValue, 1.0)
        XCTAssertEqual(parsed[3].doubleValue, 1e20)
        XCTAssertTrue(parsed[4].boolValue)
        XCTAssertEqual(parsed[6].doubleValue, -1.2)
    }

    func testStringsObjectsAndEscapes() throws {
        let text = #"{"a\"b": ["\\ \/ \b \f \n \r \t", "\u00e9\ud83d\ude00", "ü", "", null], "n": {"x": {}}, "e": []}"#
        let object = try XCTUnwrap(try SyncJSON.parse(" \n" + text + "\t") as? [String: Any])
        let strings = try XCTUnwrap(object["a\"b"] as? [Any])
        XCTAssertEqual(strings[0] as? String, "\\ / \u{8} \u{C} \n \r \t")
        XCTAssertEqual(strings[1] as? String, "é😀")
        XCTAssertEqual(strings[2] as? String, "ü")
        XCTAssertEqual(strings[3] as? String, "")
        XCTAssertTrue(strings[4] is NSNull)
        XCTAssertEqual((object["n"] as? [String: Any])?["x"] as? [String: Int], [:])
        XCTAssertEqual((object["e"] as? [Any])?.count, 0)
    }

    func testMalformedDocumentsAreRefused() {
        for bad in [
            "", "[1,]", "[1 2]", "{\"a\" 1}", "{\"a\": 1,}", "\"open", "\"\\ud800\"", "\"\\ud800\\u0041\"",
            "\"\\q\"", "\"a\u{1}\"", "[1] x", "tru", "nul", "-", "[", "{", String(repeating: "[", count: 600),
        ] {
            XCTAssertThrowsError(try SyncJSON.parse(bad), "\(bad.prefix(20)) should be refused")
        }
    }

    /// A Double written on one replica arrives bit for bit on the other, in a property, in a
    /// list and in an AnyRealmValue; a Float in a property too.
    @MainActor
    func testDoublesSyncBitForBit() async throws {
        let (server, db) = try freshDatabase()
        let types: [ObjectBase.Type] = [SyncDog.self, SyncBag.self, SyncAnything.self]
        let a = try await Realm(
            configuration: configuration("a", server, db, types: types), downloadBeforeOpen: .always)
        let b = try await Realm(
            configuration: configuration("b", server, db, types: types), downloadBeforeOpen: .always)
        let values = doubles(300) + [-0.0, 0.0]
        try a.write {
            for (i, d) in values.enumerated() {
                a.add(SyncDog(value: ["id": i, "name": "d\(i)", "weight": d]))
                let x = SyncAnything()
                x.id = i
                x.value = .double(d)
                x.ratio = Float(bitPattern: UInt32(truncatingIfNeeded: d.bitPattern >> 17) & 0x7F7F_FFFF)
                a.add(x)
            }
            let bag = SyncBag()
            bag.id = 1
            bag.weights.append(objectsIn: values)
            a.add(bag)
        }
        try await sync(a, to: [b])
        var wrong = 0
        for (i, d) in values.enumerated() {
            if b.object(ofType: SyncDog.self, forPrimaryKey: i)?.weight?.bitPattern != d.bitPattern { wrong += 1 }
            if b.object(ofType: SyncAnything.self, forPrimaryKey: i)?.value.doubleValue?.bitPattern != d.bitPattern {
                wrong += 1
            }
            let ratio = a.object(ofType: SyncAnything.self, forPrimaryKey: i)!.ratio
            if b.object(ofType: SyncAnything.self, forPrimaryKey: i)?.ratio.bitPattern != ratio.bitPattern {
                wrong += 1
            }
        }
        XCTAssertEqual(wrong, 0)
        // A negative zero goes into the jsonb list as the string "-0.0" (jsonb numbers have no
        // sign of zero), and comes back as -0.0.
        XCTAssertEqual(
            b.object(ofType: SyncBag.self, forPrimaryKey: 1)?.weights.map { $0?.bitPattern }, values.map(\.bitPattern))
    }
}
