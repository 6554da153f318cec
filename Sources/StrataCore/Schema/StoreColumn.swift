/// One column of a table, as the object store stores it.
///
/// ## Concurrency
/// A plain value; `Sendable`.
package struct StoreColumn: Sendable, Hashable {
    package var name: String
    package var type: ColumnType
    package var collection: CollectionKind
    package var isNullable: Bool
    package var isPrimaryKey: Bool
    package var isIndexed: Bool
    /// The linked table for `.link` and `.linkingObjects`.
    package var targetTable: String?
    /// For `.linkingObjects`: the link column of `targetTable` this column inverts.
    package var originProperty: String?

    package init(
        name: String, type: ColumnType, collection: CollectionKind = .none, isNullable: Bool = false,
        isPrimaryKey: Bool = false, isIndexed: Bool = false, targetTable: String? = nil,
        originProperty: String? = nil
    ) {
        self.name = name
        self.type = type
        self.collection = collection
        self.isNullable = isNullable
        self.isPrimaryKey = isPrimaryKey
        self.isIndexed = isIndexed
        self.targetTable = targetTable
        self.originProperty = originProperty
    }

    /// Whether the value lives in the row's variable area.
    var isVariable: Bool {
        collection != .none || type == .string || type == .data || type == .mixed
    }

    /// Whether the column is kept in the row at all (`LinkingObjects` is not).
    package var isStored: Bool { type != .linkingObjects }

    /// Whether the column keeps a secondary index tree.
    package var hasIndexTree: Bool { isIndexed && !isPrimaryKey && collection == .none }

    /// The value a row without this column (written before the column was added) reads as.
    package var defaultValue: StoreValue {
        if collection == .list || collection == .set { return .list([]) }
        if collection == .map { return .map([:]) }
        if isNullable { return .null }
        switch type {
        case .int: return .int(0)
        case .bool: return .bool(false)
        case .float: return .float(0)
        case .double: return .double(0)
        case .string: return .string("")
        case .data: return .data([])
        case .timestamp: return .timestamp(seconds: 0, nanoseconds: 0)
        case .objectId: return .objectId([UInt8](repeating: 0, count: 12))
        case .uuid: return .uuid([UInt8](repeating: 0, count: 16))
        case .decimal128: return .decimal128([UInt8](repeating: 0, count: 16))
        case .mixed, .link, .linkingObjects: return .null
        }
    }
}
