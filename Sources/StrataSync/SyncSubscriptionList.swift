import Foundation
import StrataCore
import StrataQuery

/// The subscriptions a synced realm keeps in its file (tree `y:s`, FORMAT.md "Sync trees"): a
/// version that every update raises, and the subscriptions in the order they were added.
/// Version 0 (no record) means subscriptions were never set: every object of the synced types
/// syncs.
package struct SyncSubscriptionList: Codable, Equatable, Sendable {
    /// One subscription.
    package struct Item: Codable, Equatable, Sendable {
        /// A random identity (hex), stable across updates of its query.
        package var id: String
        package var name: String?
        /// The model's class name.
        package var type: String
        /// The query in Realm's query language, arguments written in (it parses back).
        package var query: String
        /// Seconds since 1970.
        package var created: Double
        package var updated: Double
    }

    package var version: UInt64 = 0
    package var items: [Item] = []

    package static let tree = "y:s"
    private static let key = Array("set".utf8)

    /// The list the file holds (version 0 and no items when none was ever written).
    package static func read(_ txn: StoreTransaction) throws -> SyncSubscriptionList {
        guard let b = try txn.get(key, tree: tree) else { return SyncSubscriptionList() }
        do {
            return try JSONDecoder().decode(SyncSubscriptionList.self, from: Data(b))
        } catch {
            throw SyncError(.local, "The subscriptions stored in the realm file cannot be read: \(error)")
        }
    }

    /// Writes the list (inside a write transaction).
    package func write(_ txn: StoreTransaction) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        try txn.put(Self.key, Array(try encoder.encode(self)), tree: Self.tree)
    }

    /// Each synced table's SQL condition for the rows this list subscribes to: nil for every
    /// table when the list was never set (everything syncs); `FALSE` for a table no subscription
    /// names.
    package func conditions(_ tables: [String: SyncTable]) throws -> [String: String]? {
        guard version > 0 else { return nil }
        var parts: [String: [String]] = [:]
        for item in items {
            guard let t = tables[item.type] else { continue }
            let parsed: QueryPredicate
            do {
                parsed = try ParsedQuery.parse(item.query).predicate
            } catch {
                throw SyncSubscriptionSQL.invalid("'\(item.query)' does not parse: \(error)")
            }
            parts[item.type, default: []].append(try SyncSubscriptionSQL.condition(parsed, t))
        }
        var out: [String: String] = [:]
        for name in tables.keys {
            let p = parts[name] ?? []
            out[name] = p.isEmpty ? "FALSE" : (p.count == 1 ? p[0] : "(" + p.joined(separator: " OR ") + ")")
        }
        return out
    }
}
