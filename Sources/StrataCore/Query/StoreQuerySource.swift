/// Where a query finds its candidate objects: every object of its table, the objects one
/// collection property of one object links to, or the objects linking to one object.
///
/// A query restricted to a collection (`person.dogs.where { $0.age > 3 }`) is evaluated by the
/// store like any other: the collection's links are read from the owner's row in the transaction
/// being read (so results stay live as the list changes), and the predicate, sort and distinct run
/// over those objects only. Results keep the collection's order (and its repeated elements) until
/// sorted.
///
/// ## Concurrency
/// A value type; `Sendable`.
package enum StoreQuerySource: Sendable, Hashable {
    /// Every object of the queried table, in key order.
    case table
    /// The objects linked from list, set or map property `column` of object `ownerKey` of table
    /// `ownerTable`, in the collection's order (a map's: its keys ascending; nil values skipped).
    case collection(ownerTable: String, ownerKey: Int64, column: String)
    /// The objects of `originTable` whose link (or list or set of links) `column` points at
    /// object `key` of `table`, in key order: a `LinkingObjects` property.
    case backlinks(table: String, key: Int64, originTable: String, column: String)

    /// The object keys this source holds in `txn`, in its order; nil for `.table`. A deleted owner
    /// holds none.
    /// - Throws: ``StoreQueryError/unknownTable(table:keyPath:)`` or
    ///   ``StoreQueryError/unknownProperty(table:property:keyPath:)`` when the owner's table or
    ///   property is not in `txn.tables`; ``StoreQueryError/notALink(table:property:keyPath:)``
    ///   when the property is not a collection of links; storage errors from reading the row.
    package func keys(in txn: StoreTransaction) throws -> [Int64]? {
        switch self {
        case .table:
            return nil
        case .collection(let ownerTable, let ownerKey, let column):
            guard let table = txn.tables[ownerTable] else {
                throw StoreQueryError.unknownTable(table: ownerTable, keyPath: column)
            }
            guard let c = table.columnIndex[column] else {
                throw StoreQueryError.unknownProperty(table: ownerTable, property: column, keyPath: column)
            }
            let described = table.columns[c]
            guard described.type == .link, described.collection != .none else {
                throw StoreQueryError.notALink(table: ownerTable, property: column, keyPath: column)
            }
            guard let row = try txn.row(table, key: ownerKey) else { return [] }
            if described.collection == .map {
                guard case .map(let entries) = row.value(c) else { return [] }
                return entries.keys.sorted().compactMap { key in
                    if case .link(let k)? = entries[key] { return k }
                    return nil
                }
            }
            if let keys = row.linkListKeys(c) { return keys }
            guard case .list(let elements) = row.value(c) else { return [] }
            var keys: [Int64] = []
            keys.reserveCapacity(elements.count)
            for element in elements {
                if case .link(let k) = element { keys.append(k) }
            }
            return keys
        case .backlinks(let tableName, let key, let originTable, let column):
            guard let table = txn.tables[tableName] else {
                throw StoreQueryError.unknownTable(table: tableName, keyPath: column)
            }
            return try txn.backlinks(to: table, key: key, from: originTable, column: column)
        }
    }
}
