import Foundation

/// Where each column of a table lives in a row (FORMAT.md, "Object rows").
///
/// ```
/// u16      n: the number of columns when the row was written (older rows may have fewer)
/// bitmap   ceil(n / 8) bytes, bit i set = column i is null
/// slots    one per column 0..<n, fixed size per type (ColumnType.slotSize); the Int primary key
///          and LinkingObjects have no slot (the key is the object key)
/// var area strings, data, AnyRealmValue and collections; their slots hold u32 offset, u32 length
/// ```
///
/// A fixed-width column is read at a constant offset, so a scan touches only the bytes it reads,
/// and an update of a fixed-width column rewrites its slot in place.
///
/// ## Concurrency
/// Immutable; `Sendable`.
package struct RowLayout: Sendable {
    /// Slot offset of each column, relative to the end of the bitmap.
    let slotOffsets: [Int]
    let slotSizes: [Int]
    let types: [ColumnType]
    /// Per column: list, set, map or none.
    let collections: [CollectionKind]
    let variable: [Bool]
    /// The column whose value is the object key (an `Int` primary key), if any.
    package let keyColumn: Int?
    /// The object key that stands for a nil key when `keyColumn` is an optional `Int` primary key
    /// (FORMAT.md, "Object keys"): `Int64.min`, so that the object with the nil key sorts first,
    /// as nil does. Nil when there is no key column or it is not optional.
    package let nullKey: Int64?
    package let columnCount: Int
    /// Offset of the first slot in a row with all `columnCount` columns.
    let fullHeader: Int
    /// How each column is laid out in a cluster (FORMAT.md, "Clusters").
    let clusterKinds: [ClusterColumnKind]
    /// The order of the column areas in a cluster: integer and fixed-width columns first, then
    /// variable-width ones, each in column order, so that a scan of fixed-width columns reads
    /// the front of each cluster.
    let areaOrder: [Int]

    init(columns: [StoreColumn], primaryKeyIsObjectKey keyColumn: Int?) {
        var offsets: [Int] = []
        var sizes: [Int] = []
        var o = 0
        for (i, c) in columns.enumerated() {
            offsets.append(o)
            let size = (i == keyColumn || !c.isStored) ? 0 : (c.isVariable ? 8 : c.type.slotSize)
            sizes.append(size)
            o += size
        }
        slotOffsets = offsets
        slotSizes = sizes
        types = columns.map(\.type)
        collections = columns.map(\.collection)
        variable = columns.map(\.isVariable)
        self.keyColumn = keyColumn
        nullKey = keyColumn.flatMap { columns[$0].isNullable ? Int64.min : nil }
        columnCount = columns.count
        fullHeader = 2 + (columns.count + 7) / 8
        clusterKinds = columns.enumerated().map { i, c in
            if i == keyColumn || !c.isStored { return .none }
            if c.isVariable { return .variable }
            return c.type == .int || c.type == .link ? .int : .fixed
        }
        let kinds = clusterKinds
        areaOrder =
            kinds.indices.filter { kinds[$0] == .int || kinds[$0] == .fixed }
            + kinds.indices.filter { kinds[$0] == .variable }
    }

    /// Bytes before the first slot in a row of `n` columns.
    @inline(__always)
    static func header(_ n: Int) -> Int { 2 + (n + 7) / 8 }
}
