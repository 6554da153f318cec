internal import StrataCore

extension ObjectSchema {
    /// The schema a stored table describes: the class as the file knows it, without its Swift
    /// declaration (so no default values, enum types or property mappings; each property's
    /// `swiftType` is the RealmSwift type that stores such a column).
    init(stored table: StoreTable) {
        self.init(
            className: table.name, kind: table.isEmbedded ? .embedded : .object,
            properties: table.columns.map(Property.init(stored:)))
    }
}

extension Property {
    /// The property a stored column describes (see ``ObjectSchema/init(stored:)``).
    init(stored column: StoreColumn) {
        let type: PropertyType
        let element: String
        switch column.type {
        case .int: (type, element) = (.int, "Int")
        case .bool: (type, element) = (.bool, "Bool")
        case .float: (type, element) = (.float, "Float")
        case .double: (type, element) = (.double, "Double")
        case .string: (type, element) = (.string, "String")
        case .data: (type, element) = (.data, "Data")
        case .timestamp: (type, element) = (.date, "Date")
        case .objectId: (type, element) = (.objectId, "ObjectId")
        case .uuid: (type, element) = (.UUID, "UUID")
        case .decimal128: (type, element) = (.decimal128, "Decimal128")
        case .mixed: (type, element) = (.any, "AnyRealmValue")
        case .link: (type, element) = (.object, column.targetTable ?? "Object")
        case .linkingObjects: (type, element) = (.linkingObjects, column.targetTable ?? "Object")
        }
        let optional = column.isNullable && column.type != .mixed ? element + "?" : element
        let swiftType: String
        let collection: CollectionKind
        switch column.collection {
        case .none:
            collection = .none
            swiftType = column.type == .linkingObjects ? "LinkingObjects<\(element)>" : optional
        case .list: (collection, swiftType) = (.list, "List<\(optional)>")
        case .set: (collection, swiftType) = (.set, "MutableSet<\(optional)>")
        case .map: (collection, swiftType) = (.map, "Map<String, \(optional)>")
        }
        self.init(
            name: column.name, type: type, swiftType: swiftType, isOptional: column.isNullable,
            collection: collection,
            objectClassName: column.type == .link || column.type == .linkingObjects ? column.targetTable : nil,
            linkOriginPropertyName: column.originProperty, isPrimaryKey: column.isPrimaryKey,
            isIndexed: column.isIndexed)
    }
}
