internal import StrataCore

extension RealmFile {
    /// The binding through which `DynamicObject`s read `table`, made once per stored table
    /// (again when a schema change replaced the table). `model` is the schema of the model
    /// class bound to the table, if any, whose Swift property names the binding accepts too.
    func dynamicBinding(for table: StoreTable, model: ObjectSchema?) -> TableBinding {
        lock.lock()
        defer { lock.unlock() }
        if let b = dynamicBindings[table.name], b.table === table { return b }
        let b = TableBinding.dynamic(table, model: model)
        dynamicBindings[table.name] = b
        return b
    }
}
