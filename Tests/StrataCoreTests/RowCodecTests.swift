import XCTest
@testable import StrataCore

/// Values of every column type for the row codec tests.
enum Samples {
    static let scalarTypes: [ColumnType] = [
        .int, .bool, .float, .double, .string, .data, .timestamp, .objectId, .uuid, .decimal128,
    ]

    static func bytes(_ n: Int, _ rng: inout CoreRandom) -> [UInt8] {
        (0..<n).map { _ in UInt8.random(in: 0...255, using: &rng) }
    }

    static func string(_ rng: inout CoreRandom) -> String {
        let alphabet: [String] = ["a", "b", "z", "é", "日本", "\u{0}", " ", "🐶", "A"]
        return (0..<Int.random(in: 0..<12, using: &rng)).map { _ in alphabet.randomElement(using: &rng)! }.joined()
    }

    /// A random non-null value of a scalar type (no NaN, so values compare equal to themselves).
    static func value(_ type: ColumnType, _ rng: inout CoreRandom) -> StoreValue {
        switch type {
        case .int:
            return .int([Int64.min, -1, 0, 1, .max, Int64(bitPattern: rng.next())].randomElement(using: &rng)!)
        case .bool: return .bool(Bool.random(using: &rng))
        case .float:
            return .float(
                [
                    Float(0), -1.5, .infinity, -.infinity, .greatestFiniteMagnitude,
                    Float(Int32.random(in: .min ... .max, using: &rng)) / 7,
                ].randomElement(using: &rng)!)
        case .double:
            return .double(
                [0, -0.0, 2.5e300, -.infinity, .leastNonzeroMagnitude, Double(Int64(bitPattern: rng.next())) / 3]
                    .randomElement(using: &rng)!)
        case .string: return .string(string(&rng))
        case .data: return .data(bytes(Int.random(in: 0..<20, using: &rng), &rng))
        case .timestamp:
            return .timestamp(
                seconds: Int64(bitPattern: rng.next()) >> 20,
                nanoseconds: Int32.random(in: -999_999_999...999_999_999, using: &rng))
        case .objectId: return .objectId(bytes(12, &rng))
        case .uuid: return .uuid(bytes(16, &rng))
        case .decimal128: return .decimal128(bytes(16, &rng))
        case .link: return .link(Int64.random(in: -5...1_000_000, using: &rng))
        case .mixed:
            let inner: ColumnType =
                ([.int, .bool, .float, .double, .string, .data, .timestamp, .objectId, .uuid, .decimal128]
                as [ColumnType]).randomElement(using: &rng)!
            switch Int.random(in: 0..<8, using: &rng) {
            case 0: return .null
            case 1: return .typedLink(table: "Dog", key: Int64(bitPattern: rng.next()))
            case 2: return .list([value(.int, &rng), .null, value(.string, &rng), .list([value(.bool, &rng)])])
            case 3: return .map(["a": value(.double, &rng), "": .null, "日本": .map(["x": value(.uuid, &rng)])])
            default: return value(inner, &rng)
            }
        case .linkingObjects: return .null
        }
    }

    /// A random value for `column` (null sometimes when it is nullable).
    static func value(for column: StoreColumn, _ rng: inout CoreRandom) -> StoreValue {
        guard column.isStored else { return .null }
        switch column.collection {
        case .none:
            if column.isNullable, Int.random(in: 0..<4, using: &rng) == 0 { return .null }
            return value(column.type, &rng)
        case .list, .set:
            return .list(
                (0..<Int.random(in: 0..<6, using: &rng)).map { _ in
                    column.isNullable && Bool.random(using: &rng) ? .null : value(column.type, &rng)
                })
        case .map:
            var m: [String: StoreValue] = [:]
            for _ in 0..<Int.random(in: 0..<5, using: &rng) {
                m[string(&rng)] = column.isNullable && Bool.random(using: &rng) ? .null : value(column.type, &rng)
            }
            return .map(m)
        }
    }
}

final class RowCodecTests: XCTestCase {
    /// One column of every type, not nullable and nullable, every collection kind, and a
    /// LinkingObjects column (not stored): 34 columns, so the null bitmap takes 5 bytes.
    static let allTypes: StoreTable = {
        var columns: [StoreColumn] = []
        for t in Samples.scalarTypes { columns.append(StoreColumn(name: "\(t)", type: t)) }
        columns.append(StoreColumn(name: "mixed", type: .mixed))
        columns.append(StoreColumn(name: "link", type: .link, isNullable: true, targetTable: "Dog"))
        for t in Samples.scalarTypes { columns.append(StoreColumn(name: "\(t)?", type: t, isNullable: true)) }
        columns.append(StoreColumn(name: "ints", type: .int, collection: .list))
        columns.append(StoreColumn(name: "optionalInts", type: .int, collection: .list, isNullable: true))
        columns.append(StoreColumn(name: "strings", type: .string, collection: .set))
        columns.append(StoreColumn(name: "doubles", type: .double, collection: .map))
        columns.append(StoreColumn(name: "dogs", type: .link, collection: .list, targetTable: "Dog"))
        columns.append(StoreColumn(name: "dogSet", type: .link, collection: .set, targetTable: "Dog"))
        columns.append(StoreColumn(name: "dogMap", type: .link, collection: .map, isNullable: true, targetTable: "Dog"))
        columns.append(StoreColumn(name: "mixedList", type: .mixed, collection: .list))
        columns.append(StoreColumn(name: "mixedMap", type: .mixed, collection: .map))
        columns.append(StoreColumn(name: "dates", type: .timestamp, collection: .list))
        columns.append(StoreColumn(name: "ids", type: .objectId, collection: .set))
        columns.append(StoreColumn(name: "owners", type: .linkingObjects, targetTable: "Person", originProperty: "dog"))
        return StoreTable(name: "AllTypes", columns: columns)
    }()

    func encode(_ values: [StoreValue], _ table: StoreTable) throws -> [UInt8] {
        try RowEncoder.encode(values, table: table)
    }

    func decode(_ row: [UInt8], _ table: StoreTable, key: Int64 = 1) -> [StoreValue] {
        row.withUnsafeBytes { LegacyRowReader(bytes: $0, table: table, key: key).values() }
    }

    // MARK: Round trips

    func testEveryColumnTypeRoundTrips() throws {
        let table = Self.allTypes
        XCTAssertEqual(table.columns.count, 34)
        var rng = CoreRandom(seed: 1)
        for _ in 0..<300 {
            let values = table.columns.map { Samples.value(for: $0, &rng) }
            let row = try encode(values, table)
            XCTAssertEqual(decode(row, table), values)
            // The typed accessors agree with value(_:).
            row.withUnsafeBytes { raw in
                let r = LegacyRowReader(bytes: raw, table: table, key: 1)
                for (c, v) in values.enumerated() where table.columns[c].isStored {
                    // (The typed accessors read typed columns; AnyRealmValue and collections are tagged.)
                    guard table.columns[c].collection == .none, table.columns[c].type != .mixed else { continue }
                    XCTAssertEqual(r.isNull(c), v.isNull, "column \(table.columns[c].name)")
                    switch v {
                    case .int(let i), .link(let i): XCTAssertEqual(r.int(c), i)
                    case .double(let d): XCTAssertEqual(r.double(c), d)
                    case .string(let s): XCTAssertEqual(r.string(c), s)
                    case .data(let d): XCTAssertEqual(r.variableBytes(c).map(Array.init), d)
                    case .null:
                        if table.columns[c].isVariable {
                            XCTAssertNil(r.variableBytes(c))
                        } else {
                            XCTAssertNil(r.int(c))
                        }
                    default: break
                    }
                }
            }
        }
    }

    func testExtremeValuesRoundTripBitExactly() throws {
        let table = Self.allTypes
        var values = table.columns.map { $0.defaultValue }
        values[0] = .int(.min)
        values[2] = .float(-.leastNonzeroMagnitude)
        values[3] = .double(-0.0)
        values[4] = .string(String(repeating: "x\u{0}é", count: 2000))  // long, with NULs
        values[5] = .data([UInt8](repeating: 0, count: 70_000))  // longer than a u16 length
        values[6] = .timestamp(seconds: .min, nanoseconds: -999_999_999)
        values[7] = .objectId([UInt8](repeating: 0xFF, count: 12))
        values[10] = .double(.nan)
        let row = try encode(values, table)
        let back = decode(row, table)
        XCTAssertEqual(back[0], .int(.min))
        guard case .float(let f) = back[2], case .double(let d) = back[3], case .double(let nan) = back[10] else {
            return XCTFail("wrong kinds: \(back[2]) \(back[3]) \(back[10])")
        }
        XCTAssertEqual(f.bitPattern, (-Float.leastNonzeroMagnitude).bitPattern)
        XCTAssertEqual(d.bitPattern, (-0.0 as Double).bitPattern)
        XCTAssertTrue(nan.isNaN)
        XCTAssertEqual(Array(back[4...7]), Array(values[4...7]))
    }

    func testNullableColumnsRoundTripNullAndNonNullableMixedStoresNull() throws {
        let table = Self.allTypes
        var rng = CoreRandom(seed: 2)
        var values = table.columns.map { Samples.value(for: $0, &rng) }
        for (c, column) in table.columns.enumerated() where column.isNullable && column.collection == .none {
            values[c] = .null
        }
        values[table.columnIndex["mixed"]!] = .null  // AnyRealmValue is always nullable
        let row = try encode(values, table)
        XCTAssertEqual(decode(row, table), values)
        row.withUnsafeBytes { raw in
            let r = LegacyRowReader(bytes: raw, table: table, key: 1)
            for (c, column) in table.columns.enumerated() where column.isNullable && column.collection == .none {
                XCTAssertTrue(r.isNull(c), column.name)
            }
            XCTAssertNil(r.int(table.columnIndex["int?"]!))
            XCTAssertNil(r.double(table.columnIndex["double?"]!))
            XCTAssertNil(r.string(table.columnIndex["string?"]!))
            XCTAssertNil(r.variableBytes(table.columnIndex["data?"]!))
            XCTAssertFalse(r.isNull(table.columnIndex["int"]!))
        }
    }

    func testCollectionsRoundTripInOrderWithDuplicatesAndNulls() throws {
        let table = Self.allTypes
        var values = table.columns.map { $0.defaultValue }
        let ix = table.columnIndex
        values[ix["ints"]!] = .list([.int(3), .int(-1), .int(3), .int(.max)])
        values[ix["optionalInts"]!] = .list([.null, .int(0), .null])
        values[ix["strings"]!] = .list([.string(""), .string("日本"), .string("a\u{0}b")])
        values[ix["doubles"]!] = .map(["b": .double(2), "a": .double(-1), "": .double(0), "🐶": .double(.infinity)])
        values[ix["dogs"]!] = .list([.link(5), .link(5), .link(-7), .link(0)])
        values[ix["dogSet"]!] = .list([.link(1), .link(2)])
        values[ix["dogMap"]!] = .map(["rex": .link(9), "gone": .null])
        values[ix["mixedList"]!] = .list([.null, .bool(true), .typedLink(table: "Cat", key: 4), .list([]), .map([:])])
        values[ix["mixedMap"]!] = .map(["k": .list([.int(1), .map(["z": .string("deep")])])])
        values[ix["dates"]!] = .list([.timestamp(seconds: -1, nanoseconds: -5), .timestamp(seconds: 0, nanoseconds: 0)])
        values[ix["ids"]!] = .list([.objectId(Array(0..<12)), .objectId(Array(12..<24))])
        let row = try encode(values, table)
        XCTAssertEqual(decode(row, table), values)
        // Empty collections round-trip too (defaults).
        let empty = table.columns.map { $0.defaultValue }
        XCTAssertEqual(decode(try encode(empty, table), table), empty)
    }

    func testMixedColumnHoldsEveryKindOfValue() throws {
        let table = StoreTable(name: "M", columns: [StoreColumn(name: "v", type: .mixed)])
        let kinds: [StoreValue] = [
            .null, .bool(false), .bool(true), .int(-42), .float(1.25), .double(-3.5), .string("héllo"),
            .data([0, 1, 255]),
            .timestamp(seconds: 1_700_000_000, nanoseconds: 123), .objectId(Array(1...12)), .uuid(Array(1...16)),
            .decimal128(Array(100...115)), .link(77), .typedLink(table: "Dog", key: -3),
            .list([.int(1), .list([.string("nested")]), .null]), .map(["a": .map(["b": .bool(true)]), "c": .null]),
        ]
        for v in kinds {
            XCTAssertEqual(decode(try encode([v], table), table), [v], "\(v)")
        }
    }

    func testIntPrimaryKeyHasNoSlotAndReadsAsTheObjectKey() throws {
        let table = StoreTable(
            name: "P",
            columns: [
                StoreColumn(name: "name", type: .string),
                StoreColumn(name: "id", type: .int, isPrimaryKey: true),
                StoreColumn(name: "age", type: .int),
            ])
        XCTAssertTrue(table.primaryKeyIsObjectKey)
        XCTAssertEqual(table.layout.keyColumn, 1)
        // The value given for the key column is not stored: the object key is.
        let row = try encode([.string("Ann"), .int(999), .int(30)], table)
        XCTAssertEqual(row.count, 2 + 1 + 8 + 8 + 3)
        XCTAssertEqual(decode(row, table, key: -12), [.string("Ann"), .int(-12), .int(30)])
        row.withUnsafeBytes { XCTAssertEqual(LegacyRowReader(bytes: $0, table: table, key: -12).int(1), -12) }
        // A String primary key is stored in the row like any string.
        let s = StoreTable(name: "S", columns: [StoreColumn(name: "id", type: .string, isPrimaryKey: true)])
        XCTAssertFalse(s.primaryKeyIsObjectKey)
        XCTAssertEqual(decode(try encode([.string("k")], s), s), [.string("k")])
    }

    // MARK: Exact bytes

    /// The row layout of FORMAT.md, "Object rows", byte by byte.
    func testRowBytesAreAsDocumented() throws {
        let table = StoreTable(
            name: "T",
            columns: [
                StoreColumn(name: "id", type: .int, isPrimaryKey: true),  // no slot
                StoreColumn(name: "flag", type: .bool),  // 1 byte at 0
                StoreColumn(name: "name", type: .string),  // 8 bytes at 1
                StoreColumn(name: "score", type: .double, isNullable: true),  // 8 bytes at 9, null
                StoreColumn(name: "f", type: .float),  // 4 bytes at 17
                StoreColumn(name: "when", type: .timestamp),  // 12 bytes at 21
                StoreColumn(name: "ids", type: .int, collection: .list),  // 8 bytes at 33
                StoreColumn(name: "owners", type: .linkingObjects, targetTable: "X", originProperty: "t"),  // no slot
                StoreColumn(name: "oid", type: .objectId, isNullable: true),  // 12 bytes at 41 (bitmap byte 1)
            ])
        let row = try encode(
            [
                .int(5), .bool(true), .string("hi"), .null, .float(1), .timestamp(seconds: -2, nanoseconds: 7),
                .list([.int(1)]), .null, .objectId(Array(1...12)),
            ], table)
        var expected: [UInt8] = [9, 0]  // column count
        expected += [0b0000_1000, 0b0000_0000]  // null bitmap: column 3
        expected += [1]  // flag
        expected += le32(57) + le32(2)  // name: offset 57 (after 2+2+53 slot bytes), length 2
        expected += [UInt8](repeating: 0, count: 8)  // score: null, zero
        expected += le32(Float(1).bitPattern)
        expected += le64(UInt64(bitPattern: -2)) + le32(7)
        expected += le32(59) + le32(1 + 4 + 1 + 8)  // ids: offset 59, tagged list of one int
        expected += Array(1...12)  // oid
        expected += Array("hi".utf8)  // variable area
        expected += [13] + le32(1) + [2] + le64(1)  // list tag, count 1, int tag, 1
        XCTAssertEqual(row, expected)
        XCTAssertEqual(table.layout.slotOffsets, [0, 0, 1, 9, 17, 21, 33, 41, 41])
        XCTAssertEqual(table.layout.slotSizes, [0, 1, 8, 8, 4, 12, 8, 0, 12])
    }

    func testSlotSizesPerType() {
        let expected: [ColumnType: Int] = [
            .bool: 1, .float: 4, .int: 8, .double: 8, .link: 8, .timestamp: 12, .objectId: 12,
            .uuid: 16, .decimal128: 16, .string: 8, .data: 8, .mixed: 8, .linkingObjects: 0,
        ]
        for (t, size) in expected { XCTAssertEqual(t.slotSize, size, "\(t)") }
        XCTAssertEqual(ColumnType.int.rawValue, 1)
        XCTAssertEqual(ColumnType.linkingObjects.rawValue, 13)
    }

    /// The tagged encoding of FORMAT.md, "Tagged values".
    func testValueCodecBytesPerTag() {
        func bytes(_ v: StoreValue) -> [UInt8] { var out: [UInt8] = []; ValueCodec.write(v, &out); return out }
        XCTAssertEqual(bytes(.null), [0])
        XCTAssertEqual(bytes(.bool(true)), [1, 1])
        XCTAssertEqual(bytes(.int(-2)), [2] + le64(UInt64(bitPattern: -2)))
        XCTAssertEqual(bytes(.float(2)), [3] + le32(Float(2).bitPattern))
        XCTAssertEqual(bytes(.double(2)), [4] + le64(Double(2).bitPattern))
        XCTAssertEqual(bytes(.string("é")), [5] + le32(2) + [0xC3, 0xA9])
        XCTAssertEqual(bytes(.data([9, 8])), [6] + le32(2) + [9, 8])
        XCTAssertEqual(bytes(.timestamp(seconds: 3, nanoseconds: -1)), [7] + le64(3) + le32(UInt32.max))
        XCTAssertEqual(bytes(.objectId(Array(1...12))), [8] + Array(1...12))
        XCTAssertEqual(bytes(.uuid(Array(1...16))), [9] + Array(1...16))
        XCTAssertEqual(bytes(.decimal128(Array(1...16))), [10] + Array(1...16))
        XCTAssertEqual(bytes(.link(-1)), [11] + le64(UInt64.max))
        XCTAssertEqual(bytes(.typedLink(table: "D", key: 4)), [12] + le32(1) + [0x44] + le64(4))
        XCTAssertEqual(bytes(.list([.null, .bool(false)])), [13] + le32(2) + [0] + [1, 0])
        // Map entries are written in key order (so equal maps encode equally).
        XCTAssertEqual(
            bytes(.map(["b": .null, "a": .bool(true)])), [14] + le32(2) + le32(1) + [0x61, 1, 1] + le32(1) + [0x62, 0])
    }

    func testValueCodecRejectsTruncatedInputAndUnknownTags() {
        func read(_ b: [UInt8]) -> StoreValue? {
            b.withUnsafeBytes {
                var r = ByteReader($0); return ValueCodec.read(&r)
            }
        }
        var full: [UInt8] = []
        ValueCodec.write(.list([.string("abc"), .map(["k": .int(1)]), .typedLink(table: "T", key: 2)]), &full)
        XCTAssertNotNil(read(full))
        for n in 0..<full.count { XCTAssertNil(read(Array(full[..<n])), "prefix of \(n) bytes decoded") }
        XCTAssertNil(read([15]))
        XCTAssertNil(read([0xFF]))
    }

    // MARK: Older rows

    /// Rows written before columns were added read the new columns' defaults, also when the
    /// null bitmap of the new layout is a byte longer.
    func testOlderRowsReadNewColumnsAsDefaults() throws {
        var columns: [StoreColumn] = [
            StoreColumn(name: "id", type: .int, isPrimaryKey: true),
            StoreColumn(name: "name", type: .string),
            StoreColumn(name: "age", type: .int, isNullable: true),
            StoreColumn(name: "score", type: .double),
            StoreColumn(name: "tags", type: .string, collection: .list),
            StoreColumn(name: "blob", type: .data, isNullable: true),
            StoreColumn(name: "flag", type: .bool),
        ]
        let v1 = StoreTable(name: "T", columns: columns)
        let oldValues: [StoreValue] = [
            .int(3), .string("Ann"), .null, .double(2.5), .list([.string("x")]), .data([1]), .bool(true),
        ]
        let oldRow = try encode(oldValues, v1)
        let added: [StoreColumn] = [
            StoreColumn(name: "n", type: .int), StoreColumn(name: "n?", type: .int, isNullable: true),
            StoreColumn(name: "d", type: .double), StoreColumn(name: "s", type: .string),
            StoreColumn(name: "s?", type: .string, isNullable: true),
            StoreColumn(name: "b", type: .data), StoreColumn(name: "t", type: .timestamp),
            StoreColumn(name: "o", type: .objectId),
            StoreColumn(name: "u", type: .uuid), StoreColumn(name: "dec", type: .decimal128),
            StoreColumn(name: "f", type: .float),
            StoreColumn(name: "flag2", type: .bool), StoreColumn(name: "m", type: .mixed),
            StoreColumn(name: "l", type: .link, isNullable: true, targetTable: "T"),
            StoreColumn(name: "list", type: .int, collection: .list),
            StoreColumn(name: "set", type: .string, collection: .set),
            StoreColumn(name: "map", type: .double, collection: .map),
        ]
        columns += added
        let v2 = StoreTable(name: "T", columns: columns)
        XCTAssertNotEqual(RowLayout.header(7), v2.layout.fullHeader)
        let back = decode(oldRow, v2, key: 3)
        XCTAssertEqual(Array(back[..<7]), oldValues)
        XCTAssertEqual(Array(back[7...]), added.map(\.defaultValue))
        XCTAssertEqual(
            Array(back[7...]),
            [
                .int(0), .null, .double(0), .string(""), .null, .data([]), .timestamp(seconds: 0, nanoseconds: 0),
                .objectId([UInt8](repeating: 0, count: 12)), .uuid([UInt8](repeating: 0, count: 16)),
                .decimal128([UInt8](repeating: 0, count: 16)), .float(0), .bool(false), .null, .null, .list([]),
                .list([]), .map([:]),
            ])
        oldRow.withUnsafeBytes { raw in
            let r = LegacyRowReader(bytes: raw, table: v2, key: 3)
            let ix = v2.columnIndex
            XCTAssertEqual(r.int(ix["n"]!), 0)
            XCTAssertNil(r.int(ix["n?"]!))
            XCTAssertTrue(r.isNull(ix["n?"]!))
            XCTAssertFalse(r.isNull(ix["n"]!))
            XCTAssertEqual(r.double(ix["d"]!), 0)
            XCTAssertEqual(r.string(ix["s"]!), "")
            XCTAssertNil(r.string(ix["s?"]!))
            XCTAssertEqual(r.string(ix["name"]!), "Ann")
            XCTAssertTrue(r.isNull(ix["age"]!))
        }
        // An old row is not patched in place; a full re-encode brings it to the new layout.
        var copy = oldRow
        let patched = copy.withUnsafeMutableBytes {
            RowEncoder.patchFixed($0, table: v2, column: v2.columnIndex["score"]!, .double(1))
        }
        XCTAssertFalse(patched)
        XCTAssertEqual(copy, oldRow)
        var upgraded = back
        upgraded[3] = .double(1)
        XCTAssertEqual(decode(try encode(upgraded, v2), v2, key: 3), upgraded)
    }

    // MARK: patchFixed

    /// Patching a fixed-width column in place gives the same bytes as re-encoding the row.
    func testPatchFixedMatchesFullReencode() throws {
        let table = Self.allTypes
        var rng = CoreRandom(seed: 3)
        let fixed = table.columns.indices.filter { !table.columns[$0].isVariable && table.columns[$0].isStored }
        XCTAssertEqual(fixed.count, 17)
        for _ in 0..<400 {
            var values = table.columns.map { Samples.value(for: $0, &rng) }
            var row = try encode(values, table)
            for _ in 0..<4 {
                let c = fixed.randomElement(using: &rng)!
                let v = Samples.value(for: table.columns[c], &rng)
                let ok = row.withUnsafeMutableBytes { RowEncoder.patchFixed($0, table: table, column: c, v) }
                XCTAssertTrue(ok, "patch \(table.columns[c].name) = \(v)")
                values[c] = v
                XCTAssertEqual(row, try encode(values, table), "after patching \(table.columns[c].name) = \(v)")
                XCTAssertEqual(decode(row, table), values)
            }
        }
    }

    func testPatchFixedRefusesWhatItCannotPatchAndLeavesTheRowAlone() throws {
        let table = Self.allTypes
        var rng = CoreRandom(seed: 4)
        let values = table.columns.map { Samples.value(for: $0, &rng) }
        let row = try encode(values, table)
        let ix = table.columnIndex
        let refused: [(Int, StoreValue)] = [
            (ix["string"]!, .string("x")),  // variable-width
            (ix["mixed"]!, .int(1)),  // variable-width
            (ix["ints"]!, .list([])),  // collection
            (ix["owners"]!, .null),  // not stored
            (ix["int"]!, .null),  // null in a non-nullable column
            (ix["int"]!, .double(1)),  // type mismatch
            (ix["bool"]!, .int(1)),
            (ix["objectId"]!, .objectId([1, 2])),  // wrong size
            (ix["uuid"]!, .uuid(Array(1...12))),
            (ix["decimal128"]!, .decimal128([])),
            (ix["link"]!, .int(3)),  // an int is not a link
        ]
        for (c, v) in refused {
            var copy = row
            let ok = copy.withUnsafeMutableBytes { RowEncoder.patchFixed($0, table: table, column: c, v) }
            XCTAssertFalse(ok, "patched \(table.columns[c].name) = \(v)")
            XCTAssertEqual(copy, row)
        }
        // The Int primary key has no slot to patch.
        let pk = StoreTable(
            name: "P",
            columns: [StoreColumn(name: "id", type: .int, isPrimaryKey: true), StoreColumn(name: "n", type: .int)])
        var pkRow = try encode([.int(1), .int(2)], pk)
        XCTAssertFalse(pkRow.withUnsafeMutableBytes { RowEncoder.patchFixed($0, table: pk, column: 0, .int(9)) })
    }

    // MARK: Errors

    func testTypeMismatchNamesTableColumnAndKinds() throws {
        let table = Self.allTypes
        var rng = CoreRandom(seed: 5)
        let good = table.columns.map { Samples.value(for: $0, &rng) }
        let ix = table.columnIndex
        let cases: [(String, StoreValue, String, String)] = [
            ("int", .double(1), "int", "double"),
            ("bool", .int(1), "bool", "int"),
            ("float", .double(1), "float", "double"),
            ("double", .float(1), "double", "float"),
            ("string", .data([1]), "string", "data"),
            ("data", .string("x"), "data", "string"),
            ("timestamp", .int(0), "timestamp", "int"),
            ("objectId", .uuid(Array(1...16)), "objectId", "uuid"),
            ("objectId", .objectId([1]), "objectId", "objectId"),
            ("uuid", .objectId(Array(1...12)), "uuid", "objectId"),
            ("decimal128", .decimal128(Array(1...15)), "decimal128", "decimal128"),
            ("link", .int(4), "link", "int"),
            ("link", .typedLink(table: "Dog", key: 4), "link", "object"),
            ("int?", .string("1"), "int", "string"),
            ("ints", .int(1), "int", "int"),
            ("ints", .map([:]), "int", "map"),
            ("doubles", .list([]), "double", "list"),
            ("dogs", .link(1), "link", "object"),
        ]
        for (name, value, expected, found) in cases {
            var values = good
            values[ix[name]!] = value
            assertThrows(
                .typeMismatch(table: "AllTypes", column: name, expected: expected, found: found),
                try RowEncoder.encode(values, table: table))
        }
    }

    /// Collection elements must be of the column's type: a List<Int> refuses a string, a
    /// List<Dog> refuses an int (which would be stored without a backlink).
    func testCollectionElementsMustFitTheColumn() throws {
        let table = Self.allTypes
        let ix = table.columnIndex
        let good = table.columns.map(\.defaultValue)
        let cases: [(String, StoreValue, String, String)] = [
            ("ints", .list([.int(1), .string("2")]), "int", "string"),
            ("strings", .list([.int(1)]), "string", "int"),
            ("doubles", .map(["a": .float(1)]), "double", "float"),
            ("dogs", .list([.link(1), .int(2)]), "link", "int"),
            ("dogSet", .list([.typedLink(table: "Dog", key: 1)]), "link", "object"),
            ("dogMap", .map(["a": .string("x")]), "link", "string"),
            ("ids", .list([.objectId([1, 2, 3])]), "objectId", "objectId"),
            ("dates", .list([.list([])]), "timestamp", "list"),
        ]
        for (name, value, expected, found) in cases {
            var values = good
            values[ix[name]!] = value
            assertThrows(
                .typeMismatch(table: "AllTypes", column: name, expected: expected, found: found),
                try RowEncoder.encode(values, table: table))
        }
        // Null elements only where the elements are optional (and as map values of links,
        // which deleting the target leaves behind).
        for name in ["ints", "strings", "dogs", "dates"] {
            var values = good
            values[ix[name]!] = .list([.null])
            assertThrows(.nullNotAllowed(table: "AllTypes", column: name), try RowEncoder.encode(values, table: table))
        }
        var values = good
        values[ix["optionalInts"]!] = .list([.null, .int(1)])
        values[ix["dogMap"]!] = .map(["gone": .null])
        values[ix["mixedList"]!] = .list([.null, .string("any"), .int(1)])
        XCTAssertEqual(decode(try encode(values, table), table), values)
    }

    func testNullInNonNullableColumnsIsRefused() throws {
        let table = Self.allTypes
        let good = table.columns.map(\.defaultValue)
        for (c, column) in table.columns.enumerated()
        where column.isStored && !column.isNullable && column.type != .mixed && column.collection == .none {
            var values = good
            values[c] = .null
            assertThrows(
                .nullNotAllowed(table: "AllTypes", column: column.name), try RowEncoder.encode(values, table: table))
        }
        let error = StoreError.nullNotAllowed(table: "Dog", column: "name")
        XCTAssertTrue(error.description.contains("'Dog.name'"))
    }

    // MARK: Schema records

    func testCoreTableRecordRoundTripsAndIsAsDocumented() throws {
        let table = Self.allTypes
        let bytes = table.encoded()
        let decoded = try XCTUnwrap(bytes.withUnsafeBytes { StoreTable.decode(name: "AllTypes", $0) })
        XCTAssertTrue(decoded.sameShape(as: table))
        XCTAssertEqual(decoded.columns, table.columns)

        let small = StoreTable(
            name: "E", isEmbedded: true,
            columns: [
                StoreColumn(name: "id", type: .string, isNullable: true, isPrimaryKey: true, isIndexed: true),
                StoreColumn(name: "o", type: .linkingObjects, targetTable: "P", originProperty: "e"),
            ])
        var expected: [UInt8] = [1, 1] + [2, 0]
        expected += le32(2) + Array("id".utf8) + [5, 0, 0b111] + le32(0) + le32(0)
        expected += le32(1) + Array("o".utf8) + [13, 0, 0] + le32(1) + Array("P".utf8) + le32(1) + Array("e".utf8)
        XCTAssertEqual(small.encoded(), expected)
        let back = try XCTUnwrap(expected.withUnsafeBytes { StoreTable.decode(name: "E", $0) })
        XCTAssertTrue(back.isEmbedded)
        XCTAssertEqual(back.columns, small.columns)

        // Truncated records, unknown versions and unknown types are refused.
        for n in 0..<expected.count {
            XCTAssertNil(Array(expected[..<n]).withUnsafeBytes { StoreTable.decode(name: "E", $0) }, "prefix \(n)")
        }
        var wrongVersion = expected
        wrongVersion[0] = 2
        XCTAssertNil(wrongVersion.withUnsafeBytes { StoreTable.decode(name: "E", $0) })
        var badType = expected
        badType[4 + 4 + 2] = 99
        XCTAssertNil(badType.withUnsafeBytes { StoreTable.decode(name: "E", $0) })
    }

    func testTreeNamesAndIndexTrees() {
        let table = StoreTable(
            name: "Dog",
            columns: [
                StoreColumn(name: "id", type: .string, isPrimaryKey: true, isIndexed: true),
                StoreColumn(name: "name", type: .string, isIndexed: true),
                StoreColumn(name: "tags", type: .string, collection: .list, isIndexed: true),
            ])
        XCTAssertEqual(table.objectTree, "c:Dog")
        XCTAssertEqual(table.legacyRowTree, "o:Dog")
        XCTAssertEqual(table.primaryKeyTree, "p:Dog")
        XCTAssertEqual(table.backlinkTree, "b:Dog")
        XCTAssertEqual(table.indexTree(1), "i:Dog:name")
        // The primary key has its own tree, and collections are never indexed.
        XCTAssertEqual(table.columns.map(\.hasIndexTree), [false, true, false])
    }
}
