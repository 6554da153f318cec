import XCTest
@testable import StrataCore
import StrataStorage

/// Primary keys, aborts, object-key counters, updates and the schema catalog of `StoreTransaction`.
final class StoreTransactionTests: CoreTestCase {
    static let byInt = StoreTable(
        name: "ByInt",
        columns: [
            StoreColumn(name: "id", type: .int, isPrimaryKey: true),
            StoreColumn(name: "name", type: .string, isIndexed: true),
        ])
    static let byString = StoreTable(
        name: "ByString",
        columns: [
            StoreColumn(name: "code", type: .string, isPrimaryKey: true),
            StoreColumn(name: "n", type: .int, isIndexed: true),
        ])
    static let byObjectId = StoreTable(
        name: "ByObjectId",
        columns: [
            StoreColumn(name: "_id", type: .objectId, isPrimaryKey: true),
            StoreColumn(name: "n", type: .int),
        ])
    static let byUUID = StoreTable(
        name: "ByUUID",
        columns: [
            StoreColumn(name: "n", type: .int),
            StoreColumn(name: "id", type: .uuid, isPrimaryKey: true),
        ])
    static let plain = StoreTable(
        name: "Plain",
        columns: [
            StoreColumn(name: "title", type: .string, isIndexed: true),
            StoreColumn(name: "n", type: .int, isIndexed: true),
            StoreColumn(name: "blob", type: .data),
        ])
    static let all = [byInt, byString, byObjectId, byUUID, plain]

    // MARK: Primary keys

    func testDuplicatePrimaryKeysThrowAndLeaveNoTraceAfterAbort() throws {
        let oid = Array(1...12).map(UInt8.init)
        let uuid = Array(1...16).map(UInt8.init)
        try write(Self.all) { txn in
            try txn.insert(into: Self.byInt, values: [.int(-4), .string("a")])
            try txn.insert(into: Self.byString, values: [.string("k"), .int(1)])
            try txn.insert(into: Self.byObjectId, values: [.objectId(oid), .int(1)])
            try txn.insert(into: Self.byUUID, values: [.int(1), .uuid(uuid)])
        }
        let before = try snapshot()

        let txn = try beginWrite(Self.all)
        // Other changes in the same transaction, which the abort must also undo.
        try txn.insert(into: Self.byInt, values: [.int(5), .string("b")])
        try txn.set(Self.byString, key: 0, column: 1, to: .int(2))
        try txn.insert(into: Self.plain, values: [.string("x"), .int(1), .data([])])
        assertThrows(
            .duplicatePrimaryKey(table: "ByInt", column: "id", value: "-4"),
            try txn.insert(into: Self.byInt, values: [.int(-4), .string("other")]))
        assertThrows(
            .duplicatePrimaryKey(table: "ByInt", column: "id", value: "5"),
            try txn.insert(into: Self.byInt, values: [.int(5), .string("other")]))
        assertThrows(
            .duplicatePrimaryKey(table: "ByString", column: "code", value: "k"),
            try txn.insert(into: Self.byString, values: [.string("k"), .int(9)]))
        assertThrows(
            .duplicatePrimaryKey(table: "ByObjectId", column: "_id", value: "0102030405060708090a0b0c"),
            try txn.insert(into: Self.byObjectId, values: [.objectId(oid), .int(9)]))
        assertThrows(
            .duplicatePrimaryKey(table: "ByUUID", column: "id", value: "0102030405060708090a0b0c0d0e0f10"),
            try txn.insert(into: Self.byUUID, values: [.int(9), .uuid(uuid)]))
        // A refused insert wrote nothing: the originals are intact inside the transaction.
        XCTAssertEqual(try txn.row(Self.byInt, key: -4)?.values(), [.int(-4), .string("a")])
        XCTAssertEqual(try txn.indexLookup(Self.byInt, column: 1, equals: .string("other")), [])
        XCTAssertEqual(try txn.count(Self.byString), 1)
        XCTAssertEqual(try txn.count(tree: Self.byString.primaryKeyTree), 1)
        XCTAssertEqual(try txn.indexLookup(Self.byString, column: 1, equals: .int(9)), [])
        XCTAssertEqual(try txn.objectKey(Self.byObjectId, primaryKey: .objectId(oid)), 0)
        txn.write!.abort()

        XCTAssertEqual(try snapshot(), before)
        try read(Self.all) { r in
            XCTAssertNil(try r.row(Self.byInt, key: 5))
            XCTAssertEqual(try r.row(Self.byString, key: 0)?.values(), [.string("k"), .int(1)])
            XCTAssertEqual(try r.count(Self.plain), 0)
        }
        try verifyDatabase()
    }

    func testARefusedDuplicateLeavesTheTransactionUsable() throws {
        try write(Self.all) { txn in
            try txn.insert(into: Self.byString, values: [.string("k"), .int(1)])
            XCTAssertThrowsError(try txn.insert(into: Self.byString, values: [.string("k"), .int(2)]))
            try txn.insert(into: Self.byString, values: [.string("l"), .int(2)])
        }
        try read(Self.all) { r in
            XCTAssertEqual(try r.objectKey(Self.byString, primaryKey: .string("k")), 0)
            XCTAssertEqual(try r.objectKey(Self.byString, primaryKey: .string("l")), 1)
            XCTAssertEqual(try r.indexLookup(Self.byString, column: 1, equals: .int(1)), [0])
            XCTAssertEqual(try r.indexLookup(Self.byString, column: 1, equals: .int(2)), [1])
            XCTAssertEqual(try r.count(tree: Self.byString.indexTree(1)), 2)
        }
    }

    /// Realm's primary keys cannot change after the object is inserted; changing one would also
    /// leave the `p:` tree pointing at the old value.
    func testChangingAPrimaryKeyIsRefused() throws {
        try write(Self.all) { txn in
            try txn.insert(into: Self.byString, values: [.string("k"), .int(1)])
            try txn.insert(into: Self.byInt, values: [.int(3), .string("a")])
        }
        let before = try snapshot()
        let txn = try beginWrite(Self.all)
        assertThrows(
            .primaryKeyChanged(table: "ByString", column: "code"),
            try txn.set(Self.byString, key: 0, column: 0, to: .string("m")))
        assertThrows(
            .primaryKeyChanged(table: "ByInt", column: "id"), try txn.set(Self.byInt, key: 3, column: 0, to: .int(4)))
        // Setting it to the value it has is a no-op, as for any column.
        XCTAssertEqual(try txn.set(Self.byString, key: 0, column: 0, to: .string("k")), .string("k"))
        XCTAssertEqual(try txn.set(Self.byInt, key: 3, column: 0, to: .int(3)), .int(3))
        try txn.commit()
        XCTAssertEqual(try snapshot(), before)
        try read(Self.all) { r in
            XCTAssertEqual(try r.objectKey(Self.byString, primaryKey: .string("k")), 0)
            XCTAssertNil(try r.objectKey(Self.byString, primaryKey: .string("m")))
            XCTAssertNil(try r.objectKey(Self.byInt, primaryKey: .int(4)))
        }
    }

    func testObjectKeyLookupsOfEveryPrimaryKeyType() throws {
        var oids: [[UInt8]] = [], uuids: [[UInt8]] = []
        var rng = CoreRandom(seed: 11)
        try write(Self.all) { txn in
            for i in 0..<50 {
                oids.append(Samples.bytes(12, &rng))
                uuids.append(Samples.bytes(16, &rng))
                XCTAssertEqual(
                    try txn.insert(into: Self.byObjectId, values: [.objectId(oids[i]), .int(Int64(i))]), Int64(i))
                XCTAssertEqual(try txn.insert(into: Self.byUUID, values: [.int(Int64(i)), .uuid(uuids[i])]), Int64(i))
                XCTAssertEqual(
                    try txn.insert(into: Self.byInt, values: [.int(Int64(i) * 1_000_003 - 20_000_000), .string("")]),
                    Int64(i) * 1_000_003 - 20_000_000)
            }
        }
        try read(Self.all) { r in
            for i in 0..<50 {
                XCTAssertEqual(try r.objectKey(Self.byObjectId, primaryKey: .objectId(oids[i])), Int64(i))
                XCTAssertEqual(
                    try r.row(Self.byObjectId, key: Int64(i))?.values(), [.objectId(oids[i]), .int(Int64(i))])
                XCTAssertEqual(try r.objectKey(Self.byUUID, primaryKey: .uuid(uuids[i])), Int64(i))
                XCTAssertEqual(
                    try r.objectKey(Self.byInt, primaryKey: .int(Int64(i) * 1_000_003 - 20_000_000)),
                    Int64(i) * 1_000_003 - 20_000_000)
            }
            XCTAssertNil(try r.objectKey(Self.byObjectId, primaryKey: .objectId([UInt8](repeating: 0, count: 12))))
            XCTAssertNil(try r.objectKey(Self.byInt, primaryKey: .int(1)))
            XCTAssertNil(try r.objectKey(Self.byInt, primaryKey: .string("1")))
            // Rows of an Int-keyed table scan in numeric order, negatives first.
            var keys: [Int64] = []
            try r.forEachRow(Self.byInt) {
                keys.append($0.key); return true
            }
            XCTAssertEqual(keys, (0..<50).map { Int64($0) * 1_000_003 - 20_000_000 })
        }
    }

    // MARK: Abort

    func testAbortLeavesRowsIndexesAndCountersExactlyAsBefore() throws {
        var rng = CoreRandom(seed: 12)
        try write(Self.all) { txn in
            for i in 0..<200 {
                try txn.insert(
                    into: Self.plain,
                    values: [.string("t\(i % 7)"), .int(Int64(i % 5)), .data(Samples.bytes(i * 13 % 300, &rng))])
                try txn.insert(into: Self.byString, values: [.string("c\(i)"), .int(Int64(i % 3))])
            }
        }
        let before = try snapshot()
        let txn = try beginWrite(Self.all)
        for i in 0..<300 {
            switch i % 4 {
            case 0: try txn.insert(into: Self.plain, values: [.string("new"), .int(9), .data([1, 2])])
            case 1: try txn.set(Self.plain, key: Int64(i % 200), column: 1, to: .int(Int64(i)))
            case 2: try txn.delete(Self.byString, key: Int64(i % 200))
            default: try txn.set(Self.byString, key: Int64(i % 200), column: 1, to: .int(-1))
            }
        }
        try txn.deleteAll(Self.plain)
        try txn.flush()  // even with the counter written into the transaction
        txn.write!.abort()
        XCTAssertEqual(try snapshot(), before)
        // The next transaction continues from the committed counter.
        try write(Self.all) { txn in
            XCTAssertEqual(try txn.insert(into: Self.plain, values: [.string("a"), .int(0), .data([])]), 200)
        }
        try verifyDatabase()
    }

    /// A read `StoreTransaction` keeps showing its version (rows, primary keys, indexes) while a
    /// writer changes and commits.
    func testReadTransactionKeepsItsSnapshotWhileAWriterCommits() throws {
        try write(Self.all) { txn in
            try txn.insert(into: Self.byString, values: [.string("k"), .int(1)])
            try txn.insert(into: Self.plain, values: [.string("a"), .int(1), .data([1])])
        }
        let old = try db.beginRead()
        defer { old.end() }
        let r = StoreTransaction(read: old)
        try write(Self.all) { txn in
            try txn.set(Self.plain, key: 0, column: 1, to: .int(2))
            try txn.set(Self.plain, key: 0, column: 0, to: .string("b"))
            try txn.delete(Self.byString, key: 0)
            try txn.insert(into: Self.byString, values: [.string("m"), .int(1)])
        }
        XCTAssertEqual(try r.row(Self.plain, key: 0)?.values(), [.string("a"), .int(1), .data([1])])
        XCTAssertEqual(try r.indexLookup(Self.plain, column: 1, equals: .int(1)), [0])
        XCTAssertEqual(try r.indexLookup(Self.plain, column: 0, equals: .string("b")), [])
        XCTAssertEqual(try r.objectKey(Self.byString, primaryKey: .string("k")), 0)
        XCTAssertNil(try r.objectKey(Self.byString, primaryKey: .string("m")))
        XCTAssertEqual(try r.count(Self.byString), 1)
        try read(Self.all) { now in
            XCTAssertEqual(try now.row(Self.plain, key: 0)?.values(), [.string("b"), .int(2), .data([1])])
            XCTAssertNil(try now.objectKey(Self.byString, primaryKey: .string("k")))
            XCTAssertEqual(try now.objectKey(Self.byString, primaryKey: .string("m")), 1)
        }
    }

    // MARK: Object keys

    func testObjectKeysAreNeverReusedAcrossTransactionsAfterDeletes() throws {
        for table in [Self.plain, Self.byString] {
            func values(_ i: Int) -> [StoreValue] {
                table === Self.plain ? [.string("t"), .int(Int64(i)), .data([])] : [.string("c\(i)"), .int(Int64(i))]
            }
            let first = try write(Self.all) { txn in try (0..<3).map { try txn.insert(into: table, values: values($0)) }
            }
            XCTAssertEqual(first, [0, 1, 2])
            try write(Self.all) { txn in try txn.deleteAll(table) }
            try read(Self.all) { r in XCTAssertEqual(try r.count(table), 0) }
            XCTAssertEqual(try write(Self.all) { txn in try txn.insert(into: table, values: values(0)) }, 3)
            try write(Self.all) { txn in XCTAssertTrue(try txn.delete(table, key: 3)) }
            try reopen()
            XCTAssertEqual(try write(Self.all) { txn in try txn.insert(into: table, values: values(0)) }, 4)
            // The counter is the table's entry in `k:`: the next key, u64 little-endian.
            try read { r in
                let raw = try Array(table.name.utf8).withUnsafeBytes { k in
                    try r.get(k, tree: StoreTransaction.counterTree).map(Array.init)
                }
                XCTAssertEqual(raw, le64(5))
            }
        }
        // Int primary keys are the object keys themselves: a deleted key comes back with its value.
        try write(Self.all) { txn in try txn.insert(into: Self.byInt, values: [.int(7), .string("a")]) }
        try write(Self.all) { txn in try txn.delete(Self.byInt, key: 7) }
        XCTAssertEqual(
            try write(Self.all) { txn in try txn.insert(into: Self.byInt, values: [.int(7), .string("b")]) }, 7)
        try read(Self.all) { r in XCTAssertEqual(try r.count(tree: StoreTransaction.counterTree), 2) }
    }

    // MARK: Updates

    func testSetReturnsTheOldValueAndKeepsIndexesCurrent() throws {
        let key = try write(Self.all) { txn in
            try txn.insert(into: Self.plain, values: [.string("a"), .int(1), .data([1])])
        }
        try write(Self.all) { txn in
            XCTAssertEqual(try txn.set(Self.plain, key: key, column: 0, to: .string("b")), .string("a"))
            XCTAssertEqual(try txn.set(Self.plain, key: key, column: 1, to: .int(2)), .int(1))
            XCTAssertEqual(try txn.set(Self.plain, key: key, column: 1, to: .int(2)), .int(2))  // unchanged
            XCTAssertEqual(try txn.set(Self.plain, key: key, column: 2, to: .data([])), .data([1]))
            assertThrows(
                .objectMissing(table: "Plain", key: 99), try txn.set(Self.plain, key: 99, column: 1, to: .int(0)))
            assertThrows(
                .nullNotAllowed(table: "Plain", column: "n"), try txn.set(Self.plain, key: key, column: 1, to: .null))
            assertThrows(
                .typeMismatch(table: "Plain", column: "n", expected: "int", found: "string"),
                try txn.set(Self.plain, key: key, column: 1, to: .string("2")))
            assertThrows(
                .typeMismatch(table: "Plain", column: "title", expected: "string", found: "int"),
                try txn.set(Self.plain, key: key, column: 0, to: .int(2)))
        }
        try read(Self.all) { r in
            XCTAssertEqual(try r.row(Self.plain, key: key)?.values(), [.string("b"), .int(2), .data([])])
            XCTAssertEqual(try r.indexLookup(Self.plain, column: 0, equals: .string("a")), [])
            XCTAssertEqual(try r.indexLookup(Self.plain, column: 0, equals: .string("b")), [key])
            XCTAssertEqual(try r.indexLookup(Self.plain, column: 1, equals: .int(1)), [])
            XCTAssertEqual(try r.indexLookup(Self.plain, column: 1, equals: .int(2)), [key])
        }
    }

    /// -0.0 == 0.0 in Swift, but the sign of a zero is data: setting it is not a no-op.
    func testSettingNegativeZeroOverZeroIsStored() throws {
        let t = StoreTable(
            name: "Z",
            columns: [
                StoreColumn(name: "d", type: .double, isIndexed: true), StoreColumn(name: "f", type: .float),
            ])
        try write([t]) { txn in try txn.insert(into: t, values: [.double(0), .float(0)]) }
        try write([t]) { txn in
            try txn.set(t, key: 0, column: 0, to: .double(-0.0))
            try txn.set(t, key: 0, column: 1, to: .float(-0.0))
        }
        try read([t]) { r in
            let values = try XCTUnwrap(r.row(t, key: 0)).values()
            guard case .double(let d) = values[0], case .float(let f) = values[1] else { return XCTFail("\(values)") }
            XCTAssertEqual(d.sign, .minus)
            XCTAssertEqual(f.sign, .minus)
            // Index entries fold -0.0 into 0.0, so the object is found either way, once.
            XCTAssertEqual(try r.indexLookup(t, column: 0, equals: .double(0)), [0])
            XCTAssertEqual(try r.count(tree: t.indexTree(0)), 1)
        }
    }

    /// A row too large to sit inline in a leaf lives in an overflow run; in-place updates of its
    /// fixed-width columns go through the copied run.
    func testUpdatesOfRowsInOverflowRuns() throws {
        let big = [UInt8](repeating: 0xAB, count: 20_000)
        let key = try write(Self.all) { txn in
            try txn.insert(into: Self.plain, values: [.string("big"), .int(0), .data(big)])
        }
        for round in 1...3 {
            try write(Self.all) { txn in
                for i in 1...5 { try txn.set(Self.plain, key: key, column: 1, to: .int(Int64(round * 10 + i))) }
            }
        }
        try read(Self.all) { r in
            XCTAssertEqual(try r.row(Self.plain, key: key)?.values(), [.string("big"), .int(35), .data(big)])
            XCTAssertEqual(try r.indexLookup(Self.plain, column: 1, equals: .int(35)), [key])
            XCTAssertEqual(try r.count(tree: Self.plain.indexTree(1)), 1)
        }
        try verifyDatabase()
    }

    /// Rows written under an older schema (fewer columns) read the new columns' defaults and are
    /// rewritten in the new layout when updated.
    func testRowsWrittenBeforeColumnsWereAddedReadDefaultsAndUpgradeOnUpdate() throws {
        let v1 = StoreTable(
            name: "Doc",
            columns: [
                StoreColumn(name: "id", type: .int, isPrimaryKey: true),
                StoreColumn(name: "title", type: .string),
            ])
        try write([v1]) { txn in
            try txn.storeTable(v1)
            for i in 0..<10 { try txn.insert(into: v1, values: [.int(Int64(i)), .string("t\(i)")]) }
        }
        let v2 = StoreTable(
            name: "Doc",
            columns: v1.columns + [
                StoreColumn(name: "views", type: .int),
                StoreColumn(name: "note", type: .string, isNullable: true),
                StoreColumn(name: "tags", type: .string, collection: .list),
            ])
        try write([v2]) { txn in
            try txn.storeTable(v2)
            XCTAssertEqual(try txn.row(v2, key: 3)?.values(), [.int(3), .string("t3"), .int(0), .null, .list([])])
            try txn.set(v2, key: 3, column: 2, to: .int(5))  // fixed-width: the old row cannot be patched
            try txn.set(v2, key: 4, column: 3, to: .string("n"))
            try txn.insert(into: v2, values: [.int(10), .string("new"), .int(1), .null, .list([.string("x")])])
        }
        try read([v2]) { r in
            XCTAssertTrue(try r.storedTables()["Doc"]!.sameShape(as: v2))
            XCTAssertEqual(try r.row(v2, key: 3)?.values(), [.int(3), .string("t3"), .int(5), .null, .list([])])
            XCTAssertEqual(try r.row(v2, key: 4)?.values(), [.int(4), .string("t4"), .int(0), .string("n"), .list([])])
            XCTAssertEqual(try r.row(v2, key: 5)?.values(), [.int(5), .string("t5"), .int(0), .null, .list([])])
            XCTAssertEqual(
                try r.row(v2, key: 10)?.values(), [.int(10), .string("new"), .int(1), .null, .list([.string("x")])])
            // The update rewrote the cluster holding objects 0-10 with all five columns (the
            // cluster's column count is the u16 at offset 2; FORMAT.md, "Clusters").
            let raw = try XCTUnwrap(r.row(v2, key: 3))
            XCTAssertEqual(raw.bytes.loadUnaligned(fromByteOffset: 2, as: UInt16.self), 5)
            XCTAssertEqual(try XCTUnwrap(r.row(v2, key: 5)).bytes.loadUnaligned(fromByteOffset: 2, as: UInt16.self), 5)
        }
    }

    // MARK: Schema catalog

    func testSchemaCatalogRoundTrips() throws {
        let embedded = StoreTable(
            name: "Address", isEmbedded: true, columns: [StoreColumn(name: "street", type: .string)])
        let tables = Self.all + [embedded, RowCodecTests.allTypes]
        try write(tables) { txn in
            for t in tables { try txn.storeTable(t) }
            XCTAssertEqual(Set(try txn.storedTables().keys), Set(tables.map(\.name)))
        }
        try reopen()
        try read { r in
            let stored = try r.storedTables()
            XCTAssertEqual(Set(stored.keys), Set(tables.map(\.name)))
            for t in tables {
                let s = try XCTUnwrap(stored[t.name])
                XCTAssertTrue(s.sameShape(as: t), t.name)
                XCTAssertEqual(s.columns, t.columns)
                XCTAssertEqual(s.isEmbedded, t.isEmbedded)
                XCTAssertEqual(s.primaryKeyColumn, t.primaryKeyColumn)
                XCTAssertEqual(s.primaryKeyIsObjectKey, t.primaryKeyIsObjectKey)
            }
            // The record is `StoreTable.encoded()` under the table's name.
            let raw = try Array("Address".utf8).withUnsafeBytes {
                try r.get($0, tree: StoreTransaction.schemaTree).map(Array.init)
            }
            XCTAssertEqual(raw, embedded.encoded())
        }
        // Storing a table again replaces its record.
        let renamed = StoreTable(name: "Address", isEmbedded: true, columns: [StoreColumn(name: "line", type: .string)])
        try write(tables) { txn in try txn.storeTable(renamed) }
        try read { r in
            let stored = try r.storedTables()
            XCTAssertEqual(stored.count, tables.count)
            XCTAssertTrue(stored["Address"]!.sameShape(as: renamed))
        }
    }

    func testCorruptSchemaRecordIsReported() throws {
        try write([]) { txn in
            let h = try txn.write!.openTree(StoreTransaction.schemaTree, create: true)
            _ = try txn.write!.put(Array("Bad".utf8), [9, 9, 9], in: h)
        }
        try read { r in
            XCTAssertThrowsError(try r.storedTables()) { error in
                guard case .corrupt(let message) = error as? StoreError else { return XCTFail("\(error)") }
                XCTAssertTrue(message.contains("'Bad'"), message)
            }
        }
    }

    func testDropTableRemovesEveryTreeAndEntryOfTheTable() throws {
        // "Dog" and "DogHouse" share a prefix; dropping one must not touch the other.
        let dog = StoreTable(
            name: "Dog",
            columns: [
                StoreColumn(name: "name", type: .string, isPrimaryKey: true),
                StoreColumn(name: "age", type: .int, isIndexed: true),
                StoreColumn(name: "color", type: .string, isIndexed: true),
                StoreColumn(name: "friend", type: .link, isNullable: true, targetTable: "Dog"),
            ])
        let house = StoreTable(
            name: "DogHouse",
            columns: [
                StoreColumn(name: "size", type: .int, isIndexed: true),
                StoreColumn(name: "dog", type: .link, isNullable: true, targetTable: "DogHouse"),
            ])
        let event = StoreTable(name: "Event", columns: [StoreColumn(name: "n", type: .int, isIndexed: true)])
        try write([dog, house, event]) { txn in
            for t in [dog, house, event] { try txn.storeTable(t) }
            let rex = try txn.insert(into: dog, values: [.string("Rex"), .int(3), .string("red"), .null])
            try txn.insert(into: dog, values: [.string("Fido"), .int(4), .string("tan"), .link(rex)])
            let h = try txn.insert(into: house, values: [.int(2), .null])
            try txn.insert(into: house, values: [.int(3), .link(h)])
            try txn.insert(into: event, values: [.int(1)])
        }
        try write([dog, house, event]) { w in
            let names = try w.write!.treeNames()
            for t in [
                "c:Dog", "p:Dog", "i:Dog:age", "i:Dog:color", "b:Dog", "c:DogHouse", "i:DogHouse:size", "b:DogHouse",
            ] {
                XCTAssertTrue(names.contains(t), "\(t) missing before the drop: \(names)")
            }
        }
        let houseBefore = try snapshot().filter {
            $0.key.hasPrefix("c:DogHouse") || $0.key.hasPrefix("i:DogHouse") || $0.key.hasPrefix("b:DogHouse")
        }

        // Insert more in the transaction that drops the table: its counter must not come back.
        try write([dog, house, event]) { txn in
            try txn.insert(into: dog, values: [.string("Spot"), .int(1), .string("red"), .null])
            try txn.insert(into: event, values: [.int(2)])
            try txn.dropTable("Dog")
            XCTAssertNil(txn.tables["Dog"])
            XCTAssertEqual(try txn.count(dog), 0)
            XCTAssertNil(try txn.objectKey(dog, primaryKey: .string("Rex")))
        }
        try reopen()
        try read { r in
            let names = try r.read!.treeNames()
            XCTAssertEqual(
                names.filter { $0.hasSuffix(":Dog") || $0.contains(":Dog:") }, [], "trees of Dog left: \(names)")
            XCTAssertNil(try r.storedTables()["Dog"])
            XCTAssertNotNil(try r.storedTables()["DogHouse"])
            let counters = try entries(r, tree: StoreTransaction.counterTree).map {
                String(decoding: $0.0, as: UTF8.self)
            }
            XCTAssertEqual(counters.sorted(), ["DogHouse", "Event"])
            XCTAssertEqual(try r.count(event), 2)
        }
        let houseAfter = try snapshot().filter {
            $0.key.hasPrefix("c:DogHouse") || $0.key.hasPrefix("i:DogHouse") || $0.key.hasPrefix("b:DogHouse")
        }
        XCTAssertEqual(houseAfter, houseBefore)
        XCTAssertEqual(houseAfter.count, 3)
        try verifyDatabase()
    }
}
