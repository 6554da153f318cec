import StrataCore

/// The rows one upload statement writes to one table, column by column: the primary key, every
/// field, and `_strata_clocks`.
struct SyncUploadRows {
    let table: SyncTable
    private(set) var columns: [SyncArrayBind]
    /// Per field, the bytes that open its entry in `_strata_clocks` (`"name":"`, after a comma
    /// but for the first).
    private let clockKeys: [[UInt8]]

    init(_ t: SyncTable) {
        table = t
        columns =
            [SyncArrayBind(.init(t.primaryKeyType))]
            + t.fields.map { SyncArrayBind($0.isJSON ? .jsonb : .init($0.type)) } + [SyncArrayBind(.text)]
        clockKeys = t.fields.enumerated().map { i, f in
            Array(((i == 0 ? "" : ",") + SyncTable.jsonString(f.name) + ":\"").utf8)
        }
    }

    /// The number of rows.
    var count: Int { Int(columns[0].count) }

    var isEmpty: Bool { count == 0 }

    /// Appends the row of the object whose primary key is `pk` as `record` has it (alive):
    /// every field, a field the record lacks at its default with the tombstone's clock.
    mutating func append(pk: StoreValue, _ record: SyncRecord<StoreValue>) throws {
        try columns[0].append(pk)
        var clocks: [UInt8] = [UInt8(ascii: "{")]
        clocks.reserveCapacity(clockKeys.count * 48 + 2)
        for (i, f) in table.fields.enumerated() {
            let v = record.fields[f.name] ?? .init(value: f.defaultValue, clock: record.tombstone)
            if f.type == .mixed && !f.isCollection && v.value == .null {
                // `.none` is SQL NULL (`SyncMixed`), not JSON `null`.
                try columns[i + 1].append(.null)
            } else if f.isJSON {
                columns[i + 1].append(json: f.json(v.value))
            } else {
                try columns[i + 1].append(v.value)
            }
            clocks += clockKeys[i]
            v.clock.appendText(to: &clocks)
            clocks.append(UInt8(ascii: "\""))
        }
        clocks.append(UInt8(ascii: "}"))
        columns[columns.count - 1].append(textBytes: clocks)
    }

    /// The column names in statement order, quoted. `_strata_xid` is written by the statement
    /// itself (a table created by hand may lack the column's default).
    var columnList: String {
        ([table.primaryKeyName] + table.fields.map(\.name)).map(SyncTable.quote).joined(separator: ", ")
            + ", _strata_clocks, _strata_xid"
    }

    /// The select list over `relation`: the columns, the clocks' text as `jsonb` (text binds
    /// parse several times faster on the server than `jsonb` binds).
    var selectList: String {
        (0..<columns.count - 1).map { "x.c\($0)" + columns[$0].element.castSuffix }.joined(separator: ", ")
            + ", x.c\(columns.count - 1)::jsonb, pg_current_xact_id()"
    }

    /// `unnest($first::type[], ...) AS x(c0, c1, ...)`: the rows as a relation, binds numbered
    /// from `first`.
    func relation(firstBind first: Int) -> String {
        "unnest("
            + columns.enumerated().map { "$\(first + $0.offset)::\($0.element.element.sqlArrayType)" }.joined(
                separator: ", ") + ") AS x(" + (0..<columns.count).map { "c\($0)" }.joined(separator: ", ") + ")"
    }
}
