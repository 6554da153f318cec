import Foundation
import StrataCore

/// An embedded object type as sync carries it: inside its owner, never on its own
/// (Docs/Sync.md, "Embedded objects"). An owner's embedded property (`Address?`,
/// `List<Address>`, `Map<String, Address?>`) is one field of the owner: one `jsonb` column on the
/// server holding the object as a JSON object of its properties in wire form (a list as an array
/// of such objects, a map as an object of them), nested embedded objects likewise, and one clock
/// for conflicts, like a collection.
///
/// In wire form (the outbox, the merge, the upload) an embedded object is a `.map` of its
/// fields by name, every field present; locally it is a row of its own table linked from its
/// owner. `wire` reads the local rows into the first, `local` writes the first as new rows.
package final class SyncEmbedded: Sendable {
    package let store: StoreTable
    /// The embedded type's synced properties, in column order.
    package let fields: [SyncTable.Field]

    package var name: String { store.name }

    /// The embedded type `store`, owned through `path` (the owner's type and property names,
    /// for the errors) by objects of the types `owners` (the top-level one first); `all` holds
    /// every table of the file.
    init(_ store: StoreTable, path: [String], owners: [String], all: [String: StoreTable]) throws {
        self.store = store
        guard !owners.contains(store.name) else {
            throw SyncError(
                .unsupportedSchema,
                "'\(path.joined(separator: "."))' holds \(store.name) inside itself: a synced embedded object cannot contain its own type, at any depth. Make the inner one a top-level Object with a primary key, or leave the owner out of the synced objectTypes."
            )
        }
        var fields: [SyncTable.Field] = []
        for (i, c) in store.columns.enumerated() where c.isStored {
            fields.append(
                try SyncTable.field(
                    c, column: i, owners: owners + [store.name], path: path + [c.name], synced: [:], all: all,
                    inEmbedded: true))
        }
        self.fields = fields
    }

    // MARK: Wire form

    /// The JSON text of one object in wire form (`.map` of its fields), or `null`.
    func json(_ object: StoreValue) -> String {
        guard case .map(let values) = object else { return "null" }
        return "{"
            + fields.map { f in SyncTable.jsonString(f.name) + ":" + f.json(values[f.name] ?? f.defaultValue) }
            .joined(separator: ",") + "}"
    }

    /// One object from its JSON in wire form: a property the JSON lacks takes its default (an
    /// SQL writer may leave it out), one it has that the model does not is dropped; nil when a
    /// value cannot be read (or is null where the property cannot be).
    func value(fromJSON j: Any?) -> StoreValue? {
        guard let d = j as? [String: Any] else { return nil }
        var out: [String: StoreValue] = [:]
        for f in fields {
            guard let raw = d[f.name] else {
                out[f.name] = f.defaultValue
                continue
            }
            guard let v = f.value(fromJSON: raw) else { return nil }
            if v == .null, !f.isNullable, !f.isCollection, f.type != .mixed { return nil }
            out[f.name] = v
        }
        return .map(out)
    }

    /// `object` with every field as the field holds it (`Field.fitting`), missing ones at their
    /// defaults; nil when a field does not fit.
    func fitting(_ object: StoreValue) -> StoreValue? {
        guard case .map(let values) = object else { return nil }
        var out: [String: StoreValue] = [:]
        for f in fields {
            guard let v = values[f.name] else {
                out[f.name] = f.defaultValue
                continue
            }
            guard let x = f.fitting(v) else { return nil }
            out[f.name] = x
        }
        return .map(out)
    }

    /// Throws when PostgreSQL cannot store a value of `object` (`Field.checkStorable`).
    func checkStorable(_ object: StoreValue, owner: String) throws {
        guard case .map(let values) = object else { return }
        for f in fields {
            if let v = values[f.name] { try f.checkStorable(v, table: owner) }
        }
    }

    // MARK: Local rows

    /// A value stored in the file (of an object or of an embedded row) that the capture rounds
    /// to what PostgreSQL keeps: written back after the reads (`SyncTable.Field.asServerKeepsIt`).
    package struct Rounding {
        let table: StoreTable
        let key: Int64
        let column: Int
        let value: StoreValue
    }

    /// Embedded field `f`'s local value (links to rows of the embedded table) in wire form.
    /// Dates and decimals are given as the server keeps them, and `roundings` collects the
    /// stored values that differ, for the caller to write once it is done reading.
    static func wire(
        _ txn: StoreTransaction, _ f: SyncTable.Field, _ value: StoreValue, _ roundings: inout [Rounding]
    ) throws -> StoreValue {
        guard let e = f.embedded else { return value }
        switch value {
        case .link(let k): return try e.object(txn, key: k, &roundings)
        case .list(let items): return .list(try items.map { try wire(txn, f, $0, &roundings) })
        case .map(let entries): return .map(try entries.mapValues { try wire(txn, f, $0, &roundings) })
        default: return .null
        }
    }

    private func object(_ txn: StoreTransaction, key: Int64, _ roundings: inout [Rounding]) throws -> StoreValue {
        guard let values = try txn.row(store, key: key)?.values() else { return .null }
        var out: [String: StoreValue] = [:]
        for f in fields {
            var v = values[f.column]
            if f.embedded != nil {
                v = try Self.wire(txn, f, v, &roundings)
            } else if f.serverMayChangeValues {
                let r = f.asServerKeepsIt(v)
                if r != v {
                    roundings.append(Rounding(table: store, key: key, column: f.column, value: r))
                    v = r
                }
            }
            out[f.name] = v
        }
        return .map(out)
    }

    /// Embedded field `f`'s wire-form value as new rows of the embedded table (nested objects
    /// first), returning the local value that links to them. Setting it on the owner deletes
    /// the rows it replaces.
    static func local(_ txn: StoreTransaction, _ f: SyncTable.Field, _ value: StoreValue) throws -> StoreValue {
        guard let e = f.embedded else { return value }
        switch (f.collection, value) {
        case (.list, .list(let items)), (.set, .list(let items)):
            return .list(try items.map { try e.insert(txn, $0) })
        case (.map, .map(let entries)):
            return .map(try entries.mapValues { try e.insert(txn, $0) })
        default:
            return try e.insert(txn, value)
        }
    }

    /// Embedded field `f` of an owner whose local value is `current`, changed to `value` (wire
    /// form): in place when both are single objects, so that the object keeps its key as it does
    /// under a local edit (an observer of it sees its properties change, not a deletion); its
    /// fields change where they differ, nested single objects likewise. Returns nil then, else
    /// the new local value for the owner (new rows, as `local` makes them).
    static func replacement(
        _ txn: StoreTransaction, _ f: SyncTable.Field, current: StoreValue, to value: StoreValue
    ) throws -> StoreValue? {
        guard let e = f.embedded, f.collection == .none, case .link(let key) = current,
            case .map(let values) = value, let row = try txn.row(e.store, key: key)
        else { return try local(txn, f, value) }
        // Copied: the row points into pages that the sets below change.
        let stored = row.values()
        for g in e.fields {
            let new = values[g.name] ?? g.defaultValue
            if g.embedded != nil {
                var roundings: [Rounding] = []  // stored values are rounded already
                if try wire(txn, g, stored[g.column], &roundings) == new { continue }
                if let v = try replacement(txn, g, current: stored[g.column], to: new) {
                    _ = try txn.set(e.store, key: key, column: g.column, to: v)
                }
            } else if stored[g.column] != new {
                _ = try txn.set(e.store, key: key, column: g.column, to: new)
            }
        }
        return nil
    }

    private func insert(_ txn: StoreTransaction, _ object: StoreValue) throws -> StoreValue {
        guard case .map(let values) = object else { return .null }
        var row = store.columns.map(\.defaultValue)
        for f in fields {
            row[f.column] = try Self.local(txn, f, values[f.name] ?? f.defaultValue)
        }
        return .link(try txn.insert(into: store, values: row))
    }

    /// The top-level object that owns embedded object `key` of `table` (through any depth of
    /// embedded objects): its table, the owner's column holding the chain, and its key; nil
    /// when the object has no owner (deleted in this transaction).
    static func owner(
        _ txn: StoreTransaction, _ table: StoreTable, key: Int64
    ) throws -> (table: String, column: Int, key: Int64)? {
        var table = table
        var key = key
        for _ in 0..<1000 {
            guard let link = try txn.allBacklinks(to: table, key: key).first,
                let origin = txn.tables[link.table], let column = origin.columnIndex[link.column]
            else { return nil }
            if !origin.isEmbedded { return (link.table, column, link.key) }
            table = origin
            key = link.key
        }
        return nil
    }
}
