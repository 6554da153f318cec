internal import StrataCore

extension Realm {
    /// Where the objects of `LinkingObjects` property `index` of a managed object come from: the
    /// origin class's binding and the store's query source (the origin's link column by its
    /// stored name, as `propertiesMapping()` may rename it). Nil when the origin class is not in
    /// the realm's schema.
    func linkingObjectsSource(
        _ state: ManagedObjectState, _ index: Int
    ) -> (
        origin: TableBinding, source: StoreQuerySource
    )? {
        let property = state.binding.schema.properties[index]
        let stored = state.binding.table.columns[state.binding.columns[index]].originProperty
        guard let origin = property.objectClassName, let column = stored ?? property.linkOriginPropertyName,
            let originBinding = binding(named: origin) ?? bindingForName(origin, from: state.binding)
        else { return nil }
        return (
            originBinding,
            .backlinks(table: state.binding.table.name, key: state.key, originTable: origin, column: column)
        )
    }
}
