import Foundation
import StrataCore

/// One synced model's table, as both ends see it: the local `StoreTable`, and the PostgreSQL
/// table of the same name with one column per property (Docs/Sync.md, "The data model").
///
/// Values travel as JSON ("wire form"): numbers, booleans and strings as themselves, `Data` and
/// `ObjectId` as lowercase hex, `Date` as whole microseconds since 1970 (PostgreSQL's
/// `timestamptz` keeps microseconds), `UUID` as its canonical text, `Decimal128` as a string of
/// `numeric`'s text (`SyncDecimal`).
package struct SyncTable: Sendable {
    /// A synced property.
    package struct Field: Sendable {
        package let name: String
        package let column: Int
        /// The value's type (a collection's element type); for a link, the type of the target's
        /// primary key, which is what a link is on the wire and on the server.
        package let type: ColumnType
        /// For a link (or a collection of links), the class of its target.
        package let target: String?
        /// Whether it is a list, a set or a map (one `jsonb` column on the server).
        package let collection: CollectionKind
        /// Whether the value (a collection's elements) may be nil.
        package let isNullable: Bool
        package let defaultValue: StoreValue
        /// For an embedded object property (or a list or map of them), the embedded type: the
        /// field is the whole object, one `jsonb` column (`SyncEmbedded`). Its `type` is `.link`.
        package var embedded: SyncEmbedded? = nil

        package var isCollection: Bool { collection != .none }

        /// Whether the server column is `jsonb`: a collection, an `AnyRealmValue` (`SyncMixed`),
        /// or an embedded object.
        package var isJSON: Bool { isCollection || type == .mixed || embedded != nil }

        /// The server column's type.
        package var sqlType: String { isJSON ? "jsonb" : SyncTable.sqlType(type) }

        /// The column's type in `jsonb_to_recordset` (its wire form).
        package var wireType: String { isJSON ? "jsonb" : SyncTable.wireType(type) }

        /// The SQL expression that reads the column in wire form.
        package var selectExpression: String {
            let q = SyncTable.quote(name)
            if isCollection && type == .decimal128 {
                // Numbers an SQL writer put in the collection come as their text: in JSON they
                // would be read through a Double (`1.10` as 1.1, 20 digits as 17).
                let element =
                    "CASE WHEN jsonb_typeof(_strata_e) = 'number' THEN to_jsonb(_strata_e #>> '{}') ELSE _strata_e END"
                if collection == .map {
                    return
                        "CASE WHEN jsonb_typeof(\(q)) = 'object' THEN coalesce((SELECT jsonb_object_agg(_strata_k, \(element)) FROM jsonb_each(\(q)) AS _strata_x(_strata_k, _strata_e)), '{}'::jsonb) ELSE \(q) END AS \(q)"
                }
                return
                    "CASE WHEN jsonb_typeof(\(q)) = 'array' THEN coalesce((SELECT jsonb_agg(\(element) ORDER BY _strata_o) FROM jsonb_array_elements(\(q)) WITH ORDINALITY AS _strata_x(_strata_e, _strata_o)), '[]'::jsonb) ELSE \(q) END AS \(q)"
            }
            return isJSON ? q : SyncTable.selectExpression(name, type)
        }

        /// The SQL expression that turns the wire-form column of recordset `x` into the column's type.
        package var insertExpression: String {
            isJSON ? "x." + SyncTable.quote(name) : SyncTable.insertExpression(name, type)
        }

        /// `value` as JSON text in wire form: a collection as an array (a map as an object, keys
        /// sorted) of its elements' wire forms.
        package func json(_ value: StoreValue) -> String {
            if let e = embedded {
                switch (collection, value) {
                case (.list, .list(let items)), (.set, .list(let items)):
                    return "[" + items.map(e.json).joined(separator: ",") + "]"
                case (.map, .map(let entries)):
                    return "{"
                        + entries.sorted { $0.key < $1.key }.map {
                            SyncTable.jsonString($0.key) + ":" + e.json($0.value)
                        }
                        .joined(separator: ",") + "}"
                default:
                    return e.json(value)
                }
            }
            switch (collection, value) {
            case (.list, .list(let items)), (.set, .list(let items)):
                return "[" + items.map { SyncTable.json($0, type) }.joined(separator: ",") + "]"
            case (.map, .map(let entries)):
                return "{"
                    + entries.sorted { $0.key < $1.key }.map {
                        SyncTable.jsonString($0.key) + ":" + SyncTable.json($0.value, type)
                    }
                    .joined(separator: ",") + "}"
            default:
                return SyncTable.json(value, type)
            }
        }

        /// The value from a JSON value in wire form, or nil when it is not one (an element
        /// that is null in a collection of non-optional values, say).
        package func value(fromJSON j: Any?) -> StoreValue? {
            func element(_ e: Any?) -> StoreValue? {
                guard let v = SyncTable.value(fromJSON: e, type) else { return nil }
                return v == .null && !isNullable ? nil : v
            }
            if let e = embedded {
                // Objects; null only where the property may be nil (not in a list).
                func object(_ x: Any?, nullable: Bool) -> StoreValue? {
                    if x == nil || x is NSNull { return nullable ? .null : nil }
                    return e.value(fromJSON: x)
                }
                switch collection {
                case .none: return object(j, nullable: true)
                case .list, .set:
                    guard let items = j as? [Any] else { return nil }
                    var out: [StoreValue] = []
                    for i in items {
                        guard let v = object(i, nullable: false) else { return nil }
                        out.append(v)
                    }
                    return .list(out)
                case .map:
                    guard let entries = j as? [String: Any] else { return nil }
                    var out: [String: StoreValue] = [:]
                    for (k, x) in entries {
                        guard let v = object(x, nullable: true) else { return nil }
                        out[k] = v
                    }
                    return .map(out)
                }
            }
            switch collection {
            case .none:
                return SyncTable.value(fromJSON: j, type)
            case .list, .set:
                guard let items = j as? [Any] else { return nil }
                var out: [StoreValue] = []
                for i in items {
                    guard let v = element(i) else { return nil }
                    out.append(v)
                }
                return .list(out)
            case .map:
                guard let entries = j as? [String: Any] else { return nil }
                var out: [String: StoreValue] = [:]
                for (k, e) in entries {
                    guard let v = element(e) else { return nil }
                    out[k] = v
                }
                return .map(out)
            }
        }

        /// Throws when PostgreSQL cannot store `value` (a local write must then fail rather than
        /// stall the upload queue): U+0000 in a string or a map key, a date outside
        /// `timestamptz`'s range (4713 BC to 294276 AD).
        package func checkStorable(_ value: StoreValue, table: String) throws {
            func fail(_ what: String) -> SyncError {
                SyncError(
                    .unsupportedValue,
                    "'\(table).\(name)': PostgreSQL cannot store \(what), so the write was not committed. Change the value, or leave \(table) out of the synced objectTypes."
                )
            }
            if type == .mixed && SyncMixed.nesting(value) > SyncMixed.maxNesting {
                throw SyncError(
                    .unsupportedValue,
                    "'\(table).\(name)': an AnyRealmValue nesting lists and dictionaries more than \(SyncMixed.maxNesting) deep does not sync, so the write was not committed. Flatten the value."
                )
            }
            if type == .mixed && SyncMixed.holdsObject(value) {
                throw SyncError(
                    .unsupportedValue,
                    "'\(table).\(name)': an AnyRealmValue holding an object does not sync yet, so the write was not committed. Store the object's primary key instead, or leave \(table) out of the synced objectTypes."
                )
            }
            if let e = embedded {
                switch (collection, value) {
                case (.list, .list(let objects)), (.set, .list(let objects)):
                    for o in objects { try e.checkStorable(o, owner: table + "." + name) }
                case (.map, .map(let entries)):
                    for (k, o) in entries {
                        if k.utf8.contains(0) { throw fail("a map key containing U+0000") }
                        try e.checkStorable(o, owner: table + "." + name)
                    }
                default: try e.checkStorable(value, owner: table + "." + name)
                }
                return
            }
            switch value {
            case .string(let s) where s.utf8.contains(0): throw fail("a String containing U+0000")
            case .timestamp(let seconds, _)
            where type == .timestamp && (seconds < -210_866_803_200 || seconds > 9_224_318_015_999):
                throw fail("a Date before 4713 BC or after 294276 AD")
            case .list(let items): for i in items { try checkStorable(i, table: table) }
            case .map(let entries):
                for (k, v) in entries {
                    if k.utf8.contains(0) { throw fail("a map key containing U+0000") }
                    try checkStorable(v, table: table)
                }
            default: break
            }
        }

        /// `value` as this field holds it (wire form), a number of another width converted; nil
        /// when it is of another kind (an outbox entry written before a migration changed the
        /// property's type), or nil where the field cannot be.
        package func fitting(_ value: StoreValue) -> StoreValue? {
            if let e = embedded {
                switch (collection, value) {
                case (.none, .null): return value
                case (.none, _): return e.fitting(value)
                case (.list, .list(let objects)), (.set, .list(let objects)):
                    var out: [StoreValue] = []
                    for o in objects {
                        guard let x = e.fitting(o) else { return nil }
                        out.append(x)
                    }
                    return .list(out)
                case (.map, .map(let entries)):
                    var out: [String: StoreValue] = [:]
                    for (k, o) in entries {
                        guard let x = o == .null ? StoreValue.null : e.fitting(o) else { return nil }
                        out[k] = x
                    }
                    return .map(out)
                default: return nil
                }
            }
            func element(_ v: StoreValue, nullable: Bool) -> StoreValue? {
                switch (type, v) {
                case (_, .null): return nullable ? v : nil
                case (.mixed, _): return SyncMixed.holdsObject(v) ? nil : v
                case (.bool, .bool), (.int, .int), (.float, .float), (.double, .double), (.string, .string),
                    (.data, .data), (.timestamp, .timestamp), (.objectId, .objectId), (.uuid, .uuid),
                    (.decimal128, .decimal128):
                    return v
                case (.float, .double(let d)): return .float(Float(d))
                case (.float, .int(let i)): return .float(Float(i))
                case (.double, .float(let f)): return .double(Double(f))
                case (.double, .int(let i)): return .double(Double(i))
                default: return nil
                }
            }
            switch (collection, value) {
            case (.none, _): return element(value, nullable: isNullable)
            case (.list, .list(let items)), (.set, .list(let items)):
                var out: [StoreValue] = []
                out.reserveCapacity(items.count)
                for i in items {
                    guard let v = element(i, nullable: isNullable) else { return nil }
                    out.append(v)
                }
                return .list(out)
            case (.map, .map(let entries)):
                var out: [String: StoreValue] = [:]
                for (k, e) in entries {
                    guard let v = element(e, nullable: isNullable) else { return nil }
                    out[k] = v
                }
                return .map(out)
            default: return nil
            }
        }

        /// Whether PostgreSQL may keep a value of this field other than as written
        /// (`asServerKeepsIt` changes it): dates, decimals, and decimals in an `AnyRealmValue`.
        package var serverMayChangeValues: Bool { type == .timestamp || type == .decimal128 || type == .mixed }

        /// `value` as PostgreSQL keeps it (a collection's elements too): a date at whole
        /// microseconds, a `Decimal128` as `numeric` gives it back (`SyncDecimal.canonical`).
        package func asServerKeepsIt(_ value: StoreValue) -> StoreValue {
            let keep: (StoreValue) -> StoreValue
            switch type {
            case .timestamp: keep = SyncTable.microseconds
            case .decimal128: keep = SyncDecimal.canonical
            case .mixed: return SyncMixed.canonical(value)
            default: return value
            }
            switch value {
            case .list(let items): return .list(items.map(keep))
            case .map(let entries): return .map(entries.mapValues(keep))
            default: return keep(value)
            }
        }
    }

    package let name: String
    package let store: StoreTable
    /// The primary key column (index in `store.columns`) and its type.
    package let primaryKeyColumn: Int
    package let primaryKeyType: ColumnType
    package var primaryKeyName: String { store.columns[primaryKeyColumn].name }
    /// The synced properties other than the primary key, in column order.
    package let fields: [Field]
    /// Field index by name.
    package let fieldIndex: [String: Int]
    /// Every field's default value by name (for the merge).
    package let defaults: [String: StoreValue]
    /// The table's name and each field's name as an outbox entry writes them (`u32`
    /// little-endian length, UTF-8), encoded once.
    package let nameBytes: [UInt8]
    package let fieldNameBytes: [[UInt8]]
    /// Each field's name as a clock record writes it (`u32` big-endian length, UTF-8).
    package let clockNameBytes: [[UInt8]]
    /// The name of the tree of the table's clock records (`SyncLocalStore.clockTree`), made
    /// once: the transaction's tree cache compares it by identity first.
    package let clockTreeName: String

    /// How the capture reads each field of an object a commit inserted (`SyncEngine.captureNew`):
    /// the scalars below straight from the row, anything else as a `StoreValue`.
    package enum CaptureKind: UInt8, Sendable {
        case int, double, string, other
    }

    /// Each field's `CaptureKind` and column, in field order (plain values: reading a `Field`
    /// out of `fields` copies its strings).
    package let captureKinds: [CaptureKind]
    package let fieldColumns: [Int]

    /// Whether a field is a link or a collection of links.
    package var hasLinks: Bool { fields.contains { $0.target != nil } }

    /// Whether a field reads other rows to be captured: a link (its target's key) or an embedded
    /// object (its own row).
    package let readsOtherRows: Bool

    /// Whether the model is an `AsymmetricObject`: uploaded, then removed from the device, never
    /// downloaded.
    package let isAsymmetric: Bool

    /// The table for `store`, or an error naming what cannot be synced yet. `synced` holds the
    /// tables synced beside it, which links may target; `all` every table of the file (the
    /// embedded types its properties hold).
    package init(
        _ store: StoreTable, isAsymmetric: Bool = false, synced: [String: StoreTable] = [:],
        all: [String: StoreTable] = [:]
    ) throws {
        name = store.name
        self.store = store
        self.isAsymmetric = isAsymmetric
        guard !store.isEmbedded else {
            throw SyncError(
                .unsupportedSchema,
                "'\(store.name)' is an EmbeddedObject: it syncs inside the objects that hold it, not as a table of its own."
            )
        }
        guard let pk = store.primaryKeyColumn else {
            throw SyncError(
                .unsupportedSchema,
                "'\(store.name)' has no primary key: every synced type needs one (@Persisted(primaryKey: true)), which names the object on every replica and in PostgreSQL."
            )
        }
        primaryKeyColumn = pk
        primaryKeyType = store.columns[pk].type
        guard [.int, .string, .objectId, .uuid].contains(primaryKeyType) else {
            throw SyncError(
                .unsupportedSchema,
                "'\(store.name).\(store.columns[pk].name)': a synced primary key must be an Int, String, ObjectId or UUID."
            )
        }
        var fields: [Field] = []
        for (i, c) in store.columns.enumerated() where i != pk && c.isStored {
            fields.append(
                try Self.field(
                    c, column: i, owners: [store.name], path: [store.name, c.name], synced: synced, all: all,
                    inEmbedded: false))
        }
        guard !fields.isEmpty else {
            throw SyncError(
                .unsupportedSchema,
                "'\(store.name)' has no property besides its primary key: a synced object exists on the server while one of its fields was written after its last delete, so such a type cannot sync. Add a property, or leave it out of the synced objectTypes."
            )
        }
        self.fields = fields
        fieldIndex = Dictionary(uniqueKeysWithValues: fields.enumerated().map { ($1.name, $0) })
        func lengthPrefixed(_ s: String, bigEndian: Bool) -> [UInt8] {
            let u = Array(s.utf8)
            let n = UInt32(u.count)
            return withUnsafeBytes(of: bigEndian ? n.bigEndian : n.littleEndian) { Array($0) } + u
        }
        nameBytes = lengthPrefixed(store.name, bigEndian: false)
        fieldNameBytes = fields.map { lengthPrefixed($0.name, bigEndian: false) }
        clockNameBytes = fields.map { lengthPrefixed($0.name, bigEndian: true) }
        clockTreeName = SyncLocalStore.clockTree(store.name)
        captureKinds = fields.map { f in
            guard f.target == nil, f.collection == .none else { return .other }
            switch f.type {
            case .int: return .int
            case .double: return .double
            case .string: return .string
            default: return .other
            }
        }
        fieldColumns = fields.map(\.column)
        readsOtherRows = fields.contains { $0.target != nil || $0.embedded != nil }
        defaults = Dictionary(uniqueKeysWithValues: fields.map { ($0.name, $0.defaultValue) })
    }

    /// The synced field of column `c` (index `column`) of the last type of `owners` (the
    /// chain of types that hold it, the top-level one first), reached through `path` (for the
    /// errors), or an error naming what cannot be synced. A link to an embedded type is the
    /// embedded object (`SyncEmbedded`); any other link must target a type of `synced`, and none
    /// may sit inside an embedded object (`inEmbedded`).
    static func field(
        _ c: StoreColumn, column: Int, owners: [String], path: [String], synced: [String: StoreTable],
        all: [String: StoreTable], inEmbedded: Bool
    ) throws -> Field {
        let where_ = path.joined(separator: ".")
        if c.type == .link {
            if let targetName = c.targetTable, let target = all[targetName] ?? synced[targetName], target.isEmbedded {
                let e = try SyncEmbedded(target, path: path, owners: owners, all: all)
                return Field(
                    name: c.name, column: column, type: .link, target: nil, collection: c.collection,
                    isNullable: c.collection != .list && c.collection != .set, defaultValue: c.defaultValue,
                    embedded: e)
            }
            guard !inEmbedded else {
                throw SyncError(
                    .unsupportedSchema,
                    "'\(where_)' is a link inside an embedded object: synced realms do not sync those yet. Store the target's primary key instead, or leave the owner out of the synced objectTypes."
                )
            }
            guard let targetName = c.targetTable, let target = synced[targetName],
                let targetKey = target.primaryKeyColumn, !target.isEmbedded
            else {
                throw SyncError(
                    .unsupportedSchema,
                    "'\(where_)' links to \(c.targetTable ?? "an unknown type"), which does not sync: a synced link's target must be a synced type with a primary key (add it to the synced objectTypes)."
                )
            }
            return Field(
                name: c.name, column: column, type: target.columns[targetKey].type, target: targetName,
                collection: c.collection, isNullable: c.collection == .none || c.collection == .map,
                defaultValue: c.defaultValue)
        }
        guard supported.contains(c.type) else {
            throw SyncError(
                .unsupportedSchema,
                "'\(where_)': synced realms sync Bool, Int, Float, Double, String, Data, Date, ObjectId, UUID, Decimal128 and AnyRealmValue properties, optional or not, links to synced types, embedded objects, and lists, sets and maps of them. Leave the type out of the synced objectTypes or change the property."
            )
        }
        return Field(
            name: c.name, column: column, type: c.type, target: nil, collection: c.collection,
            // An AnyRealmValue may always be `.none`, in a collection too.
            isNullable: c.isNullable || c.type == .mixed, defaultValue: c.defaultValue)
    }

    private static let supported: Set<ColumnType> = [
        .int, .bool, .float, .double, .string, .data, .timestamp, .objectId, .uuid, .decimal128, .mixed,
    ]

    // MARK: SQL

    /// `name` quoted as a PostgreSQL identifier.
    package static func quote(_ name: String) -> String {
        "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// `text` as a PostgreSQL string literal.
    package static func literal(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "''") + "'" }

    /// The PostgreSQL column type of a property type.
    package static func sqlType(_ t: ColumnType) -> String {
        switch t {
        case .int: "bigint"
        case .bool: "boolean"
        case .float: "real"
        case .double: "double precision"
        case .string, .objectId: "text"
        case .data: "bytea"
        case .timestamp: "timestamp with time zone"
        case .uuid: "uuid"
        case .decimal128: "numeric"
        default: "text"
        }
    }

    /// The type a column has in `jsonb_to_recordset` (its wire form).
    package static func wireType(_ t: ColumnType) -> String {
        switch t {
        case .timestamp: "bigint"
        case .data, .decimal128: "text"
        default: sqlType(t)
        }
    }

    /// The SQL expression that reads column `name` in wire form.
    package static func selectExpression(_ name: String, _ t: ColumnType) -> String {
        let q = quote(name)
        switch t {
        case .timestamp: return "(extract(epoch from \(q)) * 1000000)::bigint AS \(q)"
        case .data: return "encode(\(q), 'hex') AS \(q)"
        // As text: in JSON a number would be read through a Double (a `real`'s shortest text
        // read as a Double, then rounded to a Float, is not proven to give the same Float).
        case .decimal128, .float: return "\(q)::text AS \(q)"
        default: return q
        }
    }

    /// The SQL expression that turns wire-form column `name` of a recordset `x` into the column's type.
    package static func insertExpression(_ name: String, _ t: ColumnType) -> String {
        let q = "x." + quote(name)
        switch t {
        // Whole seconds and the microseconds apart: `bigint * interval` goes through a double.
        case .timestamp:
            return
                "timestamptz 'epoch' + (\(q) / 1000000) * interval '1 second' + (\(q) % 1000000) * interval '1 microsecond'"
        case .data: return "decode(\(q), 'hex')"
        case .decimal128: return "\(q)::numeric"
        default: return q
        }
    }

    /// The select list of a row in wire form: primary key, fields, clocks (the per-field ones and
    /// the row's, which covers every field the first lacks: Docs/Sync.md, "The data model").
    package var selectList: String {
        ([Self.selectExpression(primaryKeyName, primaryKeyType)]
            + fields.map(\.selectExpression)
            + ["_strata_clocks", "_strata_clock"]).joined(separator: ", ")
    }

    // MARK: Wire values

    /// `value` (of a column of type `t`) as JSON text in wire form.
    package static func json(_ value: StoreValue, _ t: ColumnType) -> String {
        if t == .mixed { return SyncMixed.json(value) }
        switch value {
        case .null: return "null"
        case .bool(let b): return b ? "true" : "false"
        case .int(let i): return String(i)
        // A JSON number in `jsonb` has no NaN, infinity or negative zero: those go as strings.
        case .float(let f):
            if f == 0 && f.sign == .minus { return "\"-0.0\"" }
            return f.isFinite ? "\(f)" : (f.isNaN ? "\"NaN\"" : (f > 0 ? "\"Infinity\"" : "\"-Infinity\""))
        case .double(let d):
            if d == 0 && d.sign == .minus { return "\"-0.0\"" }
            return d.isFinite ? "\(d)" : (d.isNaN ? "\"NaN\"" : (d > 0 ? "\"Infinity\"" : "\"-Infinity\""))
        case .string(let s): return jsonString(s)
        case .data(let b), .objectId(let b): return "\"" + hex(b) + "\""
        case .uuid(let b): return "\"" + uuidText(b) + "\""
        case .timestamp(let s, let n): return String(s * 1_000_000 + Int64(n) / 1000)
        case .decimal128(let b): return SyncDecimal.text(b).map(jsonString) ?? "null"
        default: return "null"
        }
    }

    /// The value of a column of type `t` from a JSON value in wire form (as `SyncJSON`
    /// returns it), or nil when it is not one.
    package static func value(fromJSON j: Any?, _ t: ColumnType) -> StoreValue? {
        if t == .mixed { return SyncMixed.value(fromJSON: j) }
        guard let j, !(j is NSNull) else { return .null }
        switch t {
        case .bool:
            if let n = j as? NSNumber { return .bool(n.boolValue) }
        case .int:
            if let n = j as? NSNumber { return .int(n.int64Value) }
        case .float:
            if let n = j as? NSNumber { return .float(n.floatValue) }
            if let s = j as? String, let f = Float(s == "Infinity" ? "inf" : (s == "-Infinity" ? "-inf" : s)) {
                return .float(f)
            }
        case .double:
            if let n = j as? NSNumber { return .double(n.doubleValue) }
            if let s = j as? String, let d = Double(s == "Infinity" ? "inf" : (s == "-Infinity" ? "-inf" : s)) {
                return .double(d)
            }
        case .string:
            if let s = j as? String { return .string(s) }
        case .data:
            if let s = j as? String, let b = bytes(hex: s) { return .data(b) }
        case .objectId:
            if let s = j as? String, let b = bytes(hex: s), b.count == 12 { return .objectId(b) }
        case .uuid:
            if let s = j as? String, let u = UUID(uuidString: s) {
                return .uuid(withUnsafeBytes(of: u.uuid) { [UInt8]($0) })
            }
        case .timestamp:
            if let n = j as? NSNumber {
                // Seconds and nanoseconds of one sign, as the object store keeps a date.
                let us = n.int64Value
                return .timestamp(seconds: us / 1_000_000, nanoseconds: Int32(us % 1_000_000 * 1000))
            }
        case .decimal128:
            // A string as the server writes it; a number where an SQL writer put one in a
            // `jsonb` collection (read through its shortest text, as `Decimal128(Double)` does).
            if let s = j as? String, let b = SyncDecimal.bytes(s) { return SyncDecimal.canonical(.decimal128(b)) }
            if let n = j as? NSNumber, let b = SyncDecimal.bytes(n.stringValue) {
                return SyncDecimal.canonical(.decimal128(b))
            }
        default: break
        }
        return nil
    }

    /// The primary key's text form: how `strata_tombstones.pk` and the local clock records name
    /// the object (`"pk"::text` in PostgreSQL gives the same).
    package static func keyText(_ value: StoreValue) -> String {
        switch value {
        case .int(let i): String(i)
        case .string(let s): s
        case .objectId(let b): hex(b)
        case .uuid(let b): uuidText(b)
        default: ""
        }
    }

    /// The primary key value of a key text, or nil.
    package func keyValue(_ text: String) -> StoreValue? {
        switch primaryKeyType {
        case .int: Int64(text).map { .int($0) }
        case .string: .string(text)
        case .objectId: Self.bytes(hex: text).flatMap { $0.count == 12 ? .objectId($0) : nil }
        case .uuid: UUID(uuidString: text).map { u in .uuid(withUnsafeBytes(of: u.uuid) { [UInt8]($0) }) }
        default: nil
        }
    }

    /// A date rounded down to whole microseconds (what PostgreSQL keeps).
    package static func microseconds(_ v: StoreValue) -> StoreValue {
        guard case .timestamp(let s, let n) = v else { return v }
        return .timestamp(seconds: s, nanoseconds: n / 1000 * 1000)
    }

    package static func jsonString(_ s: String) -> String {
        var out = "\""
        out.reserveCapacity(s.utf8.count + 2)
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if u.value < 0x20 {
                    let h = String(u.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - h.count) + h
                } else {
                    out.unicodeScalars.append(u)
                }
            }
        }
        return out + "\""
    }

    private static let digits = Array("0123456789abcdef".utf8)

    package static func hex(_ b: [UInt8]) -> String {
        var out = [UInt8]()
        out.reserveCapacity(b.count * 2)
        for x in b {
            out.append(digits[Int(x >> 4)])
            out.append(digits[Int(x & 15)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    package static func bytes(hex s: String) -> [UInt8]? {
        let u = Array(s.utf8)
        guard u.count % 2 == 0 else { return nil }
        var out = [UInt8]()
        out.reserveCapacity(u.count / 2)
        var i = 0
        while i < u.count {
            guard let h = nibble(u[i]), let l = nibble(u[i + 1]) else { return nil }
            out.append(h << 4 | l)
            i += 2
        }
        return out
    }

    private static func nibble(_ c: UInt8) -> UInt8? {
        switch c {
        case 48...57: c - 48
        case 97...102: c - 87
        case 65...70: c - 55
        default: nil
        }
    }

    static func uuidText(_ b: [UInt8]) -> String {
        guard b.count == 16 else { return "" }
        let h = hex(b)
        let c = Array(h)
        return String(c[0..<8]) + "-" + String(c[8..<12]) + "-" + String(c[12..<16]) + "-" + String(c[16..<20]) + "-"
            + String(c[20..<32])
    }
}
