import StrataQuery

/// A key path resolved against the schema, with what its values are.
struct QueryPath {
    /// The key path as written (`dogs.@avg.age`), for error messages.
    let text: String
    let hops: [QueryHop]
    /// The table the last component belongs to.
    let terminalTable: StoreTable
    /// The column of `terminalTable` the last component names.
    let terminalColumn: Int
    let aggregate: QueryAggregate?
    /// For `@min.age` and friends over links: the aggregated column of the linked objects.
    let aggregateTable: StoreTable?
    let aggregateColumn: Int?
    /// The type of each value the path produces (after any aggregate).
    let valueType: ColumnType
    /// For `.link` values: the table the links point into.
    let linkTarget: String?
    /// Whether a value can be null.
    let nullable: Bool
    /// Whether the path produces any number of values per object (it goes through a collection)
    /// rather than exactly one.
    let isMulti: Bool
    /// For a path ending in `@links.Class.property` (or `@links` alone): the origin tables and
    /// columns whose links to the terminal table's object are the path's values (`terminalColumn`
    /// is then unused).
    var terminalBacklinks: [(origin: StoreTable, column: String)]? = nil

    /// The column of the queried table itself when the path is one plain property with no link,
    /// collection or aggregate: the shape the fast paths and the index planner handle.
    var directColumn: Int? {
        guard hops.isEmpty, aggregate == nil, !isMulti else { return nil }
        return terminalColumn
    }

    /// The class of the values, or nil for `AnyRealmValue` (any class).
    var valueClass: QueryValueClass? {
        valueType == .mixed ? nil : QueryValueClass(valueType)
    }

    /// The values' type as error messages name it.
    var typeName: String { QueryPath.typeName(valueType, target: linkTarget) }

    static func typeName(_ type: ColumnType, target: String?) -> String {
        switch type {
        case .int: return "int"
        case .bool: return "bool"
        case .float: return "float"
        case .double: return "double"
        case .string: return "string"
        case .data: return "data"
        case .timestamp: return "date"
        case .objectId: return "ObjectId"
        case .uuid: return "UUID"
        case .decimal128: return "Decimal128"
        case .mixed: return "AnyRealmValue"
        case .link, .linkingObjects: return "'\(target ?? "?")' object"
        }
    }
}
