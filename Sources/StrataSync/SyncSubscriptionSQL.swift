import Foundation
import StrataCore
import StrataQuery

/// Turns a subscription's query into the SQL condition the server evaluates on the synced
/// table's rows (Docs/Sync.md, "Subscriptions").
///
/// The condition keeps Realm's semantics where SQL's differ: a comparison with a NULL column is
/// false rather than unknown (so `NOT` of it is true, as in Realm), `!=` is true between NULL
/// and a value, string ordering compares code points (`COLLATE "C"`), and `LIKE` takes Realm's
/// `*` and `?` wildcards. Queries the server cannot evaluate the same way (key paths through
/// links or collections, aggregates, subqueries, diacritic-insensitive comparisons) are refused
/// with an error naming the part.
package enum SyncSubscriptionSQL {
    /// `predicate` with its arguments written in as literals: the canonical text a subscription
    /// keeps (it parses back to the same predicate).
    package static func inlined(_ predicate: QueryPredicate, _ args: [StoreValue]) throws -> QueryPredicate {
        func operand(_ o: QueryOperand) throws -> QueryOperand {
            switch o {
            case .argument(let i):
                guard i < args.count else { throw invalid("the query names argument \(i) but has \(args.count)") }
                return try literalOperand(args[i])
            case .list(let items): return .list(try items.map(operand))
            case .keyPathArgument:
                throw invalid("%K key paths are not supported in subscriptions; write the property's name")
            default: return o
            }
        }
        switch predicate {
        case .comparison(var c):
            c.left = try operand(c.left)
            c.right = try operand(c.right)
            return .comparison(c)
        case .and(let ps): return .and(try ps.map { try inlined($0, args) })
        case .or(let ps): return .or(try ps.map { try inlined($0, args) })
        case .not(let p): return .not(try inlined(p, args))
        case .truePredicate, .falsePredicate: return predicate
        }
    }

    private static func literalOperand(_ v: StoreValue) throws -> QueryOperand {
        switch v {
        case .null: return .literal(.null)
        case .bool(let b): return .literal(.bool(b))
        case .int(let i): return .literal(.int(i))
        case .float(let f): return .literal(.double(Double(f)))
        case .double(let d): return .literal(.double(d))
        case .string(let s): return .literal(.string(s))
        case .data(let b): return .literal(.data(b))
        case .timestamp(let s, let n): return .literal(.timestamp(seconds: s, nanoseconds: n))
        case .objectId(let b): return .literal(.objectId(b))
        case .uuid(let b): return .literal(.uuid(b))
        case .list(let items): return .list(try items.map(literalOperand))
        case .link, .typedLink:
            throw invalid("objects are not supported as subscription arguments (links are not synced yet)")
        case .decimal128(let b):
            // The query language has no decimal literal: `numeric`'s text, read back by `value`
            // as a `numeric` for a Decimal128 property.
            guard let text = SyncDecimal.text(b) else { throw invalid("an argument is not a Decimal128") }
            return .literal(.string(text))
        case .map: throw invalid("a dictionary is not a subscription argument")
        }
    }

    /// The SQL condition for `predicate` (literals only: see `inlined`) over `table`'s columns.
    /// - Throws: `SyncError` (`.invalidSubscription`) naming what the server cannot evaluate.
    package static func condition(_ predicate: QueryPredicate, _ table: SyncTable) throws -> String {
        switch predicate {
        case .truePredicate: return "TRUE"
        case .falsePredicate: return "FALSE"
        case .and(let ps):
            return ps.isEmpty
                ? "TRUE" : "(" + (try ps.map { try condition($0, table) }).joined(separator: " AND ") + ")"
        case .or(let ps):
            return ps.isEmpty
                ? "FALSE" : "(" + (try ps.map { try condition($0, table) }).joined(separator: " OR ") + ")"
        case .not(let p): return "(NOT " + (try condition(p, table)) + ")"
        case .comparison(let c): return try comparison(c, table)
        }
    }

    private struct Column {
        let sql: String
        let type: ColumnType
    }

    private static func column(_ o: QueryOperand, _ t: SyncTable) throws -> Column? {
        guard case .keyPath(let path, let aggregate) = o else { return nil }
        guard aggregate == nil, path.count == 1, let name = path.first else {
            throw invalid(
                "'\(o)': a subscription on \(t.name) can compare only \(t.name)'s own properties (not key paths through links, embedded objects or collections, nor aggregates)"
            )
        }
        if name == t.primaryKeyName { return Column(sql: SyncTable.quote(name), type: t.primaryKeyType) }
        guard let i = t.fieldIndex[name] else {
            throw invalid("\(t.name) has no synced property '\(name)'")
        }
        guard t.fields[i].target == nil else {
            throw invalid("'\(t.name).\(name)' is a link: subscriptions compare the object's own values only")
        }
        guard t.fields[i].embedded == nil else {
            throw invalid(
                "'\(t.name).\(name)' is an embedded object: subscriptions compare the object's own single values only")
        }
        guard !t.fields[i].isCollection else {
            throw invalid("'\(t.name).\(name)' is a collection: subscriptions compare single values only")
        }
        guard t.fields[i].type != .mixed else {
            throw invalid("'\(t.name).\(name)' is an AnyRealmValue: subscriptions do not compare them yet")
        }
        return Column(sql: SyncTable.quote(name), type: t.fields[i].type)
    }

    private static func comparison(_ c: QueryComparison, _ t: SyncTable) throws -> String {
        guard c.quantifier == nil else {
            throw invalid("'\(c)': ANY, ALL and NONE need a collection, and collections are not synced yet")
        }
        if case .subqueryCount = c.left { throw invalid("'\(c)': subqueries are not supported in subscriptions") }
        if case .subqueryCount = c.right { throw invalid("'\(c)': subqueries are not supported in subscriptions") }
        guard !c.options.contains(.diacriticInsensitive) else {
            throw invalid("'\(c)': diacritic-insensitive comparisons ([d]) are not supported in subscriptions")
        }
        var left = c.left
        var right = c.right
        var op = c.op
        if !left.isKeyPath, right.isKeyPath {
            guard let m = op.mirrored else {
                throw invalid("'\(c)': put the property on the left of \(op.rawValue)")
            }
            swap(&left, &right)
            op = m
        }
        guard let col = try column(left, t) else {
            throw invalid("'\(c)': a comparison in a subscription needs a property of \(t.name)")
        }
        let fold = c.options.contains(.caseInsensitive)
        if fold && col.type != .string {
            throw invalid("'\(c)': [c] applies to String properties")
        }
        if fold && (op == .in || op == .between) {
            throw invalid("'\(c)': [c] with \(op.rawValue) is not supported in subscriptions")
        }
        if let other = try column(right, t) {
            return try columnComparison(col, op, other, fold: fold, c)
        }
        switch op {
        case .in:
            guard case .list(let items) = right else { throw invalid("'\(c)': IN needs a list of values") }
            var values: [String] = []
            var withNull = false
            for item in items {
                guard case .literal(let l) = item else { throw invalid("'\(c)': IN needs a list of values") }
                if l == .null { withNull = true } else { values.append(try value(l, col.type, c)) }
            }
            var parts: [String] = []
            if !values.isEmpty { parts.append("coalesce(\(col.sql) IN (\(values.joined(separator: ", "))), false)") }
            if withNull { parts.append("\(col.sql) IS NULL") }
            return parts.isEmpty ? "FALSE" : "(" + parts.joined(separator: " OR ") + ")"
        case .between:
            guard case .list(let items) = right, items.count == 2, case .literal(let lo) = items[0],
                case .literal(let hi) = items[1], lo != .null, hi != .null
            else { throw invalid("'\(c)': BETWEEN needs two values") }
            let (low, high) = (try value(lo, col.type, c), try value(hi, col.type, c))
            if col.type == .decimal128 {
                let k = decimalKey(col.sql)
                return "coalesce(\(k) >= \(decimalKey(low)) AND \(k) <= \(decimalKey(high)), false)"
            }
            return "coalesce(\(col.sql) BETWEEN \(low) AND \(high), false)"
        default: break
        }
        guard case .literal(let lit) = right else {
            throw invalid("'\(c)': compare a property with a value")
        }
        if lit == .null {
            switch op {
            case .equal: return "(\(col.sql) IS NULL)"
            case .notEqual: return "(\(col.sql) IS NOT NULL)"
            default: return "FALSE"
            }
        }
        let v = try value(lit, col.type, c)
        let isText = col.type == .string
        if fold && !isText { throw invalid("'\(c)': [c] applies to String properties") }
        let l = fold ? "lower(\(col.sql))" : col.sql
        let r = fold ? "lower(\(v))" : v
        switch op {
        case .equal: return "(\(l) IS NOT DISTINCT FROM \(r))"
        case .notEqual: return "(\(l) IS DISTINCT FROM \(r))"
        case .lessThan, .lessThanOrEqual, .greaterThan, .greaterThanOrEqual:
            if col.type == .decimal128 { return "coalesce(\(decimalKey(l)) \(op.rawValue) \(decimalKey(r)), false)" }
            let collate = isText ? " COLLATE \"C\"" : ""
            return "coalesce(\(l)\(collate) \(op.rawValue) \(r)\(collate), false)"
        case .beginsWith, .endsWith, .contains, .like:
            guard isText else { throw invalid("'\(c)': \(op.rawValue) applies to String properties") }
            switch op {
            case .beginsWith: return "coalesce(starts_with(\(l), \(r)), false)"
            case .endsWith: return "coalesce(right(\(l), char_length(\(r))) = \(r), false)"
            case .contains: return "coalesce(strpos(\(l), \(r)) > 0, false)"
            default:
                guard case .string(let pattern) = lit else { throw invalid("'\(c)': LIKE needs a string") }
                let like = SyncTable.literal(likePattern(pattern))
                return "coalesce(\(col.sql) \(fold ? "ILIKE" : "LIKE") \(like) ESCAPE '\\', false)"
            }
        case .in, .between: throw invalid("'\(c)'")
        }
    }

    private static func columnComparison(
        _ a: Column, _ op: QueryOperator, _ b: Column, fold: Bool, _ c: QueryComparison
    ) throws -> String {
        let numeric: Set<ColumnType> = [.int, .float, .double]
        guard a.type == b.type || (numeric.contains(a.type) && numeric.contains(b.type)) else {
            throw invalid("'\(c)': the two properties have different types")
        }
        let l = fold ? "lower(\(a.sql))" : a.sql
        let r = fold ? "lower(\(b.sql))" : b.sql
        switch op {
        case .equal: return "(\(l) IS NOT DISTINCT FROM \(r))"
        case .notEqual: return "(\(l) IS DISTINCT FROM \(r))"
        case .lessThan, .lessThanOrEqual, .greaterThan, .greaterThanOrEqual:
            if a.type == .decimal128 { return "coalesce(\(decimalKey(l)) \(op.rawValue) \(decimalKey(r)), false)" }
            let collate = a.type == .string ? " COLLATE \"C\"" : ""
            return "coalesce(\(l)\(collate) \(op.rawValue) \(r)\(collate), false)"
        default:
            throw invalid("'\(c)': \(op.rawValue) between two properties is not supported in subscriptions")
        }
    }

    /// A `numeric` expression as a row that orders as `Decimal128` does: `numeric` puts NaN
    /// above every number, `Decimal128` (as RealmSwift) below, so NaN first by a flag.
    private static func decimalKey(_ sql: String) -> String { "ROW(\(sql) <> 'NaN'::numeric, \(sql))" }

    /// Realm's LIKE pattern (`*` any run, `?` one character) as SQL's, with `\` escaping.
    static func likePattern(_ realm: String) -> String {
        var out = ""
        for ch in realm {
            switch ch {
            case "*": out += "%"
            case "?": out += "_"
            case "%", "_", "\\": out += "\\" + String(ch)
            default: out.append(ch)
            }
        }
        return out
    }

    /// `lit` as an SQL value of a column of type `type`.
    private static func value(_ lit: QueryLiteral, _ type: ColumnType, _ c: QueryComparison) throws -> String {
        func mismatch() -> SyncError { invalid("'\(c)': \(lit) is not a value of a \(type) property") }
        switch (type, lit) {
        case (.int, .int(let i)), (.float, .int(let i)), (.double, .int(let i)): return String(i)
        case (.int, .double(let d)), (.float, .double(let d)), (.double, .double(let d)):
            if d.isNaN { return "'NaN'::double precision" }
            if d.isInfinite { return d > 0 ? "'Infinity'::double precision" : "'-Infinity'::double precision" }
            return "\(d)::double precision"
        case (.bool, .bool(let b)): return b ? "TRUE" : "FALSE"
        case (.string, .string(let s)):
            guard !s.unicodeScalars.contains("\0") else { throw invalid("'\(c)': PostgreSQL text cannot hold U+0000") }
            return SyncTable.literal(s)
        case (.data, .data(let b)): return "decode('\(SyncTable.hex(b))', 'hex')"
        case (.data, .string(let s)):
            guard !s.unicodeScalars.contains("\0") else { throw invalid("'\(c)': PostgreSQL text cannot hold U+0000") }
            return "convert_to(\(SyncTable.literal(s)), 'UTF8')"
        case (.objectId, .objectId(let b)): return SyncTable.literal(SyncTable.hex(b))
        case (.uuid, .uuid(let b)):
            let text = SyncTable.keyText(.uuid(b))
            guard !text.isEmpty else { throw mismatch() }
            return SyncTable.literal(text) + "::uuid"
        case (.decimal128, .int(let i)): return "\(i)::numeric"
        case (.decimal128, .double(let d)):
            if d.isNaN { return "'NaN'::numeric" }
            if d.isInfinite { return d > 0 ? "'Infinity'::numeric" : "'-Infinity'::numeric" }
            return "'\(d)'::numeric"
        case (.decimal128, .string(let s)):
            guard let b = SyncDecimal.bytes(s), let text = SyncDecimal.text(b) else { throw mismatch() }
            return SyncTable.literal(text) + "::numeric"
        case (.timestamp, .timestamp(let s, let n)):
            let us = Int64(n / 1000)
            return
                "(timestamptz 'epoch' + (\(s)) * interval '1 second' + (\(us)) * interval '1 microsecond')"
        default: throw mismatch()
        }
    }

    static func invalid(_ what: String) -> SyncError {
        SyncError(.invalidSubscription, "This query cannot be a subscription: \(what).")
    }
}
