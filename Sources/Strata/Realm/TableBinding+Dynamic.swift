internal import StrataCore

extension TableBinding {
    /// A binding of stored table `table` for `DynamicObject`s: one property per column, in the
    /// stored order and named as stored, except that a property the model class `model` maps to
    /// another stored name (`propertiesMapping()`) is named as the model names it.
    static func dynamic(_ table: StoreTable, model: ObjectSchema?) -> TableBinding {
        var swiftNames: [String: String] = [:]
        for p in model?.properties ?? [] where p.columnName != p.name { swiftNames[p.columnName] = p.name }
        let properties = table.columns.map { column -> Property in
            let p = Property(stored: column)
            guard let name = swiftNames[column.name] else { return p }
            return Property(
                name: name, columnName: column.name, type: p.type, swiftType: p.swiftType, isOptional: p.isOptional,
                collection: p.collection, objectClassName: p.objectClassName,
                linkOriginPropertyName: p.linkOriginPropertyName, isPrimaryKey: p.isPrimaryKey,
                isIndexed: p.isIndexed)
        }
        let schema = ObjectSchema(
            className: table.name, kind: table.isEmbedded ? .embedded : .object, properties: properties)
        let getters: [(ObjectBase) -> PropertyValue] = properties.indices.map { i in
            if properties[i].type == .linkingObjects { return { _ in .linkingObjects } }
            return { object in
                guard let state = object._strataManaged else { return .null }
                return state.realm.propertyValue(state, i)
            }
        }
        return TableBinding(
            type: DynamicObject.self, schema: schema, table: table, columns: Array(table.columns.indices),
            make: { DynamicObject() }, getters: getters,
            setters: Array(repeating: nil, count: properties.count), bind: { _ in }, isDynamic: true)
    }

    /// The index of the property `name` names: by its name, or by the name it is stored under.
    func dynamicPropertyIndex(_ name: String) -> Int? {
        propertyIndexByName[name] ?? schema.properties.firstIndex { $0.columnName == name }
    }
}
