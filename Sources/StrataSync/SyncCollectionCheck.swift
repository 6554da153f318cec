import StrataCore

/// The `CHECK` constraint of a synced collection's `jsonb` column (Docs/Sync.md, "The data
/// model"): the column must hold what every replica reads back as the model's collection, so
/// that an SQL writer who puts `"five"` in a `List<Int>`, or `null` in a list of non-optional
/// values, gets the error at once instead of every replica's download stopping at the row.
///
/// The test follows the wire form (`SyncTable.json`) and is as strict as the model: an `Int`
/// element is a whole JSON number in `Int64`'s range (a reader would truncate `1.5`), a `Bool`
/// one is `true` or `false`, a `Double` or `Float` one is a number or one of the strings
/// `"NaN"`, `"Infinity"`, `"-Infinity"`, `"-0.0"`, `Data` is hex, an `ObjectId` 24 hex digits, a
/// `UUID` its 8-4-4-4-12 text, a date a whole number of microseconds, a `Decimal128` a number or
/// a string in `numeric`'s text form. Links are their target's key type. `AnyRealmValue`
/// elements take any JSON (`SyncMixed` reads every value), so they get no constraint. An
/// embedded object's column (`SyncEmbedded`) gets one too: a JSON object (`null` where the
/// property is optional; an array of them for a list, an object of them for a map) whose
/// properties, where present, follow the same rules at every depth (`badObject`).
///
/// The constraint's name carries the collection's shape (`strata_Bag_scores:[int]`), so that a
/// model that changes an element type replaces it: each replica drops the collection's other
/// `strata_` constraints when it prepares the schema, as it recreates the triggers. It is added
/// `NOT VALID`: rows written before are not checked.
enum SyncCollectionCheck {
    /// The statements that give column `f` of table `table` its constraint (and drop any other
    /// of the column's), or none for a field that is neither a collection nor an embedded object.
    static func statements(table: String, _ f: SyncTable.Field) -> [String] {
        guard f.isCollection || f.embedded != nil else { return [] }
        let prefix = constraintPrefix(table: table, column: f.name)
        let check = f.type == .mixed ? nil : checkSQL(f)
        let name = check.map { prefix + signature(f, check: $0) }
        let keep = name.map { " AND conname <> \(SyncTable.literal($0))" } ?? ""
        var s = [
            """
            DO $$ DECLARE r record; BEGIN
                FOR r IN SELECT conname FROM pg_constraint
                    WHERE conrelid = to_regclass(\(SyncTable.literal(SyncTable.quote(table)))) AND contype = 'c'
                    AND starts_with(conname, \(SyncTable.literal(prefix)))\(keep)
                LOOP
                    EXECUTE format('ALTER TABLE %I DROP CONSTRAINT %I', \(SyncTable.literal(table)), r.conname);
                END LOOP;
            END $$
            """
        ]
        if let check, let name {
            s.append(
                "DO $$ BEGIN ALTER TABLE \(SyncTable.quote(table)) ADD CONSTRAINT \(SyncTable.quote(name)) CHECK (\(check)) NOT VALID; EXCEPTION WHEN duplicate_object THEN NULL; END $$"
            )
        }
        return s
    }

    /// `strata_<table>_<column>:`, the start of the column's constraint names (a Swift name
    /// has no `:`, so no other column's names start so); a hash of the two names where they
    /// would not leave room for the shape in PostgreSQL's 63 bytes.
    static func constraintPrefix(table: String, column: String) -> String {
        let plain = "strata_\(table)_\(column):"
        if plain.utf8.count <= 40 { return plain }
        return "strata_" + SyncServerSchema.fingerprint([table, column]) + ":"
    }

    /// The collection's shape: `[int]` for a list or set of `Int`, `{string?}` for a map of
    /// optional `String`s; for an embedded object, its type's name and a hash of the check
    /// (which changes with the type's properties), cut to PostgreSQL's 63 bytes.
    static func signature(_ f: SyncTable.Field, check: String = "") -> String {
        if let e = f.embedded {
            let name = String(e.name.prefix(8)) + "#" + SyncServerSchema.fingerprint([check]).prefix(8)
            switch f.collection {
            case .none: return name + "?"
            case .map: return "{\(name)?}"
            case .list, .set: return "[\(name)]"
            }
        }
        let element = typeName(f.type) + (f.isNullable ? "?" : "")
        return f.collection == .map ? "{\(element)}" : "[\(element)]"
    }

    static func typeName(_ t: ColumnType) -> String {
        switch t {
        case .int: "int"
        case .bool: "bool"
        case .float: "float"
        case .double: "double"
        case .string: "string"
        case .data: "data"
        case .timestamp: "date"
        case .objectId: "objectId"
        case .uuid: "uuid"
        case .decimal128: "decimal"
        default: "\(t)"
        }
    }

    /// The SQL boolean expression the column must satisfy, or nil for an element type that
    /// takes any JSON.
    static func checkSQL(_ f: SyncTable.Field) -> String? {
        if let e = f.embedded {
            let c = SyncTable.quote(f.name)
            let bad = badObject(e)
            switch f.collection {
            case .none:
                return
                    "CASE WHEN \(c) IS NULL OR jsonb_typeof(\(c)) = 'null' THEN true WHEN jsonb_typeof(\(c)) = 'object' THEN NOT jsonb_path_exists(\(c), \(SyncTable.literal("strict $ ? (\(bad))"))) ELSE false END"
            case .list, .set:
                return
                    "CASE WHEN jsonb_typeof(\(c)) = 'array' THEN NOT jsonb_path_exists(\(c), \(SyncTable.literal("strict $[*] ? (@.type() == \"null\" || \(bad))"))) ELSE false END"
            case .map:
                return
                    "CASE WHEN jsonb_typeof(\(c)) = 'object' THEN NOT jsonb_path_exists(\(c), \(SyncTable.literal("strict $.* ? (@.type() != \"null\" && (\(bad)))"))) ELSE false END"
            }
        }
        guard let bad = badElement(f.type) else { return nil }
        let c = SyncTable.quote(f.name)
        let container = f.collection == .map ? "object" : "array"
        let elements = f.collection == .map ? "$.*" : "$[*]"
        let test = f.isNullable ? "@.type() != \"null\" && (\(bad))" : "@.type() == \"null\" || \(bad)"
        // CASE, not AND: the path's strict accessor raises an error on the other container.
        return
            "CASE WHEN jsonb_typeof(\(c)) = '\(container)' THEN NOT jsonb_path_exists(\(c), 'strict \(elements) ? (\(test))') ELSE false END"
    }

    /// A `jsonpath` filter true for an embedded object (`@`, not null) that a replica would not
    /// read as one of type `e`: not a JSON object, or a property present with a value its type
    /// does not read (a missing property reads as its default; in strict mode its accessor's
    /// error makes that term unknown, which the filter's `||` treats as false).
    static func badObject(_ e: SyncEmbedded) -> String {
        var terms = ["@.type() != \"object\""]
        for f in e.fields {
            let p = "@.\"\(f.name)\""
            let test: String
            if let inner = f.embedded {
                test =
                    f.collection == .list || f.collection == .set
                    ? "@.type() == \"null\" || \(badObject(inner))" : "@.type() != \"null\" && (\(badObject(inner)))"
            } else if f.type == .mixed {
                test = ""  // any JSON
            } else if let bad = badElement(f.type) {
                test = f.isNullable ? "@.type() != \"null\" && (\(bad))" : "@.type() == \"null\" || \(bad)"
            } else {
                test = ""
            }
            switch f.collection {
            case .none:
                if !test.isEmpty { terms.append("exists(\(p) ? (\(test)))") }
            case .list, .set:
                terms.append("exists(\(p) ? (@.type() != \"array\"))")
                if !test.isEmpty { terms.append("exists(\(p)[*] ? (\(test)))") }
            case .map:
                terms.append("exists(\(p) ? (@.type() != \"object\"))")
                if !test.isEmpty { terms.append("exists(\(p).* ? (\(test)))") }
            }
        }
        return terms.map { "(\($0))" }.joined(separator: " || ")
    }

    /// A `jsonpath` filter true for an element (`@`, not null) that a replica would not read as
    /// a value of type `t`, or nil when every JSON value reads.
    static func badElement(_ t: ColumnType) -> String? {
        let notString = "@.type() != \"string\""
        func string(matching regex: String) -> String { "\(notString) || !(@ like_regex \"\(regex)\")" }
        switch t {
        case .bool: return "@.type() != \"boolean\""
        case .int, .timestamp:
            return
                "@.type() != \"number\" || @ != @.floor() || @ > 9223372036854775807 || @ < -9223372036854775808"
        case .float, .double:
            return
                "(@.type() != \"number\" && \(notString)) || (@.type() == \"string\" && !(@ == \"NaN\" || @ == \"Infinity\" || @ == \"-Infinity\" || @ == \"-0.0\"))"
        case .string: return notString
        case .data: return string(matching: "^([0-9a-fA-F][0-9a-fA-F])*$")
        case .objectId: return string(matching: "^[0-9a-fA-F]{24}$")
        case .uuid:
            return string(
                matching: "^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$")
        case .decimal128:
            return
                "(@.type() != \"number\" && \(notString)) || (@.type() == \"string\" && !(@ like_regex \"^-?([0-9]+([.][0-9]*)?|[.][0-9]+)([eE][-+]?[0-9]+)?$\" || @ == \"NaN\" || @ == \"Infinity\" || @ == \"-Infinity\"))"
        default: return nil
        }
    }
}
