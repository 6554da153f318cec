import Foundation
import StrataCore

/// Links on the wire: a link travels as its target's primary key (a list of links as a list of
/// keys, a map's values likewise), so the server's column holds the key and SQL can join on it.
///
/// A downloaded link whose target is not in the file (outside the subscriptions, or later in the
/// same download) is unresolved: the local value leaves it out (a nil link, a shorter list, a nil
/// map value) and tree `y:u:<T>` keeps the field's server value (per object key, JSON of the
/// fields in wire form) until the target arrives. A local edit of a list, set or map of links
/// uploads what the device sees plus the unresolved keys it cannot see, so an edit never drops
/// them from the server; a local edit of a single link replaces it.
package enum SyncLinks {
    package static func unresolvedTree(_ table: String) -> String { "y:u:" + table }

    /// `value` (local form: object keys) in wire form (the targets' primary keys).
    package static func wire(
        _ txn: StoreTransaction, _ f: SyncTable.Field, _ value: StoreValue, _ tables: [String: SyncTable]
    ) throws -> StoreValue {
        guard let name = f.target, let t = tables[name] else { return value }
        func key(_ v: StoreValue) throws -> StoreValue? {
            guard case .link(let k) = v else { return nil }
            return try txn.row(t.store, key: k)?.value(t.primaryKeyColumn)
        }
        switch value {
        case .link: return try key(value) ?? .null
        case .list(let items): return .list(try items.compactMap(key))
        case .map(let entries): return .map(try entries.mapValues { try key($0) ?? .null })
        default: return .null
        }
    }

    /// `value` (wire form) in local form, and whether every target was found.
    package static func local(
        _ txn: StoreTransaction, _ f: SyncTable.Field, _ value: StoreValue, _ tables: [String: SyncTable]
    ) throws -> (StoreValue, resolved: Bool) {
        guard let name = f.target, let t = tables[name] else { return (value, true) }
        var resolved = true
        func link(_ pk: StoreValue) throws -> StoreValue? {
            if pk == .null { return nil }
            if let k = try txn.objectKey(t.store, primaryKey: pk) { return .link(k) }
            resolved = false
            return nil
        }
        switch (f.collection, value) {
        case (.list, .list(let items)), (.set, .list(let items)):
            return (.list(try items.compactMap(link)), resolved)
        case (.map, .map(let entries)):
            return (.map(try entries.mapValues { try link($0) ?? .null }), resolved)
        default:
            return (try link(value) ?? .null, resolved)
        }
    }

    /// The unresolved server values of object `key`'s link fields, in wire form.
    package static func unresolved(
        _ txn: StoreTransaction, _ t: SyncTable, key: Int64
    ) throws -> [String: StoreValue] {
        guard let b = try txn.get(SyncLocalStore.keyBytes(key), tree: unresolvedTree(t.name)),
            let j = try SyncJSON.parse(Array(b)) as? [String: Any]
        else { return [:] }
        var out: [String: StoreValue] = [:]
        for (name, v) in j {
            guard let i = t.fieldIndex[name], let value = t.fields[i].value(fromJSON: v) else { continue }
            out[name] = value
        }
        return out
    }

    /// Stores (or, when empty, removes) object `key`'s unresolved link values.
    package static func setUnresolved(
        _ txn: StoreTransaction, _ t: SyncTable, key: Int64, _ values: [String: StoreValue]
    ) throws {
        let k = SyncLocalStore.keyBytes(key)
        if values.isEmpty {
            try txn.remove(k, tree: unresolvedTree(t.name))
            return
        }
        let body = values.sorted { $0.key < $1.key }.compactMap { name, v -> String? in
            guard let i = t.fieldIndex[name] else { return nil }
            return SyncTable.jsonString(name) + ":" + t.fields[i].json(v)
        }
        try txn.put(k, Array(("{" + body.joined(separator: ",") + "}").utf8), tree: unresolvedTree(t.name))
    }

    /// What a local edit of link field `f` uploads: the device's value (wire form), plus, for a
    /// collection, the keys of the stored server value `stored` whose targets are still not in
    /// the file (the device cannot see them, so its edit cannot have meant to drop them).
    package static func withHidden(
        _ txn: StoreTransaction, _ f: SyncTable.Field, _ visible: StoreValue, _ stored: StoreValue?,
        _ tables: [String: SyncTable]
    ) throws -> StoreValue {
        guard let stored, let name = f.target, let t = tables[name] else { return visible }
        func missing(_ pk: StoreValue) throws -> Bool {
            if pk == .null { return false }
            return try txn.objectKey(t.store, primaryKey: pk) == nil
        }
        let hidden: StoreValue
        switch stored {
        case .list(let items): hidden = .list(try items.filter(missing))
        case .map(let entries): hidden = .map(try entries.filter { try missing($0.value) })
        default: return visible
        }
        switch (visible, hidden) {
        case (.list(let v), .list(let h)):
            return .list(v + h.filter { !v.contains($0) })
        case (.map(let v), .map(let h)):
            var out = v
            // Only keys the device still shows (as nil): a key it removed stays removed.
            for (k, x) in h where out[k] == .some(.null) { out[k] = x }
            return .map(out)
        default:
            return visible
        }
    }
}
