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
    /// The last row clock and its text (a commit's new objects share one).
    private var lastRowClock: (clock: SyncClock, text: [UInt8])?
    /// How each field's value is bound (`appendValue`), worked out once: reading a `Field` out
    /// of `table.fields` for each value copied its strings.
    private let binding: [Binding]

    private enum Binding {
        /// As the column's element type.
        case plain
        /// As `jsonb` text (`Field.json`).
        case json
        /// A single `jsonb` value that may be nil (an `AnyRealmValue`, an embedded object): nil
        /// is SQL `NULL` (so `IS NULL` finds it in SQL), anything else `jsonb`.
        case nullableJSON
    }

    init(_ t: SyncTable, newObjects: Bool = false) {
        table = t
        self.newObjects = newObjects
        columns =
            [SyncArrayBind(.init(t.primaryKeyType))]
            + t.fields.map { SyncArrayBind($0.isJSON ? .jsonb : .init($0.type)) } + [SyncArrayBind(.text)]
        if newObjects { columns.append(SyncArrayBind(.text)) }
        clockKeys = t.fields.map { Array((SyncTable.jsonString($0.name) + ":\"").utf8) }
        binding = t.fields.map { f in
            if (f.type == .mixed || f.embedded != nil) && !f.isCollection { return .nullableJSON }
            return f.isJSON ? .json : .plain
        }
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
        // `{"name":"clock",...}`, begun at the first entry (a new object usually has none).
        var clocks: [UInt8] = []
        for (i, f) in fields.enumerated() {
            let v = record.fields[f.name] ?? .init(value: f.defaultValue, clock: record.tombstone)
            try appendValue(i, v.value)
            if v.clock != rowClock { appendClock(i, v.clock, to: &clocks) }
        }
        endRow(rowClock, clocks)
    }

    /// Appends a new object's row: `pk` and `writes`, one per field in the table's order
    /// (`SyncUploadOp.writesWhole`).
    mutating func append(pk: StoreValue, writes: [SyncUploadOp.Write]) throws {
        guard newObjects, writes.count == table.fields.count else {
            throw SyncError(
                .local, "An upload row of \(table.name) lacks fields: \(writes.count) of \(table.fields.count).")
        }
        try columns[0].append(pk)
        let rowClock = writes[0].clock
        var clocks: [UInt8] = []
        for i in 0..<writes.count {
            let w = writes[i]
            try appendValue(i, w.value)
            if w.clock != rowClock { appendClock(i, w.clock, to: &clocks) }
        }
        endRow(rowClock, clocks)
    }

    /// Appends a new object's row as the upload plan has it.
    mutating func append(pk: StoreValue, _ row: SyncUploadPlan.Row) throws {
        switch row {
        case .writes(let w): try append(pk: pk, writes: w)
        case .record(let r): try append(pk: pk, r)
        }
    }

    private mutating func appendValue(_ i: Int, _ value: StoreValue) throws {
        switch binding[i] {
        case .plain: try columns[i + 1].append(value)
        // `.none` and a nil embedded object are SQL NULL, not JSON `null`.
        case .nullableJSON where value == .null: try columns[i + 1].append(.null)
        case .nullableJSON, .json: columns[i + 1].append(json: table.fields[i].json(value))
        }
    }

    /// Adds field `i`'s entry to `clocks` (`{` before the first, `,` before the others).
    private func appendClock(_ i: Int, _ clock: SyncClock, to clocks: inout [UInt8]) {
        if clocks.isEmpty {
            clocks.reserveCapacity(clockKeys.count * 48 + 2)
            clocks.append(UInt8(ascii: "{"))
        } else {
            clocks.append(UInt8(ascii: ","))
        }
        clocks += clockKeys[i]
        clock.appendText(to: &clocks)
        clocks.append(UInt8(ascii: "\""))
    }

    /// Appends the row's clock columns: `rowClock` and `clocks` (new-objects form; `NULL` for no
    /// entry), or `clocks` alone.
    private mutating func endRow(_ rowClock: SyncClock?, _ entries: [UInt8]) {
        var clocks = entries
        let n = table.fields.count
        if let rowClock {
            if lastRowClock?.clock != rowClock {
                var text: [UInt8] = []
                text.reserveCapacity(33)
                rowClock.appendText(to: &text)
                lastRowClock = (rowClock, text)
            }
            columns[n + 1].append(textBytes: lastRowClock!.text)
            if clocks.isEmpty {
                // Cannot fail: NULL fits every element type.
                try? columns[n + 2].append(.null)
            } else {
                clocks.append(UInt8(ascii: "}"))
                columns[n + 2].append(textBytes: clocks)
            }
        } else {
            if clocks.isEmpty { clocks.append(UInt8(ascii: "{")) }
            clocks.append(UInt8(ascii: "}"))
            columns[n + 1].append(textBytes: clocks)
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
