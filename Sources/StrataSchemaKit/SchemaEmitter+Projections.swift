extension SchemaEmitter {
    /// The list of a projection's `@Projected` properties, as `Strata.Projection` reads it.
    static func emitProjection(_ projection: ResolvedProjection, into out: inout String) {
        let access = projection.accessLevel.map { "\($0) " } ?? ""
        let name = projection.qualifiedName
        out += "// MARK: \(name)\n\n"
        out += "extension \(name): Strata._ProjectionSchemaProviding {\n"
        out += "    \(access)static let _strataProjectedProperties: [Strata._ProjectedProperty] = [\n"
        for property in projection.properties {
            out += "        Strata._ProjectedProperty(\n"
            out +=
                "            label: \(literal(property.label)), projectionKeyPath: \\\(name).\(property.spelling),\n"
            out += "            origin: \(literal(property.origin))),\n"
        }
        out += "    ]\n"
        out += "}\n"
    }
}
