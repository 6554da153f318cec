import StrataCore

/// The rows one upload statement writes to one table, column by column: the primary key, every
/// field, and `_strata_clocks`.
struct SyncUploadRows {
    let table: SyncTable
    private(set) var columns: [SyncArrayBind]
    /// The primary keys' text forms, in row order.
    private(set) var keys: [String] = []
    /// Per field, the bytes that open its entry in `_strata_clocks` (`"name":"`, after a comma
    /// but for the first).
    private let clockKeys: [[UInt8]]

    init(_ t: SyncTable) {
        table = t
        columns =
            [SyncArrayBind(.init(t.primaryKeyType))]
            + t.fields.map { SyncArrayBind($0.isCollection ? .jsonb : .init($0.type)) } + [SyncArrayBind(.text)]
        clockKeys = t.fields.enumerated().map { i, f in
            Array(((i == 0 ? "" : ",") + SyncTable.jsonString(f.name) + ":\"").utf8)
        }
    }

    var isEmpty: Bool { keys.isEmpty }

    /// Appends the row of object `key` (its primary key's value `pk`) as `record` has it (alive):
    /// every field, a field the record lacks at its default with the tombstone's clock.
    mutating func append(key: String, pk: StoreValue, _ record: SyncRecord<StoreValue>) throws {
        keys.append(key)
        try columns[0].append(pk)
        var clocks: [UInt8] = [UInt8(ascii: "{")]
        clocks.reserveCapacity(clockKeys.count * 48 + 2)
        for (i, f) in table.fields.enumerated() {
            let v = record.fields[f.name] ?? .init(value: f.defaultValue, clock: record.tombstone)
            if f.isCollection {
                columns[i + 1].append(json: f.json(v.value))
            } else {
                try columns[i + 1].append(v.value)
            }
            clocks += clockKeys[i]
            Self.appendHex(v.clock.time, &clocks)
            clocks.append(UInt8(ascii: "."))
            Self.appendHex(v.clock.node, &clocks)
            clocks.append(UInt8(ascii: "\""))
        }
        clocks.append(UInt8(ascii: "}"))
        columns[columns.count - 1].append(textBytes: clocks)
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// Appends `v` as 16 lowercase hex digits (a clock's half in its text form, `SyncClock.text`).
    private static func appendHex(_ v: UInt64, _ out: inout [UInt8]) {
        for shift in stride(from: 60, through: 0, by: -4) { out.append(hexDigits[Int((v >> UInt64(shift)) & 15)]) }
    }

    /// The column names in statement order, quoted. `_strata_xid` is written by the statement
    /// itself (a table created by hand may lack the column's default).
    var columnList: String {
        ([table.primaryKeyName] + table.fields.map(\.name)).map(SyncTable.quote).joined(separator: ", ")
            + ", _strata_clocks, _strata_xid"
    }

    /// `unnest($first::type[], ...) AS x(c0, c1, ...)`: the rows as a relation, binds numbered
    /// from `first`.
    /// The select list over `relation`: the columns, the clocks' text as `jsonb` (text binds
    /// parse several times faster on the server than `jsonb` binds).
    var selectList: String {
        (0..<columns.count - 1).map { "x.c\($0)" }.joined(separator: ", ")
            + ", x.c\(columns.count - 1)::jsonb, pg_current_xact_id()"
    }

    func relation(firstBind first: Int) -> String {
        "unnest("
            + columns.enumerated().map { "$\(first + $0.offset)::\($0.element.element.sqlArrayType)" }.joined(
                separator: ", ") + ") AS x(" + (0..<columns.count).map { "c\($0)" }.joined(separator: ", ") + ")"
    }
}
