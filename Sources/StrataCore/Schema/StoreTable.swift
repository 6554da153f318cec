/// One table: an object type's columns and the names of its trees in the storage catalog.
///
/// | tree | key | value |
/// |---|---|---|
/// | `c:<Table>` | first object key of the cluster (8 bytes, big-endian, sign bit flipped) | a cluster of objects |
/// | `p:<Table>` | primary key as an `IndexKey` (String, ObjectId, UUID keys) | object key (u64 little-endian) |
/// | `i:<Table>:<column>` | `IndexKey(value) ‖ object key` | empty |
/// | `b:<Table>` | `target key ‖ origin table ‖ 00 ‖ origin column ‖ 00 ‖ origin key` | u32 link count |
///
/// ## Concurrency
/// Immutable after creation; `Sendable`.
package final class StoreTable: Sendable {
    package let name: String
    /// Embedded objects live only inside their parent: deleted with it, never queried alone.
    package let isEmbedded: Bool
    package let columns: [StoreColumn]
    /// The index of the primary key column.
    package let primaryKeyColumn: Int?
    /// The row layout of the stored columns.
    package let layout: RowLayout
    /// Column index by name.
    package let columnIndex: [String: Int]
    /// The tree of the table's clusters (`c:<Table>`).
    package let objectTree: String
    /// The tree of one row per object that files written before clusters have (`o:<Table>`).
    package let legacyRowTree: String
    package let primaryKeyTree: String
    package let backlinkTree: String
    /// Columns with a secondary index tree, in order (computed once: an insert walks these
    /// instead of copying every column's description).
    let indexedColumns: [Int]
    /// Columns whose values must fit an index key: indexed ones, and a primary key kept in a
    /// primary-key tree.
    let indexKeyColumns: [Int]
    /// To-one link columns.
    let linkColumns: [Int]
    /// Per column: fixed-width, stored in the row, without an index tree, links or key role, so
    /// that setting it is a patch of its slot (`StoreTransaction.set`'s one-descent path; read
    /// from here instead of copying the column's description, which retains its strings).
    let plainFixed: [Bool]
    /// Per column: whether it may hold null.
    let nullable: [Bool]

    package init(name: String, isEmbedded: Bool = false, columns: [StoreColumn]) {
        self.name = name
        self.isEmbedded = isEmbedded
        self.columns = columns
        let pk = columns.firstIndex(where: \.isPrimaryKey)
        self.primaryKeyColumn = pk
        self.layout = RowLayout(
            columns: columns, primaryKeyIsObjectKey: pk.map { columns[$0].type == .int } ?? false ? pk : nil)
        var index: [String: Int] = [:]
        for (i, c) in columns.enumerated() { index[c.name] = i }
        self.columnIndex = index
        self.objectTree = "c:" + name
        self.legacyRowTree = "o:" + name
        self.primaryKeyTree = "p:" + name
        self.backlinkTree = "b:" + name
        let pkIsObjectKey = layout.keyColumn != nil
        indexedColumns = columns.indices.filter { columns[$0].hasIndexTree }
        indexKeyColumns = columns.indices.filter {
            columns[$0].hasIndexTree || (columns[$0].isPrimaryKey && !pkIsObjectKey)
        }
        linkColumns = columns.indices.filter { columns[$0].type == .link }
        plainFixed = columns.map { c in
            !c.isVariable && c.isStored && !c.hasIndexTree && c.type != .link && !c.isPrimaryKey
        }
        nullable = columns.map(\.isNullable)
    }

    /// Whether the object key is the `Int` primary key itself (no primary-key tree).
    package var primaryKeyIsObjectKey: Bool { layout.keyColumn != nil }

    /// The secondary index tree of column `i`.
    package func indexTree(_ i: Int) -> String { "i:" + name + ":" + columns[i].name }

    /// The encoding of this table's schema in the `s:` tree (FORMAT.md, "Schema catalog").
    package func encoded() -> [UInt8] {
        var out: [UInt8] = [1, isEmbedded ? 1 : 0]
        appendU16(UInt16(columns.count), &out)
        for c in columns {
            appendString(c.name, &out)
            out.append(c.type.rawValue)
            out.append(c.collection.rawValue)
            var flags: UInt8 = 0
            if c.isNullable { flags |= 1 }
            if c.isPrimaryKey { flags |= 2 }
            if c.isIndexed { flags |= 4 }
            out.append(flags)
            appendString(c.targetTable ?? "", &out)
            appendString(c.originProperty ?? "", &out)
        }
        return out
    }

    /// Decodes a table stored by `encoded()`; nil when the bytes are not a table record.
    package static func decode(name: String, _ bytes: UnsafeRawBufferPointer) -> StoreTable? {
        var r = ByteReader(bytes)
        guard let version = r.u8(), version == 1, let embedded = r.u8(), let count = r.u16() else { return nil }
        var columns: [StoreColumn] = []
        for _ in 0..<count {
            guard let cname = r.string(), let t = r.u8(), let type = ColumnType(rawValue: t),
                let k = r.u8(), let coll = CollectionKind(rawValue: k), let flags = r.u8(),
                let target = r.string(), let origin = r.string()
            else { return nil }
            columns.append(
                StoreColumn(
                    name: cname, type: type, collection: coll, isNullable: flags & 1 != 0,
                    isPrimaryKey: flags & 2 != 0, isIndexed: flags & 4 != 0,
                    targetTable: target.isEmpty ? nil : target,
                    originProperty: origin.isEmpty ? nil : origin))
        }
        return StoreTable(name: name, isEmbedded: embedded == 1, columns: columns)
    }

    /// Whether `other` stores rows the same way (same columns, types and indexes, in order).
    package func sameShape(as other: StoreTable) -> Bool {
        isEmbedded == other.isEmbedded && columns == other.columns
    }
}
