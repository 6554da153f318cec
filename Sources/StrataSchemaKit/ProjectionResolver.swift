/// Checks projections against the models of the target and finds the path of persisted
/// properties each projected property reads.
package enum ProjectionResolver {
    /// The projections with their origins, and the problems found. A projection of a class
    /// that is not a model of the target (a model of another module) is taken as written: its
    /// origin is its key path without `projectTo`.
    package static func resolve(
        _ projections: [ProjectionDeclaration], models: [ResolvedModel]
    ) -> (projections: [ResolvedProjection], diagnostics: [SchemaDiagnostic]) {
        let modelsByName = Dictionary(models.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        var resolved: [ResolvedProjection] = []
        var diagnostics: [SchemaDiagnostic] = []
        for projection in projections {
            var properties: [ResolvedProjection.Property] = []
            for property in projection.properties {
                let components = property.components.filter { $0 != "projectTo" }
                guard var model = modelsByName[projection.rootName] else {
                    properties.append(
                        .init(
                            label: property.label, spelling: property.spelling,
                            origin: components.joined(separator: ".")))
                    continue
                }
                // Persisted properties from the root on, through links; the path stops at the
                // first component that is not one (a computed property of the value read).
                var origin: [String] = []
                for component in components {
                    guard let persisted = model.properties.first(where: { $0.name == component }) else { break }
                    origin.append(component)
                    guard let target = persisted.objectClassName.flatMap({ modelsByName[$0] }) else { break }
                    model = target
                }
                guard !origin.isEmpty else {
                    diagnostics.append(
                        SchemaDiagnostic(
                            at: property.location,
                            "the projected property '\(property.label)' of '\(projection.name)' must read a persisted property of \(projection.rootName), but '\(components.first ?? "")' is not one; project one of its @Persisted properties (or a path starting with one)"
                        ))
                    continue
                }
                properties.append(
                    .init(label: property.label, spelling: property.spelling, origin: origin.joined(separator: ".")))
            }
            resolved.append(
                ResolvedProjection(
                    qualifiedName: projection.qualifiedName, accessLevel: projection.accessLevel,
                    properties: properties))
        }
        return (resolved, diagnostics)
    }
}
