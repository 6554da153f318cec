import StrataCore

/// The PostgreSQL side of a synced schema (Docs/Sync.md, "The data model"): one table per
/// synced type, the tombstones and clients tables, and the triggers that stamp edits made
/// directly in SQL with the server's clock, record the transaction of every row version for
/// downloads, and wake the replicas with `NOTIFY strata_changes`.
///
/// Every statement is idempotent (`IF NOT EXISTS`, `CREATE OR REPLACE`), and the engine runs
/// them under a transaction-level advisory lock, so replicas starting together agree.
package enum SyncServerSchema {
    /// The statements that create or update the server schema for `tables`, in order.
    package static func statements(_ tables: [SyncTable]) -> [String] {
        var s = [
            """
            CREATE TABLE IF NOT EXISTS strata_tombstones (
                tbl text NOT NULL, pk text NOT NULL, clock text NOT NULL,
                _strata_xid xid8 NOT NULL DEFAULT pg_current_xact_id(), PRIMARY KEY (tbl, pk))
            """,
            "CREATE INDEX IF NOT EXISTS strata_tombstones_xid ON strata_tombstones (_strata_xid)",
            // An upload of new objects asks only for the tombstones newer than its clocks (by
            // clock, not one probe per key): the clock text's byte order is clock order.
            "CREATE INDEX IF NOT EXISTS strata_tombstones_clock ON strata_tombstones (tbl, clock COLLATE \"C\")",
            "CREATE TABLE IF NOT EXISTS strata_clients (client text PRIMARY KEY, uploaded bigint NOT NULL DEFAULT 0)",
            "CREATE TABLE IF NOT EXISTS strata_schema (tbl text PRIMARY KEY, fingerprint text NOT NULL)",
            """
            CREATE OR REPLACE FUNCTION strata_server_clock(above text) RETURNS text LANGUAGE plpgsql AS $$
            DECLARE t bigint := (floor(extract(epoch from clock_timestamp()) * 1000)::bigint) << 16; f bigint;
            BEGIN
                IF above IS NOT NULL THEN
                    f := ('x' || substr(above, 1, 16))::bit(64)::bigint;
                    IF f >= t THEN t := f + 1; END IF;
                END IF;
                RETURN lpad(to_hex(t), 16, '0') || '.0000000000000000';
            END $$
            """,
            """
            CREATE OR REPLACE FUNCTION strata_notify() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN PERFORM pg_notify('strata_changes', TG_TABLE_NAME); RETURN NULL; END $$
            """,
            """
            CREATE OR REPLACE FUNCTION strata_refuse_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN RAISE EXCEPTION 'TRUNCATE of the synced table % would not reach the devices: use DELETE FROM', TG_TABLE_NAME; END $$
            """,
            """
            CREATE OR REPLACE FUNCTION strata_stamp_xid() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN NEW._strata_xid := pg_current_xact_id(); RETURN NEW; END $$
            """,
            "DROP TRIGGER IF EXISTS strata_xid ON strata_tombstones",
            "CREATE TRIGGER strata_xid BEFORE INSERT OR UPDATE ON strata_tombstones FOR EACH ROW EXECUTE FUNCTION strata_stamp_xid()",
            "DROP TRIGGER IF EXISTS strata_notify ON strata_tombstones",
            "CREATE TRIGGER strata_notify AFTER INSERT OR UPDATE OR DELETE ON strata_tombstones FOR EACH STATEMENT EXECUTE FUNCTION strata_notify()",
        ]
        for t in tables { s += statements(t) }
        return s
    }

    /// The default value of a NOT NULL column, as SQL.
    static func defaultSQL(_ f: SyncTable.Field) -> String {
        switch f.collection {
        case .list, .set: return "'[]'::jsonb"
        case .map: return "'{}'::jsonb"
        case .none: break
        }
        return switch f.type {
        case .int, .float, .double, .decimal128: "0"
        case .bool: "false"
        case .string: "''"
        case .data: "''::bytea"
        case .timestamp: "timestamptz 'epoch'"
        case .uuid: "'00000000-0000-0000-0000-000000000000'"
        case .objectId: "'000000000000000000000000'"
        default: "NULL"
        }
    }

    static func columnSQL(_ f: SyncTable.Field) -> String {
        SyncTable.quote(f.name) + " " + f.sqlType
            + (f.isNullable && !f.isCollection ? "" : " NOT NULL DEFAULT " + defaultSQL(f))
    }

    static func statements(_ t: SyncTable) -> [String] {
        let q = SyncTable.quote(t.name)
        let pk = SyncTable.quote(t.primaryKeyName)
        let name = SyncTable.literal(t.name)
        var s: [String] = []
        s.append(
            "CREATE TABLE IF NOT EXISTS \(q) (\(pk) \(SyncTable.sqlType(t.primaryKeyType)) PRIMARY KEY"
                + t.fields.map { ", " + columnSQL($0) }.joined()
                + ", _strata_clocks jsonb NOT NULL DEFAULT '{}', _strata_clock text, _strata_xid xid8 NOT NULL DEFAULT pg_current_xact_id())"
        )
        for f in t.fields { s.append("ALTER TABLE \(q) ADD COLUMN IF NOT EXISTS " + columnSQL(f)) }
        // A table that existed before it was synced gets the bookkeeping columns too (its rows
        // then download once, stamped with the ALTER's transaction).
        s.append("ALTER TABLE \(q) ADD COLUMN IF NOT EXISTS _strata_clocks jsonb NOT NULL DEFAULT '{}'")
        s.append("ALTER TABLE \(q) ADD COLUMN IF NOT EXISTS _strata_clock text")
        s.append("ALTER TABLE \(q) ADD COLUMN IF NOT EXISTS _strata_xid xid8 NOT NULL DEFAULT pg_current_xact_id()")
        s.append("CREATE INDEX IF NOT EXISTS \(SyncTable.quote(t.name + "_strata_xid")) ON \(q) (_strata_xid)")

        // Values the replicas could not read are refused where they are written (an SQL writer
        // gets the error, rather than every replica's download stalling on the row): an
        // ObjectId is 24 lowercase hex digits (written in uppercase, it is lowered first), a
        // date is finite. NOT VALID: rows written before are not checked.
        var lowered: [String] = []
        for (column, type) in [(t.primaryKeyName, t.primaryKeyType)]
            + t.fields.filter({ !$0.isJSON }).map({ ($0.name, $0.type) })
        {
            let c = SyncTable.quote(column)
            let check: String
            switch type {
            case .objectId:
                lowered.append("NEW.\(c) := lower(NEW.\(c));")
                check = "\(c) ~ '^[0-9a-f]{24}$'"
            case .timestamp: check = "isfinite(\(c))"
            default: continue
            }
            let constraint = SyncTable.quote(String("strata_\(t.name)_\(column)".prefix(63)))
            s.append(
                "DO $$ BEGIN ALTER TABLE \(q) ADD CONSTRAINT \(constraint) CHECK (\(check)) NOT VALID; EXCEPTION WHEN duplicate_object THEN NULL; END $$"
            )
        }

        // The same for collections, whose elements a `jsonb` column does not type
        // (SyncCollectionCheck).
        for f in t.fields where f.isCollection || f.embedded != nil {
            s += SyncCollectionCheck.statements(table: t.name, f)
        }

        let writeFn = SyncTable.quote("strata_" + t.name + "_write")
        let deleteFn = SyncTable.quote("strata_" + t.name + "_delete")
        let stampChanged = t.fields.map {
            let c = SyncTable.quote($0.name)
            return
                "IF NEW.\(c) IS DISTINCT FROM OLD.\(c) THEN NEW._strata_clocks := NEW._strata_clocks || jsonb_build_object(\(SyncTable.literal($0.name)), c); END IF;"
        }.joined(separator: "\n        ")
        s.append(
            """
            CREATE OR REPLACE FUNCTION \(writeFn)() RETURNS trigger LANGUAGE plpgsql AS $$
            DECLARE c text; mx text;
            BEGIN
                \(lowered.joined(separator: "\n        "))
                NEW._strata_xid := pg_current_xact_id();
                IF coalesce(current_setting('strata.applying', true), '') = 'on' THEN RETURN NEW; END IF;
                IF TG_OP = 'UPDATE' AND NEW.\(pk) IS DISTINCT FROM OLD.\(pk) THEN
                    RAISE EXCEPTION 'the primary key of a synced row cannot change: delete the row and insert another';
                END IF;
                SELECT max(v COLLATE "C") INTO mx FROM jsonb_each_text(
                    CASE WHEN TG_OP = 'UPDATE' THEN OLD._strata_clocks ELSE '{}'::jsonb END) AS e(k, v);
                IF TG_OP = 'UPDATE' THEN mx := greatest(mx COLLATE "C", OLD._strata_clock COLLATE "C"); END IF;
                SELECT greatest(mx COLLATE "C", (SELECT clock FROM strata_tombstones WHERE tbl = \(name) AND pk = NEW.\(pk)::text)) INTO mx;
                c := strata_server_clock(mx);
                IF TG_OP = 'INSERT' THEN
                    -- Every column written now: the row clock covers those listed nowhere else.
                    NEW._strata_clocks := '{}'::jsonb;
                    NEW._strata_clock := c;
                ELSE
                    NEW._strata_clocks := OLD._strata_clocks;
                    NEW._strata_clock := OLD._strata_clock;
                    \(stampChanged)
                END IF;
                RETURN NEW;
            END $$
            """)
        s.append(
            """
            CREATE OR REPLACE FUNCTION \(deleteFn)() RETURNS trigger LANGUAGE plpgsql AS $$
            DECLARE mx text;
            BEGIN
                IF coalesce(current_setting('strata.applying', true), '') = 'on' THEN RETURN OLD; END IF;
                SELECT max(v COLLATE "C") INTO mx FROM jsonb_each_text(OLD._strata_clocks) AS e(k, v);
                mx := greatest(mx COLLATE "C", OLD._strata_clock COLLATE "C");
                SELECT greatest(mx COLLATE "C", (SELECT clock FROM strata_tombstones WHERE tbl = \(name) AND pk = OLD.\(pk)::text)) INTO mx;
                INSERT INTO strata_tombstones (tbl, pk, clock) VALUES (\(name), OLD.\(pk)::text, strata_server_clock(mx))
                    ON CONFLICT (tbl, pk) DO UPDATE SET clock = EXCLUDED.clock;
                RETURN OLD;
            END $$
            """)
        // The sync uploader's own writes skip the row triggers altogether (their WHEN is
        // evaluated without calling a PL/pgSQL function, which for a batch of thousands of
        // rows was a large share of the upload's server time): it stamps `_strata_xid` itself
        // and keeps its own clocks and tombstones.
        let notUploader = "WHEN (current_setting('strata.applying', true) IS DISTINCT FROM 'on')"
        s.append("DROP TRIGGER IF EXISTS strata_write ON \(q)")
        s.append(
            "CREATE TRIGGER strata_write BEFORE INSERT OR UPDATE ON \(q) FOR EACH ROW \(notUploader) EXECUTE FUNCTION \(writeFn)()"
        )
        s.append("DROP TRIGGER IF EXISTS strata_delete ON \(q)")
        s.append(
            "CREATE TRIGGER strata_delete AFTER DELETE ON \(q) FOR EACH ROW \(notUploader) EXECUTE FUNCTION \(deleteFn)()"
        )
        // TRUNCATE fires no row triggers: it would leave no tombstones and the replicas would
        // keep the rows. Refused; DELETE FROM does the same with tombstones.
        s.append("DROP TRIGGER IF EXISTS strata_truncate ON \(q)")
        s.append(
            "CREATE TRIGGER strata_truncate BEFORE TRUNCATE ON \(q) FOR EACH STATEMENT EXECUTE FUNCTION strata_refuse_truncate()"
        )
        s.append("DROP TRIGGER IF EXISTS strata_notify ON \(q)")
        s.append(
            "CREATE TRIGGER strata_notify AFTER INSERT OR UPDATE OR DELETE ON \(q) FOR EACH STATEMENT EXECUTE FUNCTION strata_notify()"
        )
        return s
    }

    /// A fingerprint of `statements` (FNV-1a, 64 bits, hex): equal statements, equal schema.
    static func fingerprint(_ statements: [String]) -> String {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for s in statements {
            for b in s.utf8 {
                h ^= UInt64(b)
                h = h &* 0x100_0000_01b3
            }
            h ^= 0xff
            h = h &* 0x100_0000_01b3
        }
        return String(h, radix: 16)
    }

    /// The query that lists the columns of table `name` with their types (`format_type`), to
    /// compare with the model.
    static let columnsQuery = """
        SELECT a.attname::text, format_type(a.atttypid, a.atttypmod) FROM pg_attribute a
        WHERE a.attrelid = to_regclass(quote_ident($1)) AND a.attnum > 0 AND NOT a.attisdropped
        """
}
