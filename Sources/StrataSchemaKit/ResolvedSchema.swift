/// The checked schema of one target, in declaration order (files sorted by name).
package struct ResolvedSchema: Sendable {
    package var models: [ResolvedModel]
    package var enums: [EnumDeclaration]
    package var projections: [ResolvedProjection] = []

    /// The models with each property named by its stored name: what the schema history records
    /// (storage follows the stored names; `propertiesMapping()` only changes the Swift side).
    package var withStoredNames: ResolvedSchema {
        var copy = self
        for m in copy.models.indices {
            for p in copy.models[m].properties.indices {
                copy.models[m].properties[p].name = copy.models[m].properties[p].columnName
            }
        }
        return copy
    }

    /// The models deriving (directly or not) from model `name`, in declaration order.
    package func subclasses(of name: String) -> [ResolvedModel] {
        var result: [ResolvedModel] = []
        var frontier: Set<String> = [name]
        var changed = true
        while changed {
            changed = false
            for model in models where model.superclass.map(frontier.contains) == true && !frontier.contains(model.name)
            {
                frontier.insert(model.name)
                changed = true
            }
        }
        for model in models where model.name != name && frontier.contains(model.name) { result.append(model) }
        return result
    }
}
