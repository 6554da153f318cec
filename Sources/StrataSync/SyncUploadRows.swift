import StrataCore

/// The rows one upload statement writes to one table, column by column: the primary key, every
/// field, and the clocks. Two forms (Docs/Sync.md, "The data model"):
/// - merged rows: `_strata_clocks` lists every field's clock;
/// - new objects written whole (`newObjects`): one row clock (`_strata_clock`) for the fields,
///   and `_strata_clocks` only for those written at another clock (usually none: `NULL`, which
///   the statement turns into the table's other columns at the zero clock).
struct SyncUploadRows {
    let table: SyncTable
    let newObjects: Bool
    private(set) var columns: [SyncArrayBind]
    /// Per field, the bytes that open its entry in `_strata_clocks` (`"name":"`); the entries
    /// after the first are preceded by a comma.
    private let clockKeys: [[UInt8]]

    init(_ t: SyncTable, newObjects: Bool = false) {
        table = t
        self.newObjects = newObjects
        columns =
            [SyncArrayBind(.init(t.primaryKeyType))]
            + t.fields.map { SyncArrayBind($0.isJSON ? .jsonb : .init($0.type)) } + [SyncArrayBind(.text)]
        if newObjects { columns.append(SyncArrayBind(.text)) }
        clockKeys = t.fields.map { Array((SyncTable.jsonString($0.name) + ":\"").utf8) }
    }

    /// The number of rows.
    var count: Int { Int(columns[0].count) }

    var isEmpty: Bool { count == 0 }

    /// Appends the row of the object whose primary key is `pk` as `record` has it (alive):
    /// every field, a field the record lacks at its default with the tombstone's clock.
    /// In the new-objects form, the row clock is the first field's and `_strata_clocks` lists
    /// the fields written at another.
    mutating func append(pk: StoreValue, _ record: SyncRecord<StoreValue>) throws {
        try columns[0].append(pk)
        let fields = table.fields
        var rowClock: SyncClock?
        if newObjects, let first = fields.first { rowClock = record.fields[first.name]?.clock ?? record.tombstone }
        var clocks: [UInt8] = [UInt8(ascii: "{")]
        clocks.reserveCapacity(newObjects ? 2 : clockKeys.count * 48 + 2)
        for (i, f) in fields.enumerated() {
            let v = record.fields[f.name] ?? .init(value: f.defaultValue, clock: record.tombstone)
            if f.type == .mixed && !f.isCollection && v.value == .null {
                // `.none` is SQL NULL (`SyncMixed`), not JSON `null`.
                try columns[i + 1].append(.null)
            } else if f.isJSON {
                columns[i + 1].append(json: f.json(v.value))
            } else {
                try columns[i + 1].append(v.value)
            }
            if v.clock == rowClock { continue }
            if clocks.count > 1 { clocks.append(UInt8(ascii: ",")) }
            clocks += clockKeys[i]
            v.clock.appendText(to: &clocks)
            clocks.append(UInt8(ascii: "\""))
        }
        clocks.append(UInt8(ascii: "}"))
        if let rowClock {
            var text: [UInt8] = []
            text.reserveCapacity(33)
            rowClock.appendText(to: &text)
            columns[fields.count + 1].append(textBytes: text)
            if clocks.count > 2 {
                columns[fields.count + 2].append(textBytes: clocks)
            } else {
                try columns[fields.count + 2].append(.null)
            }
        } else {
            columns[fields.count + 1].append(textBytes: clocks)
        }
    }

    /// The column names in statement order, quoted. `_strata_xid` is written by the statement
    /// itself (a table created by hand may lack the column's default).
    var columnList: String {
        ([table.primaryKeyName] + table.fields.map(\.name)).map(SyncTable.quote).joined(separator: ", ")
            + (newObjects ? ", _strata_clock" : "") + ", _strata_clocks, _strata_xid"
    }

    /// The select list over `relation` (and, in the new-objects form, `m.other`: the clocks of
    /// the table's other columns), the clocks' text as `jsonb` (text binds parse several times
    /// faster on the server than `jsonb` binds).
    var selectList: String {
        let n = table.fields.count + 1
        let values = (0..<n).map { "x.c\($0)" + columns[$0].element.castSuffix }.joined(separator: ", ")
        if newObjects {
            return values
                + ", x.c\(n), CASE WHEN x.c\(n + 1) IS NULL THEN m.other ELSE x.c\(n + 1)::jsonb || m.other END, pg_current_xact_id()"
        }
        return values + ", x.c\(n)::jsonb, pg_current_xact_id()"
    }

    /// For the new-objects form: a one-row relation `m(other)`, every column of the table that is
    /// neither the model's nor Strata's, at the zero clock. A new object's row clock covers the
    /// fields `_strata_clocks` does not list, so a column another replica's newer model added
    /// must be listed (this replica did not write it). Read from the catalog in the insert's own
    /// statement: a column added since is in its snapshot (an `ALTER TABLE` waits for the
    /// insert's lock, or committed before the statement began). Binds: the quoted table name, and
    /// the model's column names.
    func otherColumns(tableBind: Int, namesBind: Int) -> String {
        "(SELECT coalesce(jsonb_object_agg(a.attname, '\(SyncClock.zero.text)'), '{}'::jsonb) AS other FROM pg_attribute a WHERE a.attrelid = $\(tableBind)::regclass AND a.attnum > 0 AND NOT a.attisdropped AND a.attname <> ALL($\(namesBind)::text[])) m"
    }

    /// The names `otherColumns` leaves out: the primary key, the fields, Strata's columns.
    var ownColumnNames: [String] {
        [table.primaryKeyName] + table.fields.map(\.name) + ["_strata_clocks", "_strata_clock", "_strata_xid"]
    }

    /// `unnest($first::type[], ...) AS x(c0, c1, ...)`: the rows as a relation, binds numbered
    /// from `first`.
    func relation(firstBind first: Int) -> String {
        "unnest("
            + columns.enumerated().map { "$\(first + $0.offset)::\($0.element.element.sqlArrayType)" }.joined(
                separator: ", ") + ") AS x(" + (0..<columns.count).map { "c\($0)" }.joined(separator: ", ") + ")"
    }
}
